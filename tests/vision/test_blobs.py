"""A blob read as cards (vision.blobs): spurs that join a card's blob are cut off, thin ones at the
smallest card's scale and wide ones at the blob's own."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.blobs import halves, rectangular, without_spurs
from vision.sides import iou

WORK = (360, 640)  # detection's work copy, px
CARD = np.array([[250.0, 90.0], [360.0, 90.0], [360.0, 244.0], [250.0, 244.0]])  # 110 x 154 px: 43% of the height


def _blob(vein_px: int) -> np.ndarray:
    """The outer contour of a card's filled outline with two blurred veins of this width running
    into it from the table (marble under a card 43% of the frame tall)."""
    mask = np.zeros(WORK, np.uint8)
    cv2.fillConvexPoly(mask, CARD.astype(np.int32), 255)
    cv2.polylines(mask, [np.array([[120, 40], [180, 100], [230, 120], [255, 160]], np.int32)], False, 255, vein_px)
    cv2.polylines(mask, [np.array([[355, 200], [420, 260], [470, 250], [520, 330]], np.int32)], False, 255, vein_px)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return max(contours, key=cv2.contourArea)


def _outline(piece: np.ndarray) -> np.ndarray:
    return cv2.boxPoints(cv2.minAreaRect(piece))


def test_thin_veins_are_cut_off_at_the_smallest_cards_scale() -> None:
    """Veins 5 px wide (a plank seam's width) go with the first cut: the card is left."""
    pieces = next(without_spurs(_blob(5), float(WORK[0] * WORK[1])))
    assert len(pieces) == 1 and iou(_outline(pieces[0]), CARD) > 0.9


def test_wide_veins_on_a_big_card_are_cut_off_at_its_own_scale() -> None:
    """Veins 13 px wide outlast a cut sized for the smallest card (~10 px); one sized for this
    card's own short side takes them off, and the card is left whole."""
    narrow, wide = list(without_spurs(_blob(13), float(WORK[0] * WORK[1])))
    assert len(narrow) == 1 and iou(_outline(narrow[0]), CARD) < 0.5  # the veins are still on it
    assert len(wide) == 1 and iou(_outline(wide[0]), CARD) > 0.9


def _offset_pair(offset: float, angle: float) -> tuple[np.ndarray, list[np.ndarray]]:
    """The outer contour of two cards 63 x 88 mm at 1.3 px/mm touching along their long edges, the second
    slid offset mm along that seam, the pair turned by angle degrees; and the cards' true corners."""
    w, h = 63 * 1.3, 88 * 1.3
    cards = [np.array([[0, 0], [w, 0], [w, h], [0, h]]), np.array([[w, offset * 1.3], [2 * w, offset * 1.3],
                                                                     [2 * w, h + offset * 1.3], [w, h + offset * 1.3]])]
    turn = cv2.getRotationMatrix2D((w, h / 2), angle, 1.0)
    cards = [c @ turn[:, :2].T + turn[:, 2] + (220, 130) for c in cards]
    mask = np.zeros(WORK, np.uint8)
    for c in cards:
        cv2.fillConvexPoly(mask, np.round(c).astype(np.int32), 255)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return max(contours, key=cv2.contourArea), cards


@pytest.mark.parametrize("angle", [0.0, 17.0, -35.0])
@pytest.mark.parametrize("offset", [0.0, 8.0, 16.0])
def test_two_cards_offset_along_their_seam_are_cut_apart_at_the_blobs_middle(offset, angle) -> None:
    """Two cards touching along their long edges, one slid along the seam: halving the blob itself at its
    smallest rectangle's middle gives each card, where the halves of the blob's four-sided fit span the
    seam's whole length, offset and all, and grow worse with it (the dents a blurred blob's steps leave
    may be too shallow to cut the blob at)."""
    contour, cards = _offset_pair(offset, angle)
    cut = halves(contour, WORK[0] * WORK[1])
    assert cut is not None
    assert all(max(iou(q, c) for q in cut) >= 0.95 for c in cards)
    if offset >= 16.0:
        split = [h for h in rectangular(contour, WORK[0] * WORK[1]).hypotheses if len(h) == 2][0]
        assert min(max(iou(q, c) for q in split) for c in cards) < min(max(iou(q, c) for q in cut) for c in cards) - 0.03
