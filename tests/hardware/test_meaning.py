"""Card meaning by game phase: what a stable set of cards turns into, and what it must not."""

from __future__ import annotations

import pytest

from companion.game import Game
from companion.moves import (
    RedBonus,
    Reveal,
    SetupCard,
    Sight,
    SoloKeep,
    Terrain,
)
from companion.rules import BLUE_CARDS, RED_POINTS, SETUP_CARDS
from hardware.meaning import CardSense, note
from vision.cards import BLUE_POINTS, SETUP_LETTERS, CardKind, card_face
from vision.cards import RED_POINTS as VISION_RED_POINTS

D, F, M, W, A = Terrain.DESERT, Terrain.FOREST, Terrain.MOUNTAIN, Terrain.WATER, Terrain.ANY


@pytest.mark.parametrize(
    ("card", "kind", "what"),
    [("setup-01", CardKind.SETUP, "CEBAEDCDAB"), ("setup-13", CardKind.SETUP, "BACBDCEAED"),
     ("red-yeti", CardKind.RED, "yeti"), ("red-sea_monster", CardKind.RED, "sea_monster"),
     ("blue-A1", CardKind.BLUE, "A"), ("blue-E2", CardKind.BLUE, "E"), ("any", CardKind.TERRAIN, "any")],
)
def test_card_ids_are_parsed_in_one_place(card, kind, what):
    """vision.cards.card_face says what every card ID shows: the scanner's meaning uses it."""
    face = card_face(card)
    assert face.kind is kind and what in (face.letters, face.sight, face.letter, face.terrain)


@pytest.mark.parametrize("card", ["setup-14", "setup-x", "red-cat", "blue-", "red-A1", "yeti", "Desert"])
def test_what_is_not_a_card_id_has_no_face(card):
    """Anything but a contract-2 card ID is not a card."""
    assert card_face(card) is None


def test_the_printed_cards_have_one_home():
    """vision reads the set-up cards and bonus points from the same data as the rules engine."""
    assert {int(c.split("-")[1]): letters for c, letters in SETUP_LETTERS.items()} == dict(SETUP_CARDS)
    assert dict(BLUE_CARDS) == BLUE_POINTS and VISION_RED_POINTS == RED_POINTS


def test_an_unknown_card_is_said_not_submitted(log):
    """A card the scanner does not know becomes a note for the console, never an entry."""
    state = log(players=["Mary", "David"]).setup().state
    reading = CardSense().see(("joker",), state)
    assert reading.submit == [] and reading.note == note("unknown_card", card="joker")


def test_two_cards_in_one_frame_make_one_reveal(log):
    """Two terrain cards seen together are submitted as one reveal."""
    sense = CardSense()
    state = log(players=["Mary", "David"]).setup().state
    reading = sense.see(("desert", "water"), state)
    assert reading.submit == [Reveal((D, W))]
    assert reading.pending is None


def test_two_cards_one_after_the_other_make_one_reveal(log):
    """A first card is held until a second appears, then both make one reveal."""
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
    """Cards that stay in view are not counted twice; only a newly laid card counts."""
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
    """Two cards of the same terrain seen at once make a reveal of that pair."""
    sense = CardSense()
    state = log(players=["Mary"]).setup().state
    assert sense.see(("desert", "desert"), state).submit == [Reveal((D, D))]


def test_a_card_that_left_counts_again_when_it_comes_back(log):
    """A card removed from view and laid again counts as a new card."""
    sense = CardSense()
    state = log(players=["Mary"]).setup().state
    sense.see(("any", "any"), state)
    sense.see((), state)
    assert sense.see(("any", "desert"), state).submit == [Reveal((A, D))]


def test_reveal_the_deck_cannot_hold_is_pending_not_submitted(log):
    """A reveal the deck can no longer hold is pending with a reason, not submitted."""
    game = log(players=["Mary"]).setup().reveal("water", "water").reveal("water", "water")
    sense = CardSense()
    reading = sense.see(("water", "desert"), game.state)
    assert reading.submit == []
    assert reading.pending is not None
    assert reading.pending.entry == Reveal((W, D))
    assert "water" in reading.pending.reason


def test_setup_card_read_once_in_setup(log):
    """A set-up card is submitted once during set-up and ignored after it is in."""
    sense = CardSense()
    state = log(players=["Mary", "David"]).state
    assert sense.see(("setup-07",), state).submit == [SetupCard("BDCAEBEDCA")]
    after = log(players=["Mary", "David"]).setup("BDCAEBEDCA").state
    sense.see((), after)
    assert sense.see(("setup-07",), after).submit == []


def test_red_bonus_waits_for_as_many_cards_as_players_need(log):
    """Red bonus cards are submitted only once as many as the player count needs are seen."""
    state = log(players=list("ABCDE"), special_bonus=True).setup().state
    sense = CardSense()
    assert sense.see(("red-yeti",), state).submit == []
    assert sense.see(("red-yeti", "red-book"), state).submit == [RedBonus((Sight.YETI, Sight.BOOK))]


def test_red_cards_without_the_variant_are_ignored(log):
    """Red cards in a game without the special bonus are ignored with a note."""
    state = log(players=["Mary", "David"]).setup().state
    reading = CardSense().see(("red-yeti",), state)
    assert reading.submit == [] and reading.note == note("red_ignored", card="red-yeti")


def test_solo_keep_reads_two_blue_cards(log):
    """At a solo round end two blue cards are submitted as the solo keep, in the order seen."""
    game = log(players=["Solo"]).setup().to_round_end()
    assert game.state.needs_solo_keep
    sense = CardSense()
    assert sense.see(("blue-C2",), game.state).submit == []
    assert sense.see(("blue-C2", "blue-A2"), game.state).submit == [SoloKeep(("C", "A"))]


def test_nothing_means_anything_without_a_game(log):

    """With no game started no card means anything."""
    reading = CardSense().see(("desert", "water"), Game().state)
    assert reading.submit == [] and reading.pending is None


def test_cards_held_while_the_mayor_decides_are_read_later(log):
    """Cards seen while held for the Mayor are submitted on the next look without the hold."""
    state = log(players=["Mary"]).setup().state
    sense = CardSense()
    assert sense.see(("desert", "water"), state, hold_new=True).submit == []
    assert sense.see(("desert", "water"), state).submit == [Reveal((D, W))]


# --- what the game waits for, checked against the engine ----------------------------------------
