"""Card meaning by game phase: what a stable set of cards turns into, and what it must not."""

from __future__ import annotations

from itertools import combinations_with_replacement
from pathlib import Path

import pytest

from companion.errors import RuleError
from companion.game import Game
from companion.moves import (
    EndGame,
    Island,
    NewGame,
    RedBonus,
    Reveal,
    SetupCard,
    Sight,
    SoloKeep,
    Terrain,
    parse_line,
)
from hardware.meaning import (
    CardSense,
    NextStep,
    blue_card_letter,
    deck_problem,
    next_step,
    possible_reveals,
    red_card_sight,
    setup_card_letters,
)

D, F, M, W, A = Terrain.DESERT, Terrain.FOREST, Terrain.MOUNTAIN, Terrain.WATER, Terrain.ANY


@pytest.mark.parametrize(
    ("card", "letters"),
    [("setup-01", "CEBAEDCDAB"), ("setup-13", "BACBDCEAED"), ("setup-14", None), ("setup-x", None), ("desert", None)],
)
def test_setup_card_letters(card, letters):
    assert setup_card_letters(card) == letters


@pytest.mark.parametrize(
    ("card", "sight"), [("red-yeti", Sight.YETI), ("red-sea_monster", Sight.SEA_MONSTER), ("red-cat", None), ("yeti", None)]
)
def test_red_card_sight(card, sight):
    assert red_card_sight(card) == sight


@pytest.mark.parametrize(("card", "letter"), [("blue-A1", "A"), ("blue-E2", "E"), ("blue-", None), ("red-A1", None)])
def test_blue_card_letter(card, letter):
    assert blue_card_letter(card) == letter


def test_two_cards_in_one_frame_make_one_reveal(log):
    sense = CardSense()
    state = log(players=["Mary", "David"]).setup().state
    reading = sense.see(("desert", "water"), state)
    assert reading.submit == [Reveal((D, W))]
    assert reading.pending is None


def test_two_cards_one_after_the_other_make_one_reveal(log):
    sense = CardSense()
    state = log(players=["Mary"]).setup().state
    first = sense.see(("forest",), state)
    assert first.submit == [] and sense.first is F
    second = sense.see(("forest", "mountain"), state)
    assert second.submit == [Reveal((F, M))]
    assert sense.first is None


def test_first_card_may_leave_before_the_second_is_shown(log):
    """Cards shown one at a time under the camera (a scanning slot) still pair up."""
    sense = CardSense()
    state = log(players=["Mary"]).setup().state
    sense.see(("water",), state)
    assert sense.see((), state).submit == []
    assert sense.see(("water",), state).submit == [Reveal((W, W))]


def test_a_counted_card_is_not_counted_again_while_it_stays(log):
    sense = CardSense()
    state = log(players=["Mary"]).setup().state
    assert sense.see(("desert", "water"), state).submit == [Reveal((D, W))]
    # The voter reports the same cards again (and in another order): nothing new.
    assert sense.see(("water", "desert"), state).submit == []
    assert sense.see(("desert", "water"), state).submit == []
    # One card removed and a new one laid: only the new one counts.
    assert sense.see(("desert",), state).submit == []
    assert sense.see(("desert", "forest"), state).submit == []
    assert sense.first is F


def test_same_terrain_twice_in_one_frame_counts_twice(log):
    sense = CardSense()
    state = log(players=["Mary"]).setup().state
    assert sense.see(("desert", "desert"), state).submit == [Reveal((D, D))]


def test_a_card_that_left_counts_again_when_it_comes_back(log):
    sense = CardSense()
    state = log(players=["Mary"]).setup().state
    sense.see(("any", "any"), state)
    sense.see((), state)
    assert sense.see(("any", "desert"), state).submit == [Reveal((A, D))]


def test_reveal_the_deck_cannot_hold_is_pending_not_submitted(log):
    game = log(players=["Mary"]).setup().reveal("water", "water").reveal("water", "water")
    sense = CardSense()
    reading = sense.see(("water", "desert"), game.state)
    assert reading.submit == []
    assert reading.pending is not None
    assert reading.pending.entry == Reveal((W, D))
    assert "water" in reading.pending.reason


def test_deck_problem_uses_a_full_deck_when_a_round_starts(log):
    game = log(players=["Mary"]).setup().to_round_end()
    assert game.state.turn == 13
    assert game.state.deck_left[W] == 0
    assert deck_problem((W, W), game.state) is None  # the next reveal opens round 2


def test_setup_card_read_once_in_setup(log):
    sense = CardSense()
    state = log(players=["Mary", "David"]).state
    assert sense.see(("setup-07",), state).submit == [SetupCard("BDCAEBEDCA")]
    after = log(players=["Mary", "David"]).setup("BDCAEBEDCA").state
    sense.see((), after)
    assert sense.see(("setup-07",), after).submit == []


def test_red_bonus_waits_for_as_many_cards_as_players_need(log):
    state = log(players=list("ABCDE"), special_bonus=True).setup().state
    sense = CardSense()
    assert sense.see(("red-yeti",), state).submit == []
    assert sense.see(("red-yeti", "red-book"), state).submit == [RedBonus((Sight.YETI, Sight.BOOK))]


def test_red_cards_without_the_variant_are_ignored(log):
    state = log(players=["Mary", "David"]).setup().state
    reading = CardSense().see(("red-yeti",), state)
    assert reading.submit == [] and "ignored" in reading.note


def test_solo_keep_reads_two_blue_cards(log):
    game = log(players=["Solo"]).setup().to_round_end()
    assert game.state.needs_solo_keep
    sense = CardSense()
    assert sense.see(("blue-C2",), game.state).submit == []
    assert sense.see(("blue-C2", "blue-A2"), game.state).submit == [SoloKeep(("C", "A"))]


def test_nothing_means_anything_without_a_game(log):
    from companion.game import Game

    reading = CardSense().see(("desert", "water"), Game().state)
    assert reading.submit == [] and reading.pending is None


def test_cards_held_while_the_mayor_decides_are_read_later(log):
    state = log(players=["Mary"]).setup().state
    sense = CardSense()
    assert sense.see(("desert", "water"), state, hold_new=True).submit == []
    assert sense.see(("desert", "water"), state).submit == [Reveal((D, W))]


# --- what the game waits for, checked against the engine ----------------------------------------
ROUND = [(D, W), (D, D), (D, D), (D, D), (D, F), (F, F), (F, F), (F, F), (M, M), (M, M), (M, M), (W, W), (W, A)]
DATA = Path(__file__).resolve().parents[1] / "data"


def _solo_special_bonus_log() -> list:
    """A solo Grande game with the Special Bonus: red cards, two rounds, the solo keep, the last round."""
    log = [NewGame(players=("Ana",), island=Island.GRANDE, special_bonus=True),
           SetupCard(letters="CEBAEDCDAB"), RedBonus(sights=(Sight.YETI,))]
    for round_number in (1, 2, 3):
        if round_number == 3:
            log.append(SoloKeep(letters=("A", "C")))
        log += [Reveal(cards=pair) for pair in ROUND]
    return log + [EndGame()]


def _prefixes():
    """Every state along real logs: the rulebook examples and a solo Special Bonus game."""
    for path in sorted(DATA.glob("*.jsonl")):
        entries = [parse_line(line) for line in path.read_text().splitlines() if line.strip()]
        yield from ((path.name, entries[:n]) for n in range(len(entries) + 1))
    entries = _solo_special_bonus_log()
    yield from (("solo", entries[:n]) for n in range(len(entries) + 1))


def _reveals_the_engine_takes(game: Game) -> set[tuple[Terrain, Terrain]]:
    taken = set()
    for pair in combinations_with_replacement(Terrain, 2):
        try:
            game.apply(Reveal(cards=pair))
        except RuleError:
            continue
        taken.add(pair)
    return taken


def test_the_next_step_and_the_possible_reveals_are_what_the_engine_accepts():
    steps = set()
    for name, entries in _prefixes():
        game = Game.replay(entries)
        step = next_step(game.state)
        steps.add(step)
        taken = _reveals_the_engine_takes(game)
        if step is NextStep.REVEAL:
            assert set(possible_reveals(game.state)) == taken, (name, len(entries))
        elif step is not NextStep.SETUP_CARD:  # the engine takes a reveal before the card; the console does not
            assert taken == set(), (name, len(entries), step)
    assert steps == set(NextStep)  # every step was met on the way


@pytest.mark.parametrize(
    ("entries", "step"),
    [
        ([], NextStep.NO_GAME),
        ([NewGame(players=("Mary", "David"))], NextStep.SETUP_CARD),
        ([NewGame(players=("Mary", "David"), special_bonus=True), SetupCard(letters="CEBAEDCDAB")],
         NextStep.RED_BONUS),
        ([NewGame(players=("Mary", "David")), SetupCard(letters="CEBAEDCDAB")], NextStep.REVEAL),
        ([NewGame(players=("Mary", "David")), SetupCard(letters="CEBAEDCDAB"),
          *(Reveal(cards=pair) for pair in ROUND * 2)], NextStep.END_GAME),
        ([NewGame(players=("Ana",)), SetupCard(letters="CEBAEDCDAB"), *(Reveal(cards=pair) for pair in ROUND)],
         NextStep.SOLO_KEEP),
    ],
)
def test_next_step(entries, step):
    assert next_step(Game.replay(entries).state) is step
