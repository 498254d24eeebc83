"""A blob of a detection mask read as cards: one card, two touching cards, or none.

A card is a convex, nearly rectangular blob; two cards side by side make a blob of about one
card's shape (touching along their long edges) or of two cards' length (end to end); two cards
at an angle make a blob with two dents where they meet. So a blob is fitted with four corners
(moved to where straight lines along its sides meet: a card's corners are rounded), read
whole, cut at its seam, or halved, and every reading that has cards' shapes is kept, likeliest
first, for the deck to choose among (vision.detect, vision.lone). Two cards touching along their
long edges but offset along that seam are halved wrongly so: their blob is also cut at its own
middle (halves), made only when no other reading is sure of the cards (Candidate.halved).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property, partial

import cv2
import numpy as np

from vision.sides import following, intersect, iou, quad_area, side_lengths

MIN_CARD_SHARE = 0.005  # smallest card area as a share of the frame (15% of the height, tilted, 16:9)
MAX_CARD_SHARE = 0.20  # largest single card as a share of the frame (45% of a 4:3 frame's height is 0.11)
MIN_SOLIDITY = 0.90  # blob area / hull area of a card (rounded corners, noisy outline)
QUAD_FIT = 0.90  # hull area / fitted-quad area below which the blob is not four-sided
ONE_CARD_ASPECT = (1.12, 1.80)  # long/short side of one card (1.40) or two along long edges (1.43), tilted
TWO_CARD_ASPECT = (2.2, 3.4)  # two cards end to end (2.79), tilted
SEAM_DEPTH = 0.015  # dent depth, as a share of the blob's size, that may mark a seam between cards
SPUR_SHARE = 0.4  # opening width, as a share of the smallest card's short side (about 10 work px):
# wider than a plank seam or a grid line that runs into a card's outline (4-6 px), narrower than any card
CARD_ASPECT = 88 / 63  # a card's long side over its short side
STRETCH_BELOW = 1.25  # long over short side below which an outline is too short for a whole card
# (a card tilted 20 degrees away shows 1.31 and more)
SAME_HALVES = 0.95  # IoU above which a blob's halves (halves) are the halves of its four-sided fit again
PAIR_AREA_RATIO = 0.6  # two pieces are the Mayor's two cards only when this alike in area (a tilted camera
# changes a card's area by a fifth at most); a card and a check square cut from one cloth are not


@dataclass(frozen=True, eq=False)
class Candidate:
    """One blob read as a card: alternative hypotheses, each a tuple of 4x2 quads, likeliest first."""

    hypotheses: tuple[tuple[np.ndarray, ...], ...]
    support: float = 1.0  # share of the first hypothesis' outline that is a real colour step
    rims: Callable[[], tuple[tuple[np.ndarray, ...], ...]] | None = field(default=None, repr=False)  # makes outer
    wraps: tuple[tuple[np.ndarray, ...], ...] = ()  # bigger outlines around the first, for when none names a card
    halving: Callable[[], tuple[tuple[np.ndarray, ...], ...]] | None = field(default=None, repr=False)  # makes halved

    @cached_property
    def outer(self) -> tuple[tuple[np.ndarray, ...], ...]:
        """Outlines moved out onto a rim, for when none above looks like a card: made on first use."""
        return self.rims() if self.rims is not None else ()

    @cached_property
    def halved(self) -> tuple[tuple[np.ndarray, ...], ...]:
        """Two cards cut at the blob's own middle (halves), the last hypothesis: made on first use (0.5 ms a
        blob, for nothing where an earlier hypothesis is sure of its cards)."""
        return self.halving() if self.halving is not None else ()


def four_sided(points: np.ndarray) -> np.ndarray | None:
    """Fit a 4-corner polygon to a convex outline, or None when it is not four-sided."""
    perimeter = cv2.arcLength(points, True)
    for eps in (0.02, 0.03, 0.045, 0.06):
        poly = cv2.approxPolyDP(points, eps * perimeter, True)
        if len(poly) == 4:
            return poly.reshape(4, 2).astype(np.float64)
        if len(poly) < 4:
            return None
    return None


def refine(quad: np.ndarray, contour: np.ndarray) -> np.ndarray:
    """Move corners to where straight lines fitted along each side meet (rounded corners cut in)."""
    pts = contour.reshape(-1, 2)
    near = _along_sides(quad, pts)
    if near is None:
        return quad
    lines = []
    for side in near:
        vx, vy, x0, y0 = cv2.fitLine(pts[side].astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
    out = [intersect(*lines[i - 1], *lines[i], parallel=1e-6) for i in range(4)]  # unit directions
    if any(c is None for c in out):
        return quad
    refined = np.array(out)
    return refined if np.abs(refined - quad).max() < 0.1 * cv2.arcLength(quad.astype(np.float32), True) else quad


def _along_sides(quad: np.ndarray, pts: np.ndarray) -> np.ndarray | None:
    """Which outline points (n x 2) lie along each side's middle, near the side (4 x n): a rounded
    corner or the next side must not bend a fitted line; None when a side has fewer than 5."""
    ab = following(quad) - quad  # each side, corner to next corner
    length = np.sqrt((ab**2).sum(axis=1))
    # x and y apart, all four sides at once (side, point): numpy is slow on a trailing axis of two,
    # and this runs for every blob. The same products and sums as a dot product over that axis.
    ax, ay = ab[:, 0, None], ab[:, 1, None]
    rx = pts[:, 0].astype(np.float64)[None] - quad[:, 0, None]
    ry = pts[:, 1].astype(np.float64)[None] - quad[:, 1, None]
    t = (rx * ax + ry * ay) / (length**2)[:, None]
    off = np.abs(ax * ry - ay * rx) / length[:, None]
    near = (t > 0.15) & (t < 0.85) & (off < np.maximum(2.0, 0.02 * length)[:, None])
    return None if (near.sum(axis=1) < 5).any() else near


def split(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cut a quad in two across its long sides' midpoints."""
    sides = side_lengths(quad)  # the lengths np.linalg.norm gives each side
    q = quad if sides[0] >= sides[1] else following(quad)
    m01, m23 = (q[0] + q[1]) / 2, (q[2] + q[3]) / 2
    return np.array([q[0], m01, m23, q[3]]), np.array([m01, q[1], q[2], m23])


def aspect(quad: np.ndarray) -> float:
    """Long over short side of a quad, each the mean of two opposite sides."""
    sides = side_lengths(quad)
    a, b = sides[0] + sides[2], sides[1] + sides[3]
    return max(a, b) / max(min(a, b), 1e-6)


def rectangular(contour: np.ndarray, frame_area: float, hull: np.ndarray | None = None) -> Candidate | None:
    """Read a convex, four-sided blob as one card, two cards, or None (hull: its convex hull's points, if known)."""
    hull = cv2.convexHull(contour) if hull is None else hull
    area, hull_area = cv2.contourArea(contour), cv2.contourArea(hull)
    if hull_area <= 0 or area / hull_area < MIN_SOLIDITY:
        return None
    quad = four_sided(hull)
    if quad is None or hull_area / max(cv2.contourArea(quad.astype(np.float32)), 1e-6) < QUAD_FIT:
        return None
    quad = refine(quad, contour)
    ratio, share = aspect(quad), area / frame_area
    pair = 2 * MIN_CARD_SHARE <= share <= 2 * MAX_CARD_SHARE  # a pair is two cards, each a card's size
    if ONE_CARD_ASPECT[0] <= ratio <= ONE_CARD_ASPECT[1]:
        hyps = []
        if share <= MAX_CARD_SHARE:
            hyps.append((quad,))
        if pair:
            hyps.append(split(quad))
        return Candidate(tuple(hyps)) if hyps else None
    if TWO_CARD_ASPECT[0] <= ratio <= TWO_CARD_ASPECT[1] and pair:
        return Candidate((split(quad),))
    return None


def cut_at_seam(contour: np.ndarray, hull: np.ndarray) -> list[np.ndarray]:
    """Cut a blob along the line joining its two deepest dents (hull: its convex hull's indices); returns the pieces."""
    try:
        defects = cv2.convexityDefects(contour, hull)
    except cv2.error:  # self-intersecting outlines make OpenCV refuse: no seam to cut
        return []
    if defects is None or len(defects) < 2:
        return []
    defects = defects.reshape(-1, 4)  # OpenCV 4 gives (n, 1, 4), OpenCV 5 (n, 4)
    size = np.sqrt(cv2.contourArea(contour))
    deep = defects[defects[:, 3] / 256.0 > SEAM_DEPTH * size]
    if len(deep) < 2:
        return []
    top = deep[np.argsort(-deep[:, 3])][:2]
    a, b = (contour[d[2], 0] for d in top)

    def cut(piece: np.ndarray, shift: np.ndarray) -> np.ndarray:
        return cv2.line(piece, tuple(int(v) for v in a + shift), tuple(int(v) for v in b + shift), 0, 2)

    return [p for p in _recut(contour, cut) if cv2.contourArea(p) > 0.25 * size * size]


def _recut(contour: np.ndarray, change: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> list[np.ndarray]:
    """The outer outlines of a blob once change(piece, shift) altered its filled shape (drawn in a
    box of its own; shift: blob px to box px)."""
    x, y, w, h = cv2.boundingRect(contour)
    piece = np.zeros((h + 2, w + 2), np.uint8)
    cv2.drawContours(piece, [contour], -1, 255, -1, offset=(1 - x, 1 - y))
    pieces, _ = cv2.findContours(change(piece, np.array([1 - x, 1 - y])), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE,
                                 offset=(x - 1, y - 1))
    return list(pieces)


def halves(contour: np.ndarray, frame_area: float) -> tuple[np.ndarray, np.ndarray] | None:
    """A blob of two cards side by side cut across the middle of its smallest rectangle's long
    side, each half outlined by its own smallest rectangle, or None when the halves are no pair of
    cards: two cards touching along their long edges but offset along that seam make a blob with a
    step at either end, which a four-sided fit of the whole halves wrongly."""
    (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
    along = np.deg2rad(angle if w >= h else angle + 90.0)  # the long side's direction
    u = np.array([np.cos(along), np.sin(along)])
    centre, reach = np.array([cx, cy]), max(w, h)
    a, b = centre + reach * np.array([-u[1], u[0]]), centre - reach * np.array([-u[1], u[0]])

    def cut(piece: np.ndarray, shift: np.ndarray) -> np.ndarray:
        return cv2.line(piece, tuple(int(v) for v in a + shift), tuple(int(v) for v in b + shift), 0, 2)

    pieces = _pieces(_recut(contour, cut), frame_area)
    if len(pieces) != 2:
        return None
    quads = tuple(refine(cv2.boxPoints(cv2.minAreaRect(p)).astype(np.float64), p) for p in pieces)
    return quads if all(card_shaped(q) for q in quads) else None


def analyse(contour: np.ndarray, frame_area: float, hull: np.ndarray | None = None,
            pieces: list[np.ndarray] | None = None) -> Candidate | None:
    """All the ways a blob can be read as cards, likeliest first: whole, cut at a seam, halved
    (hull: its convex hull's indices, pieces: its cut at a seam, when the caller has them)."""
    hull = cv2.convexHull(contour, returnPoints=False) if hull is None else hull
    whole = rectangular(contour, frame_area, contour[hull.ravel()])  # the hull's points, as convexHull gives them
    hyps = [h for h in whole.hypotheses if len(h) == 1] if whole is not None else []
    pieces = cut_at_seam(contour, hull) if pieces is None else pieces
    if len(pieces) == 2:
        singles = [rectangular(p, frame_area) for p in pieces]
        if all(c is not None and len(c.hypotheses[0]) == 1 for c in singles):
            hyps.append(tuple(c.hypotheses[0][0] for c in singles))
    halving = None
    if whole is not None:
        hyps.extend(h for h in whole.hypotheses if len(h) == 2)
        if len(hyps[-1]) == 2:
            halving = partial(_halves_unlike, contour, frame_area, hyps[-1])
    return Candidate(tuple(hyps), halving=halving) if hyps else None


def _halves_unlike(contour: np.ndarray, frame_area: float,
                   split_quad: tuple[np.ndarray, ...]) -> tuple[tuple[np.ndarray, ...], ...]:
    """A blob's halves (halves) as a hypothesis, unless they are the halves of its four-sided fit again."""
    cut = halves(contour, frame_area)
    if cut is None or all(max(iou(q, r) for r in split_quad) >= SAME_HALVES for q in cut):
        return ()
    return (cut,)


def without_spurs(contour: np.ndarray, frame_area: float) -> Iterator[list[np.ndarray]]:
    """A blob's card-sized pieces once thin bands are cut off (a plank seam or a grid line that
    runs into a card's outline joins the card's blob and spoils its shape; one seam may join the
    Mayor's two cards, about the same size), for each width of cut: SPUR_SHARE of the smallest
    card's short side, then of the blob's own when that is wider and the blob no bigger than the
    largest card (a big card on marble, its veins blurred wide; a blob of the whole table is no card
    with spurs, and an opening that wide over it costs tens of ms). A cut that leaves more or
    unlike pieces (a net of checks or grid cells, not cards) gives none; cuts are made as the caller
    asks for them: it takes the first whose pieces look like cards."""
    smallest = SPUR_SHARE * np.sqrt(MIN_CARD_SHARE * frame_area / CARD_ASPECT)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (round(smallest) | 1, round(smallest) | 1))
    yield _pieces(_recut(contour, lambda piece, _: cv2.morphologyEx(piece, cv2.MORPH_OPEN, kernel)), frame_area)
    area = cv2.contourArea(contour)
    own = SPUR_SHARE * np.sqrt(area / CARD_ASPECT)
    if own > smallest and area <= MAX_CARD_SHARE * frame_area:
        yield _pieces(_recut(contour, lambda piece, _: _opened(piece, own / 2)), frame_area)


def _opened(mask: np.ndarray, radius: float) -> np.ndarray:
    """A mask opened by a disc of this radius (px), by two distance transforms (5x5 mask: within ~2%
    of the true distance): as fast for a wide disc as a narrow one (a 200x260 box: cv2's opening by
    an ellipse 41 px wide 1.6 ms, this 0.35 ms)."""
    inner = cv2.distanceTransform(mask, cv2.DIST_L2, cv2.DIST_MASK_5) >= radius
    near = cv2.distanceTransform((~inner).astype(np.uint8), cv2.DIST_L2, cv2.DIST_MASK_5) <= radius
    return (near * 255).astype(np.uint8)


def _pieces(cut: list[np.ndarray], frame_area: float) -> list[np.ndarray]:
    """A cut blob's card-sized pieces, or none when they are more than two or unlike in area."""
    sized = [(area, p) for p in cut if (area := cv2.contourArea(p)) >= MIN_CARD_SHARE * frame_area]
    areas = sorted(area for area, _ in sized)
    alike = len(sized) == 1 or (len(sized) == 2 and areas[0] >= PAIR_AREA_RATIO * areas[1])
    return [p for _, p in sized] if alike else []


def card_shaped(quad: np.ndarray) -> bool:
    """Whether a quad has one card's aspect (ONE_CARD_ASPECT), whatever its size."""
    return ONE_CARD_ASPECT[0] <= aspect(quad) <= ONE_CARD_ASPECT[1]


def card_sized(quad: np.ndarray, frame_area: float) -> bool:
    """Whether a quad has one card's aspect and size."""
    return card_shaped(quad) and MIN_CARD_SHARE * frame_area <= quad_area(quad) <= MAX_CARD_SHARE * frame_area


def stretched(quad: np.ndarray) -> list[np.ndarray]:
    """An outline too short for one card lengthened to a card's aspect at either end (a dark band
    across the card, its header, lost in the table), or none when it is long enough."""
    sides = side_lengths(quad)
    if sides[0] + sides[2] > sides[1] + sides[3]:
        quad, sides = following(quad), following(sides)
    short, long = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    if long >= STRETCH_BELOW * short:
        return []
    need = CARD_ASPECT * short - long
    p0, p1, p2, p3 = quad
    along_1, along_3 = (p2 - p1) / max(sides[1], 1e-6), (p3 - p0) / max(sides[3], 1e-6)
    return [np.array([p0, p1, p2 + need * along_1, p3 + need * along_3]),
            np.array([p0 - need * along_3, p1 - need * along_1, p2, p3])]
