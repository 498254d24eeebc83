"""What the cards already outlined explain: a blob they account for needs no fitting, and once every
blob off the table's colours is accounted for, the remaining edge cues have nothing left to find
(vision.detect's early stop). All cards lie on one table, so they also say how small a card can be.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.blobs import Candidate
from vision.sides import quad_area

SETTLED_SUPPORT = 0.9  # a card outlined with this much edge support is not fitted again by later cues
SETTLED_AREA = (0.8, 1.25)  # ... when the later blob has about the same area (not a card plus a hand)
EXPLAINED_SHARE = 0.85  # share of a blob off the table's colours that lies inside cards outlined well, for the
# blob (their size, SETTLED_AREA) to be explained by them: two touching cards, whose blob's middle falls on their
# seam, inside neither (a card with a hand beside it has about half its blob outside). Not a blob a part of the
# cards: well outlined cards may be an "any" card's quarters (seen ink-wash pair at rest on birch, seed 20261149)
SAME_TABLE_SHARE = 0.2  # area, as a share of the largest card outlined well so far, below which a blob is
# no card: the cards lie on one table, so across a frame tilted 20 degrees (a 60 degree field) a card's
# area changes about 2.4 times at most (the benchmark's pairs: 1.5 at most), and twice that if the card
# outlined well was two touching ones outlined as one. A checked cloth's patches the size of a far, small
# card were each snapped onto the checks (~2 ms a patch) beside cards six times their size


def settled(contour: np.ndarray, area: float, found: list[Candidate]) -> bool:
    """Whether a blob is a card another cue already outlined well (so it need not be fitted again)."""
    m = cv2.moments(contour)
    if not m["m00"]:
        return False
    centre = (m["m10"] / m["m00"], m["m01"] / m["m00"])
    for cand in found:
        if cand.support < SETTLED_SUPPORT:
            continue
        quads = cand.hypotheses[0]
        whole = sum(quad_area(q) for q in quads)
        if SETTLED_AREA[0] * whole <= area <= SETTLED_AREA[1] * whole and any(
                cv2.pointPolygonTest(q.astype(np.float32), centre, False) >= 0 for q in quads):
            return True
    return False


def all_settled(table_blobs: list[tuple[np.ndarray, float]], found: list[Candidate]) -> bool:
    """Whether every card-sized blob off the table's colours is a card already outlined well: then the
    other edge cues have nothing left to find (a hand, or a card the edges missed, leaves a blob
    unexplained). A table mask that sees nothing off the table explains nothing: it may be blind to
    a card of the table's colours."""
    return bool(table_blobs) and all(settled(c, a, found) or _filled(c, a, found) for c, a in table_blobs)


def _filled(contour: np.ndarray, area: float, found: list[Candidate]) -> bool:
    """Whether a blob lies in cards already outlined well (EXPLAINED_SHARE of it) and fills them
    (SETTLED_AREA of the cards it reaches into): the cards are all it shows."""
    x, y, w, h = cv2.boundingRect(contour)
    blob = np.zeros((h, w), np.uint8)
    cv2.drawContours(blob, [contour - np.array([x, y], np.int32)], -1, 1, cv2.FILLED)
    cards, whole = np.zeros_like(blob), 0.0
    for quad in _outlined_well(found):
        card = np.zeros_like(blob)
        cv2.fillPoly(card, [np.round(quad - (x, y)).astype(np.int32)], 1)
        if cv2.countNonZero(card & blob):
            cards |= card
            whole += quad_area(quad)
    return (whole > 0 and area >= SETTLED_AREA[0] * whole
            and cv2.countNonZero(blob & cards) >= EXPLAINED_SHARE * cv2.countNonZero(blob))


def least_card(found: list[Candidate]) -> float:
    """The smallest area (work px) a card may have beside the cards outlined well so far (0: none is)."""
    return SAME_TABLE_SHARE * max((quad_area(q) for q in _outlined_well(found)), default=0.0)


def _outlined_well(found: list[Candidate]) -> list[np.ndarray]:
    """The quads of the likeliest hypothesis of every candidate outlined well (SETTLED_SUPPORT)."""
    return [q for cand in found if cand.support >= SETTLED_SUPPORT for q in cand.hypotheses[0]]
