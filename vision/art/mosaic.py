"""Mosaic card art: full-bleed Roman floor mosaics of small irregular tiles with dark grout.

Drawn in session 25 by a separate hand as a held-out style, with the published deck's twin
structure: the five terrain cards share one ornate frame and differ only inside the central
emblem (EMBLEM); the blue and the red bonus cards share one sunburst and differ only in the top
band (BAND); the set-up cards differ only in the ring of letters (RING). Everything is drawn from
fixed seeds named after the shared part, so twins share their tiles stone for stone.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from vision.art import BackKind, face_by_kind
from vision.art import mosaic_tiles as t

FIELD_TILE_MM = 2.3  # the floor's tesserae
EMBLEM_TILE_MM = 1.5  # emblems are laid finer, as in an emblema of opus vermiculatum
PLAQUE_TILE_MM = 1.4  # the inscription plaque's small stones, under the lettering
LETTER_TILE_MM = 1.4

EMBLEM = (31.5, 44.0, 15.0)  # terrain cards: centre x, y and outer radius (mm) of the set-in emblem
EMBLEM_PICTURE_R_MM = 12.5  # the part of the emblem that differs per terrain (25 mm across)
BAND = (8.0, 4.5, 55.0, 19.5)  # bonus cards: x0, y0, x1, y1 (mm) of the inscription plaque
SUN = (31.5, 54.0, 20.0)  # bonus cards: centre and radius (mm) of the shared sunburst
RING = (31.5, 46.0, 21.0, 3.8)  # set-up cards: centre x, y, ring radius, letter disc radius (mm)


def render_face(card: str, px_per_mm: float) -> np.ndarray:
    """One card face in mosaic, BGR uint8, portrait 63x88 mm; ValueError for an unknown card."""
    return face_by_kind(card, px_per_mm, _terrain, _blue, _red, _setup)


def render_back(kind: BackKind, px_per_mm: float) -> np.ndarray:
    """One of the three card backs in mosaic, BGR uint8, portrait 63x88 mm."""
    return {BackKind.TERRAIN: _terrain_back, BackKind.BLUE: _blue_back,
            BackKind.RED: _red_back}[kind](px_per_mm).copy()


# --- terrain cards: one frame, five emblems -------------------------------------------------------

@lru_cache(maxsize=8)
def _terrain_frame(ppm: float) -> np.ndarray:
    """The frame all terrain cards share: sawtooth border, lozenge lattice, corner fans, emblem ring."""
    d = t.blank(ppm, t.IVORY)
    cx, cy, r = EMBLEM
    # A lozenge lattice centred on the emblem; lines x -+ y/SLOPE = const through the centre.
    slope, pitch = 1.4, 14.0
    for k in range(-9, 10):
        for sign in (-1, 1):
            x0 = cx + k * pitch
            t.line(d, (x0 - sign * 60 / slope, cy - 60), (x0 + sign * 60 / slope, cy + 60), ppm, t.OLIVE, 2.6)
    for k1 in range(-9, 9):
        for k2 in range(-9, 9):
            u, v = (k1 + k2 + 1) * pitch / 2, slope * (k2 - k1) * pitch / 2
            if abs(u) < 24 and abs(v) < 36:
                t.poly(d, [(cx + u, cy + v - 4.5), (cx + u + 3.2, cy + v), (cx + u, cy + v + 4.5),
                           (cx + u - 3.2, cy + v)], ppm, t.TERRACOTTA)
                t.disc(d, (cx + u, cy + v), 1.2, ppm, t.OCHRE)
    for fx, fy in ((10, 10), (53, 10), (10, 78), (53, 78)):  # fans in the field's corners
        for rad, colour in ((10, t.TERRACOTTA), (7.5, t.CREAM), (5, t.OCHRE), (2.5, t.TERRACOTTA)):
            t.disc(d, (fx, fy), rad, ppm, colour)
    # The border: dark edge, sawtooth of cream teeth on terracotta, a slate fillet.
    t.band(d, 0, 2.5, ppm, t.DARK_SLATE)
    t.band(d, 2.5, 5.5, ppm, t.TERRACOTTA)
    _teeth(d, ppm)
    t.band(d, 8.0, 2.0, ppm, t.DARK_SLATE)
    t.disc(d, (cx, cy), r + 3.5, ppm, t.TERRACOTTA)
    t.disc(d, (cx, cy), r + 1.5, ppm, t.CREAM)
    t.disc(d, (cx, cy), r, ppm, t.DARK_SLATE)
    for k in range(18):  # cream dots in the dark ring, like a string of pearls
        a = 2 * math.pi * k / 18
        t.disc(d, (cx + 13.8 * math.cos(a), cy + 13.8 * math.sin(a)), 0.9, ppm, t.IVORY)
    return d


def _teeth(d: np.ndarray, ppm: float) -> None:
    """Cream triangles pointing inward all round the border band (2.5 to 8 mm in)."""
    lo, hi = 2.5, 8.0
    for n, length, edge in ((8, 58.0, "top"), (8, 58.0, "bottom"), (11, 83.0, "left"), (11, 83.0, "right")):
        step = length / n
        for k in range(n):
            a, b, m = lo + k * step, lo + (k + 1) * step, lo + (k + 0.5) * step
            tri = {"top": [(a, lo), (b, lo), (m, hi)],
                   "bottom": [(a, 88 - lo), (b, 88 - lo), (m, 88 - hi)],
                   "left": [(lo, a), (lo, b), (hi, m)],
                   "right": [(63 - lo, a), (63 - lo, b), (63 - hi, m)]}[edge]
            t.poly(d, tri, ppm, t.CREAM)


def _emblem_picture(terrain: str, ppm: float) -> np.ndarray:
    """The terrain's own picture, drawn over the whole card (only its central disc is used)."""
    cx, cy, _ = EMBLEM
    bg = {"desert": t.IVORY, "forest": (196, 222, 206), "mountain": t.SKY, "water": t.WATER, "any": t.CREAM}
    d = t.blank(ppm, bg[terrain])

    def curve(y0: float, amp: float, freq: float, phase: float, colour) -> None:
        xs = np.linspace(-14, 14, 29)
        top = [(cx + x, cy + y0 + amp * math.sin(freq * x + phase)) for x in xs]
        t.poly(d, top + [(cx + 14, cy + 14), (cx - 14, cy + 14)], ppm, colour)

    if terrain == "desert":
        t.disc(d, (cx + 4.5, cy - 5.5), 3.4, ppm, t.TERRACOTTA)
        curve(0.5, 1.8, 0.35, 0.0, t.OCHRE)
        curve(4.5, 1.6, 0.3, 2.0, t.SAND)
        curve(8.5, 1.2, 0.4, 4.0, (50, 120, 190))
    elif terrain == "forest":
        curve(7.5, 0.6, 0.3, 1.0, t.OLIVE)
        for x, scale in ((-7.5, 0.55), (7.5, 0.6), (0, 1.0)):  # two saplings behind the big tree
            base = cy + 8.5
            t.poly(d, [(cx + x - 1 * scale, base), (cx + x + 1 * scale, base),
                       (cx + x + 1 * scale, base - 4 * scale), (cx + x - 1 * scale, base - 4 * scale)], ppm, t.BROWN)
            for k, (apex, half) in enumerate(((20, 5.0), (16, 6.5), (12, 8.0))):
                y_base = base - 3 * scale - k * 4 * scale
                t.poly(d, [(cx + x, base - apex * scale), (cx + x + half * scale, y_base),
                           (cx + x - half * scale, y_base)], ppm, t.DARK_OLIVE)
    elif terrain == "mountain":
        t.poly(d, [(cx - 14, cy + 9), (cx - 3, cy - 9.5), (cx + 8, cy + 9)], ppm, t.SLATE)
        t.poly(d, [(cx - 1, cy + 9), (cx + 6.5, cy - 3.5), (cx + 14, cy + 9)], ppm, t.DARK_SLATE)
        t.poly(d, [(cx - 3, cy - 9.5), (cx - 6.2, cy - 4.3), (cx - 3, cy - 5.5), (cx + 0.2, cy - 4.3)], ppm, t.IVORY)
        t.poly(d, [(cx + 6.5, cy - 3.5), (cx + 4.6, cy - 0.6), (cx + 8.4, cy - 0.6)], ppm, t.IVORY)
        curve(8.5, 0.5, 0.5, 0.0, t.OLIVE)
    elif terrain == "water":
        for k, y0 in enumerate((-8.0, -3.0, 2.0, 7.0)):
            xs = np.linspace(-14, 14, 57)
            crest = [(cx + x, cy + y0 + 1.3 * math.sin(0.7 * x + 1.6 * k)) for x in xs]
            for a, b in zip(crest, crest[1:], strict=False):
                t.line(d, a, b, ppm, t.LIGHT_BLUE if k % 2 else t.IVORY, 1.6)
    else:  # any: four quarters in the four terrains' colours, a cream cross and a boss
        for (sx, sy), colour in (((-1, -1), t.OCHRE), ((1, -1), t.DARK_OLIVE), ((-1, 1), t.SLATE),
                                 ((1, 1), t.WATER)):
            t.poly(d, [(cx, cy), (cx + 14 * sx, cy), (cx + 14 * sx, cy + 14 * sy), (cx, cy + 14 * sy)], ppm, colour)
        t.line(d, (cx - 14, cy), (cx + 14, cy), ppm, t.IVORY, 2.2)
        t.line(d, (cx, cy - 14), (cx, cy + 14), ppm, t.IVORY, 2.2)
        t.disc(d, (cx, cy), 3.6, ppm, t.IVORY)
        t.disc(d, (cx, cy), 2.4, ppm, t.TERRACOTTA)
    return d


def _terrain(terrain: str, ppm: float) -> np.ndarray:
    """A terrain card: the shared frame with the terrain's emblem set in its centre."""
    cx, cy, r = EMBLEM
    design = _terrain_frame(ppm).copy()
    picture = t.disc_mask(ppm, (cx, cy), EMBLEM_PICTURE_R_MM)
    design[picture] = _emblem_picture(terrain, ppm)[picture]
    return t.lay(design, [(None, FIELD_TILE_MM, "terrain-field"),
                          (t.disc_mask(ppm, (cx, cy), r), EMBLEM_TILE_MM, "terrain-emblem")], ppm)


# --- bonus cards: one sunburst on a blue or red floor, a plaque that differs ----------------------

def _bonus_design(field, ppm: float) -> np.ndarray:
    """The floor of a bonus card: concentric courses of field tiles round the sunburst, and a plaque."""
    cx, cy, r = SUN
    dark = tuple(int(c * 0.72) for c in field)
    d = t.blank(ppm, field)
    for k in range(12, 0, -1):  # alternating courses, so the floor flows round the emblem
        t.disc(d, (cx, cy), r + 2.4 * k, ppm, dark if k % 2 else field)
    # The sunburst: eight long and eight short rays round a boss, on an ivory ground in a dark ring.
    t.disc(d, (cx, cy), r, ppm, t.DARK_SLATE)
    t.disc(d, (cx, cy), r - 1.2, ppm, t.IVORY)
    for k in range(16):  # wedges widening outward, long ochre and short terracotta in turn
        a, half = 2 * math.pi * k / 16, math.pi / 16 * 0.8
        reach = r - 2.2 if k % 2 == 0 else r - 7.0
        colour = t.OCHRE if k % 2 == 0 else t.TERRACOTTA
        t.poly(d, [(cx + 5 * math.cos(a), cy + 5 * math.sin(a)),
                   (cx + reach * math.cos(a - half), cy + reach * math.sin(a - half)),
                   (cx + reach * math.cos(a + half), cy + reach * math.sin(a + half))], ppm, colour)
    for rad, colour in ((6.5, t.OCHRE), (4.5, t.TERRACOTTA), (2.2, t.IVORY)):
        t.disc(d, (cx, cy), rad, ppm, colour)
    x0, y0, x1, y1 = BAND
    t.poly(d, [(x0 - 2.2, y0 - 2.2), (x1 + 2.2, y0 - 2.2), (x1 + 2.2, y1 + 2.2), (x0 - 2.2, y1 + 2.2)], ppm, t.OCHRE)
    t.poly(d, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], ppm, t.IVORY)
    t.band(d, 0, 2.2, ppm, t.OCHRE)
    return d


@lru_cache(maxsize=8)
def _bonus_floor(colour: str, ppm: float) -> tuple[np.ndarray, tuple]:
    """The shared design and tile regions of the blue or red bonus cards."""
    field = t.DEEP_BLUE if colour == "blue" else t.DEEP_RED
    design = _bonus_design(field, ppm)
    x0, y0, x1, y1 = BAND
    if colour == "blue":  # the points are set in a terracotta roundel at the plaque's right end
        t.disc(design, (46.0, 12.0), 5.2, ppm, t.TERRACOTTA)
    else:  # the six sits in the middle, between the two sights
        t.disc(design, (31.5, 12.0), 5.2, ppm, t.TERRACOTTA)
    regions = ((None, FIELD_TILE_MM, "bonus-field"),
               (t.disc_mask(ppm, SUN[:2], SUN[2]), EMBLEM_TILE_MM, "bonus-sun"),
               (t.rect_mask(ppm, x0, y0, x1, y1), PLAQUE_TILE_MM, "bonus-plaque"))
    return design, regions


def _blue(letter: str, number: int, points: int, ppm: float) -> np.ndarray:
    """A blue bonus card: 'A-A', a small '#1' beneath, and the points in the roundel."""
    design, regions = _bonus_floor("blue", ppm)
    dark, light = t.ink_mask(ppm), t.ink_mask(ppm)
    t.text(dark, f"{letter}-{letter}", (24.0, 10.0), 6.0, ppm, 0.85)
    t.text(dark, f"#{number}", (24.0, 16.7), 3.2, ppm, 0.55)
    t.text(light, str(points), (46.0, 12.0), 6.0, ppm, 0.9)
    return t.lay(design, list(regions), ppm, [(dark, t.DARK_SLATE), (light, t.IVORY)])


def _red(sight: str, ppm: float) -> np.ndarray:
    """A red bonus card: the sight's pictogram either side of a 6."""
    design, regions = _bonus_floor("red", ppm)
    dark, light = t.ink_mask(ppm), t.ink_mask(ppm)
    for x in (17.0, 46.0):
        t.sight(dark, sight, (x, 12.0), 10.0, ppm)
    t.text(light, "6", (31.5, 12.0), 6.0, ppm, 0.9)
    return t.lay(design, list(regions), ppm, [(dark, t.DARK_SLATE), (light, t.IVORY)])


# --- set-up cards: ten letters in a ring ---------------------------------------------------------

@lru_cache(maxsize=8)
def _setup_floor(ppm: float) -> tuple[np.ndarray, tuple]:
    """The shared cream floor of the set-up cards: border, a rosette, a chain of ten roundels."""
    cx, cy, r, dr = RING
    d = t.blank(ppm, t.CREAM)
    t.band(d, 0, 2.5, ppm, t.TERRACOTTA)
    t.band(d, 2.5, 2.0, ppm, t.OCHRE)
    t.disc(d, (cx, cy), r, ppm, t.OCHRE, width_mm=1.6)
    for k in range(8):  # an eight-petal rosette in the middle
        a = 2 * math.pi * k / 8
        t.disc(d, (cx + 5 * math.cos(a), cy + 5 * math.sin(a)), 3.0, ppm, t.OLIVE if k % 2 else t.TERRACOTTA)
    t.disc(d, (cx, cy), 3.0, ppm, t.OCHRE)
    discs = np.zeros(d.shape[:2], bool)
    for p in t.ring_points((cx, cy), r, 10):
        t.disc(d, p, dr, ppm, t.IVORY)
        discs |= t.disc_mask(ppm, p, dr)
    regions = ((None, FIELD_TILE_MM, "setup-field"),
               (t.disc_mask(ppm, (cx, cy), 8.5), EMBLEM_TILE_MM, "setup-rosette"),
               (discs, LETTER_TILE_MM, "setup-letters"))
    return d, regions


def _setup(letters: str, ppm: float) -> np.ndarray:
    """A set-up card: its ten letters clockwise from the top, the first one red."""
    design, regions = _setup_floor(ppm)
    cx, cy, r, _ = RING
    first, rest = t.ink_mask(ppm), t.ink_mask(ppm)
    for k, (letter, p) in enumerate(zip(letters, t.ring_points((cx, cy), r, 10), strict=True)):
        t.text(first if k == 0 else rest, letter, p, 4.6, ppm, 0.75)
    return t.lay(design, list(regions), ppm, [(first, t.SIGNAL_RED), (rest, t.DARK_SLATE)])


# --- backs --------------------------------------------------------------------------------------

def _checker(ppm: float, pitch_mm: float, a, b, angle_deg: float) -> np.ndarray:
    """A card-sized design of two colours in a chequer turned by angle_deg (lozenges at 45)."""
    h, w = round(t.CARD_H_MM * ppm), round(t.CARD_W_MM * ppm)
    ys, xs = np.mgrid[0:h, 0:w] / ppm
    th = math.radians(angle_deg)
    u, v = (xs * math.cos(th) + ys * math.sin(th)) / pitch_mm, (-xs * math.sin(th) + ys * math.cos(th)) / pitch_mm
    odd = (np.floor(u) + np.floor(v)).astype(int) % 2 == 1
    return np.where(odd[..., None], np.array(b, np.uint8), np.array(a, np.uint8))


@lru_cache(maxsize=4)
def _terrain_back(ppm: float) -> np.ndarray:
    """Purple lozenges with a central medallion holding an eight-point star."""
    d = _checker(ppm, 6.0, t.PURPLE, t.MAUVE, 45)
    t.band(d, 0, 2.5, ppm, t.OCHRE)
    t.band(d, 2.5, 1.8, ppm, (70, 38, 64))
    c = (31.5, 44.0)
    for rad, colour in ((17, t.OCHRE), (15.5, t.IVORY), (14, t.PURPLE)):
        t.disc(d, c, rad, ppm, colour)
    for turn in (0, math.pi / 4):  # two squares make the star
        t.poly(d, [(c[0] + 11 * math.cos(turn + k * math.pi / 2), c[1] + 11 * math.sin(turn + k * math.pi / 2))
                   for k in range(4)], ppm, t.OCHRE)
    t.disc(d, c, 4.5, ppm, t.TERRACOTTA)
    t.disc(d, c, 2.2, ppm, t.IVORY)
    return t.lay(d, [(None, FIELD_TILE_MM, "back-terrain"),
                     (t.disc_mask(ppm, c, 17), EMBLEM_TILE_MM, "back-terrain-medallion")], ppm)


@lru_cache(maxsize=4)
def _blue_back(ppm: float) -> np.ndarray:
    """Concentric diamond courses in blues and cream round a small cream diamond."""
    h, w = round(t.CARD_H_MM * ppm), round(t.CARD_W_MM * ppm)
    ys, xs = np.mgrid[0:h, 0:w] / ppm
    course = ((np.abs(xs - 31.5) + np.abs(ys - 44.0)) / 4.6).astype(int) % 3
    d = np.array([t.DEEP_BLUE, t.LIGHT_BLUE, t.IVORY], np.uint8)[course]
    t.band(d, 0, 2.5, ppm, t.IVORY)
    t.band(d, 2.5, 1.5, ppm, t.DEEP_BLUE)
    return t.lay(d, [(None, FIELD_TILE_MM, "back-blue")], ppm)


@lru_cache(maxsize=4)
def _red_back(ppm: float) -> np.ndarray:
    """Zigzag courses of red, terracotta and ochre running across the card."""
    h, w = round(t.CARD_H_MM * ppm), round(t.CARD_W_MM * ppm)
    ys, xs = np.mgrid[0:h, 0:w] / ppm
    period, course = 12.0, 4.6  # zigzag width and course height (mm): wide enough for the tiles
    lift = np.abs((xs % period) - period / 2)  # a tent function: the courses rise and fall
    index = np.floor((ys + lift) / course).astype(int) % 3
    d = np.array([t.DEEP_RED, t.TERRACOTTA, t.OCHRE], np.uint8)[index]
    t.band(d, 0, 2.5, ppm, t.DARK_SLATE)
    return t.lay(d, [(None, FIELD_TILE_MM, "back-red")], ppm)
