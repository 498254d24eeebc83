"""Something beside the cards: which blobs off the table's colours are a hand reaching in on its arm
(hand_like), and whether one lies outside every card found (uncovered). A frame with a hand in view
is never logged (vision.voter waits for a clean one), so a pool of light or a marble vein taken for a
hand leaves a pair at rest unlogged for as long as it lies there.
"""

from __future__ import annotations

import cv2
import numpy as np

HAND_SHARE = 0.015  # a blob of the table's colour mask this big (share of the frame) may be a hand
HAND_SOLIDITY = 0.85  # ... if it is this far from convex (fingers, an arm): glare and shadows are round
LINE_WIDTH_PX = 12  # work px: a blob no wider than this along its length is a line (a plank seam, a table's
# edge), not a hand: a wrist is about as wide as a card's short side, ~38 px for the smallest card
FRAME_SIDE_PX = 2  # work px: a blob this near a side of the frame comes in from outside it
ARM_WIDTH_PX = 20  # work px: an arm crosses the frame's side at least this wide (a forearm is about 0.8 of a
# card's height: ~43 px for the smallest card, 15% of the 360 px work height); a vein or a pool of light
# reaching the side by a thin spur is narrower there
CLUTTER_OUTSIDE = 0.5  # a blob with less than this share inside the cards found is something else


def hand_like(blob: np.ndarray, shape: tuple[int, int]) -> bool:
    """Whether a blob off the table's colours (work px, in a frame of this shape) is a hand: big and
    ragged (glare and shadows are round), no thin straight line, and come in over the frame's side on
    its arm. A hand over the table always does; a pool of light, a marble vein or a plank of another
    tone inside the frame does not, however ragged. Taken for spread fingers anywhere in the frame, such
    patches left 11 of 840 pairs at rest read right but unclean (seen styles, seed 20261160; 6 after),
    and a frame at rest stays so: the scanner never logged the pair. Hands missed for it: 5 of 240 (132
    seen before). A blob running from one side of the frame to the opposite one is a plank or a vein
    too: an arm ends in its hand inside the view (the same pairs: unclean 6 -> 4; the same 127 hands
    seen). And an arm is as wide where it crosses the side as an arm is (ARM_WIDTH_PX): a marble vein or
    a pool of light around the cards that meets the side only by a thin spur is no arm (seen styles'
    pairs at rest, seeds 20261151 and 20261160, 1680: right but unclean 9 -> 2, right 1634 -> 1643;
    384 photos of a hand reaching in, on every top: flagged 191 -> 186)."""
    x, y, w, h = cv2.boundingRect(blob)
    if min(x, y, shape[1] - x - w, shape[0] - y - h) > FRAME_SIDE_PX:
        return False
    across = x <= FRAME_SIDE_PX and shape[1] - x - w <= FRAME_SIDE_PX
    down = y <= FRAME_SIDE_PX and shape[0] - y - h <= FRAME_SIDE_PX
    if across or down:  # from side to opposite side: a plank or a vein; a hand ends in view
        return False
    area = cv2.contourArea(blob)
    hull = cv2.contourArea(cv2.convexHull(blob))
    line = min(cv2.minAreaRect(blob)[1]) <= LINE_WIDTH_PX
    return (not line and area > HAND_SHARE * shape[0] * shape[1] and area < HAND_SOLIDITY * hull
            and width_at_side(blob, shape) >= ARM_WIDTH_PX)


def width_at_side(blob: np.ndarray, shape: tuple[int, int]) -> float:
    """How wide a blob (work px) is where it meets the frame's sides (within FRAME_SIDE_PX): the widest
    disc inside it there, the blob taken to run on past the frame as it meets it (an arm cut off by the
    frame is as wide as it is, not half so)."""
    reach = ARM_WIDTH_PX  # the disc need not grow past the width asked for
    mask = np.zeros(shape, np.uint8)
    cv2.drawContours(mask, [blob], -1, 255, -1)
    padded = cv2.copyMakeBorder(mask, reach, reach, reach, reach, cv2.BORDER_REPLICATE)
    inside = cv2.distanceTransform(padded, cv2.DIST_L2, 5)[reach:reach + shape[0], reach:reach + shape[1]]
    side = FRAME_SIDE_PX + 1
    rims = (inside[:side], inside[-side:], inside[:, :side], inside[:, -side:])
    return 2.0 * max(float(r.max()) for r in rims)


def uncovered(blobs: list[np.ndarray], quads: list[np.ndarray], shape: tuple[int, int]) -> bool:
    """Whether some blob lies mostly outside every card outline (work px): a hand, not a card's glare or shadow."""
    if not blobs:
        return False
    covered = np.zeros(shape, np.uint8)
    for q in quads:
        cv2.fillConvexPoly(covered, np.round(q).astype(np.int32), 255)
    for blob in blobs:
        own = np.zeros(shape, np.uint8)
        cv2.drawContours(own, [blob], -1, 255, -1)
        area = cv2.countNonZero(own)
        if area and cv2.countNonZero(own & covered) < CLUTTER_OUTSIDE * area:
            return True
    return False
