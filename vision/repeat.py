"""Cards on a checked cloth: what breaks the cloth's repeat.

A gingham repeats: every pixel of it looks like the pixel one period along either run of its checks.
A card does not repeat so: its art compared with itself one period along differs, and where the
card ends, the cloth beyond it is not the card. So each pixel is compared with its neighbours one
lattice step away (the steps read from the frame's own autocorrelation: the cloth fills most of it),
and the smallest difference kept: on the cloth one of the steps lands on the same part of a check,
even beside a card (the step pointing away from it). A card the colours of the checks (an ink-wash
water card on blue gingham), which the blurred cloth (vision.lattice.cloth_mask) takes for more
cloth, stands out here as a solid blob. A mat printed with a hexagon grid repeats too, and is read
the same way wherever vision.lattice takes it for a cloth.

Seen styles' photos on blue checks and the hexagon mat (all families, two seeds, read whole), 1622:
1547 right before, 1557 with this cue, none named wrong either way. An ink-wash water card on blue
checks under the camera's full range of tilt (60 photos): outlined 1 time before, 13 with the frame's
own steps, 26 with each part's (TILES).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.lattice import border_band, without_known
from vision.sides import colour_units

STEPS = 8  # lattice steps compared: the two runs of the checks, both diagonals, each way
STEP_REACH = (0.5, 2.5)  # periods (vision.lattice.cloth_period's estimate): where the nearest steps may lie
MIN_PEAK = 0.1  # share of the autocorrelation's centre a step's peak must reach (a real repeat: 0.6-0.9)
PX_PER_PERIOD = 10.0  # the frame is compared shrunk to about this many px per period of the checks: fine enough
# for a check's edges, and a cloth of 30 px checks costs a ninth of the work copy
SAMPLE_BLUR = 1.0  # px (as compared): sensor noise and JPEG blocks go before pixels are compared
FILL_PERIODS = 0.35  # Gaussian sigma, periods: a card's art repeats itself in places; this fills it in
FAR = 3.0  # robust spreads (1.48 MAD) of the border band's difference above its median: not cloth
SPREAD_MIN = 2.0  # colour units: a perfectly repeating print still differs this much (its shading, tilt)
TILES = 3  # the frame is compared in TILES x TILES parts, each with its own steps: a camera tilted 20 degrees
# shows the far side's checks a third finer than the near side's
TILE_REACH = 0.25  # share of a step's length a part's own step may lie from the frame's
OFF_FRAME = 1e6  # colour units: what a step that runs off the frame lands on (never a match)
_SUM = np.ones((1, 3), np.float32)  # cv2.transform by this adds a pixel's channels (numpy's sum over them is slow)


def lattice_steps(grey: np.ndarray, period: float) -> list[tuple[float, float]]:
    """The (dx, dy) px steps along which the cloth repeats, nearest first, up to STEPS of them
    (none when the frame shows no repeat)."""
    auto = _autocorrelation(grey)
    if auto is None:
        return []
    h, w = auto.shape
    cy, cx = h // 2, w // 2
    peaks = np.argwhere((auto == cv2.dilate(auto, np.ones((5, 5), np.uint8))) & (auto > MIN_PEAK))
    lo, hi = STEP_REACH[0] * period, STEP_REACH[1] * period
    near = sorted((float(np.hypot(x - cx, y - cy)), int(y), int(x)) for y, x in peaks)
    return [_peak_step(auto, y, x) for r, y, x in near if lo <= r <= hi and 0 < x < w - 1 and 0 < y < h - 1][:STEPS]


def _autocorrelation(grey: np.ndarray) -> np.ndarray | None:
    """A grey image's autocorrelation, its zero shift at the centre and 1 (None for a flat image)."""
    g = grey.astype(np.float32)
    g -= g.mean()
    # zeros out to a size the DFT is fast for (a prime side runs many times slower)
    g = cv2.copyMakeBorder(g, 0, cv2.getOptimalDFTSize(g.shape[0]) - g.shape[0],
                           0, cv2.getOptimalDFTSize(g.shape[1]) - g.shape[1], cv2.BORDER_CONSTANT, value=0)
    spectrum = cv2.dft(g, flags=cv2.DFT_COMPLEX_OUTPUT)
    power = cv2.mulSpectrums(spectrum, spectrum, 0, conjB=True)
    auto = np.fft.fftshift(cv2.idft(power, flags=cv2.DFT_REAL_OUTPUT | cv2.DFT_SCALE))
    centre = auto[auto.shape[0] // 2, auto.shape[1] // 2]
    return auto / centre if centre > 0 else None


def _local_steps(grey: np.ndarray, steps: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The frame's steps as a part of it repeats: each moved to the strongest peak of the part's own
    autocorrelation within TILE_REACH of it (a tilted camera shows far checks finer), or kept where
    that peak is weak (a card fills the part)."""
    auto = _autocorrelation(grey)
    if auto is None:
        return steps
    h, w = auto.shape
    cy, cx = h // 2, w // 2
    local = []
    for dx, dy in steps:
        reach = max(1, round(TILE_REACH * float(np.hypot(dx, dy))))
        x, y = round(cx + dx), round(cy + dy)
        x0, x1, y0, y1 = max(1, x - reach), min(w - 1, x + reach + 1), max(1, y - reach), min(h - 1, y + reach + 1)
        window = auto[y0:y1, x0:x1]
        if window.size == 0 or window.max() < MIN_PEAK:
            local.append((dx, dy))
            continue
        py, px = np.unravel_index(int(np.argmax(window)), window.shape)
        local.append(_peak_step(auto, int(py) + y0, int(px) + x0))
    return local


def _peak_step(auto: np.ndarray, y: int, x: int) -> tuple[float, float]:
    """The (dx, dy) step to an autocorrelation's peak at (y, x), to a fraction of a px (_vertex)."""
    cy, cx = auto.shape[0] // 2, auto.shape[1] // 2
    return x - cx + _vertex(auto[y, x - 1:x + 2]), y - cy + _vertex(auto[y - 1:y + 2, x])


def _vertex(three: np.ndarray) -> float:
    """Where a parabola through three samples (at -1, 0, 1) peaks: a lattice step to a fraction of a px
    (a whole-px step leaves a sharp check's edges unmatched)."""
    left, mid, right = (float(v) for v in three)
    curve = left - 2 * mid + right
    return float(np.clip(0.5 * (left - right) / curve, -0.5, 0.5)) if curve < 0 else 0.0


def repeat_breaks(colour_u8: np.ndarray, period: float, known: list[np.ndarray]) -> np.ndarray:
    """Mask (work size) of what does not repeat as the checked cloth of this period does; the known
    quads (cards other cues found, work px) left out."""
    h, w = colour_u8.shape[:2]
    shrink = min(1.0, PX_PER_PERIOD / period)
    small = colour_u8 if shrink >= 1.0 else cv2.resize(
        colour_u8, (max(8, round(w * shrink)), max(8, round(h * shrink))), interpolation=cv2.INTER_AREA)
    units = cv2.GaussianBlur(colour_units(small), (0, 0), SAMPLE_BLUR)
    steps = lattice_steps(units[..., 0], period * shrink)
    if len(steps) < 2:
        return np.zeros((h, w), np.uint8)
    least = cv2.GaussianBlur(_tiled_difference(units, steps), (0, 0), FILL_PERIODS * period * shrink)
    band = least[border_band(least.shape)]
    centre = float(np.median(band))
    spread = max(1.4826 * float(np.median(np.abs(band - centre))), SPREAD_MIN)
    far = cv2.resize((least - centre) / spread, (w, h), interpolation=cv2.INTER_LINEAR)
    return without_known((far > FAR).astype(np.uint8) * 255, known, 2 * FILL_PERIODS * period)


def _least_difference(units: np.ndarray, steps: list[tuple[float, float]]) -> np.ndarray:
    """Per pixel, the smallest colour difference to itself one step along (steps: (dx, dy) px)."""
    h, w = units.shape[:2]
    least = np.full((h, w), np.inf, np.float32)
    for dx, dy in steps:
        moved = cv2.warpAffine(units, np.float32([[1, 0, dx], [0, 1, dy]]), (w, h),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_CONSTANT,
                               borderValue=(OFF_FRAME,) * 3)
        np.minimum(least, cv2.transform(cv2.absdiff(units, moved), _SUM), out=least)
    least[least >= OFF_FRAME / 2] = 0.0  # every step ran off the frame: a corner, no evidence either way
    return least


def _tiled_difference(units: np.ndarray, steps: list[tuple[float, float]]) -> np.ndarray:
    """_least_difference part by part (TILES x TILES), each part with its own steps (_local_steps)."""
    h, w = units.shape[:2]
    margin = int(np.ceil(max(np.hypot(dx, dy) for dx, dy in steps) * (1 + TILE_REACH))) + 2
    out = np.zeros((h, w), np.float32)
    for ty in range(TILES):
        for tx in range(TILES):
            y0, y1, x0, x1 = ty * h // TILES, (ty + 1) * h // TILES, tx * w // TILES, (tx + 1) * w // TILES
            local = _local_steps(units[y0:y1, x0:x1, 0], steps)
            top, left = max(0, y0 - margin), max(0, x0 - margin)
            part = _least_difference(units[top:min(h, y1 + margin), left:min(w, x1 + margin)], local)
            out[y0:y1, x0:x1] = part[y0 - top:y1 - top, x0 - left:x1 - left]
    return out
