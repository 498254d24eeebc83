"""Cards on a checked cloth: the checks blurred away over their period, what stands out from the cloth.

A gingham's checks are a periodic pattern of straight edges in two directions. At the scale of
one period the cloth has edges everywhere: its edge net joins every card's outline and encloses
the whole frame, and its colours (white, half tone, full colour) include a card's white border,
so neither detect's edge masks nor its table colours find the card. Averaged over one period,
though, the cloth is one flat colour with one flat contrast, and a card is a region that differs
from it. So, only when the frame's border band is dense with edges running in more than one
direction as checks do (not plain felt, not wood grain, which runs one way, nor a thin printed
grid, whose edges lie mostly one way in the band):
  - the period is read from the density of those edges (two edges per period, two directions);
  - the frame is blurred over the period, the blurred cloth learnt from the border band, and
    what is far from it marked (cards found by the other cues are wiped from the mask first, so
    a card touching them is not lost in one blob with them);
  - the blur rounds a blob's outline by about a period, so each blob's card-shaped rectangle is
    snapped side by side onto the real edges within half a period (vision.sides.snap).
A card laid square to the checks keeps its sides on check edges, and may then snap onto one.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from vision.sides import colour_units, short_side, snap, to_rim

BAND = 0.06  # share of each frame side taken as cloth when learning it (as table_colour.TABLE_BAND)
DENSE = 0.04  # share of the band's pixels on a weak edge above which the table is a texture:
              # plain felt and laminate give < 0.005, marble < 0.03, wood grain mostly < 0.1, checks
              # 0.06-0.38 (5th percentile 0.06-0.08 over 120 photos of either cloth); checks half a card's
              # height across give 0.055 (at 0.06 an inkwash desert card 0.44 of the frame tall on them was missed)
ONE_WAY = 0.50  # share of the band's edge pixels within ONE_WAY_DEG of one direction above which the
                # texture is no check: wood grain 0.7-0.97; checks 0.16-0.39 (5th-95th percentile); a
                # printed square grid ~0.45 (its lines are thin, cards stand out from it without this cue)
ONE_WAY_DEG = 20.0  # width of that window, degrees
EDGES_PER_PERIOD = 4.0  # edge px per px of cloth, times the period: two edges per period, two directions
PERIOD_PX = (6.0, 60.0)  # work px: a finer period is noise; checks coarser than this are larger than cards
BLUR_PER_PERIOD = 0.45  # Gaussian sigma per period: leaves under 1% of the checks' fundamental
SMALL_SIGMA = 2.0  # px: the blur runs on a copy shrunk until its sigma is this (the result is smooth anyway)
BAND_SAMPLES = 2000  # band pixels the blurred cloth is learnt from: plenty for a median and a spread
SPREAD_MIN = 4.0  # colour units: the blurred cloth still varies this much (folds, light fall-off)
FAR = 4.0  # robust spreads (1.48 MAD) from the blurred cloth beyond which a pixel is not cloth
SNAP_PERIODS = 0.5  # each end of a side may move this many periods onto its edge (the blur moved it ~sigma)
SNAP_SHARE = 0.06  # ... plus this share of the card's short side (a fitted rectangle's own error)
SNAP_STEPS = 15  # positions tried per end of a side: ~1 px apart over the reach of a mid-sized check
_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


def border_band(shape: tuple[int, ...]) -> np.ndarray:
    """Boolean mask of the border band of an image of this shape."""
    h, w = shape[:2]
    b = max(1, round(BAND * h))
    band = np.ones((h, w), bool)
    band[b:-b, b:-b] = False
    return band


def _band_strips(shape: tuple[int, ...]) -> tuple[tuple[slice, slice], ...]:
    """The border band of an image of this shape (as border_band) as four disjoint strips: top, bottom,
    and the left and right ends of the rows between."""
    h, w = shape[:2]
    b = max(1, round(BAND * h))
    return ((slice(0, b), slice(None)), (slice(h - b, h), slice(None)),
            (slice(b, h - b), slice(0, b)), (slice(b, h - b), slice(w - b, w)))


def cloth_period(weak_edges: np.ndarray, dx: np.ndarray, dy: np.ndarray) -> float | None:
    """The period (work px) of a checked cloth or grid read from the border band's weak edges, or
    None when the table shows no texture running in two directions."""
    strips = _band_strips(weak_edges.shape)
    on = [weak_edges[s] > 0 for s in strips]  # only the band is looked at: the middle holds the cards
    edges = sum(int(np.count_nonzero(o)) for o in on)
    density = edges / float(sum(o.size for o in on))
    if density < DENSE:
        return None
    gx = np.concatenate([dx[s][o] for s, o in zip(strips, on, strict=True)])
    gy = np.concatenate([dy[s][o] for s, o in zip(strips, on, strict=True)])
    angle = np.degrees(np.arctan2(gy, gx)) % 180.0
    hist = np.histogram(angle, bins=int(180 // ONE_WAY_DEG * 4), range=(0.0, 180.0))[0]
    window = sum(np.roll(hist, -k) for k in range(4))  # ONE_WAY_DEG wide, any start (wraps at 180)
    if window.max() > ONE_WAY * edges:
        return None
    return float(np.clip(EDGES_PER_PERIOD / density, *PERIOD_PX))


def checks_period(dx: np.ndarray, dy: np.ndarray, low: float, weak_edges: Callable[[], np.ndarray]) -> float | None:
    """cloth_period of the Canny edges of this low threshold that weak_edges makes, made only when the
    band could be dense with them: Canny marks only pixels whose gradient size (|dx| + |dy|) exceeds
    its low threshold, so a band with fewer such pixels than DENSE of its own is no texture (plain felt)."""
    strips = _band_strips(dx.shape)
    above = sum(int(np.count_nonzero(np.abs(dx[s]) + np.abs(dy[s]) > np.floor(low))) for s in strips)
    if above / float(sum(dx[s].size for s in strips)) < DENSE:
        return None
    return cloth_period(weak_edges(), dx, dy)


def _features(colour_u8: np.ndarray, sigma: float) -> np.ndarray:
    """Per pixel: colour (chroma scaled) and lightness contrast (std), averaged over sigma px."""
    units = colour_units(colour_u8)
    mean = cv2.GaussianBlur(units, (0, 0), sigma)
    square = cv2.GaussianBlur(units[..., 0] * units[..., 0], (0, 0), sigma)
    contrast = np.sqrt(np.maximum(square - mean[..., 0] ** 2, 0.0))
    return np.dstack([mean, contrast])


def cloth_mask(colour_u8: np.ndarray, period: float, known: list[np.ndarray]) -> np.ndarray:
    """Mask (work size) of what stands out from a checked cloth of this period, the known quads
    (cards other cues found, work px) and a blur's width around them left out."""
    h, w = colour_u8.shape[:2]
    sigma = BLUR_PER_PERIOD * period
    shrink = min(1.0, SMALL_SIGMA / sigma)
    small = cv2.resize(colour_u8, (max(8, round(w * shrink)), max(8, round(h * shrink))), interpolation=cv2.INTER_AREA)
    feats = _features(small, sigma * shrink)
    band = feats[border_band(feats.shape)]
    band = band[:: max(1, len(band) // BAND_SAMPLES)]
    centre = np.median(band, axis=0)
    spread = np.maximum(1.4826 * np.median(np.abs(band - centre), axis=0), SPREAD_MIN)
    far = (np.abs(feats - centre) / spread).max(axis=2) / FAR
    far = cv2.resize(far.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    return without_known((far > 1.0).astype(np.uint8) * 255, known, 2 * sigma)


def without_known(mask: np.ndarray, known: list[np.ndarray], halo: float) -> np.ndarray:
    """A cue's mask (work size) with the known quads (work px) and a halo this many px wide around
    them wiped (a blurred cue spreads a card found already past its outline: a ring of it would be
    fitted as a card), then opened and closed by a 5 px disc."""
    for quad in known:
        outline = np.round(quad).astype(np.int32)
        cv2.fillConvexPoly(mask, outline, 0)
        cv2.polylines(mask, [outline], True, 0, max(1, round(halo)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _KERNEL)
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _KERNEL)


def blob_rectangle(contour: np.ndarray) -> np.ndarray | None:
    """The rectangle (4x2) with a blob's area centre and second moments: a blurred card's outline
    before snapping, where a four-sided fit fails on the blur's rounded corners."""
    m = cv2.moments(contour)
    if m["m00"] <= 0:
        return None
    centre = np.array([m["m10"], m["m01"]]) / m["m00"]
    cov = np.array([[m["mu20"], m["mu11"]], [m["mu11"], m["mu02"]]]) / m["m00"]
    values, vectors = np.linalg.eigh(cov)
    half = np.sqrt(3.0 * np.maximum(values, 0.0))  # a rectangle of side s has variance s^2/12 along it
    u, v = vectors[:, 1] * half[1], vectors[:, 0] * half[0]
    return np.array([centre - u - v, centre + u - v, centre + u + v, centre - u + v])


def snap_to_checks(grad: tuple[np.ndarray, np.ndarray], quad: np.ndarray, period: float) -> np.ndarray:
    """A quad from the blurred cloth moved side by side onto the real edges near it."""
    return snap(grad, quad, SNAP_PERIODS * period + SNAP_SHARE * short_side(quad), SNAP_STEPS)


RIM_REACH = 0.15  # share of a card's short side: a printed border is narrower (~5-8%), so no check beyond is reached
PANEL_REACH = 0.3  # share of a card's short side its art's panel may lie inside its rim (a scroll on light stock)
RIM_ALONG = 0.5  # share of a line that must be an edge along it to be the card's rim (a check cloth hides the rest)


def rim(grad: tuple[np.ndarray, np.ndarray], quad: np.ndarray, reach_share: float = RIM_REACH) -> np.ndarray:
    """A quad that may be the panel of a card's art moved out onto the card's rim, where there is one
    (reach_share: how far out to look, as a share of the quad's short side)."""
    reach = reach_share * short_side(quad)
    return to_rim(grad, quad, reach, RIM_ALONG, max(2, int(reach) + 1))


def panel_rim(grad: tuple[np.ndarray, np.ndarray], quad: np.ndarray) -> np.ndarray | None:
    """The rim around a one-card outline that may be a light card's art panel (up to PANEL_REACH
    out), or None when no rim lies beyond it: the live read and enrollment try it last."""
    moved = rim(grad, quad, PANEL_REACH)
    return moved if np.abs(moved - quad).max() > 0 else None
