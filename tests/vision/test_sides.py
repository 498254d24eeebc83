"""Outline geometry (vision.sides): the area two card outlines share."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.merge import overlap
from vision.pieces import one_per_place
from vision.reader import CardReading
from vision.sides import covered, intersection_area, iou

# The Mayor's two water cards touching along their long sides, as a painted pair was read (frame px):
# cv2.intersectConvexConvex gave each as lying 1.01 inside the other, and the reader kept one
LEFT = np.array([[588.8753662109375, 365.3121643066406], [368.6421813964844, 398.54083251953125],
                 [322.7824401855469, 93.7497329711914], [541.3583374023438, 61.805992126464844]])
RIGHT = np.array([[369.4136657714844, 403.6682434082031], [149.99176025390625, 435.1576232910156],
                  [104.00352478027344, 129.9986114501953], [322.8139953613281, 93.95942687988281]])


def test_outlines_touching_along_a_side_share_no_area() -> None:
    """Two cards laid side by side overlap nowhere, whichever way round their corners run."""
    assert intersection_area(LEFT, RIGHT) < 1.0
    assert iou(LEFT, RIGHT) < 1e-3 and covered(LEFT, RIGHT) < 1e-3 and covered(RIGHT[::-1], LEFT) < 1e-3
    assert overlap(LEFT, RIGHT) < 1e-3
    assert iou(LEFT, LEFT[::-1]) == pytest.approx(1.0)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_shared_area_of_two_outlines_is_what_a_raster_of_both_covers(seed: int) -> None:
    """Random turned rectangles, near, apart or one inside another: the area they share matches the
    pixels both cover when drawn (to within the pixels along their sides)."""
    rng = np.random.default_rng(seed)
    for _ in range(40):
        quads = [cv2.boxPoints(((float(cx), float(cy)), (float(w), float(h)), float(a))) for cx, cy, w, h, a in
                 (np.r_[rng.uniform(60, 140, 2), rng.uniform(10, 80, 2), rng.uniform(0, 180)] for _ in range(2))]
        masks = [cv2.fillConvexPoly(np.zeros((200, 200), np.uint8), np.round(q * 8).astype(np.int32), 1, cv2.LINE_8, 3)
                 for q in quads]
        drawn = float((masks[0] & masks[1]).sum())
        sides = sum(cv2.arcLength(q.reshape(-1, 1, 2), True) for q in quads)
        assert abs(intersection_area(*quads) - drawn) <= sides


def test_two_cards_of_one_kind_touching_are_both_kept() -> None:
    """The Mayor may reveal two water cards: laid side by side, both are read, not one."""
    left, right = (CardReading("water", 1.0, tuple(map(tuple, q))) for q in (LEFT, RIGHT))
    assert [r.card for r in one_per_place([left, right])] == ["water", "water"]
