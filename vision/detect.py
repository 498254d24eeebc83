"""Find card outlines in a frame: what stands out from the table, split into card-shaped quads.

The table is modelled as a smooth colour surface (a quadratic per channel, fitted robustly to a
tiny copy of the frame), so uneven light does not look like a card. Whatever differs from it is
foreground. Each foreground blob is then a card, two touching cards, or clutter (a hand, glare).
A blob shaped like one card could also be two cards touching along their long edges (together
they are almost exactly as long as one card is wide), so such a blob carries both readings as
hypotheses and the reader keeps whichever the deck recognises.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

WORK_SCALE = 0.5  # detection runs on a half-size frame: enough for outlines, 4x fewer pixels
CANNY_LOW, CANNY_HIGH = 20, 50  # grey-level gradients: a card's edge is a step of 50+ levels
MIN_CARD_SHARE = 0.012  # smallest card area as a share of the frame (camera at most ~1.3 m up)
MAX_CARD_SHARE = 0.20  # largest single card as a share of the frame
MIN_SOLIDITY = 0.93  # blob area / hull area of a card (rounded corners, noisy outline)
QUAD_FIT = 0.92  # hull area / fitted-quad area below which the blob is not four-sided
ONE_CARD_ASPECT = (1.15, 1.75)  # long/short side of one card (1.40) or two along long edges (1.43)
TWO_CARD_ASPECT = (2.3, 3.3)  # two cards end to end (2.79)
SEAM_DEPTH = 0.015  # dent depth, as a share of the blob's size, that may mark a seam between cards
REACH_SHARE = 0.08  # an outline this long (share of frame width) crossing the frame edge is an arm
CLUTTER_SHARE = 0.004  # a smaller blob is a crumb or a speck of glare, not a hand


@dataclass(frozen=True, eq=False)
class Candidate:
    """One foreground blob read as a card: alternative hypotheses, each a list of 4x2 quads."""

    hypotheses: tuple[tuple[np.ndarray, ...], ...]


@dataclass(frozen=True, eq=False)
class Detection:
    """The card candidates of a frame, and whether something else (a hand, glare) is in view."""

    candidates: tuple[Candidate, ...]
    clutter: bool


_OPEN_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))


def foreground(small: np.ndarray) -> tuple[np.ndarray, bool]:
    """Mask (uint8 0/255) of what stands out from the table: regions closed by strong edges.

    Also tells whether something big reaches in over the frame's edge (an arm, a hand): its
    outline cannot close inside the frame, so it is no region, but it is in the way all the same.
    """
    grey = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    edges = cv2.Canny(grey, CANNY_LOW, CANNY_HIGH)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    h, w = edges.shape
    reaching_in = False
    for c in contours:
        x, y, cw, ch = cv2.boundingRect(c)
        at_edge = x <= 1 or y <= 1 or x + cw >= w - 1 or y + ch >= h - 1
        reaching_in = reaching_in or (at_edge and max(cw, ch) >= REACH_SHARE * w)
    mask = np.zeros_like(edges)
    cv2.drawContours(mask, contours, -1, 255, -1)
    mask = cv2.erode(mask, np.ones((3, 3), np.uint8))  # undo the dilation: outlines back in place
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, _OPEN_KERNEL), reaching_in  # open: cut texture spurs


def _quad(points: np.ndarray) -> np.ndarray | None:
    """Fit a 4-corner polygon to a convex outline, or None when it is not four-sided."""
    perimeter = cv2.arcLength(points, True)
    for eps in (0.02, 0.03, 0.045, 0.06):
        poly = cv2.approxPolyDP(points, eps * perimeter, True)
        if len(poly) == 4:
            return poly.reshape(4, 2).astype(np.float64)
        if len(poly) < 4:
            return None
    return None


def _refine(quad: np.ndarray, contour: np.ndarray) -> np.ndarray:
    """Move corners to where straight lines fitted along each side meet (rounded corners cut in)."""
    pts = contour.reshape(-1, 2).astype(np.float64)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        ab = b - a
        length = float(np.linalg.norm(ab))
        t = (pts - a) @ ab / (length**2)
        rel = pts - a
        dist = np.abs(ab[0] * rel[:, 1] - ab[1] * rel[:, 0]) / length
        near = pts[(t > 0.15) & (t < 0.85) & (dist < max(2.0, 0.02 * length))]
        if len(near) < 5:
            return quad
        vx, vy, x0, y0 = cv2.fitLine(near.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
    out = []
    for i in range(4):
        (p, u), (q, v) = lines[i - 1], lines[i]
        det = u[0] * -v[1] - u[1] * -v[0]
        if abs(det) < 1e-6:
            return quad
        s = ((q - p)[0] * -v[1] - (q - p)[1] * -v[0]) / det
        out.append(p + s * u)
    refined = np.array(out)
    return refined if np.abs(refined - quad).max() < 0.1 * cv2.arcLength(quad.astype(np.float32), True) else quad


def _split(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cut a quad in two across its long sides' midpoints."""
    q = quad if np.linalg.norm(quad[1] - quad[0]) >= np.linalg.norm(quad[2] - quad[1]) else np.roll(quad, -1, axis=0)
    m01, m23 = (q[0] + q[1]) / 2, (q[2] + q[3]) / 2
    return np.array([q[0], m01, m23, q[3]]), np.array([m01, q[1], q[2], m23])


def _aspect(quad: np.ndarray) -> float:
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    a, b = sides[0] + sides[2], sides[1] + sides[3]
    return max(a, b) / max(min(a, b), 1e-6)


def _rectangular(contour: np.ndarray, frame_area: float) -> Candidate | None:
    """Read a convex, four-sided blob as one card, two cards, or None."""
    hull = cv2.convexHull(contour)
    area, hull_area = cv2.contourArea(contour), cv2.contourArea(hull)
    if hull_area <= 0 or area / hull_area < MIN_SOLIDITY:
        return None
    quad = _quad(hull)
    if quad is None or hull_area / max(cv2.contourArea(quad.astype(np.float32)), 1e-6) < QUAD_FIT:
        return None
    quad = _refine(quad, contour)
    aspect, share = _aspect(quad), area / frame_area
    if ONE_CARD_ASPECT[0] <= aspect <= ONE_CARD_ASPECT[1]:
        hyps = []
        if share <= MAX_CARD_SHARE:
            hyps.append((quad,))
        if share >= 2 * MIN_CARD_SHARE:
            hyps.append(_split(quad))
        return Candidate(tuple(hyps)) if hyps else None
    if TWO_CARD_ASPECT[0] <= aspect <= TWO_CARD_ASPECT[1] and share >= 2 * MIN_CARD_SHARE:
        return Candidate((_split(quad),))
    return None


def _cut_at_seam(contour: np.ndarray) -> list[np.ndarray]:
    """Cut a blob along the line joining its two deepest dents; returns the pieces."""
    hull = cv2.convexHull(contour, returnPoints=False)
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
    a, b = (tuple(int(v) for v in contour[d[2], 0]) for d in top)
    x, y, w, h = cv2.boundingRect(contour)
    piece = np.zeros((h + 2, w + 2), np.uint8)
    cv2.drawContours(piece, [contour], -1, 255, -1, offset=(1 - x, 1 - y))
    cv2.line(piece, (a[0] + 1 - x, a[1] + 1 - y), (b[0] + 1 - x, b[1] + 1 - y), 0, 2)
    pieces, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE, offset=(x - 1, y - 1))
    return [p for p in pieces if cv2.contourArea(p) > 0.25 * size * size]


def _analyse(contour: np.ndarray, frame_area: float) -> Candidate | None:
    """All the ways a blob can be read as cards, likeliest first: whole, cut at a seam, halved."""
    whole = _rectangular(contour, frame_area)
    hyps = [h for h in whole.hypotheses if len(h) == 1] if whole is not None else []
    pieces = _cut_at_seam(contour)
    if len(pieces) == 2:
        singles = [_rectangular(p, frame_area) for p in pieces]
        if all(c is not None and len(c.hypotheses[0]) == 1 for c in singles):
            hyps.append(tuple(c.hypotheses[0][0] for c in singles))
    if whole is not None:
        hyps.extend(h for h in whole.hypotheses if len(h) == 2)
    return Candidate(tuple(hyps)) if hyps else None


def detect(frame: np.ndarray) -> Detection:
    """Find card candidates in a BGR frame; corners come back in full-frame pixels."""
    h, w = frame.shape[:2]
    small = cv2.resize(frame, (round(w * WORK_SCALE), round(h * WORK_SCALE)), interpolation=cv2.INTER_AREA)
    mask, clutter = foreground(small)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    frame_area = float(mask.shape[0] * mask.shape[1])
    found: list[Candidate] = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < MIN_CARD_SHARE * frame_area:
            clutter = clutter or area > CLUTTER_SHARE * frame_area
            continue
        candidate = _analyse(contour, frame_area)
        if candidate is None:
            clutter = True
        else:
            found.append(candidate)
    scale = 1.0 / WORK_SCALE
    full = tuple(Candidate(tuple(tuple((q + 0.5) * scale - 0.5 for q in hyp) for hyp in c.hypotheses))
                 for c in found)
    return Detection(full, clutter)
