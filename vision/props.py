"""Things the simulated camera sees besides our cards: table tops, card backs, other games' cards, hands."""

from __future__ import annotations

import math
import random
from enum import Enum

import cv2
import numpy as np

from vision.glyphs import SIGHT_GLYPHS, TERRAIN_GLYPHS, Canvas
from vision.render import CARD_H_MM, CARD_W_MM, STANDARD, WOODCUT, render_back


class Background(Enum):
    """The table tops the simulator can lay cards on."""

    FELT = "felt"  # dark green card-table felt
    MAT = "mat"  # near-black neoprene play mat
    WOOD = "wood"  # light-brown wooden table with grain
    CLOTH = "cloth"  # blue-grey woven table cloth
    SLATE = "slate"  # mottled mid-grey


BAND_ROWS = 64  # rows turned to uint8 at a time: float temporaries of ~2 MB, not whole frames


def to_uint8(img: np.ndarray, rng: np.random.Generator | None = None, sigma: float = 0.0, *,
             grey_noise: bool = False, tint: np.ndarray | None = None) -> np.ndarray:
    """An image plus Gaussian noise of sigma grey levels, clipped to uint8, a band of rows at a time.

    Noise is drawn band by band in row order, so the frame is the same as one drawn whole, but no
    frame-sized float temporaries are ever made: glibc keeps the heap it grew for one (tens of MB
    of resident memory that a long-running server never gets back). grey_noise: one value for all
    three channels of a pixel (grain in a table top), else one per channel (sensor noise).
    tint: a BGR colour that the (height, width) shading img multiplies (a table top).
    """
    out = np.empty(img.shape if tint is None else (*img.shape, 3), np.uint8)
    for top in range(0, img.shape[0], BAND_ROWS):
        band = img[top:top + BAND_ROWS]
        if tint is not None:
            band = tint * band[..., None]
        if rng is not None and sigma > 0:
            shape = (*band.shape[:2], 1) if grey_noise else band.shape
            band = band + rng.normal(0, sigma, shape).astype(np.float32)
        out[top:top + BAND_ROWS] = np.clip(band, 0, 255)
    return out


def as_generator(rng: np.random.Generator | random.Random) -> np.random.Generator:
    """Accept a numpy Generator or a random.Random and return a numpy Generator drawn from it."""
    if isinstance(rng, np.random.Generator):
        return rng
    return np.random.default_rng(rng.getrandbits(64))


def _mottle(size: tuple[int, int], rng: np.random.Generator, cells: int) -> np.ndarray:
    """Smooth random field in -1..1, `cells` blobs across the width."""
    w, h = size
    small = rng.standard_normal((max(2, cells * h // w), cells)).astype(np.float32)
    field = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    field /= max(1e-6, float(np.abs(field).max()))  # in place: a frame-sized float array is 3.7 MB
    return field


def render_background(kind: Background, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """Draw a table top of the given kind as a BGR image of size (width, height)."""
    w, h = size
    if kind is Background.WOOD:
        base = np.array([95, 150, 200], np.float32) * rng.uniform(0.8, 1.05)
        x = np.arange(w, dtype=np.float32)[None, :]
        y = np.arange(h, dtype=np.float32)[:, None]
        warp = 25 * _mottle(size, rng, 4)
        grain = np.sin((y + warp + 0.05 * x) * rng.uniform(0.08, 0.15)) * 0.5 + 0.5
        shade = 0.85 + 0.15 * grain + 0.06 * _mottle(size, rng, 12)
    elif kind is Background.CLOTH:
        base = np.array([120, 100, 80], np.float32) * rng.uniform(0.8, 1.15)
        yy, xx = np.ogrid[0:h, 0:w]  # broadcast: no two frame-sized int64 grids
        weave = ((xx // 3 + yy // 3) % 2).astype(np.float32)
        shade = 0.92 + 0.08 * weave + 0.05 * _mottle(size, rng, 8)
    else:
        base, depth = {
            Background.FELT: (np.array([40, 95, 30], np.float32), 0.08),
            Background.MAT: (np.array([35, 32, 30], np.float32), 0.15),
            Background.SLATE: (np.array([105, 105, 100], np.float32), 0.12),
        }[kind]
        base = base * rng.uniform(0.85, 1.15)
        shade = _mottle(size, rng, 10)
        shade *= depth
        shade += 1
    return to_uint8(shade, rng, 2.0, grey_noise=True, tint=base)  # the shaded colour, a band at a time


def random_back(rng: np.random.Generator, px_per_mm: float = 4.0) -> np.ndarray:
    """A card back: ours in either style, or a plain or striped back of some other game."""
    choice = rng.integers(0, 4)
    if choice < 2:
        return render_back(STANDARD if choice == 0 else WOODCUT, px_per_mm)
    fill = tuple(int(v) for v in rng.integers(30, 200, 3))
    cv = Canvas(CARD_W_MM, CARD_H_MM, px_per_mm, (235, 235, 235))
    cv.rect((3, 3), (CARD_W_MM - 3, CARD_H_MM - 3), fill)
    ink = tuple(min(255, v + 70) for v in fill)
    if choice == 3:
        for i in range(-10, 20):
            x = i * 6.0
            cv.poly([(x, 3), (x + 2.5, 3), (x + 2.5 + 40, CARD_H_MM - 3), (x + 40, CARD_H_MM - 3)], ink)
        cv.rect((0, 0), (3, CARD_H_MM), (235, 235, 235))
        cv.rect((CARD_W_MM - 3, 0), (CARD_W_MM, CARD_H_MM), (235, 235, 235))
    cv.circle((CARD_W_MM / 2, CARD_H_MM / 2), 12, ink, 2.0)
    return cv.image


class Suit(Enum):
    """The four suits of a playing card, the commonest other game's card on a table."""

    HEART = "heart"
    DIAMOND = "diamond"
    SPADE = "spade"
    CLUB = "club"


RED_SUITS = frozenset({Suit.HEART, Suit.DIAMOND})


def _suit(cv: Canvas, kind: Suit, c: tuple[float, float], r: float, colour) -> None:
    """Draw one suit sign of radius r mm centred on c."""
    x, y = c
    if kind is Suit.DIAMOND:
        cv.poly([(x, y - r), (x + 0.7 * r, y), (x, y + r), (x - 0.7 * r, y)], colour)
    elif kind is Suit.HEART:
        cv.circle((x - 0.45 * r, y - 0.3 * r), 0.5 * r, colour)
        cv.circle((x + 0.45 * r, y - 0.3 * r), 0.5 * r, colour)
        cv.poly([(x - 0.93 * r, y - 0.15 * r), (x + 0.93 * r, y - 0.15 * r), (x, y + r)], colour)
    elif kind is Suit.SPADE:
        cv.circle((x - 0.45 * r, y + 0.2 * r), 0.5 * r, colour)
        cv.circle((x + 0.45 * r, y + 0.2 * r), 0.5 * r, colour)
        cv.poly([(x - 0.93 * r, y + 0.05 * r), (x + 0.93 * r, y + 0.05 * r), (x, y - r)], colour)
        cv.poly([(x, y + 0.3 * r), (x + 0.3 * r, y + r), (x - 0.3 * r, y + r)], colour)
    else:
        for dx, dy in ((0, -0.45), (-0.45, 0.15), (0.45, 0.15)):
            cv.circle((x + dx * r, y + dy * r), 0.38 * r, colour)
        cv.poly([(x, y), (x + 0.3 * r, y + r), (x - 0.3 * r, y + r)], colour)


def foreign_card(rng: np.random.Generator, px_per_mm: float = 4.0) -> np.ndarray:
    """A face card from some other game: a playing card or a random card of shapes and words."""
    font = int(rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_DUPLEX]))
    if rng.random() < 0.5:
        cv = Canvas(CARD_W_MM, CARD_H_MM, px_per_mm, (245, 245, 245))
        suit = list(Suit)[int(rng.integers(0, len(Suit)))]
        colour = (30, 30, 200) if suit in RED_SUITS else (20, 20, 20)
        rank = str(rng.choice(["A", "2", "3", "5", "7", "9", "10", "J", "Q", "K"]))
        cv.text(rank, (8, 9), 7, colour, font)
        cv.text(rank, (CARD_W_MM - 8, CARD_H_MM - 9), 7, colour, font, upside_down=True)
        n = int(rng.integers(1, 7))
        for i in range(n):
            cx = CARD_W_MM / 2 + (0 if n == 1 else (-12 if i % 2 == 0 else 12))
            cy = CARD_H_MM / 2 + (0 if n == 1 else (i // 2 - (n - 1) // 4) * 20)
            _suit(cv, suit, (cx, cy), 9 if n > 1 else 16, colour)
        return cv.image
    fill = tuple(int(v) for v in rng.integers(20, 235, 3))
    cv = Canvas(CARD_W_MM, CARD_H_MM, px_per_mm, tuple(int(v) for v in rng.integers(150, 256, 3)))
    cv.rect((4, 4), (CARD_W_MM - 4, CARD_H_MM - 4), fill)
    glyphs = list(TERRAIN_GLYPHS.values()) + list(SIGHT_GLYPHS.values())
    for _ in range(int(rng.integers(1, 4))):
        ink = tuple(int(v) for v in rng.integers(0, 256, 3))
        c = (float(rng.uniform(15, 48)), float(rng.uniform(15, 73)))
        if rng.random() < 0.5:
            glyphs[int(rng.integers(0, len(glyphs)))](cv, c, float(rng.uniform(12, 30)), ink)
        else:
            cv.circle(c, float(rng.uniform(4, 14)), ink)
    word = "".join(rng.choice(list("KLMNOPRSTUVWXYZ"), int(rng.integers(3, 7))))
    cv.text(word, (CARD_W_MM / 2, float(rng.uniform(10, 80))), 6, (240, 240, 240), font)
    return cv.image


def hand_polygons(rng: np.random.Generator, centre: tuple[float, float], scale: float,
                  angle: float, reach: float) -> list[np.ndarray]:
    """A palm, five fingers and the forearm (reach pixels long: past the frame's side, as a hand
    over a table comes on its arm) as polygons in frame pixels (scale: palm width in pixels)."""
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])

    def place(pts) -> np.ndarray:
        return (np.asarray(pts, np.float64) * scale) @ rot.T + np.asarray(centre)

    shapes = [place([(-0.5, -0.4), (0.5, -0.4), (0.55, 0.5), (0.3, 1.6), (-0.3, 1.6), (-0.55, 0.5)])]
    spread = rng.uniform(0.0, 0.25)
    for i, length in enumerate((0.75, 0.95, 1.0, 0.9)):
        x = -0.38 + i * 0.25
        tilt = (i - 1.5) * spread
        tip = (x + math.sin(tilt) * length, -0.4 - math.cos(tilt) * length)
        shapes.append(place([(x - 0.1, -0.35), (x + 0.1, -0.35), (tip[0] + 0.09, tip[1]),
                             (tip[0] - 0.09, tip[1])]))
    shapes.append(place([(0.45, 0.2), (0.6, 0.05), (1.05, -0.35), (0.95, -0.5), (0.45, -0.1)]))
    elbow = 1.6 + reach / scale
    shapes.append(place([(-0.45, 1.6), (0.45, 1.6), (0.63, elbow), (-0.63, elbow)]))
    return shapes


def skin_colour(rng: np.random.Generator) -> tuple[int, int, int]:
    """A skin tone, light to dark, in BGR."""
    t = rng.uniform(0, 1)
    light, dark = np.array([160, 190, 235]), np.array([45, 75, 120])
    return tuple(int(v) for v in light * (1 - t) + dark * t)
