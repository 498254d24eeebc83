"""An outline's sides settled on the card's edge at the frame's own resolution (vision.refine): onto
the edge near it, to a fraction of a pixel, never onto a line printed inside the card, and left
alone where no edge runs along a side."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.art import card_face
from vision.detect import detect
from vision.features import order_corners
from vision.photo import PhotoConditions, Thing, take_photo
from vision.refine import refined
from vision.tables import TableTop

WIDE = PhotoConditions(frames=((1280, 720),), card_height=(0.25, 0.4))  # a work pixel is two frame pixels
TRUE = np.array([[400.0, 200.0], [600.0, 212.0], [588.0, 492.0], [388.0, 480.0]])


def _card(inner_line: bool = False, seed: int = 0) -> np.ndarray:
    """A noisy dark table with a light card, drawn at 8x and shrunk (edges fall between pixels); with
    a brighter line printed 4 px inside the card's edge when asked."""
    rng = np.random.default_rng(seed)

    big = np.zeros((720 * 4, 1280 * 4, 3), np.uint8)
    big[:] = (40, 60, 80)
    cv2.fillConvexPoly(big, np.round(TRUE * 4 + 1.5).astype(np.int32), (170, 160, 150), lineType=cv2.LINE_8)
    if inner_line:
        centre = TRUE.mean(axis=0)
        inset = centre + (TRUE - centre) * (1 - 4.0 / 140)
        cv2.polylines(big, [np.round(inset * 4 + 1.5).astype(np.int32)], True, (250, 250, 250), 6)
    frame = cv2.resize(big, (1280, 720), interpolation=cv2.INTER_AREA)
    noisy = frame.astype(np.float32) + rng.normal(0, 3, frame.shape)
    return cv2.GaussianBlur(np.clip(noisy, 0, 255).astype(np.uint8), (0, 0), 0.8)


def _error(quad: np.ndarray, truth: np.ndarray) -> float:
    """The largest corner distance between two ordered outlines (px)."""
    return float(np.linalg.norm(np.asarray(quad, np.float64) - truth, axis=1).max())


@pytest.mark.parametrize(("grow", "shift"), [(1.8, (0.0, 0.0)), (-1.5, (0.0, 0.0)), (0.0, (1.6, -1.2)),
                                             (1.0, (-1.3, 0.9))])
def test_an_outline_a_pixel_or_two_off_settles_on_the_cards_edge(grow, shift) -> None:
    """Detection's outline a work pixel off (grown, shrunk, moved) comes to within half a
    frame pixel of the card's true corners."""
    centre = TRUE.mean(axis=0)
    off = TRUE + (TRUE - centre) / np.linalg.norm(TRUE - centre, axis=1, keepdims=True) * grow + np.array(shift)
    moved = refined(_card(), off)
    assert moved.dtype == np.float32 and moved.shape == (4, 2)
    assert _error(off, TRUE) > 1.5
    assert _error(moved, TRUE) < 0.5


def test_a_brighter_line_printed_inside_the_card_does_not_pull_the_side_in() -> None:
    """An outline just outside the card settles on its edge, not on the brighter frame line 4 px
    inside it that is the strongest change within reach."""
    centre = TRUE.mean(axis=0)
    off = TRUE + (TRUE - centre) / np.linalg.norm(TRUE - centre, axis=1, keepdims=True) * 1.5
    assert _error(refined(_card(inner_line=True), off), TRUE) < 0.5


def test_a_side_with_no_edge_along_it_stays_where_it_is() -> None:
    """On a bare table no side finds an edge: the outline comes back as it was."""
    bare = cv2.GaussianBlur(np.random.default_rng(3).normal(60, 3, (720, 1280, 3)).clip(0, 255).astype(np.uint8),
                            (0, 0), 0.8)
    assert np.array_equal(refined(bare, TRUE), TRUE.astype(np.float32))


@pytest.mark.parametrize("seed", range(4))
def test_detected_outlines_of_painted_cards_on_wood_come_closer_to_the_card(seed) -> None:
    """Outlines detection finds on a work copy half the frame's size, settled at the frame's own
    resolution, lie nearer the true corners over a dozen simulated photos (mean error)."""
    rng = np.random.default_rng(900 + seed)
    before, after = [], []
    for k in range(12):
        card = ("blue-A1", "blue-C2", "setup-05", "desert")[k % 4]
        photo = take_photo([Thing(card_face("painted", card), card, card)], rng, WIDE, top=TableTop.WOOD_MID)
        truth = order_corners(photo.seen[0].corners).astype(np.float64)
        found = [order_corners(q) for c in detect(photo.image).candidates for q in c.hypotheses[0]]
        near = [q for q in found if _error(_rolled(q, truth), truth) < 6.0]
        if near:
            quad = _rolled(near[0], truth)
            before.append(_error(quad, truth))
            after.append(_error(_rolled(refined(photo.image, near[0]), truth), truth))
    assert len(before) >= 6
    assert np.mean(after) < np.mean(before)


def _rolled(quad: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """The quad's corners in the order (of four turns) nearest the truth's."""
    quad = np.asarray(quad, np.float64)
    return min((np.roll(quad, k, axis=0) for k in range(4)), key=lambda q: _error(q, truth))
