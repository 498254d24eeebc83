"""An underexposed frame seen brighter: the reader's last resort when it named nothing at all.

Edge cues threshold colour steps in absolute grey levels, so a frame the camera left dark (a dim room
over a dark mat, an exposure locked before the light fell) shows a card's outline, and a printed
grid's lines, as steps too faint to mark: a pair of dark chalk cards on the dark hexagon mat, the
frame's light (its brightest 1%) at 73-82 grey levels, was not outlined at all. Seen brighter, by the
gain that takes its light to a well-lit frame's, its steps are the size a well-lit frame shows.

Only where the frame as it came named no card: on frames where cards are named the gain moves
outlines (seen styles read whole with the gain on every frame whose light is under 160: as many
right, 10 more refused, 1 more named wrong). So (vision.reader.CardReader.read), seen styles' photos
read whole, 5760: 5570 -> 5584 right, 5 named wrong as before; their pairs at rest, 1680: 1661 -> 1664.
"""

from __future__ import annotations

import cv2
import numpy as np

LIGHT_SHARE = 0.99  # a frame's light: the grey level this share of its pixels lies at or under
DIM_LIGHT = 100  # grey levels: a frame whose light lies under this is underexposed (the dim pairs above: 73-82).
# Under 160, seen styles read whole 5589 right, not 5584, none more wrong, but a frame that bright is lit: read
# again, a refused painted red-obelisk at 146 was named on the brighter look's outline at confidence 0.53 (right,
# but a call a second look makes alone); under 220 a gilded blue-E2 on blue checks was named blue-E1
USUAL_LIGHT = 200  # grey levels: where the gain takes a dim frame's light (well-lit frames: 200-250)
MAX_GAIN = 4.0  # at most: a nearly black frame is mostly noise, however bright it is made
_ZERO = np.array([0.0, 128.0, 128.0], np.float32)  # YCrCb's black: chroma is scaled about its grey, as light is


def light(ycrcb: np.ndarray) -> int:
    """The grey level (0-255) at or under which LIGHT_SHARE of a YCrCb image's pixels lie."""
    counts = cv2.calcHist([ycrcb], [0], None, [256], [0, 256]).ravel().cumsum()
    return int(np.searchsorted(counts, LIGHT_SHARE * counts[-1]))


def brightened(ycrcb: np.ndarray) -> np.ndarray | None:
    """A YCrCb uint8 image as a camera exposing longer would show it, or None when it is not dim."""
    level = light(ycrcb)
    if level >= DIM_LIGHT:
        return None
    gain = min(MAX_GAIN, USUAL_LIGHT / max(level, 1))
    return np.clip((ycrcb.astype(np.float32) - _ZERO) * gain + _ZERO, 0, 255).astype(np.uint8)
