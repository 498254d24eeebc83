"""Riso card art: risograph prints in fluorescent pink, teal and yellow on speckled recycled paper.

Drawn in session 25 by a separate hand as a held-out style. Two or three spot inks per card, each
halftoned at its own screen angle and printed a fixed half millimetre off register, inside a 3 mm
paper border. Terrain cards are bold two-ink pictures with a title word; the blue (teal) and red
(pink) bonus cards share one halftone star and differ only in the top band (BAND); the set-up cards
differ only in their ring of letters (RING).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from vision.art import BackKind, face_by_kind
from vision.art.riso_ink import PINK, TEAL, YELLOW, Plate, press, ring_points, sight

BAND = (6.0, 6.0, 57.0, 21.0)  # bonus cards: x0, y0, x1, y1 (mm) of the paper band that differs
STAR = (31.5, 54.0, 23.0, 9.5)  # bonus cards: centre x, y, outer and inner radius (mm) of the star
RING = (31.5, 47.0, 21.0, 4.0)  # set-up cards: centre x, y, ring radius, letters' reach either side (mm)
LETTER_MM = 5.0  # set-up letters' cap height
TITLE_Y_MM = 79.5  # terrain cards: the title word's centre line
PICTURE_BOTTOM_MM = 72.0  # terrain cards: the picture ends here, the title sits on paper below
INNER = (3.0, 3.0, 60.0, 85.0)  # the printable area inside the paper border (mm)


def render_face(card: str, px_per_mm: float) -> np.ndarray:
    """One card face in riso, BGR uint8, portrait 63x88 mm; ValueError for an unknown card."""
    return face_by_kind(card, px_per_mm, _terrain, _blue, _red, _setup)


def render_back(kind: BackKind, px_per_mm: float) -> np.ndarray:
    """One of the three card backs in riso, BGR uint8, portrait 63x88 mm."""
    return {BackKind.TERRAIN: _terrain_back, BackKind.BLUE: _blue_back, BackKind.RED: _red_back}[kind](px_per_mm)


def _rect(x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
    """A rectangle's corners in millimetres."""
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


PICTURE = _rect(0, 0, 63, PICTURE_BOTTOM_MM)


def _wave(y0: float, amp: float, freq: float, phase: float, bottom: float = PICTURE_BOTTOM_MM):
    """A polygon under a sine curve across the card, down to bottom (mm)."""
    xs = np.linspace(0, 63, 64)
    return [(x, y0 + amp * math.sin(freq * x + phase)) for x in xs] + [(63, bottom), (0, bottom)]


# --- terrain cards: a bold two-ink picture and a title word --------------------------------------

def _desert(ppm: float):
    """Yellow dunes under a pink sun, a pink cactus in front."""
    sun, sand = Plate(ppm), Plate(ppm)
    sand.gradient(PICTURE, 3, 45, 0.15, 0.45)
    sand.poly(_wave(42, 3.0, 0.12, 0.5), 0.6)
    sand.poly(_wave(52, 2.5, 0.16, 2.0), 1.0)
    sand.poly(_wave(62, 2.0, 0.2, 4.0), 0.75)
    sun.disc((42, 24), 11)
    sun.disc((42, 24), 7, 0.55)
    sun.poly(_wave(62, 2.0, 0.2, 4.0), 0.35)
    sun.poly(_rect(15, 40, 20, 66))  # the cactus: a trunk and two arms
    for arm, (x0, x1, y_top, y_joint) in enumerate(((9, 13.5, 42, 52), (21.5, 26, 38, 47))):
        sun.poly(_rect(x0, y_top, x1, y_joint + 4))
        sun.poly(_rect(x0 if arm == 0 else 19, y_joint, 16 if arm == 0 else x1, y_joint + 4))
    return [(YELLOW, sand), (PINK, sun)], (PINK, "DESERT")


def _forest(ppm: float):
    """A yellow sky and sun, rows of teal pines: pale far ones and solid near ones."""
    sky, trees = Plate(ppm), Plate(ppm)
    sky.gradient(PICTURE, 3, 60, 0.7, 0.2)
    sky.disc((44, 17), 7.5)
    trees.poly(_rect(0, 66, 63, 72))  # the forest floor
    for row, (base, height, level, xs) in enumerate(((40, 20, 0.35, range(2, 66, 8)),
                                                      (56, 26, 0.65, range(-3, 66, 11)),
                                                      (70, 34, 1.0, range(5, 66, 14)))):
        for x in xs:
            x = x + (row * 3) % 5
            half = height * 0.32
            for k in range(3):  # three tiers per pine, each narrower and higher
                tier_base = base - k * height * 0.25
                trees.poly([(x, tier_base - height * 0.45), (x + half * (1 - 0.2 * k), tier_base),
                            (x - half * (1 - 0.2 * k), tier_base)], level)
    return [(YELLOW, sky), (TEAL, trees)], (TEAL, "FOREST")


def _mountain(ppm: float):
    """Teal peaks with paper-white snow against a pink dawn sky and sun."""
    sky, rock = Plate(ppm), Plate(ppm)
    sky.gradient(PICTURE, 3, 50, 0.75, 0.1)
    sky.disc((17, 20), 6.5)
    rock.poly([(0, 45), (14, 30), (24, 38), (40, 22), (63, 40), (63, 72), (0, 72)], 0.4)
    rock.poly([(0, 60), (22, 26), (34, 42), (46, 30), (63, 52), (63, 72), (0, 72)])
    rock.poly([(22, 26), (16.5, 35), (20, 34), (23, 37), (26.5, 32)], 0)  # snow caps knock out the ink
    rock.poly([(46, 30), (42.5, 35), (45, 34.5), (47.5, 36.5), (50, 33.5)], 0)
    sky.poly(_wave(66, 1.0, 0.3, 0.0), 0.5)
    return [(PINK, sky), (TEAL, rock)], (TEAL, "MOUNTAIN")


def _water(ppm: float):
    """A yellow sun on the horizon over rolling teal waves that darken towards the bottom."""
    sky, sea = Plate(ppm), Plate(ppm)
    sky.gradient(PICTURE, 3, 32, 0.45, 0.15)
    sky.disc((31.5, 30), 10)
    sea.poly(_rect(0, 30, 63, 72), 0.3)
    for k in range(7):  # wave crests, thicker and denser nearer the viewer
        y = 34 + k * 5.5
        xs = np.linspace(0, 63, 64)
        sea.polyline([(x, y + (0.8 + 0.3 * k) * math.sin(0.35 * x + 1.3 * k)) for x in xs], 0.6 + 0.35 * k)
    for k, y in enumerate((33, 36, 39)):  # the sun's glitter on the water
        sky.poly(_rect(31.5 - 6 + 1.5 * k, y, 31.5 + 6 - 1.5 * k, y + 1.2))
    return [(YELLOW, sky), (TEAL, sea)], (TEAL, "WATER")


def _any(ppm: float):
    """Three overprinted circles, one per ink, meeting in the middle."""
    plates = [Plate(ppm), Plate(ppm), Plate(ppm)]
    for plate, (x, y) in zip(plates, ((31.5, 24), (19.5, 45), (43.5, 45)), strict=True):
        plate.disc((x, y), 16, 0.85)
        plate.disc((x, y), 16, 1.0, width_mm=1.2)
    return list(zip((YELLOW, PINK, TEAL), plates, strict=True)), (PINK, "ANY")


def _terrain(terrain: str, ppm: float) -> np.ndarray:
    """A terrain card: its picture, and its name in one of its inks on the paper below."""
    plates, (title_ink, word) = {"desert": _desert, "forest": _forest, "mountain": _mountain,
                                 "water": _water, "any": _any}[terrain](ppm)
    title = Plate(ppm)
    title.text(word, (31.5, TITLE_Y_MM), 6.0, 1.0)
    for ink, plate in plates:
        if ink is title_ink:
            plate.img = np.maximum(plate.img, title.img)
            break
    return press(plates, "terrain", ppm)


# --- bonus cards: a shared star, a band that differs ---------------------------------------------

def _star_points(cx: float, cy: float, outer: float, inner: float) -> list[tuple[float, float]]:
    """A five-point star's ten corners, one point straight up."""
    return [(cx + (outer if k % 2 == 0 else inner) * math.sin(math.pi * k / 5),
             cy - (outer if k % 2 == 0 else inner) * math.cos(math.pi * k / 5)) for k in range(10)]


@lru_cache(maxsize=8)
def _bonus_plates(ppm: float) -> tuple[np.ndarray, np.ndarray]:
    """The shared part of every bonus card: the field with a light star, and the yellow star glow."""
    field, glow = Plate(ppm), Plate(ppm)
    cx, cy, outer, inner = STAR
    field.poly(_rect(*INNER), 0.9)
    field.poly(_rect(*BAND), 0)  # the band is bare paper for the lettering
    field.poly(_star_points(cx, cy, outer + 1.5, inner + 0.8), 1.0)  # a solid rim round the star
    field.poly(_star_points(cx, cy, outer, inner), 0.18)
    glow.poly(_star_points(cx, cy, outer, inner))
    h, w = glow.img.shape
    ys, xs = np.ogrid[0:h, 0:w]
    radial = np.clip(1.05 - np.hypot(xs / glow.fine - cx, ys / glow.fine - cy) / outer, 0.2, 1.0)
    glow.img = (radial * glow.img).astype(np.uint8)  # brightest in the middle, pale at the tips
    glow.disc((BAND[2] - 10.5, (BAND[1] + BAND[3]) / 2), 5.8)  # a yellow roundel for the number
    return field.img, glow.img


def _bonus(ppm: float) -> tuple[Plate, Plate]:
    """Fresh copies of the shared bonus plates, to letter on."""
    field, glow = Plate(ppm), Plate(ppm)
    field.img[:], glow.img[:] = _bonus_plates(ppm)
    return field, glow


def _blue(letter: str, number: int, points: int, ppm: float) -> np.ndarray:
    """A blue bonus card: teal field, the star, and 'A-A', '#1' and the points in the band."""
    field, glow = _bonus(ppm)
    mid = (BAND[1] + BAND[3]) / 2
    field.text(f"{letter}-{letter}", (21.0, mid - 2.0), 6.5, 1.0)
    field.text(f"#{number}", (21.0, mid + 4.6), 3.0, 0.5)
    field.text(str(points), (BAND[2] - 10.5, mid), 6.5, 1.1)
    return press([(YELLOW, glow), (TEAL, field)], "blue", ppm)


def _red(sight_name: str, ppm: float) -> np.ndarray:
    """A red bonus card: pink field, the star, a 6 and the sight twice in the band."""
    field, glow = _bonus(ppm)
    mid = (BAND[1] + BAND[3]) / 2
    for x in (14.0, 33.0):
        sight(field, sight_name, (x, mid), 11.0)
    field.text("6", (BAND[2] - 10.5, mid), 6.5, 1.1)
    return press([(YELLOW, glow), (PINK, field)], "red", ppm)


# --- set-up cards: ten letters in a ring ---------------------------------------------------------

def _setup(letters: str, ppm: float) -> np.ndarray:
    """A set-up card: a yellow ring and compass on paper, ten letters clockwise, the first in pink."""
    cx, cy, r, _ = RING
    glow, teal, pink = Plate(ppm), Plate(ppm), Plate(ppm)
    glow.disc((cx, cy), r, 0.45, width_mm=9.0)
    glow.disc((cx, cy), 9.0, 0.8)
    teal.poly(_rect(5.0, 5.0, 58.0, 83.0), 1.0)  # a thin teal frame line inside the border
    teal.poly(_rect(5.8, 5.8, 57.2, 82.2), 0)
    teal.poly(_star_points(cx, cy, 8.0, 2.5), 0.9)
    for k, (letter, p) in enumerate(zip(letters, ring_points((cx, cy), r, 10), strict=True)):
        (pink if k == 0 else teal).text(letter, p, LETTER_MM, 0.8)
    return press([(YELLOW, glow), (TEAL, teal), (PINK, pink)], "setup", ppm)


# --- backs --------------------------------------------------------------------------------------

def _terrain_back(ppm: float) -> np.ndarray:
    """Diagonal teal halftone stripes, a yellow disc and a pink dot in the middle."""
    stripes, sun, dot = Plate(ppm), Plate(ppm), Plate(ppm)
    for k in range(-20, 20):  # alternate dense and light diagonal bands, 4 mm wide
        x = k * 8.0
        stripes.poly([(x, 0), (x + 4, 0), (x + 4 + 88, 88), (x + 88, 88)], 0.9)
        stripes.poly([(x + 4, 0), (x + 8, 0), (x + 8 + 88, 88), (x + 4 + 88, 88)], 0.3)
    sun.disc((31.5, 44), 16)
    stripes.disc((31.5, 44), 17.5, 0)
    dot.disc((31.5, 44), 7, 0.7)
    return press([(YELLOW, sun), (TEAL, stripes), (PINK, dot)], "back-terrain", ppm)


def _blue_back(ppm: float) -> np.ndarray:
    """Horizontal teal bands, each a halftone ramp from light to solid, over yellow pinstripes."""
    ramps, lines = Plate(ppm), Plate(ppm)
    h = ramps.img.shape[0]
    ys = np.arange(h)[:, None] / ramps.fine
    ramps.img[:] = np.round(np.clip((ys % 7.0) / 6.0, 0, 1) * 255).astype(np.uint8)
    for k in range(13):
        lines.poly(_rect(0, 6.5 + 7 * k, 63, 7.3 + 7 * k))
    return press([(YELLOW, lines), (TEAL, ramps)], "back-blue", ppm)


def _red_back(ppm: float) -> np.ndarray:
    """Concentric pink rings round the card's centre, crossed by a yellow diagonal band."""
    rings, band = Plate(ppm), Plate(ppm)
    for k in range(18, 0, -1):
        rings.disc((31.5, 44), 3.0 * k, 0.95 if k % 2 else 0.25)
    band.poly([(0, 60), (63, 10), (63, 28), (0, 78)], 0.8)
    return press([(YELLOW, band), (PINK, rings)], "back-red", ppm)
