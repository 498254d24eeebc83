"""An outline's sides settled on the card's edge at the frame's own resolution, to a fraction of a pixel.

Detection finds outlines on a copy of the frame at most WORK_HEIGHT tall, where one pixel is up to
two of a 1280x720 frame, and a blob fitted round edge pixels sits a pixel or two outside the card.
The twins differ in a badge or a digit a millimetre or two across, so an outline a pixel or two off
moves what the reader compares by as much. Each side is sampled across at points along it; at each
point the card's edge is the strong colour change from the card's side to the table's nearest the
side as found (not a brighter line printed just inside it), placed to a fraction of a pixel; a
line fitted to those points is the side, and the sides meet again.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.sides import following, meet, normals_out

REFINE_POINTS = 24  # points sampled across each side: a line fitted to this many shrugs off a few strays
REFINE_SPAN = (0.12, 0.88)  # share of a side sampled: off the rounded corners (3 mm of a 63 mm side is 5%)
REFINE_REACH = 0.015  # share of the card's height a side may move: detection's outlines sit within 1-2 work px
REFINE_REACH_MIN = 2.0  # frame px: a small card's side may still be a work pixel (up to 2 frame px) off
REFINE_STEP = 0.5  # frame px between samples across a side (the peak is placed between them)
REFINE_EDGE = 6.0  # grey levels per px: a colour change slower than this at a point is no edge there
REFINE_PEAK_SHARE = 0.5  # an edge at a point counts if at least this share of the point's strongest
REFINE_KEEP = 0.6  # share of a side's points that must find its edge for the side to move
REFINE_FIT = 0.75  # frame px: a point further than this from the line fitted so far is a stray, left out of the next fit

_T = np.linspace(*REFINE_SPAN, REFINE_POINTS)


def refined(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """An ordered outline (frame px) with each side moved onto the card's edge near it, as float32;
    a side that finds no clear edge along most of its length stays where it is."""
    quad = np.asarray(quad, np.float64)
    height = float(max(np.linalg.norm(quad[3] - quad[0]), np.linalg.norm(quad[1] - quad[0])))
    reach = max(REFINE_REACH_MIN, REFINE_REACH * height)
    a, b, n = quad, following(quad), normals_out(quad)
    start, end = _moves(frame, a, b, n, reach)
    if not (start.any() or end.any()):
        return quad.astype(np.float32)
    p = a + start[:, None] * n  # each side's moved start; its moved end less that is its direction
    d = (b + end[:, None] * n) - p
    return meet(list(zip(p, d, strict=True)), quad, 2 * reach + 1).astype(np.float32)


def _moves(frame: np.ndarray, a: np.ndarray, b: np.ndarray, n: np.ndarray,
           reach: float) -> tuple[np.ndarray, np.ndarray]:
    """How far (px along its outward normal) each side's start and end move onto the card's edge;
    0 for a side with no clear edge along most of its length."""
    half = np.ceil((reach + 1.0) / REFINE_STEP) * REFINE_STEP
    offsets = np.arange(-half, half + 1e-9, REFINE_STEP)
    base = a[:, None, :] + _T[None, :, None] * (b - a)[:, None, :]  # (side, point, xy)
    xy = (base[:, :, None, :] + offsets[None, None, :, None] * n[:, None, None, :]).astype(np.float32)
    profile = cv2.remap(frame, xy.reshape(-1, len(offsets), 2), None, cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE).astype(np.float32).reshape(*xy.shape[:3], -1)
    k = max(1, round(1.0 / REFINE_STEP))  # the change over one frame pixel
    step = profile[:, :, k:] - profile[:, :, :-k]
    mid = 0.5 * (offsets[k:] + offsets[:-k])
    outward = profile[:, :, -1] - profile[:, :, 0]  # from the card's side to the table's, whatever their colours
    outward /= np.maximum(np.linalg.norm(outward, axis=2, keepdims=True), 1e-6)
    along = np.einsum("spok,spk->spo", step, outward)
    at, found = _nearest_peaks(along, mid, reach)
    return _fits(at, found, reach)


def _nearest_peaks(along: np.ndarray, mid: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """Each point's strong edge nearest the side as found, placed between samples (px along the
    normal), and whether it has one: a card's edge, not the brighter line printed just inside it."""
    inside = np.abs(mid[1:-1]) <= reach
    inner = along[..., 1:-1]
    top = inner[..., inside].max(axis=-1, keepdims=True)
    strong = (inner >= np.maximum(REFINE_EDGE, REFINE_PEAK_SHARE * top)) & (inner >= along[..., :-2]) \
        & (inner > along[..., 2:]) & inside
    distance = np.where(strong, np.abs(mid[1:-1]), np.inf)
    index = np.argmin(distance, axis=-1)
    sides, points = np.indices(index.shape)
    left, centre, right = (along[sides, points, index + d] for d in (0, 1, 2))
    bend = left - 2 * centre + right
    sub = np.clip(np.where(bend < 0, 0.5 * (left - right) / np.where(bend < 0, bend, -1.0), 0.0), -0.5, 0.5)
    return mid[1:-1][index] + sub * REFINE_STEP, distance[sides, points, index] < np.inf


def _fits(at: np.ndarray, found: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """Each side's move at its start and end: a line through its points' moves (against their
    place along it) by least squares, refitted without the strays beyond REFINE_FIT."""
    keep = found
    for _ in range(3):
        slope, offset = _line(at, keep)
        keep = found & (np.abs(at - (offset[:, None] + slope[:, None] * _T[None, :])) <= REFINE_FIT)
    ok = (found.mean(axis=1) >= REFINE_KEEP) & (keep.mean(axis=1) >= REFINE_KEEP)
    start, end = offset, offset + slope
    ok &= (np.abs(start) <= reach) & (np.abs(end) <= reach)  # a line running off its side is no edge along it
    return np.where(ok, start, 0.0), np.where(ok, end, 0.0)


def _line(at: np.ndarray, keep: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per side, the least-squares slope and offset of the kept points' moves against their place."""
    w = keep.astype(np.float64)
    count = np.maximum(w.sum(axis=1), 1.0)
    mt, ma = (w * _T).sum(axis=1) / count, (w * at).sum(axis=1) / count
    var = (w * (_T - mt[:, None]) ** 2).sum(axis=1)
    slope = np.where(var > 1e-9, (w * (_T - mt[:, None]) * (at - ma[:, None])).sum(axis=1) / np.maximum(var, 1e-9), 0.0)
    return slope, ma - slope * mt
