"""Cards on a checked cloth: the cloth's checks smoothed away, what stands out from the smooth cloth.

A gingham's checks are a periodic pattern of straight edges in two directions. At the scale of
one period the cloth has edges everywhere: its edge net joins every card's outline and encloses
the whole frame, and its colours (white, half tone, full colour) include a card's white border,
so neither detect's edge masks nor its table colours find the card. Averaged over one period,
though, the cloth is one flat colour with one flat contrast, and a card is a region that differs
from it. This cue runs only when the frame's border is dense with edges (a cloth, a grid or
grain), from the density of those edges it reads the period, blurs the frame over it, learns
the blurred cloth from the border band and marks what is far from it. The blur rounds a card's
outline by about a period; detect's side fitting and edge support then work on the real frame.
"""

from __future__ import annotations

import cv2
import numpy as np

BAND = 0.06  # share of each frame side taken as cloth when learning it (detect.TABLE_BAND)
DENSE = 0.04  # share of the band's pixels on a mid-level edge above which the table is a texture:
              # plain felt and laminate give < 0.005, wood grain and printed grids mostly < 0.04,
              # checks 0.06-0.35 (measured on the tuning tops)
EDGES_PER_PERIOD = 4.0  # edge px per px of cloth times the period: two edges per period, two directions
PERIOD_PX = (6.0, 60.0)  # work px: periods outside this are noise or checks larger than a card
BLUR_PER_PERIOD = 0.45  # Gaussian sigma per period: leaves ~0.7% of the checks' fundamental
SMALL_SIGMA = 2.0  # px: the blur runs on a copy shrunk until its sigma is this (cheap, smooth anyway)
CONTRAST_GAIN = 1.0  # weight of local contrast (std of lightness) beside the blurred colour
SPREAD_MIN = 4.0  # colour units: the smoothed cloth still varies this much (folds, light fall-off)
FAR = 4.0  # robust spreads from the cloth's feature beyond which a pixel is not cloth
_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


def band_share(mask: np.ndarray) -> float:
    """Share of the border band's pixels set in a mask."""
    h, w = mask.shape
    b = max(2, round(BAND * h))
    total = (cv2.countNonZero(mask[:b]) + cv2.countNonZero(mask[-b:])
             + cv2.countNonZero(mask[b:-b, :b]) + cv2.countNonZero(mask[b:-b, -b:]))
    return total / float(2 * b * w + 2 * b * (h - 2 * b))


def cloth_period(weak_edges: np.ndarray, mid_edges: np.ndarray) -> float | None:
    """The check period in work px read from edge density in the border band, or None when the
    table is no dense texture."""
    if band_share(mid_edges) < DENSE:
        return None
    period = EDGES_PER_PERIOD / max(band_share(weak_edges), 1e-6)
    return float(np.clip(period, *PERIOD_PX))


def _features(colour: np.ndarray, sigma: float) -> np.ndarray:
    """Per pixel: colour (chroma scaled) and lightness contrast, averaged over sigma px."""
    lab = colour.astype(np.float32)
    lab[..., 1:] = (lab[..., 1:] - 128.0) * 2.5
    mean = cv2.GaussianBlur(lab, (0, 0), sigma)
    sq = cv2.GaussianBlur(lab[..., 0] * lab[..., 0], (0, 0), sigma)
    std = np.sqrt(np.maximum(sq - mean[..., 0] ** 2, 0.0)) * CONTRAST_GAIN
    return np.dstack([mean, std])


def cloth_mask(colour_u8: np.ndarray, period: float) -> np.ndarray:
    """Mask (work size) of what stands out from a checked cloth of this period."""
    h, w = colour_u8.shape[:2]
    sigma = BLUR_PER_PERIOD * period
    shrink = min(1.0, SMALL_SIGMA / sigma)
    small = cv2.resize(colour_u8, (max(8, round(w * shrink)), max(8, round(h * shrink))), interpolation=cv2.INTER_AREA)
    feats = _features(small, sigma * shrink)
    sh, sw = feats.shape[:2]
    b = max(1, round(BAND * sh))
    band = np.concatenate([feats[:b].reshape(-1, 4), feats[-b:].reshape(-1, 4),
                           feats[:, :b].reshape(-1, 4), feats[:, -b:].reshape(-1, 4)])
    centre = np.median(band, axis=0)
    spread = np.maximum(1.4826 * np.median(np.abs(band - centre), axis=0), SPREAD_MIN)
    z = np.abs(feats - centre) / spread
    far = (z.max(axis=2) / FAR).astype(np.float32)
    far = cv2.resize(far, (w, h), interpolation=cv2.INTER_LINEAR)
    mask = (far > 1.0).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _KERNEL)
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _KERNEL)


SNAP_PERIODS = 0.5  # each end of a side may move this many periods (the blur moved it up to ~sigma)
SNAP_STEPS = 15


def snap_wide(grad, quad: np.ndarray, period: float) -> np.ndarray:
    """Prototype: lone._snap with a reach of a share of the period."""
    from vision import lone as L
    from vision.detect import intersect
    centre = quad.mean(axis=0)
    short = float(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1).min())
    reach = SNAP_PERIODS * period + L.SNAP_SHARE * short
    steps = np.linspace(-reach, reach, SNAP_STEPS)
    sa, sb = (g.ravel() for g in np.meshgrid(steps, steps, indexing="ij"))
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        n = L._normal(a, b, centre)
        across = L._across(grad, a + sa[:, None] * n, b + sb[:, None] * n, n, np.zeros(1))
        strength = np.minimum(across[..., 0], L.SNAP_CAP * L.EDGE_MIN).mean(axis=1)
        best = int(np.lexsort((np.abs(sa) + np.abs(sb), -strength))[0])
        lines.append((a + sa[best] * n, b - a + (sb[best] - sa[best]) * n))
    corners = [intersect(*lines[i - 1], *lines[i]) for i in range(4)]
    if any(c is None for c in corners):
        return quad
    return np.array(corners)
