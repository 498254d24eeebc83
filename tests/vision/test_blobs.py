"""A blob read as cards (vision.blobs): spurs that join a card's blob are cut off, thin ones at the
smallest card's scale and wide ones at the blob's own."""

from __future__ import annotations

import cv2
import numpy as np

from vision.blobs import without_spurs
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
