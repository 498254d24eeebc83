"""The voter: stable events only, never from one bad frame or a hand passing over the mat."""

from __future__ import annotations

import pytest

from vision.reader import CardReading, FrameReading
from vision.voter import CardAppeared, CardRemoved, Voter, left_to_right

CORNERS = ((0.0, 0.0), (63.0, 0.0), (63.0, 88.0), (0.0, 88.0))


def frame(*cards: str | None, clutter: bool = False) -> FrameReading:
    """A frame reading naming these cards (None = an outline the reader refused)."""
    return FrameReading(tuple(CardReading(c, 0.9 if c else 0.2, CORNERS) for c in cards), clutter)


def at(*placed: tuple[str | None, float]) -> FrameReading:
    """A clean-or-not frame of cards whose outlines start at these x positions (pixels)."""
    return FrameReading(tuple(
        CardReading(c, 0.9 if c else 0.2, tuple((x + dx, y) for dx, y in CORNERS)) for c, x in placed
    ))


def feed(voter: Voter, readings: list[FrameReading]) -> list:
    """Feed every reading to the voter and return all the events it reported."""
    events = []
    for r in readings:
        events += voter.feed(r)
    return events


def test_cards_appear_after_enough_clean_frames() -> None:
    """Cards are reported after stable_frames clean frames, whatever order they are listed in."""
    voter = Voter(stable_frames=3)
    assert feed(voter, [frame("desert", "water")] * 2) == []
    assert voter.feed(frame("water", "desert")) == [CardAppeared("desert", 2), CardAppeared("water", 2)]
    assert sorted(voter.cards) == ["desert", "water"]
    assert feed(voter, [frame("desert", "water")] * 10) == []


def test_one_bad_frame_changes_nothing() -> None:
    """A single wrong frame between good ones changes nothing."""
    voter = Voter(stable_frames=3)
    feed(voter, [frame("desert", "water")] * 3)
    blips = [frame("desert", "forest"), frame(), frame("desert"), frame("any", "water")]
    for blip in blips:  # each wrong frame alone, between good ones
        assert feed(voter, [blip, frame("desert", "water"), frame("desert", "water")]) == []
    assert voter.cards == ("desert", "water")


def test_a_hand_over_the_mat_reports_nothing() -> None:
    """Frames with a hand or an unread card report nothing."""
    voter = Voter(stable_frames=3)
    feed(voter, [frame("blue-A1")] * 3)
    hand = [frame(clutter=True)] * 20 + [frame("blue-A1", None)] * 5 + [frame("red-yeti", clutter=True)] * 5
    assert feed(voter, hand) == []
    assert feed(voter, [frame("blue-A1")] * 5) == []


def test_removal_and_swap_are_reported() -> None:
    """Removed and swapped cards are reported once the change is stable."""
    voter = Voter(stable_frames=2)
    feed(voter, [frame("desert", "desert")] * 2)
    assert voter.cards == ("desert", "desert")
    events = feed(voter, [frame("desert", "mountain")] * 2)
    assert events == [CardRemoved("desert", 3), CardAppeared("mountain", 3)]
    assert feed(voter, [frame()] * 2) == [CardRemoved("desert", 5), CardRemoved("mountain", 5)]
    assert voter.cards == ()


def test_reset_reports_the_table_again() -> None:
    """After reset the cards in view are reported again."""
    voter = Voter(stable_frames=1)
    voter.feed(frame("forest"))
    voter.reset()
    assert voter.feed(frame("forest")) == [CardAppeared("forest", 1)]


def test_stable_frames_must_be_positive() -> None:
    """A stable frame count below one raises ValueError."""
    with pytest.raises(ValueError):
        Voter(stable_frames=0)


def test_an_unclean_frame_starts_the_count_over() -> None:
    """A hand or a refused outline between frames of the same cards starts the count over."""
    voter = Voter(stable_frames=3)
    readings = [frame("setup-04"), frame(clutter=True), frame("setup-04"), frame("setup-04", None), frame("setup-04")]
    assert feed(voter, readings) == []  # never three clean frames back to back
    assert feed(voter, [frame("setup-04")] * 2) == [CardAppeared("setup-04", 6)]


def test_a_hand_or_one_bad_frame_never_triggers() -> None:
    """A hand or one stray frame reports no change."""
    voter = Voter(stable_frames=3)
    feed(voter, [frame("desert", "water")] * 3)
    noise = [frame(clutter=True)] * 10 + [frame("desert", None)] * 4 + [frame("forest")]
    assert feed(voter, noise + [frame("desert", "water")] * 3) == []
    assert voter.cards == ("desert", "water")


def test_left_to_right_order_lists_cards_where_they_lie_but_agrees_on_the_multiset() -> None:
    """Left-to-right order lists cards by position; moving the same cards reports nothing."""
    voter = Voter(stable_frames=3)
    readings = [at(("water", 300.0), ("desert", 10.0)), at(("desert", 12.0), ("water", 301.0)),
                at(("water", 299.0), ("desert", 11.0))]
    assert feed(voter, readings) == [CardAppeared("desert", 2), CardAppeared("water", 2)]
    assert voter.cards == ("desert", "water")
    swapped = at(("desert", 300.0), ("water", 10.0))
    assert feed(voter, [swapped] * 5) == []  # the same cards moved: nothing new
    events = feed(voter, [at(("desert", 12.0), ("water", 300.0), ("forest", 150.0))] * 3)
    assert events == [CardAppeared("forest", 10)]
    assert voter.cards == ("desert", "forest", "water")


def test_left_to_right_orders_readings_by_outline_centre() -> None:
    """Readings are ordered by the x of their outline's centre."""
    reading = at(("b", 200.0), (None, 100.0), ("a", 0.0))
    assert [r.card for r in left_to_right(reading.cards)] == ["a", None, "b"]


def test_settled_needs_enough_clean_frames_showing_the_stable_cards() -> None:
    """Settled needs stable_frames clean frames showing the stable cards; clutter unsettles."""
    voter = Voter(stable_frames=3)
    assert not voter.settled
    feed(voter, [frame()] * 2)
    assert not voter.settled
    voter.feed(frame())
    assert voter.settled  # an empty mat, seen three times
    voter.feed(frame("forest"))
    assert not voter.settled  # something new is being counted
    feed(voter, [frame("forest")] * 2)
    assert voter.settled and voter.cards == ("forest",)
    voter.feed(frame(clutter=True))
    assert not voter.settled
    feed(voter, [frame("forest")] * 2)
    assert not voter.settled
    voter.feed(frame("forest"))
    assert voter.settled


def test_reset_unsettles() -> None:
    """Reset clears the cards and unsettles the voter."""
    voter = Voter(stable_frames=1)
    voter.feed(frame("forest"))
    assert voter.settled
    voter.reset()
    assert not voter.settled and voter.cards == ()
