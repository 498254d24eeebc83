"""Chalk: cards drawn in soft, grainy chalk and pastel on dark slate or dark tinted paper.

No white card border: each card is dark to its edge, with a thin rough chalk line ~2 mm in. The
strokes wobble, skip over the paper's tooth and leave a little dust; colour is rubbed in with a
finger here and there, and ghosts of wiped-off chalk stay on the slate. Terrain cards are one large
drawing each: dunes under a sun with a saguaro, pines under a crescent moon, snowy hatched peaks,
rows of curling waves, or all four in quarters split by a wavy cross. Blue bonus cards (blue-black
slate) and red ones (maroon-black paper) carry the same big tilted chalk key, pale blue or pink,
and differ only in the top corners: a hand-lettered letter pair and a small boxed '#1'/'#2' on the
left (two small sights on the red cards), the points in a scribbled circle on the right. Set-up
cards: ten chalk letters in a circle round a clockwise arrow, the first in red chalk, ringed.
Backs: a toucan logo on honeycomb (terrain), and a heap of chalk shapes under a ribbon on
cross-hatched blue or red. Drawn in session 24 by a separate hand, never tuned on.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.art import BackKind, face_by_kind
from vision.art.chalk_board import WHITE, Board, crc
from vision.art.chalk_marks import BARK, BLUE, LANDSCAPES, ORANGE, PINK, RED, SAND, SKY, key, sight
from vision.cards import RED_POINTS
from vision.render import CARD_H_MM, CARD_W_MM

SLATE = (46, 47, 49)
BLUE_SLATE = (64, 45, 34)
RED_PAPER = (40, 38, 64)
GREEN_SLATE = (42, 50, 42)

BORDER_MM = 2.0
CORNERS = ((2.0, 4.0, 32.0, 24.0), (44.0, 4.0, 60.0, 20.0))  # where bonus twins differ (mm boxes)
RING_CENTRE = (31.5, 49.0)
RING_R = 20.0

_HAND = cv2.FONT_HERSHEY_DUPLEX | cv2.FONT_ITALIC
_PLAIN = cv2.FONT_HERSHEY_SIMPLEX
_SCRIPT = cv2.FONT_HERSHEY_SCRIPT_SIMPLEX


def _border(b: Board, inset: float = BORDER_MM, colour=WHITE, press: float = 0.9) -> None:
    """A rough chalk rectangle, its sides crossing at the corners."""
    x0, y0, x1, y1 = inset, inset, CARD_W_MM - inset, CARD_H_MM - inset
    o = 0.8
    for a, c in (((x0 - o, y0), (x1 + o * 0.5, y0 + 0.2)), ((x1, y0 - o * 0.6), (x1 - 0.2, y1 + o)),
                 ((x1 + o * 0.4, y1), (x0 - o, y1 - 0.15)), ((x0, y1 + o * 0.5), (x0 + 0.15, y0 - o))):
        b.stroke([a, c], 0.45, colour, press, wobble=0.12)


def _terrain(terrain: str, ppm: float) -> np.ndarray:
    b = Board(ppm, SLATE, "chalk/terrain")
    _border(b)
    LANDSCAPES[terrain](b, (4.5, 5.0, CARD_W_MM - 4.5, CARD_H_MM - 5.0))
    return b.finish()


def _points(b: Board, points: int, colour) -> None:
    """The points in the top right corner, in a scribbled circle."""
    c = (52.0, 12.0)
    b.ring(c, 5.6, 0.5, WHITE, 0.85, start=-120, sweep=400)
    b.letters(str(points), c, 5.6, _PLAIN | cv2.FONT_ITALIC, 0.75, colour)


def _bonus_base(ppm: float, paper, name: str, motif, light) -> Board:
    b = Board(ppm, paper, name)
    _border(b)
    key(b, motif, light)
    b.stroke([(6.0, 25.5), (24.0, 25.0)], 0.35, WHITE, 0.5)
    b.stroke([(47.0, 21.5), (57.0, 21.0)], 0.35, WHITE, 0.5)
    return b


def _blue(letter: str, number: int, points: int, ppm: float) -> np.ndarray:
    b = _bonus_base(ppm, BLUE_SLATE, "chalk/blue", SKY, WHITE)
    b.letters(f"{letter}-{letter}", (15.5, 12.0), 6.4, _HAND, 0.9, WHITE)
    box = [(7.2, 18.0), (12.6, 17.8), (12.8, 22.2), (7.0, 22.4)]
    b.stroke(box, 0.3, SKY, 0.8, wobble=0.05, closed=True)
    b.letters(f"#{number}", (9.9, 20.2), 2.2, _PLAIN, 0.32, WHITE)
    _points(b, points, SAND)
    return b.finish()


def _red(name: str, ppm: float) -> np.ndarray:
    b = _bonus_base(ppm, RED_PAPER, "chalk/red", PINK, SAND)
    for x in (11.0, 22.5):
        sight(b, name, (x, 13.0), 10.0)
    _points(b, RED_POINTS, PINK)
    return b.finish()


def _setup(letters: str, ppm: float) -> np.ndarray:
    b = Board(ppm, SLATE, "chalk/setup")
    _border(b)
    b.letters("Set-up", (31.5, 10.5), 4.5, _SCRIPT, 0.45, SAND, 0.85)
    cx, cy = RING_CENTRE
    b.ring(RING_CENTRE, 8.5, 0.5, WHITE, 0.6, start=-80, sweep=280)
    end = math.radians(200)
    tip = (cx + 8.5 * math.cos(end), cy + 8.5 * math.sin(end))
    b.stroke([(tip[0] - 1.2, tip[1] + 2.4), tip, (tip[0] + 2.6, tip[1] + 0.6)], 0.5, WHITE, 0.6)
    for k, letter in enumerate(letters):
        a = 2 * math.pi * k / len(letters)
        c = (cx + RING_R * math.sin(a), cy - RING_R * math.cos(a))
        mid = a + math.pi / len(letters)
        b.dot((cx + RING_R * math.sin(mid), cy - RING_R * math.cos(mid)), 0.45, SAND, 0.8)
        if k == 0:
            b.ring(c, 4.4, 0.55, RED)
        b.letters(letter, c, 5.2, _PLAIN, 0.75, RED if k == 0 else WHITE)
    return b.finish()


def render_face(card: str, px_per_mm: float) -> np.ndarray:
    """One card face in the chalk style, BGR uint8, portrait 63x88 mm; ValueError if unknown."""
    return face_by_kind(card, px_per_mm, _terrain, _blue, _red, _setup)


def _terrain_back(ppm: float) -> np.ndarray:
    b = Board(ppm, GREEN_SLATE, "chalk/back-terrain")
    _border(b)
    _border(b, 3.6, SAND, 0.7)
    c = (CARD_W_MM / 2, 40.0)
    r = 3.6
    for row in range(-1, 16):
        for col in range(-1, 10):
            hx, hy = 5.0 + col * r * math.sqrt(3) + (row % 2) * r * math.sqrt(3) / 2, 5.0 + row * r * 1.5
            if math.hypot(hx - c[0], hy - c[1]) < 16 or abs(hy - 66) < 6 or not (5 < hx < 58 and 5 < hy < 83):
                continue
            hexa = [(hx + r * 0.9 * math.sin(k * math.pi / 3), hy - r * 0.9 * math.cos(k * math.pi / 3))
                    for k in range(6)]
            b.stroke(hexa, 0.3, WHITE, 0.35, wobble=0.05, closed=True)
    b.ring(c, 13.0, 0.8, SAND)
    b.ring(c, 11.5, 0.4, WHITE, 0.7)
    b.ring((c[0] - 3, c[1] + 1), 5.0, 0.7, WHITE)
    beak = [(c[0] + 1, c[1] - 3), (c[0] + 9, c[1] - 1), (c[0] + 8, c[1] + 1.5), (c[0] + 1.5, c[1] + 2)]
    b.smudge(beak, ORANGE, 0.6, 0.4)
    b.stroke(beak, 0.6, ORANGE, closed=True)
    b.dot((c[0] - 2.2, c[1] - 0.5), 0.8)
    b.stroke([(c[0] - 8, c[1] + 8), (c[0] + 3, c[1] + 8)], 0.6, BARK)
    b.letters("Tucana", (c[0], 66.0), 6.0, cv2.FONT_HERSHEY_SCRIPT_COMPLEX, 0.6, SAND)
    return b.finish()


def _pile_back(paper, hatch, ribbon, name: str, slope: int, ppm: float) -> np.ndarray:
    b = Board(ppm, paper, name)
    _border(b)
    for k in range(-30, 30):
        x = k * 3.2
        b.stroke([(x, 3.0), (x + slope * 80.0, 85.0)], 0.3, hatch, 0.3, wobble=0.1)
    rng = np.random.default_rng(crc(name + "/pile"))
    for _ in range(18):
        x, y, s = rng.uniform(12, 51), rng.uniform(52, 78), rng.uniform(3, 6)
        colour = (SKY, SAND, PINK, WHITE, BLUE)[int(rng.integers(5))]
        n = int(rng.choice([3, 4, 6, 24]))
        turn = rng.uniform(0, math.pi)
        shape = [(x + s * math.cos(turn + 2 * math.pi * k / n), y + s * math.sin(turn + 2 * math.pi * k / n))
                 for k in range(n)]
        b.smudge(shape, colour, 0.35, 0.3)
        b.stroke(shape, 0.5, colour, 0.9, closed=True)
    top = [(6 + t * 51, 30 + 3.5 * math.sin(t * 2 * math.pi)) for t in np.linspace(0, 1, 30)]
    low = [(x, y + 6.0) for x, y in top]
    b.smudge(top + low[::-1], ribbon, 0.4, 0.3)
    b.stroke(top, 0.6, ribbon)
    b.stroke(low, 0.6, ribbon)
    for (x, y), d in ((top[0], -1), (top[-1], 1)):
        b.stroke([(x, y), (x + d * 4.5, y), (x + d * 2.5, y + 3), (x + d * 4.5, y + 6), (x, y + 6)], 0.5, ribbon)
    return b.finish()


def render_back(kind: BackKind, px_per_mm: float) -> np.ndarray:
    """One of the three backs in the chalk style, BGR uint8, portrait 63x88 mm."""
    if kind is BackKind.TERRAIN:
        return _terrain_back(px_per_mm)
    if kind is BackKind.BLUE:
        return _pile_back(BLUE_SLATE, BLUE, WHITE, "chalk/back-blue", 1, px_per_mm)
    return _pile_back(RED_PAPER, PINK, SAND, "chalk/back-red", -1, px_per_mm)
