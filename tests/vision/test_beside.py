"""The search beside a found card for the Mayor's second card (vision.beside), on drawn frames."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.beside import beside
from vision.detect import colour_gradient
from vision.sides import iou

CARD = np.array([[0.0, 0.0], [63.0, 0.0], [63.0, 88.0], [0.0, 88.0]])  # a card's corners, 1 px per mm


def _card_at(centre: tuple[float, float], angle: float) -> np.ndarray:
    """A card's corners turned by angle (degrees) about its centre, moved to centre."""
    a = np.radians(angle)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return (CARD - CARD.mean(axis=0)) @ turn.T + centre


def _gradient(*cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The colour gradient of a grey table with these cards drawn on it, as detect makes it."""
    frame = np.full((360, 640, 3), 120, np.uint8)
    for quad, colour in zip(cards, [(40, 160, 60), (200, 200, 230)], strict=False):
        cv2.fillConvexPoly(frame, np.round(quad).astype(np.int32), colour, cv2.LINE_AA)
    dx, dy = colour_gradient(cv2.cvtColor(frame, cv2.COLOR_BGR2YCrCb))
    return dx.astype(np.float32), dy.astype(np.float32)


@pytest.mark.parametrize(("gap", "slide", "angle"), [(0.0, 0.0, 0.0), (20.0, 10.0, 15.0), (35.0, -15.0, -30.0)])
def test_the_second_card_is_found_beside_the_first(gap, slide, angle) -> None:
    """A card as big as the found one, touching it or up to half a card off, slid a little: outlined."""
    first = _card_at((250.0, 180.0), angle)
    a = np.radians(angle)
    right, down = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    second = first + (63.0 + gap) * right + slide * down
    (found, *_) = beside(_gradient(first, second), first)
    assert iou(found, second) >= 0.9


def test_nothing_is_offered_beside_a_card_alone() -> None:
    """A card alone on a plain table: no place beside it is an outline."""
    first = _card_at((320.0, 180.0), 10.0)
    assert beside(_gradient(first), first) == []


def test_a_card_cut_by_the_frames_side_is_not_offered() -> None:
    """The second card lies mostly off the frame: no outline beside the first is offered for it."""
    first = _card_at((600.0, 180.0), 0.0)
    assert beside(_gradient(first, first + [63.0, 0.0]), first) == []
