"""A hand reaches in on its arm, as wide where it crosses the frame's side as an arm is; a pool of
light or a vein that meets the side by a thin spur is the table."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.hands import ARM_WIDTH_PX, hand_like, width_at_side

SHAPE = (360, 640)  # the detection's work copy


def _blob(mask: np.ndarray) -> np.ndarray:
    """The outer contour of a drawn mask."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return max(contours, key=cv2.contourArea)


def _hand(arm_width: int, corner: bool = False) -> np.ndarray:
    """A palm with four spread fingers, on an arm of this width running to the right side (or into
    the top-right corner)."""
    mask = np.zeros(SHAPE, np.uint8)
    cv2.circle(mask, (200, 200), 45, 255, -1)
    for k in range(4):  # fingers fanning out to the left
        angle = np.radians(150 + 20 * k)
        tip = (int(200 + 110 * np.cos(angle)), int(200 - 110 * np.sin(angle)))
        cv2.line(mask, (200, 200), tip, 255, 14)
    end = (660, -40) if corner else (660, 200)
    cv2.line(mask, (200, 200), end, 255, arm_width)
    return _blob(mask)


def _pool_with_spur(spur_width: int) -> np.ndarray:
    """A ragged pool of light inside the frame that meets its right side only by a thin line."""
    mask = np.zeros(SHAPE, np.uint8)
    cv2.ellipse(mask, (250, 180), (120, 80), 0, 0, 360, 255, -1)
    for k in range(6):  # a ragged rim
        cv2.circle(mask, (150 + 40 * k, 95 + 30 * (k % 2)), 25, 0, -1)
    cv2.line(mask, (360, 180), (640, 150), 255, spur_width)
    return _blob(mask)


@pytest.mark.parametrize("corner", [False, True])
def test_an_arm_crossing_the_side_is_as_wide_as_it_is(corner: bool) -> None:
    """Cut off by the frame (across its side or its corner), an arm is measured whole."""
    assert width_at_side(_hand(50, corner), SHAPE) >= 45
    assert hand_like(_hand(50, corner), SHAPE)


@pytest.mark.parametrize("spur", [4, 8, 12])
def test_a_pool_of_light_meeting_the_side_by_a_spur_is_no_hand(spur: int) -> None:
    """A ragged pool with a thin spur to the side (a marble vein, a plank seam) is the table."""
    pool = _pool_with_spur(spur)
    assert width_at_side(pool, SHAPE) < ARM_WIDTH_PX
    assert not hand_like(pool, SHAPE)


def test_the_same_hand_on_an_arm_too_thin_for_one_is_no_hand() -> None:
    """The arm's width at the side alone decides between the two (the palm and fingers are the same)."""
    assert hand_like(_hand(ARM_WIDTH_PX + 6), SHAPE)
    assert not hand_like(_hand(ARM_WIDTH_PX - 8), SHAPE)
