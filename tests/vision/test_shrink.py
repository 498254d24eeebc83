"""vision.shrink: OpenCV's area shrink worked out over planes gives cv2.resize's bytes, or is left to it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.shrink import _plan, area_shrink


@pytest.mark.parametrize(("shape", "size", "planned"), [
    ((432, 768, 3), (640, 360), True),  # the scanner's stream to detection's work copy: 6 px to 5
    ((480, 640, 3), (480, 360), True),  # 4 px to 3
    ((540, 960, 3), (640, 360), True),  # 3 px to 2
    ((432, 768), (640, 360), True),  # one channel
    ((720, 1280, 3), (640, 360), False),  # halved: OpenCV's own whole-number path
    ((1232, 1640, 3), (479, 360), False),  # no short repeating pattern
])
def test_area_shrink_is_cv2_resize_byte_for_byte(shape, size, planned) -> None:
    """Noise and a smooth ramp (sums landing on halves) shrink to exactly cv2.resize's INTER_AREA bytes."""
    assert (_plan(shape, size) is not None) == planned
    rng = np.random.default_rng(7)
    ramp = np.broadcast_to(np.arange(shape[1], dtype=np.uint8)[None, :] if len(shape) == 2 else
                           np.arange(shape[1], dtype=np.uint8)[None, :, None], shape)
    for image in (rng.integers(0, 256, shape, dtype=np.uint8), np.ascontiguousarray(ramp),
                  np.full(shape, 255, np.uint8)):
        assert np.array_equal(area_shrink(image, size), cv2.resize(image, size, interpolation=cv2.INTER_AREA))
