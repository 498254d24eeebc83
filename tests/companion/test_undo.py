"""Undo takes back the latest entry that is not an undo; several undos walk back further."""

from __future__ import annotations

from companion.events import Undone
from companion.moves import Claim


def test_undo_takes_back_a_claim_and_its_bonus(log):
    """An undone village claim gives the blue card back to the table."""
    game = log(players=["Mary", "David"]).setup().reveal().claim("Mary", village="E")
    assert game.state.blue["E"] == ()
    game.add({"type": "undo"})
    assert game.events == [Undone(Claim("Mary", village="E"))]
    assert game.state.blue["E"] == (7,) and game.state.sheets["Mary"].villages == ()
    game.claim("David", village="E")
    assert [b.player for b in game.state.bonus_taken] == ["David"]


def test_two_undos_take_back_two_entries(log):
    """undo never undoes an undo: two in a row take back the two latest entries."""
    game = log(players=["Mary"]).setup().reveal("desert", "water").reveal("forest", "forest")
    game.add({"type": "undo"}).add({"type": "undo"})
    assert game.state.reveals == 0 and game.state.setup_letters == "CEBAEDCDAB"
    assert len(game.game) == 6


def test_undo_of_the_first_reveal_of_a_round_reopens_the_last_turn(log):
    """Undoing the reveal that closed round 1 takes back its sight sums too."""
    game = log(players=["Mary", "David"]).setup().reveal().claim("Mary", sight="yeti").to_round_end()
    game.reveal()
    assert game.state.sheets["Mary"].sights_by_round == (3,)
    game.add({"type": "undo"})
    assert game.state.sheets["Mary"].sights_by_round == () and game.state.is_last_turn
    game.claim("Mary", sight="book").reveal()
    assert game.state.sheets["Mary"].sights_by_round == (5,)
