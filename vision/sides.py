"""The straight sides of a card outline: where two meet, how well each sits on a real edge, and
moving each onto the edge near it; and an outline grown, shrunk or nudged about its centre (the
reader's second looks at a card). Shared by the live read (vision.detect, vision.lattice, vision.reader)
and enrollment's search (vision.lone).

Two measures of an outline: edge support asks whether the colour just inside differs from just
outside (cheap, any table); along support asks whether the gradient on the side runs along it, so
a check edge or a grain line crossing a false side does not count.
"""

from __future__ import annotations

import cv2
import numpy as np

CHROMA_GAIN = 2.5  # opponent channels (YCrCb Cr, Cb) span ~1/2.5 the range of lightness for real colours
STEP_OFFSET = 0.035  # share of the card's short side: where colour is sampled on each side of an edge
STEP_MIN = 10.0  # colour units (YCrCb, chroma scaled): a colour step this large along the outline counts as a real edge
SUPPORT_SAMPLES = 24  # points sampled along each side of a quad for edge support
SIDE_SAMPLES = 32  # points sampled along each side of a quad for along support and snapping
SIDE_SPAN = (0.1, 0.9)  # share of a side sampled: keep off the rounded corners
PEAK_PX = 2  # work px either side of a side where its edge may lie (corners are fitted, not exact)
EDGE_MIN = 12.0  # Sobel units (3x3 on the 5x5-blurred strongest channel): ~a 4-unit colour step
ALIGN_MIN = 0.9  # |gradient across the side| / |gradient| at an edge point: within ~25 degrees
SNAP_STEPS = 9  # positions tried per end of a side when snapping (a 9x9 grid of lines per side)
RIM_EVEN = 2.0  # widest over narrowest side of a printed border seen in perspective (tilt up to 20 degrees)
SNAP_CAP = 4.0  # a side's edge strength counts up to this many EDGE_MIN per point: one bright spot cannot win
STEADY_NUDGE = 0.0075  # share of the card's height an outline is nudged by to steady a twin call (1-2 px on a
# 15-45% card): a lead a gilded blue-C2 0.43 of the frame tall gave blue-C1 on an outline 0.4 px off the truth is the
# outline's, not the card's; twice this read alike (seen styles' blue cards on true outlines, 480: 436 right and 2
# wrong at this nudge, 433 and 1 at twice it)

Gradient = tuple[np.ndarray, np.ndarray]  # float32 dx, dy of detect.colour_gradient


_LEVELS = np.arange(256, dtype=np.float32)
# Every uint8 level's colour units per channel, (1, 256, 3) float32: a table look-up (cv2.LUT) is
# exact and ten times quicker than scaling two of three interleaved channels in numpy.
UNIT_LEVELS = np.dstack([_LEVELS, (_LEVELS - 128.0) * CHROMA_GAIN, (_LEVELS - 128.0) * CHROMA_GAIN])


def colour_units(colour_u8: np.ndarray) -> np.ndarray:
    """Float32 YCrCb samples (..., 3) with the opponent channels scaled to lightness' range."""
    if colour_u8.dtype == np.uint8:
        return cv2.LUT(np.ascontiguousarray(colour_u8).reshape(-1, 1, 3), UNIT_LEVELS).reshape(colour_u8.shape)
    lab = colour_u8.astype(np.float32)
    lab[..., 1:] = (lab[..., 1:] - 128.0) * CHROMA_GAIN
    return lab


def intersect(p: np.ndarray, u: np.ndarray, q: np.ndarray, v: np.ndarray,
              parallel: float = 1e-9) -> np.ndarray | None:
    """Where the lines p + s*u and q + r*v meet, or None when |u x v| < parallel (about parallel)."""
    # Python floats, not numpy scalars: the same double arithmetic without numpy's per-element overhead
    (px, py), (ux, uy), (qx, qy), (vx, vy) = p.tolist(), u.tolist(), q.tolist(), v.tolist()
    det = ux * -vy - uy * -vx
    if abs(det) < parallel:
        return None
    s = ((qx - px) * -vy - (qy - py) * -vx) / det
    return np.array([px + s * ux, py + s * uy])


_NEXT = np.array([1, 2, 3, 0])  # a quad's corners, each one's next


def following(quad: np.ndarray) -> np.ndarray:
    """Each corner's next corner: np.roll(quad, -1, axis=0) without its overhead (this runs per quad, often)."""
    return quad.take(_NEXT, axis=0) if len(quad) == 4 else np.concatenate((quad[1:], quad[:1]))


def side_lengths(quad: np.ndarray) -> np.ndarray:
    """Lengths of a quad's four sides, each from a corner to the next."""
    d = quad - following(quad)
    return np.sqrt(np.add.reduce(d * d, axis=1))  # np.linalg.norm(d, axis=1), as numpy computes it


def quad_area(quad: np.ndarray) -> float:
    """A quad's (or any closed outline's) area in px."""
    return abs(cv2.contourArea(quad.astype(np.float32)))


def short_side(quad: np.ndarray) -> float:
    """Length of a quad's shortest side: the scale of a card outline, whatever its tilt."""
    return float(side_lengths(quad).min())


def _overlap(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """The area two convex polygons (k x 2 points, either way round) share, and each one's area."""
    inside = _clipped(np.asarray(a, np.float64).tolist(), np.asarray(b, np.float64).tolist())
    return abs(_signed_area(inside)), quad_area(np.asarray(a)), quad_area(np.asarray(b))


def intersection_area(a: np.ndarray, b: np.ndarray) -> float:
    """The area two convex polygons (k x 2 points, either way round) have in common.

    Not cv2.intersectConvexConvex: for two outlines touching along a side (the Mayor's two cards)
    it may answer the whole of one (OpenCV 5.0: a pair of water cards overlapped "1.01" of each
    other, so the reader kept one; opencv/opencv#26972, #10044). Clipped here instead, side by side
    (Sutherland-Hodgman), in double precision: touching outlines share a line of no area."""
    return _overlap(a, b)[0]


def _signed_area(points: list[list[float]]) -> float:
    """The signed area of a polygon (shoelace; any point count, none included): its sign tells which way round it runs."""
    return 0.5 * sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True))


def _clipped(subject: list[list[float]], clip: list[list[float]]) -> list[list[float]]:
    """The part of a convex polygon inside another convex polygon (points as lists of [x, y])."""
    way = 1.0 if _signed_area(clip) >= 0 else -1.0
    out = subject
    for (ax, ay), (bx, by) in zip(clip, clip[1:] + clip[:1], strict=True):
        if not out:
            break
        points, out = out, []
        # how far inside the side each point lies (>= 0: inside), the same sign whichever way clip runs
        depth = [way * ((bx - ax) * (y - ay) - (by - ay) * (x - ax)) for x, y in points]
        for k, (p, dp) in enumerate(zip(points, depth, strict=True)):
            q, dq = points[(k + 1) % len(points)], depth[(k + 1) % len(points)]
            if dp >= 0:
                out.append(p)
            if (dp >= 0) != (dq >= 0):
                t = dp / (dp - dq)
                out.append([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])])
    return out


def iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads."""
    inter, area_a, area_b = _overlap(a, b)
    return inter / max(area_a + area_b - inter, 1e-6)


def covered(a: np.ndarray, b: np.ndarray) -> float:
    """Share of convex quad a's area that lies inside convex quad b."""
    inter, area_a, _ = _overlap(a, b)
    return inter / max(area_a, 1e-6)


_SUPPORT_T = (np.arange(SUPPORT_SAMPLES) + 0.5) / SUPPORT_SAMPLES * 0.8 + 0.1  # keep off the rounded corners
_SIDE_T = np.linspace(*SIDE_SPAN, SIDE_SAMPLES)


def edge_support(colour_u8: np.ndarray, quad: np.ndarray) -> float:
    """Share of a quad's outline where the colour just inside differs from just outside (0..1)."""
    h, w = colour_u8.shape[:2]
    offset = max(1.5, STEP_OFFSET * short_side(quad))
    a, b, n = quad, following(quad), normals_out(quad)
    # x and y apart, (side, sample): numpy is slow on a trailing axis of two
    along = [a[:, i, None] + _SUPPORT_T[None, :] * (b - a)[:, i, None] for i in (0, 1)]
    pin = [(p - offset * n[:, i, None]).ravel() for i, p in enumerate(along)]
    pout = [(p + offset * n[:, i, None]).ravel() for i, p in enumerate(along)]
    ok = (pout[0] >= 0) & (pout[0] <= w - 1) & (pout[1] >= 0) & (pout[1] <= h - 1)
    if not ok.any():
        return 0.0
    # inside and outside in one remap: each bilinear sample stands alone
    mx, my = (np.concatenate([pin[i][ok], pout[i][ok]]).astype(np.float32)[:, None] for i in (0, 1))
    both = cv2.remap(colour_u8, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    units = colour_units(both.reshape(len(mx), -1))
    step = units[: len(units) // 2] - units[len(units) // 2:]
    return float(np.mean(np.linalg.norm(step, axis=1) >= STEP_MIN))


def normals_out(quad: np.ndarray) -> np.ndarray:
    """Unit normals (4x2) of a quad's sides, each from a corner to the next, pointing away from its centre."""
    quad = np.asarray(quad, np.float64)
    d = following(quad) - quad
    lengths = np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-6).tolist()
    # Python floats for the rest: numpy's double arithmetic on a 4x2 array, without its per-call overhead
    pts = quad.tolist()
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = pts
    cx, cy = (((x0 + x1) + x2) + x3) / 4, (((y0 + y1) + y2) + y3) / 4  # numpy's mean adds the rows in turn
    out = []
    for (ax, ay), (bx, by), (dx, dy), length in zip(pts, pts[1:] + pts[:1], d.tolist(), lengths, strict=True):
        nx, ny = -dy / length, dx / length
        out.append((nx, ny) if nx * ((ax + bx) / 2 - cx) + ny * ((ay + by) / 2 - cy) >= 0 else (-nx, -ny))
    return np.array(out)


def _across(grad: Gradient, a: np.ndarray, b: np.ndarray, n: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Gradient across a batch of lines a[i]-b[i] (normal n: one for all, or one per line), where it
    runs along them, else 0.

    Sampled at SIDE_SAMPLES points of each line and at each offset along n: shape (k, samples, offsets).
    """
    n = np.broadcast_to(n, a.shape)
    # x and y apart: numpy is slow on a trailing axis of two
    xy = [(a[:, i, None, None] + _SIDE_T[None, :, None] * (b - a)[:, i, None, None]
           + offsets[None, None, :] * n[:, i, None, None]) for i in (0, 1)]  # each (k, samples, offsets)
    shape = xy[0].shape
    mx, my = (c.reshape(-1, 1).astype(np.float32) for c in xy)
    gx = cv2.remap(grad[0], mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT).reshape(shape)
    gy = cv2.remap(grad[1], mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT).reshape(shape)
    across = np.abs(gx * n[:, 0, None, None] + gy * n[:, 1, None, None])
    return np.where(across >= ALIGN_MIN * np.hypot(gx, gy), across, 0.0)


def along_shares(grad: Gradient, a: np.ndarray, b: np.ndarray, n: np.ndarray, peak: int = PEAK_PX) -> np.ndarray:
    """Share of points on each of a batch of lines a[i]-b[i] (normal n: one for all, or one per
    line) that lie within peak px of an edge running along it."""
    offsets = np.arange(-peak, peak + 1, dtype=np.float64)
    return (_across(grad, a, b, n, offsets) >= EDGE_MIN).any(axis=2).mean(axis=1)


def along_support(grad: Gradient, quad: np.ndarray) -> float:
    """Share of a quad's outline that is an edge running along it (0..1)."""
    return float(np.mean(along_shares(grad, quad, following(quad), normals_out(quad))))


def meet(lines: list[tuple[np.ndarray, np.ndarray]], quad: np.ndarray, limit: float) -> np.ndarray:
    """The corners where four moved sides (point, direction) meet, corner i where sides i-1 and i do;
    the quad unchanged when two no longer meet or a corner moved limit px or more (further than its
    sides could)."""
    corners = [intersect(*lines[i - 1], *lines[i]) for i in range(4)]
    if any(c is None for c in corners):
        return quad
    moved = np.array(corners)
    return moved if np.abs(moved - quad).max() < limit else quad


def snap(grad: Gradient, quad: np.ndarray, reach: float, steps: int = SNAP_STEPS) -> np.ndarray:
    """Move each side (each end on its own, up to reach px) onto the line near it best covered by
    an edge along it; the quad unchanged when the sides no longer meet."""
    moves = np.linspace(-reach, reach, steps)
    sa, sb = (g.ravel() for g in np.meshgrid(moves, moves, indexing="ij"))
    a, b, n = quad, following(quad), normals_out(quad)
    # every side's every pair of end moves in one batch: (side, move pair, xy)
    ends_a = a[:, None, :] + sa[None, :, None] * n[:, None, :]
    ends_b = b[:, None, :] + sb[None, :, None] * n[:, None, :]
    across = _across(grad, ends_a.reshape(-1, 2), ends_b.reshape(-1, 2), np.repeat(n, len(sa), axis=0), np.zeros(1))
    strength = np.minimum(across[..., 0], SNAP_CAP * EDGE_MIN).mean(axis=1).reshape(4, len(sa))
    lines = []
    for i in range(4):
        # Ties go to the smallest move: the blob's own fit is right more often than not.
        best = int(np.lexsort((np.abs(sa) + np.abs(sb), -strength[i]))[0])
        lines.append((a[i] + sa[best] * n[i], b[i] - a[i] + (sb[best] - sa[best]) * n[i]))
    return meet(lines, quad, 2 * reach + 2)


def to_rim(grad: Gradient, quad: np.ndarray, reach: float, share: float, steps: int) -> np.ndarray:
    """Move each side outward (parallel, up to reach px) onto the outermost line that is an edge
    along at least share of its length: a card's rim around the panel of its art. A border runs
    round all four sides about as wide, so the quad is left as it is unless every side finds one
    and the widest is at most RIM_EVEN times the narrowest."""
    moves = np.linspace(0.0, reach, steps)
    a, b, n = quad, following(quad), normals_out(quad)
    shifted = [(end[:, None, :] + moves[None, :, None] * n[:, None, :]).reshape(-1, 2) for end in (a, b)]
    edged = along_shares(grad, *shifted, np.repeat(n, steps, axis=0), peak=1).reshape(4, steps) >= share
    lines, widths = [], []
    for i, ok in enumerate(edged):
        move = 0.0
        if ok.any():  # the middle of the outermost run of edge lines: one edge is a few px wide
            last = len(ok) - 1 - int(np.argmax(ok[::-1]))
            first = last - int(np.argmin(ok[last::-1])) + 1 if not ok[: last + 1].all() else 0
            move = float(moves[(first + last) // 2])
        if move <= 0:
            return quad
        widths.append(move)
        lines.append((a[i] + move * n[i], b[i] - a[i]))
    if max(widths) > RIM_EVEN * min(widths):
        return quad
    return meet(lines, quad, 2 * reach + 2)


def nudged(quad: np.ndarray) -> list[np.ndarray]:
    """An ordered outline grown and shrunk about its centre and moved either way along each side,
    each by about STEADY_NUDGE of the card's height: outlines as detection finds them on another frame."""
    height = float(np.linalg.norm(quad[3] - quad[0]))
    across = (quad[1] - quad[0]) / max(float(np.linalg.norm(quad[1] - quad[0])), 1e-6)
    down = (quad[3] - quad[0]) / max(height, 1e-6)
    step = STEADY_NUDGE * height
    return [scaled(quad, 1 + s * 2 * STEADY_NUDGE) for s in (1, -1)] + \
        [(quad + s * step * d).astype(np.float32) for d in (across, down) for s in (1, -1)]


def scaled(quad: np.ndarray, k: float) -> np.ndarray:
    """An outline grown (k > 1) or shrunk about its centre, float32."""
    centre = quad.mean(axis=0)
    return (centre + k * (quad - centre)).astype(np.float32)
