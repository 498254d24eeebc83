"""Rules as data: set-up cards, village letters with every set-up option, ranks and achievements."""

from __future__ import annotations

import pytest

from companion.moves import LETTERS, Direction, Island
from companion.rules import (
    SETUP_CARDS,
    Achievement,
    achievement,
    blue_stacks,
    red_card_count,
    setup_card_number,
    village_letters,
)
from companion.scoring import rank

CARD = "CEBAEDCDAB"  # set-up card 1


def test_every_setup_card_holds_each_letter_twice_and_all_differ():
    """The 13 printed set-up cards are valid and distinct."""
    assert len(SETUP_CARDS) == 13
    for letters in SETUP_CARDS.values():
        assert sorted(letters) == sorted(LETTERS * 2)
    assert len(set(SETUP_CARDS.values())) == 13
    assert setup_card_number("DBACECDAEB") == 10 and setup_card_number("ABCDEABCDE") is None


@pytest.mark.parametrize(
    ("seat", "start", "direction", "symmetric", "expected"),
    [
        (1, 1, Direction.CLOCKWISE, False, "CEBAEDCDAB"),  # the Mayor writes from village 1
        (2, 1, Direction.CLOCKWISE, False, "BCEBAEDCDA"),  # player 2 starts at village 2
        (3, 1, Direction.CLOCKWISE, False, "ABCEBAEDCD"),
        (1, 4, Direction.CLOCKWISE, False, "DABCEBAEDC"),  # random start: the Mayor at village 4
        (2, 4, Direction.CLOCKWISE, False, "CDABCEBAED"),  # ... player 2 at village 5
        (8, 4, Direction.CLOCKWISE, False, "CEBAEDCDAB"),  # wraps: player 8 starts at village 1
        (1, 1, Direction.COUNTERCLOCKWISE, False, "CBADCDEABE"),  # village 10 gets the 2nd letter
        (2, 1, Direction.COUNTERCLOCKWISE, False, "ECBADCDEAB"),
        (5, 3, Direction.CLOCKWISE, True, "ABCEBAEDCD"),  # symmetry: everyone writes like the Mayor
        (5, 3, Direction.COUNTERCLOCKWISE, True, "BECBADCDEA"),
    ],
)
def test_village_letters(seat, start, direction, symmetric, expected):
    """Each player's letters at villages 1..10 for every set-up option."""
    got = village_letters(CARD, seat, start_village=start, direction=direction, symmetric=symmetric)
    assert got == expected
    first = start if symmetric else (start - 1 + seat - 1) % 10 + 1
    assert got[first - 1] == CARD[0], "the red letter goes to the player's start village"


@pytest.mark.parametrize(
    ("players", "stacks"),
    [
        (1, {"A": (2,), "B": (2,), "C": (3,), "D": (4,), "E": (5,)}),
        (2, {"A": (3,), "B": (4,), "C": (5,), "D": (6,), "E": (7,)}),
        (4, {"A": (3,), "B": (4,), "C": (5,), "D": (6,), "E": (7,)}),
        (5, {"A": (3, 2), "B": (4, 2), "C": (5, 3), "D": (6, 4), "E": (7, 5)}),
        (8, {"A": (3, 2), "B": (4, 2), "C": (5, 3), "D": (6, 4), "E": (7, 5)}),
    ],
)
def test_blue_stacks_by_player_count(players, stacks):
    """Solo: #2 cards; 2-4: #1 cards; 5-8: #1 on top of #2."""
    assert blue_stacks(players) == stacks


@pytest.mark.parametrize(("players", "count"), [(1, 1), (2, 1), (4, 1), (5, 2), (8, 2)])
def test_red_card_count(players, count):
    """1 red bonus card up to 4 players, 2 from 5."""
    assert red_card_count(players) == count


@pytest.mark.parametrize(
    ("scores", "ranks"),
    [
        ([(78, 8), (70, 20)], [1, 2]),
        ([(70, 8), (70, 12)], [2, 1]),  # a tie on total goes to more bonus points
        ([(70, 8), (70, 8), (60, 0)], [1, 1, 3]),  # still tied: shared, the next rank skipped
        ([(50, 0), (70, 8), (70, 8), (70, 9)], [4, 2, 2, 1]),
        ([(0, 0)], [1]),
    ],
)
def test_rank(scores, ranks):
    """Competition ranking on (total, bonus)."""
    assert rank(scores) == ranks


@pytest.mark.parametrize(
    ("island", "total", "expected"),
    [
        (Island.PETIT, 49, None),
        (Island.PETIT, 50, Achievement.YETI),
        (Island.PETIT, 78, Achievement.DINNER),
        (Island.PETIT, 100, Achievement.TOO_GOOD),
        (Island.PETIT, 140, Achievement.TOO_GOOD),
        (Island.GRANDE, 109, None),
        (Island.GRANDE, 125, Achievement.BEACH),
        (Island.GRANDE, 184, Achievement.SEA_MONSTERS),
        (Island.GRANDE, 185, Achievement.TOO_GOOD),
    ],
)
def test_achievement(island, total, expected):
    """The achievement table of the rulebook."""
    assert achievement(island, total) is expected


def test_shared_victory_when_total_and_bonus_tie(log):
    """Two players with equal totals and bonus share the victory."""
    game = log(players=["Mary", "David", "Alice"]).setup().reveal()
    game.claim("Mary", sight="yeti").claim("David", sight="yeti")
    for _ in range(2):
        game.to_round_end()
    game.end()
    standings = game.state.standings
    assert standings.winners == ("Mary", "David")
    assert [p.rank for p in standings.players] == [1, 1, 3]
    assert standings.to_json()["players"][0] == {
        "name": "Mary", "sights_by_round": [3, 3], "villages": 0, "bonus": 0, "total": 6, "rank": 1,
    }
