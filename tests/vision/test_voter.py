"""The voter: stable events only, never from one bad frame or a hand passing over the mat."""

from __future__ import annotations

import pytest

from vision.reader import CardReading, FrameReading
from vision.voter import CardAppeared, CardRemoved, Voter

CORNERS = ((0.0, 0.0), (63.0, 0.0), (63.0, 88.0), (0.0, 88.0))


def frame(*cards: str | None, clutter: bool = False) -> FrameReading:
    """A frame reading naming these cards (None = an outline the reader refused)."""
    return FrameReading(tuple(CardReading(c, 0.9 if c else 0.2, CORNERS) for c in cards), clutter)


def feed(voter: Voter, readings: list[FrameReading]) -> list:
    events = []
    for r in readings:
        events += voter.feed(r)
    return events


def test_cards_appear_after_enough_clean_frames() -> None:
    voter = Voter(stable_frames=3)
    assert feed(voter, [frame("desert", "water")] * 2) == []
    assert voter.feed(frame("water", "desert")) == [CardAppeared("desert", 2), CardAppeared("water", 2)]
    assert voter.cards == ("desert", "water")
    assert feed(voter, [frame("desert", "water")] * 10) == []


def test_one_bad_frame_changes_nothing() -> None:
    voter = Voter(stable_frames=3)
    feed(voter, [frame("desert", "water")] * 3)
    blips = [frame("desert", "forest"), frame(), frame("desert"), frame("any", "water")]
    for blip in blips:  # each wrong frame alone, between good ones
        assert feed(voter, [blip, frame("desert", "water"), frame("desert", "water")]) == []
    assert voter.cards == ("desert", "water")


def test_a_hand_over_the_mat_is_skipped() -> None:
    voter = Voter(stable_frames=3)
    feed(voter, [frame("blue-A1")] * 3)
    hand = [frame(clutter=True)] * 20 + [frame("blue-A1", None)] * 5 + [frame("red-yeti", clutter=True)] * 5
    assert feed(voter, hand) == []
    assert feed(voter, [frame("blue-A1")] * 5) == []


def test_removal_and_swap_are_reported() -> None:
    voter = Voter(stable_frames=2)
    feed(voter, [frame("desert", "desert")] * 2)
    assert voter.cards == ("desert", "desert")
    events = feed(voter, [frame("desert", "mountain")] * 2)
    assert events == [CardRemoved("desert", 3), CardAppeared("mountain", 3)]
    assert feed(voter, [frame()] * 2) == [CardRemoved("desert", 5), CardRemoved("mountain", 5)]
    assert voter.cards == ()


def test_unclean_frames_do_not_break_a_streak() -> None:
    voter = Voter(stable_frames=3)
    readings = [frame("setup-04"), frame(clutter=True), frame("setup-04"), frame("setup-04", None), frame("setup-04")]
    assert feed(voter, readings) == [CardAppeared("setup-04", 4)]


def test_reset_reports_the_table_again() -> None:
    voter = Voter(stable_frames=1)
    voter.feed(frame("forest"))
    voter.reset()
    assert voter.feed(frame("forest")) == [CardAppeared("forest", 1)]


def test_stable_frames_must_be_positive() -> None:
    with pytest.raises(ValueError):
        Voter(stable_frames=0)
