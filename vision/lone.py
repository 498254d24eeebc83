"""Find the one card of an enrollment photo: a slower, exhaustive search for the best card outline.

Enrollment knows there is exactly one card in view, so unlike the live read (vision.detect) it
can afford to try every way a blob may hide a card and keep the single best outline:
  - every mask of detect (edges at four strengths, the table's colours), as they are, and the
    table's colours at nearer distances too (a dark card on a check whose colours spread wide);
  - the same masks opened with a kernel scaled to a card, which cuts off a grain line or a
    check edge left attached to the card as a spur;
  - the holes of each edge map (what an outline encloses, seen from inside): on a checked cloth
    the checks' edges join the card's outline into one net that encloses the whole frame, but
    the card's face is still a hole of its own in that net;
  - when those give no card, every one-card outline the live read proposes: on a check's white
    squares a light card's rim joins the cloth, and the live read's cloth cue moves the panel's
    outline out onto the rim.
Each card-shaped quad is then snapped side by side onto the straight edge nearest it and scored
by how much of its outline is a real edge running along it (the gradient there is strong and at
right angles to the side): a check edge or a grain line crossing a false side does not count.
Limit: a card printed with a light border on a light table (or on a check's white squares) is
often found by its coloured panel only, a few percent inside its true outline.
A wrong outline poisons the deck (worse than a refusal), so the best must be clearly a card.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision import detect as D
from vision.blobs import CARD_ASPECT, MAX_CARD_SHARE, aspect, rectangular
from vision.lattice import panel_rim
from vision.merge import overlap
from vision.sides import along_support, iou, quad_area, short_side, side_lengths, snap
from vision.table_colour import TABLE_DISTANCE, table_masks

SNAP_SHARE = 0.06  # each end of a side may move this share of the card's short side when snapped
MIN_ALONG = 0.75  # share of the outline that must be an edge along it for a photo to be enrolled
SPUR_CUT = (0.12, 0.22)  # openings, as a share of the expected card's short side, that cut spurs off
LONE_HEIGHT = (0.2, 0.6)  # a lone card's height as a share of the frame's (a clear photo is a close one)
HULL_SHARE = 0.8  # a card's blob may cover this little of its outline (a hole inside an outline, a spur cut off)
INSIDE = 0.95  # share of an outline inside another for it to be a panel of the other's card
PANEL_OFFSET = 0.08  # ... and centred in it: centres this close, as a share of the outer outline's size (a card
                     # lying at one side of a plank's or a check's outline drawn around it is not its panel)
SAME_QUAD = 0.92  # intersection over union above which two candidate quads are the same
SQUARE_ON_ASPECT = (1.22, 1.60)  # long/short side of a card photographed within ~25 degrees of straight on (1.40)
SQUARE_ON_SIDES = 0.85  # shorter/longer of two opposite sides, same view: a plank's or a check's quad is skewed
SQUARE_ON_ANGLE = 10.0  # degrees: opposite sides of such a card are this close to parallel
LIVE_ASPECT = 0.08  # a live-read outline counts only within this share of a card's aspect: the live read
                   # also proposes a card cut short at a seam or its panel, which a tilt alone does not explain
WIPED_LEVELS = 3  # edge strengths (the weakest first) read on the photo with its thin lines wiped (detect.without_lines)
MAX_OTHERS = 4  # next-best outlines offered beside the best: each costs enrollment a warp and a look
TABLE_DISTANCES = (1.5, 2.5)  # nearer than the live read's (table_colour.TABLE_DISTANCE), in spreads of a table colour: the
# table masks these also take, where a check's colours spread so wide that a dark card lies within 3.5 of one


@dataclass(frozen=True, eq=False)
class LoneCard:
    """The best card outline of a one-card photo: corners in frame px (None: refused, and why)."""

    corners: np.ndarray | None
    along: float  # share of the outline that is an edge along it (0..1)
    reason: str = ""
    others: tuple[np.ndarray, ...] = ()  # the next outlines well enough edged, best first, and last the
                                         # best's rim (if it may be a panel): enrollment tries them when
                                         # the first does not look like the card


def _holes(edges: np.ndarray, low: float) -> list[np.ndarray]:
    """The hull of every hole of an edge map at least low px big: what each outline encloses, seen
    from inside. A hull, because a card's art may join its outline and cut its face's hole into a C."""
    edges = cv2.dilate(edges, D._DILATE)
    contours, hierarchy = cv2.findContours(edges, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    hulls = (cv2.convexHull(c) for c, link in zip(contours, hierarchy[0], strict=True) if link[3] >= 0)
    return [h for h in hulls if cv2.contourArea(h) >= low]


def _blobs(colour_u8: np.ndarray, dx: np.ndarray, dy: np.ndarray, low: float) -> list[np.ndarray]:
    """Every outline a lone card may show up as: the blobs of every mask, and the edge maps' holes."""
    edge_maps = [cv2.Canny(dx, dy, lo, hi) for lo, hi in D.EDGE_LEVELS]
    # Every colour of the border band is the table's here: no arm reaches in over an enrollment photo, and
    # a light card lying in the band is then found by its panel, whose rim is offered last (find_lone_card).
    masks = [D._enclosed(e) for e in edge_maps] + table_masks(colour_u8, 0.0, (TABLE_DISTANCE, *TABLE_DISTANCES))
    short = colour_u8.shape[0] * np.mean(LONE_HEIGHT) / CARD_ASPECT  # a typical lone card's short side, work px
    for share in SPUR_CUT:
        size = max(3, int(round(share * short)) | 1)
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        masks += [cv2.morphologyEx(m, cv2.MORPH_OPEN, kernel) for m in masks[:5]]
    return _contours(masks, low) + [h for e in edge_maps for h in _holes(e, low)]


def _wiped_blobs(colour_u8: np.ndarray, low: float) -> list[np.ndarray]:
    """The blobs of the edge maps of the photo with its thin lines wiped (detect.without_lines): a
    card a printed grid or the grain joins to the table, or one its art cuts across."""
    return _contours(D.wiped_masks(colour_u8, WIPED_LEVELS), low)


def _contours(masks: list[np.ndarray], low: float) -> list[np.ndarray]:
    """The outer outlines of the masks' blobs at least low px big."""
    return [c for m in masks for c in cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0]
            if cv2.contourArea(c) >= low]


def _quads(blobs: list[np.ndarray], frame_area: float) -> list[np.ndarray]:
    """Every distinct one-card quad the blobs give."""
    found: list[np.ndarray] = []
    for contour in blobs:
        if cv2.contourArea(contour) > MAX_CARD_SHARE * frame_area:
            continue
        candidate = rectangular(contour, frame_area)
        if candidate is None:
            continue
        for hyp in candidate.hypotheses:
            if len(hyp) == 1 and not any(iou(hyp[0], q) > SAME_QUAD for q in found):
                found.append(hyp[0])
    return found


def _live_quads(frame: np.ndarray, scale: float) -> list[np.ndarray]:
    """Every one-card outline of the live read's hypotheses with a card's proportions, in work-copy px."""
    quads = [q * scale for c in D.detect(frame).candidates for hyp in c.hypotheses if len(hyp) == 1 for q in hyp]
    return [q for q in quads if abs(aspect(q) / CARD_ASPECT - 1.0) <= LIVE_ASPECT]


def _centred(inner: np.ndarray, outer: np.ndarray) -> bool:
    """Whether an outline sits in the middle of another, as a card's art panel does in the card."""
    size = np.sqrt(quad_area(outer))
    return float(np.linalg.norm(inner.mean(axis=0) - outer.mean(axis=0))) <= PANEL_OFFSET * size


def _square_on(quad: np.ndarray) -> bool:
    """Whether a quad has a card's shape seen from nearly straight above: its aspect, opposite
    sides of about one length and about parallel."""
    if not SQUARE_ON_ASPECT[0] <= aspect(quad) <= SQUARE_ON_ASPECT[1]:
        return False
    sides = np.roll(quad, -1, axis=0) - quad
    lengths = side_lengths(quad)
    for i in (0, 1):
        a, b = sides[i], -sides[i + 2]
        if min(lengths[i], lengths[i + 2]) < SQUARE_ON_SIDES * max(lengths[i], lengths[i + 2]):
            return False
        cos = float(a @ b) / max(lengths[i] * lengths[i + 2], 1e-9)
        if cos < np.cos(np.radians(SQUARE_ON_ANGLE)):
            return False
    return True


def find_lone_card(frame: np.ndarray, live: bool = True) -> LoneCard:
    """The outline of the one card in a BGR photo, or a refusal that says why (live=False: the
    live read's outlines are not tried: the caller read them already)."""
    colour_u8, scale = D.work_copy(frame)
    frame_area = float(colour_u8.shape[0] * colour_u8.shape[1])
    dx, dy = D.colour_gradient(colour_u8)
    grad = (dx.astype(np.float32), dy.astype(np.float32))
    low = (LONE_HEIGHT[0] * colour_u8.shape[0]) ** 2 / CARD_ASPECT * HULL_SHARE  # smallest lone card's blob, work px
    quads = [q for q in _quads(_blobs(colour_u8, dx, dy, low), frame_area) if _big(q, low)]
    scored = _scored(grad, quads)
    if not scored or _best(scored)[0] < MIN_ALONG:
        # wiped only when the photo as it is shows no card: on a light table a light card's wiped
        # outline may outscore its panel, whose rim is the outline offered last
        wiped = [q for q in _quads(_wiped_blobs(colour_u8, low), frame_area) if _big(q, low)]
        quads, scored = quads + wiped, _scored(grad, wiped, scored)
    if live and (not scored or _best(scored)[0] < MIN_ALONG):
        # the live read's outlines only when the search found no card: on checks its outline moved
        # out onto the rim may overshoot where the search's own is exact
        proposed = [q for q in _live_quads(frame, scale) if _big(q, low)]
        quads, scored = quads + proposed, _scored(grad, proposed, scored)
    if not quads:
        return LoneCard(None, 0.0, "nothing card-shaped stands out from the table"
                        f" (a card must fill at least {LONE_HEIGHT[0]:.0%} of the photo's height)")
    if not scored:
        return LoneCard(None, 0.0, "no outline has a card's shape seen from above (hold the camera over the card)")
    along, _, best = _best(scored)
    if along < MIN_ALONG:
        return LoneCard(None, along, f"the best card outline is only {along:.0%} edge (needs {MIN_ALONG:.0%}):"
                        " the card's rim does not stand out from the table")
    others = _others(scored, best)
    moved = panel_rim(grad, best)  # last: the best outline may be the art's panel of a light card
    if moved is not None and not any(iou(moved, q) > SAME_QUAD for q in others):
        others.append(moved)
    return LoneCard(D.to_frame(best, 1 / scale), along, others=tuple(D.to_frame(q, 1 / scale) for q in others))


def _big(quad: np.ndarray, low: float) -> bool:
    """Whether a quad is as big as the smallest lone card's outline (low: its blob, work px)."""
    return quad_area(quad) >= low / HULL_SHARE


def _scored(grad: tuple[np.ndarray, np.ndarray], quads: list[np.ndarray],
            known: list[tuple[float, float, np.ndarray]] | None = None) -> list[tuple[float, float, np.ndarray]]:
    """Known scored quads and each new distinct square-on quad, snapped onto its edges: (edge support
    along it, area, quad)."""
    scored = list(known or [])
    for quad in quads:
        snapped = snap(grad, quad, SNAP_SHARE * short_side(quad))
        if not _square_on(snapped):
            snapped = quad
        if not _square_on(snapped):
            continue  # an enrollment photo is taken from above: a skewed quad is not its card
        if not any(iou(snapped, other) > SAME_QUAD for _, _, other in scored):
            scored.append((along_support(grad, snapped), quad_area(snapped), snapped))
    return scored


def _best(scored: list[tuple[float, float, np.ndarray]]) -> tuple[float, float, np.ndarray]:
    """The best edged outline; of those well enough edged, the one around the others (a card's art
    may hold card-shaped panels of its own)."""
    along, area, best = max(scored, key=lambda s: (round(s[0], 2), s[1]))
    for other_along, other_area, other in sorted(scored, key=lambda s: s[1]):
        if other_along >= MIN_ALONG and other_area > area and overlap(best, other) > INSIDE \
                and _centred(best, other):
            along, area, best = other_along, other_area, other
    return along, area, best


def _others(scored: list[tuple[float, float, np.ndarray]], best: np.ndarray) -> list[np.ndarray]:
    """The other well-edged outlines, those drawn around the best first (largest first: the card
    around a panel, or the whole of a card cut short), then the rest by edge support."""
    rest = [(overlap(best, q) > INSIDE, along, area, q) for along, area, q in scored
            if q is not best and along >= MIN_ALONG]
    ranked = sorted(rest, key=lambda s: (not s[0], -s[2] if s[0] else -s[1]))
    return [q for *_, q in ranked[:MAX_OTHERS]]

