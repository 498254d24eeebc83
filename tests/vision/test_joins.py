"""Outlines that tile one card (vision.joins): two quarters, four quarters, a half doubled; two
cards touching end to end never make one card's outline."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.conftest import box
from vision.joins import joined, tilings
from vision.sides import iou

CARD = box(0, 0, 70, 98)
QUARTERS = [box(0, 0, 35, 49), box(35, 0, 35, 49), box(0, 49, 35, 49), box(35, 49, 35, 49)]


def test_two_quarters_sharing_a_side_join_into_half_a_card() -> None:
    """Side by side along their long sides, two quarters make the card's top half."""
    assert iou(joined(QUARTERS[0], QUARTERS[1]), box(0, 0, 70, 49)) > 0.99


def test_four_quarters_tile_the_card_first() -> None:
    """The four quarters' outline comes first, ahead of the halves."""
    members, outline = tilings(QUARTERS)[0]
    assert sorted(members) == [0, 1, 2, 3] and iou(outline, CARD) > 0.99


def test_a_half_is_offered_doubled_either_way() -> None:
    """The top half, the bottom lost in the table: the card below it and the one above are both offered."""
    outlines = [o for m, o in tilings(QUARTERS[:2]) if m == (0, 1)]
    assert any(iou(o, CARD) > 0.99 for o in outlines)
    assert any(iou(o, box(0, -49, 70, 98)) > 0.99 for o in outlines)


@pytest.mark.parametrize("second", [box(0, 98, 70, 98), box(100, 0, 70, 98), box(72, 60, 70, 98)])
def test_cards_end_to_end_apart_or_offset_tile_no_card(second) -> None:
    """Two cards end to end (too long for one card), apart, or touching along part of a side only."""
    assert tilings([CARD, second]) == []


def test_nudged_pieces_still_join() -> None:
    """Pieces fitted a few px apart along their shared side still join."""
    right = QUARTERS[1] + np.array([2.0, 1.5])
    assert joined(QUARTERS[0], right) is not None
