"""Undo takes back the latest entry that is not an undo; several undos walk back further."""

from __future__ import annotations

from companion.events import Undone
from companion.moves import Claim, Sight


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


def test_the_state_says_what_an_undo_would_take_back(log):
    """undoable names the newest standing entry, walks back with each undo, and is None at the ends."""
    builder = log(players=["Léa", "Tom"]).setup().reveal().claim("Léa", sight="toucan")
    assert builder.state.undoable == Claim(player="Léa", sight=Sight.TOUCAN)
    builder.add({"type": "undo"})
    assert builder.state.undoable == builder.entries[2]  # the reveal
    builder.add({"type": "undo"}).add({"type": "undo"})
    assert builder.state.undoable is None  # only new_game is left: nothing to undo


def test_the_game_lists_the_entries_undo_took_back(log):
    """undone() gives the log positions of the entries taken back, never the undo entries themselves."""
    builder = log(players=["Léa", "Tom"]).setup().reveal().claim("Léa", village="A")
    builder.add({"type": "undo"}).claim("Tom", village="B").add({"type": "undo"}).add({"type": "undo"})
    assert builder.game.undone() == frozenset({4, 6, 3})


def test_nothing_is_undoable_once_the_game_ended(log):
    """After end_game the state offers no undo: the console hides the button."""
    builder = log(players=["Léa"]).setup()
    for _ in range(2):
        builder.to_round_end()
        if builder.state.needs_solo_keep:
            builder.add({"type": "solo_keep", "letters": ["A", "C"]})
    builder.end()
    assert builder.state.undoable is None


def test_undo_takes_back_a_trail_with_the_pair_and_the_card_it_took(log):
    """Undoing the segment that joined E-E takes back the pair, its points and the blue card."""
    game = log(players=["Mary", "David"]).setup("ABCDEEDCBA").draw("Mary", (9, 9), (8, 10), (8, 12))
    assert game.state.blue["E"] == () and game.state.sheets["Mary"].villages == ("E",)
    game.add({"type": "undo"})
    mary = game.state.sheets["Mary"]
    assert game.state.blue["E"] == (7,) and mary.villages == () and mary.bonus == 0
    assert len(mary.drawing.segments) == 1 and not mary.drawing.has_drawn(game.state.reveals)
    game.trail("Mary", (8, 10), (8, 12))
    assert game.state.sheets["Mary"].villages == ("E",)


def test_undo_of_a_first_trail_leaves_the_seat_free_to_play_on_paper(log):
    """A seat whose only trail is undone is undecided again: a claim makes it a paper seat."""
    game = log(players=["Mary"]).setup().reveal("desert", "forest").trail("Mary", (3, 1), (3, 3))
    game.add({"type": "undo"}).claim("Mary", sight="yeti")
    assert game.state.sheets["Mary"].mode.value == "paper"


def test_undo_of_a_bonus_segment_gives_the_bonus_back(log):
    """An undone bonus segment may be drawn again, elsewhere, in the same turn."""
    game = log(players=["Adam"]).setup().draw("Adam", (2, 10), (2, 12), (1, 13))
    game.draw("Adam", (7, 9), (7, 11), (8, 12)).trail("Adam", (5, 3), (5, 5), bonus=True)
    game.add({"type": "undo"})
    assert game.state.sheets["Adam"].drawing.bonus_left(game.state.reveals) == 1
    game.trail("Adam", (8, 12), (8, 14), bonus=True)
