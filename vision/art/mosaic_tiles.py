"""The mosaic style's tesserae: a flat design laid in jittered-grid Voronoi tiles with grout and bevel.

A card is first drawn as a flat-colour design (cv2 shapes, no anti-aliasing), then every tile takes
the design colour covering most of it, so edges come out stepped like a real floor. Lettering and
pictograms are inks: drawn smooth and blended in before the grout, so they stay legible at 4 px/mm.
"""

from __future__ import annotations

import math
import zlib
from functools import lru_cache

import cv2
import numpy as np

CARD_W_MM, CARD_H_MM = 63.0, 88.0
GROUT_MM = 0.35  # width of the dark mortar between two tiles
BEVEL_MM = 0.4  # a tile darkens towards its edge over this distance, so it reads as a raised stone
BEVEL_DEPTH = 0.15  # how much darker a tile's very edge is than its middle
JITTER = 0.7  # a seed lies anywhere in the middle 70% of its grid cell: irregular, never degenerate
FONT = cv2.FONT_HERSHEY_TRIPLEX  # a serif face, the nearest Hershey has to Roman capitals

# Palette, BGR: the earth colours of Roman floors, plus the two bonus-card fields.
GROUT = (40, 44, 50)
SLATE = (112, 96, 78)
DARK_SLATE = (70, 60, 50)
TERRACOTTA = (58, 92, 188)
OCHRE = (62, 150, 206)
SAND = (128, 196, 228)
OLIVE = (52, 118, 108)
DARK_OLIVE = (40, 86, 62)
CREAM = (200, 226, 238)
IVORY = (222, 238, 246)
WATER = (150, 104, 44)
SKY = (222, 206, 186)
DEEP_BLUE = (120, 56, 30)
LIGHT_BLUE = (200, 150, 92)
DEEP_RED = (40, 42, 160)
SIGNAL_RED = (36, 36, 204)
PURPLE = (100, 58, 92)
MAUVE = (146, 104, 140)
BROWN = (40, 70, 110)


def seed_of(name: str) -> int:
    """A fixed seed for a named part of the deck (shared parts of twins share their name)."""
    return zlib.crc32(f"mosaic:{name}".encode())


def blank(ppm: float, colour: tuple[int, int, int]) -> np.ndarray:
    """A card-sized flat design of one colour."""
    return np.full((round(CARD_H_MM * ppm), round(CARD_W_MM * ppm), 3), colour, np.uint8)


def _fixed(points_mm, ppm: float) -> np.ndarray:
    """Millimetre points as cv2's 4-bit fixed-point pixels (sub-pixel placement at any scale)."""
    return np.round(np.asarray(points_mm, np.float64) * ppm * 16).astype(np.int32).reshape(-1, 1, 2)


def poly(img: np.ndarray, points_mm, ppm: float, colour) -> None:
    """Fill a polygon given in millimetres."""
    cv2.fillPoly(img, [_fixed(points_mm, ppm)], colour, cv2.LINE_8, 4)


def disc(img: np.ndarray, centre_mm, r_mm: float, ppm: float, colour, width_mm: float = 0) -> None:
    """A filled disc, or a ring of that width, in millimetres."""
    c = tuple(int(v) for v in _fixed([centre_mm], ppm).ravel())
    thick = -1 if width_mm <= 0 else max(1, round(width_mm * ppm))
    cv2.circle(img, c, round(r_mm * ppm * 16), colour, thick, cv2.LINE_8, 4)


def line(img: np.ndarray, a_mm, b_mm, ppm: float, colour, width_mm: float) -> None:
    """A straight stroke of that width in millimetres."""
    a, b = (tuple(int(v) for v in _fixed([p], ppm).ravel()) for p in (a_mm, b_mm))
    cv2.line(img, a, b, colour, max(1, round(width_mm * ppm)), cv2.LINE_8, 4)


def band(img: np.ndarray, inset_mm: float, width_mm: float, ppm: float, colour) -> None:
    """A rectangular frame band from inset_mm to inset_mm + width_mm inside the card's edge."""
    h, w = img.shape[:2]
    a, b = round(inset_mm * ppm), round((inset_mm + width_mm) * ppm)
    img[a:b, a:w - a] = colour
    img[h - b:h - a, a:w - a] = colour
    img[a:h - a, a:b] = colour
    img[a:h - a, w - b:w - a] = colour


def disc_mask(ppm: float, centre_mm, r_mm: float) -> np.ndarray:
    """A boolean card-sized mask of a disc."""
    m = np.zeros((round(CARD_H_MM * ppm), round(CARD_W_MM * ppm)), np.uint8)
    disc(m, centre_mm, r_mm, ppm, 255)
    return m > 0


def rect_mask(ppm: float, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """A boolean card-sized mask of a rectangle in millimetres."""
    m = np.zeros((round(CARD_H_MM * ppm), round(CARD_W_MM * ppm)), np.uint8)
    poly(m, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], ppm, 255)
    return m > 0


@lru_cache(maxsize=48)
def _tessellation(h: int, w: int, cell_px: float, seed: int):
    """Voronoi tiles of a jittered grid: (tile label per pixel, distance to the tile's edge in px,
    per-tile brightness, per-tile tint). Cached: read-only arrays."""
    rng = np.random.default_rng(seed)
    # One spare cell all round, so a pixel's 3x3 neighbourhood of cells never leaves the grid.
    ny, nx = int(h / cell_px) + 3, int(w / cell_px) + 3
    jit = (1 - JITTER) / 2 + JITTER * rng.random((ny, nx, 2))
    sx = (np.arange(nx)[None, :] - 1 + jit[..., 0]) * cell_px
    sy = (np.arange(ny)[:, None] - 1 + jit[..., 1]) * cell_px
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32) + 0.5
    ci, cj = (ys / cell_px).astype(np.int32) + 1, (xs / cell_px).astype(np.int32) + 1
    best = np.full((h, w), np.inf, np.float32)
    second = best.copy()
    label = np.zeros((h, w), np.int32)
    other = label.copy()
    for di in (-1, 0, 1):
        for dj in (-1, 0, 1):
            i, j = ci + di, cj + dj
            d = (xs - sx[i, j]) ** 2 + (ys - sy[i, j]) ** 2
            closer, runner_up = d < best, (d >= best) & (d < second)
            other = np.where(closer, label, np.where(runner_up, i * nx + j, other))
            second = np.where(closer, best, np.where(runner_up, d, second))
            label = np.where(closer, i * nx + j, label)
            best = np.minimum(best, d)
    # Distance to the tile's edge: to the bisector between the nearest and the next seed.
    fx, fy = sx.ravel(), sy.ravel()
    apart = np.hypot(fx[label] - fx[other], fy[label] - fy[other])
    gap = ((second - best) / (2 * apart)).astype(np.float32)
    bright = 0.92 + 0.12 * rng.random(ny * nx)  # stones are never quite the same shade
    tint = rng.normal(0, 3, (ny * nx, 3))
    return label, gap, bright, tint


def _majority(design: np.ndarray, label: np.ndarray, n: int) -> np.ndarray:
    """Each tile's colour: the design colour covering most of it, so a stone is cut to the nearest
    shape rather than blended across it."""
    packed = (design[..., 0].astype(np.int32) << 16) | (design[..., 1].astype(np.int32) << 8) | design[..., 2]
    palette, index = np.unique(packed.ravel(), return_inverse=True)
    counts = np.bincount(label.ravel() * len(palette) + index, minlength=n * len(palette))
    best = palette[counts.reshape(n, len(palette)).argmax(axis=1)]
    return np.stack([(best >> 16) & 255, (best >> 8) & 255, best & 255], axis=1)


def lay(design: np.ndarray, regions, ppm: float, inks=()) -> np.ndarray:
    """The design laid in tiles: regions is a list of (mask or None for everywhere, tile size mm, part
    name), later ones on top; inks a list of (uint8 mask, BGR) drawn smooth over the tiles."""
    h, w = design.shape[:2]
    region = np.zeros((h, w), np.int32)
    out = np.zeros((h, w, 3), np.float32)
    gap = np.zeros((h, w), np.float32)
    for k, (mask, cell_mm, name) in enumerate(regions):
        label, g, bright, tint = _tessellation(h, w, float(cell_mm * ppm), seed_of(name))
        colours = _majority(design, label, len(bright)).astype(np.float32) * bright[:, None] + tint
        sel = np.ones((h, w), bool) if mask is None else mask
        region[sel] = k
        out[sel] = colours[label[sel]]
        gap[sel] = g[sel]
    # Where two regions meet (an emblem set into the floor) the grout follows the boundary itself.
    edge = np.zeros((h, w), bool)
    edge[:, 1:] |= region[:, 1:] != region[:, :-1]
    edge[1:, :] |= region[1:, :] != region[:-1, :]
    if edge.any():
        dist = cv2.distanceTransform((~edge).astype(np.uint8), cv2.DIST_L2, 3)
        gap = np.minimum(gap, dist)
    out *= (1 - BEVEL_DEPTH * np.exp(-gap / (BEVEL_MM * ppm)))[..., None]
    grout = np.clip(GROUT_MM * ppm / 2 - gap + 0.5, 0, 1)
    for mask, colour in inks:  # lettering lies over the stones' bevel; the grout shows through it faintly
        a = mask.astype(np.float32) / 255
        out = out * (1 - a[..., None]) + np.asarray(colour, np.float32) * a[..., None]
        grout = grout * (1 - 0.6 * a)
    out = out * (1 - grout[..., None]) + np.asarray(GROUT, np.float32) * grout[..., None]
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


def ink_mask(ppm: float) -> np.ndarray:
    """An empty card-sized uint8 mask for lettering."""
    return np.zeros((round(CARD_H_MM * ppm), round(CARD_W_MM * ppm)), np.uint8)


def text(mask: np.ndarray, s: str, centre_mm, height_mm: float, ppm: float, weight_mm: float) -> None:
    """Letter a string into a mask, its capitals height_mm tall, centred on centre_mm."""
    thick = max(1, round(weight_mm * ppm))
    (_, h1), _ = cv2.getTextSize(s, FONT, 1.0, 1)
    scale = height_mm * ppm / h1
    (tw, th), _ = cv2.getTextSize(s, FONT, scale, thick)
    x = centre_mm[0] * ppm - tw / 2
    y = centre_mm[1] * ppm + th / 2
    cv2.putText(mask, s, (round(x), round(y)), FONT, scale, 255, thick, cv2.LINE_AA)


SUPERSAMPLE = 4  # pictograms are drawn this many times finer, then shrunk: smooth edges


def sight(mask: np.ndarray, name: str, centre_mm, size_mm: float, ppm: float) -> None:
    """A pictogram of a sight, size_mm across, into a mask: obelisk, book, toucan, yeti, sea_monster."""
    h, w = mask.shape
    fine = np.zeros((h * SUPERSAMPLE, w * SUPERSAMPLE), np.uint8)
    _sight_shapes(fine, name, centre_mm, size_mm, ppm * SUPERSAMPLE)
    np.maximum(mask, cv2.resize(fine, (w, h), interpolation=cv2.INTER_AREA), out=mask)


def _sight_shapes(mask: np.ndarray, name: str, centre_mm, size_mm: float, ppm: float) -> None:
    """The pictogram's hard-edged shapes at the given scale."""
    cx, cy = centre_mm
    s = size_mm / 2

    def at(points):
        return [(cx + u * s, cy + v * s) for u, v in points]

    def pt(u, v):
        return cx + u * s, cy + v * s

    if name == "obelisk":  # a tapering shaft with a pyramid cap on a stepped plinth
        poly(mask, at([(-0.22, 0.72), (0.22, 0.72), (0.14, -0.6), (0, -0.95), (-0.14, -0.6)]), ppm, 255)
        poly(mask, at([(-0.5, 0.74), (0.5, 0.74), (0.5, 0.95), (-0.5, 0.95)]), ppm, 255)
    elif name == "book":  # an open book seen from above, two pages with lines of text
        poly(mask, at([(-0.95, -0.55), (-0.06, -0.4), (-0.06, 0.7), (-0.95, 0.55)]), ppm, 255)
        poly(mask, at([(0.95, -0.55), (0.06, -0.4), (0.06, 0.7), (0.95, 0.55)]), ppm, 255)
        for v in (-0.15, 0.1, 0.35):
            for side in (-1, 1):
                line(mask, pt(side * 0.8, v), pt(side * 0.2, v + 0.1), ppm, 0, s * 0.1)
    elif name == "toucan":  # a perched bird: round body, head, and the huge banana beak
        cv2.ellipse(mask, (round(cx * ppm - 0.25 * s * ppm), round((cy + 0.2 * s) * ppm)),
                    (round(0.34 * s * ppm), round(0.55 * s * ppm)), 15, 0, 360, 255, -1)
        disc(mask, pt(-0.15, -0.45), 0.3 * s, ppm, 255)
        poly(mask, at([(0.05, -0.68), (0.95, -0.4), (0.6, -0.22), (0.05, -0.25)]), ppm, 255)
        disc(mask, pt(-0.12, -0.5), 0.08 * s, ppm, 0)
        line(mask, pt(-0.9, 0.85), pt(0.7, 0.85), ppm, 255, 0.12 * s)
    elif name == "yeti":  # a shaggy figure with both arms raised
        disc(mask, pt(0, -0.62), 0.27 * s, ppm, 255)
        cv2.ellipse(mask, (round(cx * ppm), round((cy + 0.12 * s) * ppm)),
                    (round(0.42 * s * ppm), round(0.55 * s * ppm)), 0, 0, 360, 255, -1)
        for side in (-1, 1):
            line(mask, pt(side * 0.3, -0.1), pt(side * 0.88, -0.72), ppm, 255, 0.22 * s)
            line(mask, pt(side * 0.22, 0.5), pt(side * 0.3, 0.95), ppm, 255, 0.24 * s)
            disc(mask, pt(side * 0.1, -0.66), 0.06 * s, ppm, 0)
    else:  # sea_monster: three coils above the water and a head on a curved neck
        for u in (-0.62, -0.05):
            cv2.ellipse(mask, (round((cx + u * s) * ppm), round((cy + 0.3 * s) * ppm)),
                        (round(0.26 * s * ppm), round(0.34 * s * ppm)), 0, 180, 360, 255,
                        max(1, round(0.16 * s * ppm)))
        line(mask, pt(0.35, 0.3), pt(0.6, -0.45), ppm, 255, 0.16 * s)
        disc(mask, pt(0.68, -0.52), 0.2 * s, ppm, 255)
        for k in range(4):
            u = -0.95 + 0.5 * k
            line(mask, pt(u, 0.62), pt(u + 0.25, 0.78), ppm, 255, 0.1 * s)
            line(mask, pt(u + 0.25, 0.78), pt(u + 0.5, 0.62), ppm, 255, 0.1 * s)


def ring_points(centre_mm, r_mm: float, n: int) -> list[tuple[float, float]]:
    """n points clockwise on a circle starting at the top."""
    cx, cy = centre_mm
    return [(cx + r_mm * math.sin(2 * math.pi * k / n), cy - r_mm * math.cos(2 * math.pi * k / n))
            for k in range(n)]
