"""One scenario test per example of the rulebook (English, 001_fa213a70886ec8a6.txt)."""

from __future__ import annotations

import pytest

from companion.errors import RuleError
from companion.events import BonusKind, BonusTaken, Claimed
from companion.rules import Achievement

FIVE = ["Mary", "David", "Alice", "Adam", "Lin"]


def _bonus(builder, player):
    return [b.points for b in builder.state.bonus_taken if b.player == player]


def test_mary_and_david_share_the_d_bonus_then_alice_takes_the_second_card(log):
    """CONNECTING VILLAGES: Mary and David join D-D in one turn (6 each); later Alice gets 4."""
    game = log(players=FIVE).setup().reveal()
    game.claim("Mary", village="D").claim("David", village="D")
    assert _bonus(game, "Mary") == [6] and _bonus(game, "David") == [6]
    assert game.state.blue["D"] == (4,), "the top card is discarded, the #2 card is left"
    game.reveal().claim("Alice", village="D")
    assert _bonus(game, "Alice") == [4]
    assert game.state.blue["D"] == ()
    game.reveal().claim("Adam", village="D")
    assert _bonus(game, "Adam") == [], "no card left: Adam scores the pair only"
    adam = next(p for p in game.state.standings.players if p.name == "Adam")
    assert (adam.villages, adam.bonus) == (11, 0)


def test_alice_scores_78(log):
    """GAME END: sights 10 after round 1 and 22 after round 2, villages A, B, D (38), bonus 8."""
    game = log(players=FIVE).setup().reveal()
    # The others take the #1 cards first, so Alice gets the #2 cards: A 2 + B 2 + D 4 = 8.
    game.claim("Mary", village="A").claim("David", village="B").claim("Lin", village="D")
    game.reveal()
    for sight in ("obelisk", "book", "toucan", "yeti", "obelisk"):  # 1 + 2 + 2 + 3 + 2 = 10
        game.claim("Alice", sight=sight)
    game.claim("Alice", village="A").claim("Alice", village="B").claim("Alice", village="D")
    game.to_round_end().reveal()
    for sight in ("sea_monster", "sea_monster", "toucan"):  # 4 + 5 + 3 = 12 more: 22
        game.claim("Alice", sight=sight)
    game.to_round_end().end()
    alice = next(p for p in game.state.standings.players if p.name == "Alice")
    assert alice.sights_by_round == (10, 22)
    assert (alice.villages, alice.bonus, alice.total) == (38, 8, 78)
    assert alice.achievement is Achievement.DINNER
    assert game.state.standings.winners == ("Alice",)


def test_adam_joins_both_obelisks_and_draws_a_bonus_segment(log):
    """CONNECTING SIGHTS: the first obelisk circles 1, the second circles 2 and gives a bonus segment."""
    game = log(players=["Adam", "Mary"]).setup().reveal().claim("Adam", sight="obelisk")
    assert game.events == [Claimed("Adam", 1, sight=_obelisk(), bonus_segment=False)]
    game.reveals(3).claim("Adam", sight="obelisk")
    assert game.events == [Claimed("Adam", 2, sight=_obelisk(), bonus_segment=True)]
    with pytest.raises(RuleError, match="Isla Petit"):
        game.claim("Adam", sight="obelisk")


def test_mary_isla_grande_sights_8_24_33_with_a_bonus_segment_on_the_third_yeti(log):
    """VARIANT ISLA GRANDE: Mary scores 8, 24 and 33 for sights; the 3rd yeti gives a bonus segment."""
    game = log(players=["Mary", "David"], island="grande").setup().reveal()
    for sight in ("yeti", "sea_monster", "obelisk"):  # 3 + 4 + 1 = 8
        game.claim("Mary", sight=sight)
    game.to_round_end().reveal()
    for sight in ("sea_monster", "sea_monster", "yeti", "book"):  # 5 + 5 + 4 + 2 = 16 more
        game.claim("Mary", sight=sight)
    game.to_round_end().reveal()
    game.claim("Mary", sight="toucan").claim("Mary", sight="toucan")  # 2 + 3
    game.claim("Mary", sight="yeti")  # the 3rd yeti: 4, and a bonus trail segment
    assert game.events[-1].bonus_segment is True and game.events[-1].points == 4
    game.to_round_end().end()
    mary = game.state.standings.players[0]
    assert mary.sights_by_round == (8, 24, 33)
    assert game.state.standings.finished


def test_alice_and_adam_both_take_the_yeti_red_bonus_in_one_turn(log):
    """VARIANT SPECIAL BONUS: Alice and Adam join two yetis in the same turn: 6 each, card discarded."""
    game = log(players=["Alice", "Adam", "Mary"], special_bonus=True).setup()
    game.add({"type": "red_bonus", "sights": ["yeti"]}).reveal()
    game.claim("Alice", red="yeti").claim("Adam", red="yeti")
    taken = [b for b in game.state.bonus_taken if b.kind is BonusKind.RED]
    assert [(b.player, b.points) for b in taken] == [("Alice", 6), ("Adam", 6)]
    assert game.state.red == {}
    game.reveal().claim("Mary", red="yeti")
    assert [b.player for b in game.state.bonus_taken] == ["Alice", "Adam"]


def test_village_letters_mayor_starts_at_village_1_second_player_at_village_2(log):
    """PREPARATIONS: the Mayor writes the first letter at village 1, the second player at village 2."""
    game = log(players=["Mary", "David"]).setup("DCEABBACDE")
    letters = game.state.village_letters
    assert letters["Mary"] == "DCEABBACDE"
    assert letters["David"][1] == "D" and letters["David"][2] == "C" and letters["David"][0] == "E"


def test_solo_keeps_two_blue_cards_for_the_last_round(log):
    """SOLO GAME: #2 cards only; after round 1 on Isla Petit, 2 of the remaining cards stay."""
    game = log(players=["Kari"]).setup()
    assert game.state.blue == {"A": (2,), "B": (2,), "C": (3,), "D": (4,), "E": (5,)}
    game.reveal().claim("Kari", village="E")
    assert _bonus(game, "Kari") == [5]
    game.to_round_end()
    assert game.state.needs_solo_keep
    with pytest.raises(RuleError, match="solo_keep"):
        game.reveal()
    game.add({"type": "solo_keep", "letters": ["A", "C"]})
    assert game.state.blue == {"A": (2,), "B": (), "C": (3,), "D": (), "E": ()}
    game.reveal().claim("Kari", village="D").claim("Kari", village="C")
    assert _bonus(game, "Kari") == [5, 3], "D was returned to the box; C stayed"


def test_solo_rare_case_three_cards_won_keeps_every_remaining_card(log):
    """SOLO rare case: with 3 blue cards won before the last round, nothing is shuffled away."""
    game = log(players=["Kari"]).setup().reveal()
    for letter in "ABC":
        game.claim("Kari", village=letter)
    game.to_round_end()
    assert not game.state.needs_solo_keep
    with pytest.raises(RuleError, match="every remaining card stays"):
        game.add({"type": "solo_keep", "letters": ["D", "E"]})
    game.reveal().claim("Kari", village="E")
    assert _bonus(game, "Kari") == [2, 2, 3, 5]


def _obelisk():
    from companion.moves import Sight

    return Sight.OBELISK


def test_bonus_taken_event_names_round_and_turn(log):
    """A blue bonus payout says who, which card, how much, and when."""
    game = log(players=["Mary", "David"]).setup().reveals(3).claim("David", village="B")
    assert game.events[-1] == BonusTaken("David", BonusKind.BLUE, "B", 4, 1, 3)
