"""The rulebook's examples played on the digital island sheet: trails drawn, claims derived.

Spaces are [row, column] of facts/tucana.md's maps. Village letters come from the set-up card:
with "ABCDEEDCBA" the Mayor writes E at villages 5 and 6, A at villages 1 and 10.
"""

from __future__ import annotations

import pytest

from companion.errors import RuleError
from companion.events import BonusKind, Claimed, NothingToDraw, TrailDrawn
from companion.moves import Sight
from companion.sheet import SeatMode
from companion.trails import legal_edges, nothing_to_draw, waiting_for

MIRROR = "ABCDEEDCBA"  # a home-made set-up card: the Mayor's E pair is villages 5 and 6 (Petit)


def _claimed(builder) -> list[tuple]:
    """What the latest entry circled, as (player, points, sight, village, red, bonus segment)."""
    return [(e.player, e.points, e.sight, e.village, e.red, e.bonus_segment)
            for e in builder.events if isinstance(e, Claimed)]


def _drawn(builder) -> TrailDrawn:
    return next(e for e in builder.events if isinstance(e, TrailDrawn))


def _bonus(builder, player) -> list[int]:
    return [b.points for b in builder.state.bonus_taken if b.player == player]


def test_adam_joins_both_obelisks_and_draws_a_bonus_segment_between_two_mountains(log):
    """CONNECTING SIGHTS: 1 for the first obelisk; the second circles 2 and grants a bonus segment."""
    game = log(players=["Adam", "Mary"]).setup()
    game.draw("Adam", (2, 10), (2, 12))  # the obelisk, not yet joined to a village
    assert _claimed(game) == [] and game.state.sheets["Adam"].mode is SeatMode.SHEET
    game.draw("Adam", (2, 12), (1, 13))  # ... now joined to village 2
    assert _claimed(game) == [("Adam", 1, Sight.OBELISK, None, None, False)]
    game.draw("Adam", (7, 9), (7, 11), (8, 12))  # later: the other obelisk to village 5
    assert _claimed(game) == [("Adam", 2, Sight.OBELISK, None, None, True)]
    assert _drawn(game).bonus_due == 1 and waiting_for(game.state) == ("Adam",)
    assert len(legal_edges(game.state, "Adam")) == 186 - 4, "a bonus segment goes on any free edge"
    game.trail("Adam", (5, 3), (5, 5), bonus=True)  # mountain to mountain, in the same turn
    assert _drawn(game).bonus_due == 0 and waiting_for(game.state) == ()
    with pytest.raises(RuleError, match="no bonus segment"):
        game.trail("Adam", (5, 5), (5, 7), bonus=True)
    assert game.state.sheets["Adam"].sight_points_now == 3


def test_one_segment_joining_two_sights_scores_both(log):
    """Note: a segment that joins several sights to a village scores them all, together."""
    game = log(players=["Adam"]).setup()
    game.draw("Adam", (2, 6), (2, 8), (2, 10), (2, 12))  # toucan and obelisk on one trail
    assert game.state.sheets["Adam"].sight_points_now == 0
    game.draw("Adam", (2, 12), (1, 13))
    assert _claimed(game) == [("Adam", 1, Sight.OBELISK, None, None, False),
                              ("Adam", 2, Sight.TOUCAN, None, None, False)]


def test_a_chain_reaction_grants_a_second_bonus_segment_in_the_same_turn(log):
    """Chain reaction: a bonus segment that joins the second sight of another type grants another."""
    game = log(players=["Adam", "Mary"]).setup()
    game.draw("Adam", (2, 6), (2, 8), (2, 10), (2, 12), (1, 13))  # first toucan and obelisk
    game.draw("Adam", (6, 12), (7, 11))  # the second toucan, joined to nothing yet
    game.draw("Adam", (7, 9), (8, 10), (8, 12))  # the second obelisk reaches village 5
    assert _drawn(game).bonus_due == 1
    turn = game.state.reveals
    game.trail("Adam", (7, 9), (7, 11), bonus=True)  # joins the second toucan: a new bonus
    assert _claimed(game) == [("Adam", 3, Sight.TOUCAN, None, None, True)]
    assert _drawn(game).bonus_due == 1
    game.trail("Adam", (8, 12), (8, 14), bonus=True)
    assert _drawn(game).bonus_due == 0 and game.state.reveals == turn
    assert game.state.sheets["Adam"].sight_points_now == 1 + 2 + 2 + 3


def test_mary_joins_her_third_yeti_on_isla_grande_and_draws_at_once(log):
    """ISLA GRANDE: sights 8, 24 and 33 as in the rulebook; the 3rd yeti grants the bonus segment."""
    game = log(players=["Mary", "David"], island="grande").setup()
    game.draw("Mary", (11, 1), (11, 3), (12, 4))  # yeti: 3
    game.draw("Mary", (0, 14), (1, 13), (2, 12), (2, 10))  # sea monster: 4
    game.draw("Mary", (3, 13), (3, 11), (2, 10))  # obelisk: 1
    game.fill_round()
    game.draw("Mary", (7, 15), (7, 17))  # a yeti, not yet joined
    game.draw("Mary", (8, 6), (8, 4), (8, 2), (8, 0))  # sea monster: 5
    game.draw("Mary", (6, 12), (6, 14), (6, 16), (6, 18), (5, 19))  # 3rd sea monster: 5 + bonus
    assert _drawn(game).bonus_due == 1
    game.trail("Mary", (7, 17), (6, 18), bonus=True)  # the bonus joins the yeti: 4
    game.draw("Mary", (5, 15), (5, 17), (5, 19))  # book: 2
    game.fill_round()
    game.draw("Mary", (9, 15), (9, 17), (9, 19))  # toucan: 2
    game.draw("Mary", (4, 8), (3, 9), (2, 10))  # toucan: 3
    game.draw("Mary", (6, 8), (6, 10), (6, 12))  # the 3rd yeti: 4
    assert _claimed(game) == [("Mary", 4, Sight.YETI, None, None, True)]
    assert _drawn(game).bonus_due == 1 and waiting_for(game.state) == ("Mary",)
    game.trail("Mary", (12, 10), (12, 12), bonus=True)
    game.fill_round().end()
    mary = game.state.standings.players[0]
    assert mary.sights_by_round == (8, 24, 33)


def test_the_rare_case_nothing_is_left_for_the_revealed_pair(rare_case):
    """Rare case: every water-water edge is drawn, so water and water leaves Lin nothing to draw."""
    game = rare_case
    assert NothingToDraw("Lin", 2, 3, game.state.last_reveal.cards) in game.events
    assert nothing_to_draw(game.state, "Lin") and waiting_for(game.state) == ()
    assert legal_edges(game.state, "Lin") == ()
    with pytest.raises(RuleError, match="nothing to draw this turn: no water and water"):
        game.trail("Lin", (4, 4), (4, 6))
    with pytest.raises(RuleError, match="already drawn"):
        game.trail("Lin", (9, 15), (9, 13))


def test_a_sheet_seat_and_a_paper_seat_joining_e_in_one_turn_both_take_the_card(log):
    """CONNECTING VILLAGES: Mary (sheet) and David (paper) join E-E in the same turn: 7 each."""
    game = log(players=["Mary", "David", "Alice"]).setup(MIRROR)
    game.draw("Mary", (9, 9), (8, 10))
    game.claim("David", village="E")  # David's claim comes first this turn ...
    game.reveal_for((8, 10), (8, 12)).trail("Mary", (8, 10), (8, 12))  # ... a later turn for Mary
    assert _bonus(game, "David") == [7] and _bonus(game, "Mary") == []
    assert [c[3] for c in _claimed(game)] == ["E"], "the pair still scores its 10 points"


def test_a_sheet_seat_ties_with_a_paper_seat_in_the_same_turn(log):
    """The derived claim belongs to the segment's turn: a paper seat tapping later that turn ties."""
    game = log(players=["Mary", "David", "Alice"]).setup(MIRROR)
    game.draw("Mary", (9, 9), (8, 10), (8, 12))  # villages 6 and 5: E-E
    assert _claimed(game) == [("Mary", 10, None, "E", None, False)]
    game.claim("David", village="E")
    assert _bonus(game, "Mary") == [7] and _bonus(game, "David") == [7]
    assert game.state.blue["E"] == ()
    game.reveal().claim("Alice", village="E")
    assert _bonus(game, "Alice") == [], "the next turn the card is gone"


def test_alice_and_adam_both_join_two_yetis_in_one_turn_special_bonus(log):
    """SPECIAL BONUS: two sheet seats join a yeti to a yeti in the same turn: 6 each, then gone."""
    game = log(players=["Alice", "Adam", "Mary"], island="grande", special_bonus=True).setup()
    game.add({"type": "red_bonus", "sights": ["yeti"]})
    path = [(6, 8), (6, 10), (6, 12), (6, 14), (7, 15)]
    for start, end in zip(path, path[1:], strict=False):
        game.reveal_for(start, end).trail("Alice", start, end).trail("Adam", start, end)
    taken = [(b.player, b.points) for b in game.state.bonus_taken if b.kind is BonusKind.RED]
    assert taken == [("Alice", 6), ("Adam", 6)] and game.state.red == {}
    assert game.state.sheets["Alice"].reds == (Sight.YETI,)
    game.reveal().claim("Mary", red="yeti")
    assert _bonus(game, "Mary") == []


def test_solo_on_the_sheet_keeps_two_blue_cards_for_the_last_round(log):
    """SOLO GAME: #2 cards; after round 1 two cards stay; joined pairs pay while their card is there."""
    game = log(players=["Kari"]).setup(MIRROR)
    game.draw("Kari", (9, 9), (8, 10), (8, 12))  # E-E: 10 and the E #2 card, 5
    assert _bonus(game, "Kari") == [5]
    game.fill_round().add({"type": "solo_keep", "letters": ["A", "C"]})
    game.draw("Kari", (0, 8), (0, 6), (0, 4), (1, 3))  # villages 1 and 10: A-A, and the A card
    game.fill_round().end()
    kari = game.state.standings.players[0]
    assert (kari.villages, kari.bonus) == (10 + 14, 5 + 2)
    assert game.state.standings.finished
