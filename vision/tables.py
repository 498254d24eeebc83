"""Table tops with the texture statistics of real photographs, drawn in the table's own millimetres.

Each TableTop is a family of tables (every draw from the generator gives another plank width,
tone, check size or grid), rendered procedurally: fractal (1/f) noise, grain stretched along the
wood, ring figure and plank seams, woven checks with folds, neoprene speckle under a printed
grid, marble veins. render_top() draws a patch of table at a given resolution; the photo camera
(vision.photo) lays it in perspective under the cards. TUNING_TOPS and HELD_OUT_TOPS split them
for the benchmark: a reader is tuned on the first and judged on the second.
"""

from __future__ import annotations

import math
from enum import Enum

import cv2
import numpy as np


class TableTop(Enum):
    """The table tops the photo camera lays cards on."""

    WOOD_LIGHT = "wood-light"  # honey oak planks, strong ring figure
    WOOD_MID = "wood-mid"  # cherry-brown planks
    WOOD_DARK = "wood-dark"  # walnut planks, dark with pale streaks
    BIRCH = "birch"  # pale light wood, faint grain: a light table
    FELT_GREEN = "felt-green"  # card-table felt
    FELT_RED = "felt-red"  # burgundy felt
    CHECK_RED = "check-red"  # red and white gingham cloth
    CHECK_BLUE = "check-blue"  # blue and white gingham cloth, finer or coarser
    MAT_HEX = "mat-hex"  # dark neoprene play mat printed with a hexagon grid
    MAT_SQUARE = "mat-square"  # dark neoprene play mat printed with a square grid
    LAMINATE = "laminate"  # white laminate table
    MARBLE = "marble"  # white marble with grey veins


TUNING_TOPS = (TableTop.WOOD_MID, TableTop.FELT_RED, TableTop.CHECK_RED, TableTop.MAT_SQUARE,
               TableTop.LAMINATE)
HELD_OUT_TOPS = (TableTop.WOOD_LIGHT, TableTop.WOOD_DARK, TableTop.BIRCH, TableTop.FELT_GREEN,
                 TableTop.CHECK_BLUE, TableTop.MAT_HEX, TableTop.MARBLE)

# How much of a lamp's reflection a top gives back (cards are glossier than most tables).
GLOSS = {TableTop.WOOD_LIGHT: 0.6, TableTop.WOOD_MID: 0.6, TableTop.WOOD_DARK: 0.7, TableTop.BIRCH: 0.5,
         TableTop.FELT_GREEN: 0.05, TableTop.FELT_RED: 0.05, TableTop.CHECK_RED: 0.1, TableTop.CHECK_BLUE: 0.1,
         TableTop.MAT_HEX: 0.25, TableTop.MAT_SQUARE: 0.25, TableTop.LAMINATE: 0.8, TableTop.MARBLE: 0.9}

WOOD_TONES = {  # BGR of the early wood, of the late-wood lines, grain contrast
    TableTop.WOOD_LIGHT: ((110, 175, 220), (35, 85, 140), 0.8),
    TableTop.WOOD_MID: ((60, 105, 160), (15, 35, 70), 0.8),
    TableTop.WOOD_DARK: ((40, 58, 82), (95, 130, 160), 0.55),
    TableTop.BIRCH: ((180, 210, 230), (135, 170, 200), 0.4),
}
PLANK_MM = (70.0, 180.0)  # plank width range
RING_MM = (2.5, 8.0)  # spacing of the late-wood lines
SEAM_MM = (0.6, 1.6)  # width of the dark gap between planks
CHECK_MM = (8.0, 40.0)  # gingham period (one coloured and one white band)
GRID_MM = (22.0, 45.0)  # printed grid cell
THREAD_MM = 0.7  # a cloth's thread pitch
WEAVE_PX_PER_MM = 3.0  # the weave is drawn only where the pixels can hold it
PYRUP_KEEPS = (1.0, 0.30, 0.24)  # share of white noise's variance left after 0, 1, 2+ cv2.pyrUp (measured)
MIN_OCTAVE_PX = 1.5  # the finest noise octave, in pixels
FIGURE_PX_PER_MM = 1.0  # wood's ring figure is drawn this fine, then scaled: rings lie >= 2.5 mm apart


def fbm(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float, largest_mm: float,
        persistence: float = 0.5, aspect: float = 1.0, smallest_mm: float = 0.0) -> np.ndarray:
    """Fractal noise, about unit spread: octaves halving from largest_mm down to the pixel, each
    weaker by persistence p, so the power spectrum falls as f^(2 log2(p) - 2): p = 1 is the 1/f
    amplitude spectrum of natural images, p = 0.5 a smoother, cloudier field. aspect > 1 stretches
    the features along x (grain); smallest_mm stops the octaves early.

    Built as a pyramid: the coarsest grid is doubled (cv2.pyrUp) and the next octave added, so the
    whole costs about one full-size noise draw. It is scaled by its expected spread, not by the
    patch's own: a patch smaller than the largest feature keeps that feature's gentle slope.
    """
    h, w = shape
    cell = max(largest_mm * px_per_mm, 2.0)
    finest = max(MIN_OCTAVE_PX, smallest_mm * px_per_mm)
    levels = max(0, int(math.log2(cell / finest)))
    gh = max(2, math.ceil(h / cell) + 1)
    gw = max(2, math.ceil(w / (cell * aspect)) + 1)
    field = rng.standard_normal((gh, gw), dtype=np.float32)
    amp, variance = 1.0, PYRUP_KEEPS[min(levels, 2)]
    for k in range(levels):
        amp *= persistence
        field = cv2.pyrUp(field)
        field += amp * rng.standard_normal(field.shape, dtype=np.float32)
        variance += amp**2 * PYRUP_KEEPS[min(levels - k - 1, 2)]
    cropped = field[: max(2, round(h / (cell / 2**levels)) + 1), : max(2, round(w / (cell * aspect / 2**levels)) + 1)]
    fine = cell / 2**levels <= 3  # a fine last octave scales up cleanly linearly; a coarse one needs cubic
    out = cv2.resize(cropped, (w, h), interpolation=cv2.INTER_LINEAR if fine else cv2.INTER_CUBIC)
    out *= 1 / math.sqrt(variance)
    return out


Layers = list[tuple[np.ndarray, np.ndarray]]  # (BGR colour, weight field): the top is their sum


def render_top(top: TableTop, shape: tuple[int, int], px_per_mm: float, rng: np.random.Generator) -> np.ndarray:
    """A (height, width) patch of this kind of table at px_per_mm, BGR uint8, new variant per draw."""
    if top in WOOD_TONES:
        layers, turn = _wood(top, shape, px_per_mm, rng)
    else:
        turn = False
        if top in (TableTop.FELT_GREEN, TableTop.FELT_RED):
            layers = _felt(top, shape, px_per_mm, rng)
        elif top in (TableTop.CHECK_RED, TableTop.CHECK_BLUE):
            layers = _check(top, shape, px_per_mm, rng)
        elif top in (TableTop.MAT_HEX, TableTop.MAT_SQUARE):
            layers = _mat(top, shape, px_per_mm, rng)
        elif top is TableTop.MARBLE:
            layers = _marble(shape, px_per_mm, rng)
        else:
            layers = _laminate(shape, px_per_mm, rng)
    img = _paint(layers)
    return cv2.transpose(img) if turn else img


def _paint(layers: Layers) -> np.ndarray:
    """Sum colour times weight, one channel at a time (numpy's broadcast over BGR is much slower)."""
    channels = []
    for c in range(3):
        total = None
        for colour, weight in layers:
            term = weight * np.float32(colour[c])
            total = term if total is None else cv2.add(total, term)
        channels.append(cv2.convertScaleAbs(total) if total.min() >= 0 else np.clip(total, 0, 255).astype(np.uint8))
    return cv2.merge(channels)


def _grid(shape: tuple[int, int], px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    h, w = shape
    return (np.arange(w, dtype=np.float32)[None, :] / px_per_mm, np.arange(h, dtype=np.float32)[:, None] / px_per_mm)


def _wood(top: TableTop, shape: tuple[int, int], ppm: float, rng: np.random.Generator) -> tuple[Layers, bool]:
    """Planks with ring figure, fibres, seams and staggered end joints, in either direction."""
    across = rng.random() < 0.5  # planks along the frame's x or y: drawn along x, turned after
    h, w = (shape[1], shape[0]) if across else shape
    early, late, contrast = WOOD_TONES[top]
    early = np.asarray(early, np.float32) * rng.uniform(0.88, 1.08)
    late = np.asarray(late, np.float32)
    plank = rng.uniform(*PLANK_MM)
    offset = rng.uniform(0, plank)
    n = int((h / ppm + offset) / plank) + 2
    params = {name: rng.uniform(lo, hi, n).astype(np.float32) for name, (lo, hi) in {
        "tone": (0.82, 1.12), "spacing": RING_MM, "pith": (-0.5 * plank, 1.5 * plank),
        "sweep": (1e-5, 6e-5), "centre": (0.0, 2000.0), "joint": (0.0, 1.0)}.items()}
    lo = min(ppm, FIGURE_PX_PER_MM)
    small = (max(2, round(h * lo / ppm)), max(2, round(w * lo / ppm)))
    figure = _wood_figure(rng, small, lo, plank, offset, params, contrast)
    mix = cv2.resize(figure, (w, h), interpolation=cv2.INTER_LINEAR)
    mix += 0.1 * fbm(rng, (h, w), ppm, 40.0, 0.55, aspect=25.0)  # fibres, stretched along the grain
    np.clip(mix, 0, 1, out=mix)
    v = np.arange(h, dtype=np.float32)[:, None] / ppm + offset  # planks run along u: most is per row
    k = np.floor(v / plank).astype(np.int32)
    local = v - k * plank
    seam_w = rng.uniform(*SEAM_MM)
    dist = np.minimum(local, plank - local)
    shade = params["tone"][k] * (1 - 0.55 * np.exp(-(dist / seam_w) ** 2) - 0.12 * np.exp(-(dist / (3 * seam_w)) ** 2))
    shade = np.repeat(shade.astype(np.float32), w, axis=1)
    joints = np.zeros((h, w), np.float32)  # staggered butt joints: a short dark line across a plank
    every = rng.uniform(600, 1400)
    for i in range(n):
        top_px, bottom_px = (i * plank - offset) * ppm, ((i + 1) * plank - offset) * ppm
        for x in np.arange(params["joint"][i] * every, w / ppm + every, every) * ppm:
            cv2.line(joints, (round(x * 16), round(top_px * 16)), (round(x * 16), round(bottom_px * 16)),
                     1.0, max(1, round(seam_w * ppm)), cv2.LINE_AA, 4)
    shade *= 1 - 0.5 * joints
    shade *= 1 + 0.06 * fbm(rng, (h, w), ppm, 300.0, 0.5, smallest_mm=10.0)
    return [(early, shade * (1 - mix)), (late, shade * mix)], across


def _wood_figure(rng: np.random.Generator, shape: tuple[int, int], ppm: float, plank: float, offset: float,
                 params: dict[str, np.ndarray], contrast: float) -> np.ndarray:
    """How far each point is towards the late wood (0..1): rings round a pith line outside each
    board, which a flat saw cuts into long cathedral arches; rings of uneven width and darkness."""
    h, w = shape
    v = np.arange(h, dtype=np.float32)[:, None] / ppm + offset
    u = np.arange(w, dtype=np.float32)[None, :] / ppm
    k = np.floor(v / plank).astype(np.int32)
    spacing = params["spacing"][k]
    r = np.abs(v - k * plank - params["pith"][k]) + params["sweep"][k] * (u - params["centre"][k]) ** 2
    r = r + 3.0 * fbm(rng, shape, ppm, 250.0, 0.5, aspect=5.0, smallest_mm=4.0)
    r += 0.35 * spacing * np.sin(r / (3.7 * spacing))
    ring = r / spacing
    darkness = rng.uniform(0.45, 1.0, 512).astype(np.float32)[np.floor(ring).astype(np.int32) % 512]
    wave = 0.5 - 0.5 * np.cos(2 * math.pi * ring)
    return contrast * darkness * wave * wave * wave


def _felt(top: TableTop, shape: tuple[int, int], ppm: float, rng: np.random.Generator) -> Layers:
    base = np.asarray((40, 115, 30) if top is TableTop.FELT_GREEN else (45, 35, 115), np.float32)
    base = base * rng.uniform(0.8, 1.2)
    shade = 1 + 0.07 * fbm(rng, shape, ppm, 250.0, 0.5)
    shade += 0.14 * fbm(rng, shape, ppm, 1.0, 0.6)  # fibres: fine, isotropic
    return [(base, shade)]


def _check(top: TableTop, shape: tuple[int, int], ppm: float, rng: np.random.Generator) -> Layers:
    """Gingham: white, a half tone where one band crosses, full colour where two do; folds."""
    colour = np.asarray((40, 40, 190) if top is TableTop.CHECK_RED else (170, 95, 30), np.float32)
    colour = colour * rng.uniform(0.85, 1.15)
    white = np.asarray((238, 240, 240), np.float32) * rng.uniform(0.9, 1.0)
    period = rng.uniform(*CHECK_MM)
    x, y = _grid(shape, ppm)
    a = math.radians(rng.uniform(-8, 8))  # the cloth is laid a little askew
    xr, yr = x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)
    drift = 2.0 * fbm(rng, shape, ppm, 250.0, 0.4)  # the weave drifts where the cloth is pulled
    bx = (((xr + drift) / period) % 1.0 < 0.5).astype(np.float32)
    by = (((yr - drift) / period) % 1.0 < 0.5).astype(np.float32)
    soft = max(0.5, 0.3 * ppm)
    bands = cv2.GaussianBlur((bx + by) / 2, (0, 0), soft)
    light = 1 + 0.07 * fbm(rng, shape, ppm, 180.0, 0.35) + 0.03 * fbm(rng, shape, ppm, 2.0, 0.7)  # folds, fuzz
    if ppm >= WEAVE_PX_PER_MM:  # the threads themselves; at coarser scales only noise would show
        light += 0.03 * np.sin(2 * math.pi * xr / THREAD_MM) * np.sin(2 * math.pi * yr / THREAD_MM) + 0.03
    return [(white, light * (1 - bands)), (colour, light * bands)]


def _printed_grid(shape: tuple[int, int], ppm: float, hexagons: bool, cell: float, angle: float,
                  shift: tuple[float, float], line_mm: float) -> np.ndarray:
    """A mask (float32 0..1) of a grid of thin lines printed on a mat: flat-topped hexagons of width
    cell, or squares of side cell, turned by angle degrees, anti-aliased."""
    h, w = shape
    mask = np.zeros(shape, np.uint8)
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    reach = math.hypot(h, w) / ppm / 2 + 2 * cell
    centre = np.array([w, h]) / ppm / 2 + shift
    step = 16 * ppm  # fixed point with 4 bits, as cv2's shift=4 wants
    thick = max(1, round(line_mm * ppm))
    polys = []
    if hexagons:
        r = cell / 2
        ring = np.array([(r * math.cos(k * math.pi / 3), r * math.sin(k * math.pi / 3)) for k in range(6)])
        cols, rows = int(reach / (1.5 * r)) + 1, int(reach / (math.sqrt(3) * r)) + 1
        for i in range(-cols, cols + 1):
            for j in range(-rows, rows + 1):
                c = np.array([1.5 * r * i, math.sqrt(3) * r * (j + (i % 2) / 2)])
                polys.append(np.round(((ring + c) @ rot.T + centre) * step).astype(np.int32))
    else:
        n = int(reach / cell) + 1
        for k in range(-n, n + 1):
            for line in (((k * cell, -reach), (k * cell, reach)), ((-reach, k * cell), (reach, k * cell))):
                polys.append(np.round((np.array(line) @ rot.T + centre) * step).astype(np.int32))
    cv2.polylines(mask, polys, hexagons, 255, thick, cv2.LINE_AA, 4)
    return mask.astype(np.float32) * (1 / 255)


def _mat(top: TableTop, shape: tuple[int, int], ppm: float, rng: np.random.Generator) -> Layers:
    """Neoprene: near black, speckled, a broad sheen, and a printed grid of thin lines."""
    base = np.asarray((34, 32, 30), np.float32) * rng.uniform(0.75, 1.3)
    shade = 1 + 0.12 * fbm(rng, shape, ppm, 300.0, 0.45) + 0.12 * fbm(rng, shape, ppm, 0.6, 0.5)
    cell = rng.uniform(*GRID_MM)
    cover = _printed_grid(shape, ppm, top is TableTop.MAT_HEX, cell, rng.uniform(0, 60),
                          tuple(rng.uniform(0, cell, 2)), rng.uniform(0.6, 1.6))
    cover *= 0.85  # the print is a little worn: the rubber shows through
    ink = np.asarray([(95, 95, 95), (70, 110, 140), (120, 100, 70)][int(rng.integers(0, 3))], np.float32)
    ink = ink * rng.uniform(0.6, 1.2)
    return [(base, shade * (1 - cover)), (ink, cover)]


def _laminate(shape: tuple[int, int], ppm: float, rng: np.random.Generator) -> Layers:
    base = np.asarray((226, 228, 230), np.float32) * rng.uniform(0.88, 1.0)
    shade = 1 + 0.025 * fbm(rng, shape, ppm, 200.0, 0.5) + 0.008 * fbm(rng, shape, ppm, 3.0, 0.5, aspect=8.0)
    return [(base, shade)]


def _marble(shape: tuple[int, int], ppm: float, rng: np.random.Generator) -> Layers:
    """White stone, cloudy, crossed by a few soft grey veins that wander and branch."""
    base = np.asarray((222, 224, 226), np.float32) * rng.uniform(0.9, 1.0)
    vein = np.asarray((120, 128, 140), np.float32) * rng.uniform(0.8, 1.1)
    x, y = _grid(shape, ppm)
    a = math.radians(rng.uniform(0, 180))
    t = (x * math.cos(a) + y * math.sin(a)) / rng.uniform(60, 140)
    veins = (1 - np.abs(np.sin(t + 0.7 * fbm(rng, shape, ppm, 300.0, 0.6, smallest_mm=6.0)))) ** 14
    veins += 0.4 * (1 - np.abs(np.sin(2.3 * t + 0.5 * fbm(rng, shape, ppm, 120.0, 0.6, smallest_mm=4.0)))) ** 40
    cloud = 0.05 * fbm(rng, shape, ppm, 150.0, 0.5)
    mix = np.clip(0.75 * veins, 0, 1)
    return [(base, (1 + cloud) * (1 - mix)), (vein, mix)]
