"""FLAT: a flat-colour style with white borders, its own block lettering, pictograms and layout.

Terrain cards carry one big pictogram on a coloured panel with corner indices like a playing
card; blue bonus cards show the letter pair in two white discs and the points in a ring below;
red bonus cards one big sight and its points; set-up cards ten letter tiles in a ring, the first
red, the sequence clockwise. Nothing is shared with vision.render's STANDARD and WOODCUT but the
millimetre drawing primitives of vision.glyphs.Canvas.
"""

from __future__ import annotations

import math

import numpy as np

from vision.art import BackKind
from vision.cards import BLUE_POINTS, RED_POINTS, SETUP_LETTERS, TERRAINS
from vision.glyphs import Canvas, Colour, Point
from vision.render import CARD_H_MM, CARD_W_MM

W, H = CARD_W_MM, CARD_H_MM
BORDER_MM = 3.2
PANEL_RADIUS_MM = 2.5
PAPER: Colour = (246, 246, 244)
CHARCOAL: Colour = (55, 50, 48)
SIGNAL_RED: Colour = (50, 45, 220)
FILL = {"desert": (45, 150, 245), "forest": (95, 150, 30), "mountain": (140, 110, 120),
        "water": (205, 150, 25), "blue": (125, 60, 25), "red": (80, 85, 235), "setup": (236, 226, 214)}
DEEP = {k: tuple(int(v * 0.62) for v in c) for k, c in FILL.items()}

# A 5x7 block font: each "#" is a cell; neighbouring cells are joined into round strokes.
FONT_ROWS = {
    "A": (".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"),
    "B": ("####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."),
    "C": (".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."),
    "D": ("####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####."),
    "E": ("#####", "#....", "#....", "####.", "#....", "#....", "#####"),
    "0": (".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."),
    "1": ("..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."),
    "2": (".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"),
    "3": ("####.", "....#", "....#", ".###.", "....#", "....#", "####."),
    "4": ("...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."),
    "5": ("#####", "#....", "####.", "....#", "....#", "#...#", ".###."),
    "6": (".###.", "#....", "#....", "####.", "#...#", "#...#", ".###."),
    "7": ("#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."),
    "8": (".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."),
    "9": (".###.", "#...#", "#...#", ".####", "....#", "....#", ".###."),
    "#": (".#.#.", ".#.#.", "#####", ".#.#.", "#####", ".#.#.", ".#.#."),
}
STROKE_SHARE = 1.15  # stroke width in cells: a little over one, so joined cells read as lines


def block_text(cv: Canvas, text: str, c: Point, height_mm: float, colour: Colour) -> None:
    """Write text in the block font, centred on c, letters height_mm tall."""
    cell = height_mm / 7
    x0 = c[0] - (len(text) * 6 - 1) * cell / 2 + cell / 2
    y0 = c[1] - 3 * cell
    for k, ch in enumerate(text):
        on = {(r, q) for r, row in enumerate(FONT_ROWS[ch]) for q, v in enumerate(row) if v == "#"}
        for r, q in on:
            p = (x0 + (k * 6 + q) * cell, y0 + r * cell)
            cv.circle(p, cell * STROKE_SHARE / 2, colour)
            for dr, dq in ((0, 1), (1, 0), (1, 1), (1, -1)):
                diagonal_ok = dr == 0 or dq == 0 or ((r, q + dq) not in on and (r + dr, q) not in on)
                if (r + dr, q + dq) in on and diagonal_ok:
                    cv.line([p, (p[0] + dq * cell, p[1] + dr * cell)], colour, cell * STROKE_SHARE)


def _box(c: Point, s: float, pts) -> list[Point]:
    return [(c[0] + x * s / 2, c[1] + y * s / 2) for x, y in pts]


def _cactus(cv: Canvas, c: Point, s: float, ink: Colour) -> None:
    cv.circle(_box(c, s, [(0.5, -0.6)])[0], s * 0.16, (120, 220, 255))
    cv.poly(_box(c, s, [(-0.12, -0.55), (0.12, -0.55), (0.12, 0.9), (-0.12, 0.9)]), ink)
    cv.circle(_box(c, s, [(0.0, -0.55)])[0], s * 0.06, ink)
    for side in (-1, 1):
        y = 0.05 if side < 0 else -0.15
        cv.poly(_box(c, s, [(0, y), (side * 0.45, y), (side * 0.45, y - 0.1), (0, y - 0.1)]), ink)
        cv.poly(_box(c, s, [(side * 0.35, y), (side * 0.45, y), (side * 0.45, y - 0.45), (side * 0.35, y - 0.45)]), ink)
    cv.poly(_box(c, s, [(-0.9, 0.9), (0.9, 0.9), (0.9, 1.0), (-0.9, 1.0)]), ink)


def _trees(cv: Canvas, c: Point, s: float, ink: Colour) -> None:
    for x, r in ((-0.45, 0.32), (0.3, 0.45)):
        cv.poly(_box(c, s, [(x - 0.05, 0.2), (x + 0.05, 0.2), (x + 0.05, 0.95), (x - 0.05, 0.95)]), ink)
        cv.circle(_box(c, s, [(x, 0.15 - r)])[0], s * r / 2, ink)


def _peak(cv: Canvas, c: Point, s: float, ink: Colour) -> None:
    cv.poly(_box(c, s, [(-0.95, 0.8), (0.0, -0.85), (0.95, 0.8)]), ink)
    cv.poly(_box(c, s, [(-0.33, -0.27), (0.0, -0.85), (0.33, -0.27), (0.15, -0.15), (0.0, -0.3),
                        (-0.15, -0.15)]), PAPER)


def _drop(cv: Canvas, c: Point, s: float, ink: Colour) -> None:
    cv.circle(_box(c, s, [(0.0, 0.2)])[0], s * 0.3, ink)
    cv.poly(_box(c, s, [(-0.55, 0.05), (0.0, -0.9), (0.55, 0.05)]), ink)
    for r in (0.75, 0.95):
        cv.line(_box(c, s, [(r * math.cos(t), 0.2 + 0.35 * r * math.sin(t)) for t in np.linspace(0.3, 2.8, 10)]),
                ink, s * 0.04)


TERRAIN_MARKS = {"desert": _cactus, "forest": _trees, "mountain": _peak, "water": _drop}


def _pinwheel(cv: Canvas, c: Point, s: float, _ink: Colour) -> None:
    for k, terrain in enumerate(("desert", "forest", "mountain", "water")):
        a = k * math.pi / 2
        tip = (c[0] + s / 2 * math.cos(a), c[1] + s / 2 * math.sin(a))
        side = (c[0] + s / 2 * math.cos(a + math.pi / 2) * 0.55, c[1] + s / 2 * math.sin(a + math.pi / 2) * 0.55)
        cv.poly([c, tip, side], FILL[terrain])
    cv.circle(c, s * 0.08, CHARCOAL)


def _tower(cv: Canvas, c: Point, s: float, ink: Colour) -> None:
    for k, half in enumerate((0.5, 0.38, 0.26)):
        y = 0.9 - k * 0.22
        cv.poly(_box(c, s, [(-half, y), (half, y), (half, y - 0.22), (-half, y - 0.22)]), ink)
    cv.poly(_box(c, s, [(-0.14, 0.25), (0.14, 0.25), (0.0, -0.95)]), ink)


def _stack(cv: Canvas, c: Point, s: float, ink: Colour) -> None:
    for k, (dx, w) in enumerate(((0.0, 0.85), (0.08, 0.75), (-0.06, 0.8))):
        y = 0.75 - k * 0.42
        cv.poly(_box(c, s, [(dx - w, y), (dx + w, y), (dx + w, y - 0.34), (dx - w, y - 0.34)]), ink)
        cv.poly(_box(c, s, [(dx + w - 0.2, y - 0.08), (dx + w - 0.05, y - 0.08), (dx + w - 0.05, y - 0.26),
                            (dx + w - 0.2, y - 0.26)]), PAPER)


def _bird(cv: Canvas, c: Point, s: float, ink: Colour) -> None:
    cv.ellipse(_box(c, s, [(-0.3, 0.25)])[0], (s * 0.22, s * 0.34), -20, ink)
    cv.circle(_box(c, s, [(-0.15, -0.35)])[0], s * 0.2, ink)
    cv.poly(_box(c, s, [(0.0, -0.55), (0.95, -0.3), (0.0, -0.2)]), (40, 150, 250))
    cv.circle(_box(c, s, [(-0.1, -0.42)])[0], s * 0.04, PAPER)


def _face(cv: Canvas, c: Point, s: float, ink: Colour) -> None:
    fur = [(c[0] + s / 2 * (0.95 if k % 2 else 0.75) * math.cos(k * math.pi / 9),
            c[1] + s / 2 * (0.95 if k % 2 else 0.75) * math.sin(k * math.pi / 9)) for k in range(18)]
    cv.poly(fur, ink)
    cv.ellipse(c, (s * 0.25, s * 0.2), 0, PAPER)
    for x in (-0.12, 0.12):
        cv.circle(_box(c, s, [(x, -0.05)])[0], s * 0.04, ink)


def _tentacle(cv: Canvas, c: Point, s: float, ink: Colour) -> None:
    spiral = [(c[0] + s / 2 * 0.8 * (t / 12) * math.cos(t), c[1] + s / 2 * 0.8 * (t / 12) * math.sin(t))
              for t in np.linspace(1.0, 12.0, 40)]
    cv.line(spiral, ink, s * 0.08)
    for t in np.linspace(4.0, 11.0, 6):
        r = s / 2 * 0.8 * t / 12
        cv.circle((c[0] + r * math.cos(t) * 0.9, c[1] + r * math.sin(t) * 0.9), s * 0.025, PAPER)


SIGHT_MARKS = {"obelisk": _tower, "book": _stack, "toucan": _bird, "yeti": _face, "sea_monster": _tentacle}


def _panel(cv: Canvas, colour: Colour, inset: float = BORDER_MM) -> tuple[float, float, float, float]:
    """A rounded coloured panel inside the white border."""
    x0, y0, x1, y1 = inset, inset, W - inset, H - inset
    r = PANEL_RADIUS_MM
    cv.rect((x0 + r, y0), (x1 - r, y1), colour)
    cv.rect((x0, y0 + r), (x1, y1 - r), colour)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x1 - r, y1 - r), (x0 + r, y1 - r)):
        cv.circle((cx, cy), r, colour)
    return x0, y0, x1, y1


def _corner_index(cv: Canvas, draw, ink: Colour, disc: Colour) -> None:
    for c in ((10.0, 11.0), (W - 10.0, H - 11.0)):
        cv.circle(c, 5.0, disc)
        draw(cv, c, 6.5, ink)


def render_face(card: str, px_per_mm: float = 4.0) -> np.ndarray:
    """One card face, BGR uint8; the same inputs give the same pixels."""
    cv = Canvas(W, H, px_per_mm, PAPER)
    if card in TERRAINS:
        key = "setup" if card == "any" else card
        x0, y0, x1, y1 = _panel(cv, FILL[key])
        draw = _pinwheel if card == "any" else TERRAIN_MARKS[card]
        cv.rect((x0, y1 - 16), (x1, y1 - 12), DEEP[key])
        draw(cv, (W / 2, 43.0), 34.0, DEEP[key])
        _corner_index(cv, draw, DEEP[key], PAPER)
    elif card.startswith("blue-"):
        letter, number = card[len("blue-")], int(card[-1])
        x0, y0, x1, y1 = _panel(cv, FILL["blue"])
        for x in (W / 2 - 12, W / 2 + 12):
            cv.circle((x, 27.0), 10.0, PAPER)
            block_text(cv, letter, (x, 27.0), 10.0, FILL["blue"])
        cv.line([(W / 2 - 3, 27.0), (W / 2 + 3, 27.0)], PAPER, 1.2)
        cv.circle((W / 2, 61.0), 13.0, PAPER, 1.6)
        block_text(cv, str(BLUE_POINTS[letter][number - 1]), (W / 2, 61.0), 11.0, PAPER)
        for k in range(number):
            cv.circle((x0 + 6 + k * 4.5, y1 - 6), 1.5, PAPER)
    elif card.startswith("red-"):
        sight = card[len("red-"):]
        x0, y0, x1, y1 = _panel(cv, FILL["red"])
        cv.circle((W / 2, 40.0), 19.0, PAPER)
        SIGHT_MARKS[sight](cv, (W / 2, 40.0), 28.0, CHARCOAL)
        cv.circle((x1 - 9, y1 - 9), 6.0, PAPER)
        block_text(cv, str(RED_POINTS), (x1 - 9, y1 - 9), 6.0, FILL["red"])
        SIGHT_MARKS[sight](cv, (x0 + 8, y1 - 9), 9.0, PAPER)
    elif card in SETUP_LETTERS:
        _setup(cv, SETUP_LETTERS[card])
    else:
        raise ValueError(f"unknown card ID {card!r}")
    return cv.image


def _setup(cv: Canvas, letters: str) -> None:
    _panel(cv, FILL["setup"])
    cx, cy, ring, half = W / 2, 42.0, 19.0, 3.6
    for i, letter in enumerate(letters):  # clockwise from the top
        a = 2 * math.pi * i / len(letters)
        x, y = cx + ring * math.sin(a), cy - ring * math.cos(a)
        cv.poly([(x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half)],
                SIGNAL_RED if i == 0 else CHARCOAL)
        block_text(cv, letter, (x, y), 4.4, PAPER)
    arc = [(cx + 9 * math.cos(t), cy + 9 * math.sin(t)) for t in np.linspace(-2.4, 0.9, 16)]
    cv.line(arc, CHARCOAL, 1.2)
    end = arc[-1]
    cv.poly([(end[0] + 2.6, end[1] - 1.2), (end[0] - 2.2, end[1] + 3.2), (end[0] - 1.4, end[1] - 2.6)], CHARCOAL)
    cv.rect((8, H - 15), (W - 8, H - 11), CHARCOAL)


def render_back(kind: BackKind, px_per_mm: float = 4.0) -> np.ndarray:
    """One card back, BGR uint8: stripes and a hexagon, stars, or rings on a flat colour."""
    cv = Canvas(W, H, px_per_mm, PAPER)
    if kind is BackKind.TERRAIN:
        x0, y0, x1, y1 = _panel(cv, (120, 125, 30))
        for k in range(-12, 12):
            x = W / 2 + k * 6.0
            cv.poly([(x, y0), (x + 2.0, y0), (x + 2.0 + 30, y1), (x + 30, y1)], (140, 150, 50))
        hexagon = [(W / 2 + 14 * math.cos(k * math.pi / 3), H / 2 + 14 * math.sin(k * math.pi / 3)) for k in range(7)]
        cv.poly(hexagon, PAPER)
        _pinwheel(cv, (W / 2, H / 2), 18.0, CHARCOAL)
    else:
        fill = FILL["blue"] if kind is BackKind.BLUE else FILL["red"]
        _panel(cv, fill)
        for r in range(6, 40, 6):
            cv.circle((W / 2, H / 2), r, DEEP["blue" if kind is BackKind.BLUE else "red"], 1.4)
        star = [(W / 2 + (12 if k % 2 == 0 else 5) * math.sin(k * math.pi / 5),
                 H / 2 - (12 if k % 2 == 0 else 5) * math.cos(k * math.pi / 5)) for k in range(10)]
        cv.poly(star, PAPER)
    _border(cv)
    return cv.image


def _border(cv: Canvas) -> None:
    """Paint the white border over whatever a pattern spilled onto it."""
    shape = Canvas(W, H, cv.scale, (0, 0, 0))
    _panel(shape, (255, 255, 255))
    cv.image[shape.image[..., 0] < 128] = PAPER
