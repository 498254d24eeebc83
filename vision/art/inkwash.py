"""The 'inkwash' card style: ink-and-watercolour paintings inside a thin cream paper margin."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.art import BackKind
from vision.art.inkwash_canvas import INK, PAPER, SERIF, Canvas, at, oval, round_rect
from vision.cards import BLUE_POINTS, RED_POINTS, CardKind, card_face
from vision.render import CARD_H_MM, CARD_W_MM

WHITE_INK = (236, 242, 246)
INDIGO, CRIMSON, SAGE = (132, 62, 42), (58, 42, 172), (178, 198, 182)
SKY = {"desert": (165, 212, 246), "forest": (226, 214, 182), "mountain": (226, 206, 212),
       "water": (238, 216, 186)}
TONES = ((95, 175, 228), (72, 128, 64), (168, 134, 150), (196, 138, 62))  # the four terrains
SCRIPT = cv2.FONT_HERSHEY_SCRIPT_COMPLEX


def _ridge(c: Canvas, base: float, amp: float, waves: float) -> np.ndarray:
    """A rolling ridge line across the canvas, closed down to its bottom."""
    x = np.linspace(-1, c.W + 1, 60)
    a, b = c.rng.uniform(0, 2 * np.pi, 2)
    y = base + amp * (np.sin(x / c.W * waves * np.pi + a) + 0.4 * np.sin(x / c.W * waves * 7.2 + b))
    return np.vstack([np.stack([x, y], 1), [(c.W + 1, c.H + 1), (-1, c.H + 1)]])


def _scene(c: Canvas, terrain: str) -> None:
    """A landscape: a sky band, then the terrain's own ground."""
    c.seed("sky")
    horizon = c.H * {"desert": 0.3, "forest": 0.28, "mountain": 0.35, "water": 0.3}[terrain]
    c.wash(c.rect(-1, -1, c.W + 1, horizon + 1) * (0.55 + 0.45 * c.rows(0, horizon)), SKY[terrain], 0.9, blooms=1)
    SCENES[terrain](c)


def _desert(c: Canvas) -> None:
    W, H = c.W, c.H
    c.wash(c.disc((0.72 * W, 0.14 * H), 0.08 * W), (80, 190, 250), 0.8, blooms=0)
    for k, tone in enumerate([(120, 190, 235), (90, 165, 225), (70, 140, 210), (55, 115, 190)]):
        c.seed(f"dune{k}")
        ridge = _ridge(c, H * (0.3 + 0.16 * k), H * 0.035, 1.5 + 0.4 * k)
        c.wash(c.poly(ridge), tone, 0.55)
        c.stroke(ridge[5:40 + 5 * k], 0.28, jitter=0.1)
        for _ in range(3 + k):
            x, y = c.rng.uniform(0.1, 0.8) * W, H * (0.36 + 0.16 * k) + c.rng.uniform(2, 5)
            c.stroke([(x + i * 1.2, y + 0.6 * np.sin(i)) for i in range(5)], 0.2, jitter=0.05)


def _pine(x: float, base: float, h: float, w: float) -> np.ndarray:
    right = [(x, base - h)]
    for k in range(1, 5):
        y, half = base - h + k * 0.85 * h / 4, w / 2 * k / 4
        right += [(x + half, y), (x + half * 0.4, y - 0.04 * h)] if k < 4 else [(x + half, y)]
    right += [(x + 0.05 * w, base - 0.15 * h), (x + 0.05 * w, base)]
    return np.array(right + [(2 * x - px, py) for px, py in right[1:][::-1]])


def _forest(c: Canvas) -> None:
    W, H = c.W, c.H
    c.seed("ground")
    c.wash(c.poly(_ridge(c, 0.42 * H, 0.02 * H, 1)), (96, 150, 110), 0.8)
    rows = [(9, 0.48, 0.24, (120, 140, 96)), (6, 0.68, 0.36, (70, 112, 52)), (4, 0.97, 0.52, (44, 84, 34))]
    for k, (n, base, size, tone) in enumerate(rows):
        c.seed(f"pines{k}")
        xs = (np.arange(n) + 0.5 + c.rng.uniform(-0.25, 0.25, n)) * W / n
        pines = [_pine(x, base * H + c.rng.uniform(-1, 1), size * H * c.rng.uniform(0.85, 1.1), size * H * 0.55)
                 for x in xs]
        c.wash(c.poly(*pines), tone, 0.95)
        for p in pines:
            c.stroke(p, 0.22 + 0.08 * k, closed=True, jitter=0.1)


def _mountain(c: Canvas) -> None:
    W, H = c.W, c.H
    for k, (n, top, low, tone) in enumerate([(4, 0.12, 0.45, (190, 160, 170)), (3, 0.3, 0.75, (150, 115, 132))]):
        c.seed(f"range{k}")
        xs = np.linspace(-0.1, 1.1, 2 * n + 1) * W + c.rng.uniform(-2, 2, 2 * n + 1)
        ys = np.where(np.arange(2 * n + 1) % 2 == 1, top * H + c.rng.uniform(0, 0.08 * H, 2 * n + 1), low * H)
        ridge = np.stack([xs, ys], 1)
        c.wash(c.poly(np.vstack([ridge, [(1.1 * W, H + 1), (-0.1 * W, H + 1)]])), tone, 0.9)
        for a, p, b in zip(ridge[0:-2:2], ridge[1::2], ridge[2::2], strict=True):
            cap = [p, p + (b - p) * 0.22, p + (b - p) * (0.1, 0.3), p + (0, (b - p)[1] * 0.2), p + (a - p) * 0.28]
            c.cover(cv2.GaussianBlur(c.poly(cap), (0, 0), 0.3 * c.ppm), (236, 240, 244), 0.85)
            for t in (0.3, 0.42, 0.54, 0.66):
                c.stroke([p + (b - p) * t, p + (b - p) * t + (-1.5, 3)], 0.18, jitter=0.04)
        c.stroke(ridge, 0.32, jitter=0.1)
    c.seed("foot")
    c.wash(c.poly(_ridge(c, 0.86 * H, 0.02 * H, 1)), (120, 150, 135), 0.6)


def _water(c: Canvas) -> None:
    W, H = c.W, c.H
    c.seed("sea")
    sea = c.rect(-1, 0.3 * H, W + 1, H + 1)
    c.wash(sea, (215, 165, 95), 0.9)
    c.wash(sea * (1 - c.rows(0.3 * H, H)), (170, 105, 40), 0.8)
    c.stroke([(-1, 0.3 * H), (W + 1, 0.3 * H)], 0.3, jitter=0.05)
    y, gap = 0.33 * H, 0.022 * H
    while y < H:
        x = np.linspace(-2, W + 2, int(W * 2) + 8)
        phase = c.rng.uniform(0, 7)
        wave = np.stack([x, y + (0.25 + 0.12 * gap) * np.sin(2 * np.pi * x / (3 + 1.6 * gap) + phase)], 1)
        s = int(c.rng.integers(0, 10))
        while s < len(wave) - 4:
            n = int(c.rng.integers(10, 26))
            c.stroke(wave[s:s + n], 0.15 + gap * 0.05, (110, 60, 30), jitter=0.04)
            if c.rng.random() < 0.5:
                c.stroke(wave[s + 2:s + 7] - (0, 0.4 + 0.1 * gap), 0.1 + gap * 0.04, WHITE_INK, jitter=0.03)
            s += n + int(c.rng.integers(4, 12))
        y, gap = y + gap, gap * 1.22


SCENES = {"desert": _desert, "forest": _forest, "mountain": _mountain, "water": _water}


def _terrain(c: Canvas, terrain: str) -> None:
    if terrain == "any":
        for i, t in enumerate(SCENES):
            sub = Canvas(c.W / 2, c.H / 2, c.ppm, f"any/{t}")
            _scene(sub, t)
            y, x = (i // 2) * c.h // 2, (i % 2) * c.w // 2
            c.img[y:y + sub.h, x:x + sub.w] = sub.img[:c.h - y, :c.w - x]
        c.seed("cross")
        c.stroke([(c.W / 2, 0), (c.W / 2, c.H)], 0.4)
        c.stroke([(0, c.H / 2), (c.W, c.H / 2)], 0.4)
    else:
        _scene(c, terrain)
    c.seed("label")
    box = round_rect(13, c.H - 10, c.W - 13, c.H - 3.5, 1.2)
    c.cover(cv2.GaussianBlur(c.poly(box), (0, 0), 0.3 * c.ppm), PAPER, 0.88)
    c.stroke(box, 0.28, closed=True)
    c.text(terrain.upper(), (c.W / 2, c.H - 6.75), 3.2, INK, SCRIPT)


def _lantern(c: Canvas, cx: float, cy: float, s: float) -> None:
    """A large white-ink lantern, the same on every bonus card."""
    c.seed("lantern")

    def P(pts):
        return at(cx, cy, s, pts)

    c.cover(cv2.GaussianBlur(c.disc((cx, cy + 2 * s), 9 * s), (0, 0), 5 * s * c.ppm), (150, 215, 250), 0.45)
    c.cover(c.poly(P([(-8, -9.5), (-9, 1), (-8, 12), (8, 12), (9, 1), (8, -9.5)])), (190, 230, 248), 0.25)
    flame = P([(0, -4), (1.4, -0.8), (2.5, 2.4), (2.1, 5), (0, 6.2), (-2.1, 5), (-2.5, 2.4), (-1.4, -0.8)])
    c.cover(c.poly(flame), (120, 205, 252), 0.95)
    c.cover(c.poly(P([(0, 0.5), (1.1, 3.2), (0, 5.2), (-1.1, 3.2)])), (225, 248, 255), 0.95)
    lines = [(flame, 0.7, True), (oval((cx, cy - 19 * s), 2.2 * s, n=24), 1, True),
             (P([(-1.8, -16.8), (-1.8, -15.5), (1.8, -15.5), (1.8, -16.8)]), 1, True),
             (P([(-3, -15.5), (3, -15.5), (9, -11), (-9, -11)]), 1, True),
             (P([(-10, -11), (10, -11), (10, -9.5), (-10, -9.5)]), 1, True),
             (P([(-10, 12), (10, 12), (10, 13.8), (-10, 13.8)]), 1, True),
             (P([(-9, 13.8), (-7, 17.5), (7, 17.5), (9, 13.8)]), 1, False)]
    lines += [(P([(-3.2 + k * 0.9, -15.2), (-9 + k * 2.8, -11.3)]), 0.5, False) for k in range(1, 6)]
    for x in (-1, 1):
        lines += [(P([(8 * x, -9.5), (9 * x, 1), (8 * x, 12)]), 1.2, False),
                  (P([(3.8 * x, -9.5), (4.3 * x, 1), (3.8 * x, 12)]), 0.5, False),
                  (P([(6 * x, 17.5), (6.6 * x, 19)]), 1, False)]
    for pts, width, closed in lines:
        c.stroke(pts, 0.55 * s * width, WHITE_INK, closed=closed)


def _bonus(c: Canvas, colour, points: int) -> None:
    """Shared by all bonus cards: the wash, the lantern and the points in their circle."""
    c.seed("wash")
    c.wash(c.rect(0, 0, c.W, c.H), colour, 0.85, blooms=3)
    c.wash(1 - c.rows(10, c.H), colour, 0.35, blooms=2)
    _lantern(c, c.W / 2, 36 if colour == INDIGO else 33, 1.0 if colour == INDIGO else 0.85)
    c.seed("points")
    c.cover(c.disc((10.5, 10.5), 5.2), PAPER, 0.92)
    c.stroke(oval((10.5, 10.5), 5.2), 0.4, closed=True)
    c.text(str(points), (10.5, 10.5), 5.0, INK, SERIF, 0.6)


def _sight(c: Canvas, sight: str, cx: float, cy: float) -> None:
    """A small ink drawing of a sight on a cream roundel."""
    def P(pts):
        return at(cx, cy, 0.75, pts)

    c.seed(f"roundel{cx:.0f}")
    c.cover(c.disc((cx, cy), 9), PAPER, 0.93)
    c.stroke(oval((cx, cy), 9), 0.4, closed=True)
    fills, lines = [], []  # (polygons, colour, wash?), (points, width, closed, colour)
    if sight == "obelisk":
        shaft = P([(-2.2, 6), (-1.5, -5), (0, -8.5), (1.5, -5), (2.2, 6)])
        fills = [([shaft], (110, 180, 225), True)]
        lines = [(shaft, 0.3, True), (P([(-1.5, -5), (1.5, -5)]), 0.25, False)]
        lines += [(P([(-w, y), (w, y), (w, y + 1.5), (-w, y + 1.5)]), 0.3, True) for w, y in ((4.5, 6), (6.5, 7.5))]
        lines += [(P([(-0.7, y), (0.7, y)]), 0.25, False) for y in (-2.5, 0, 2.5)]
    elif sight == "book":
        left = P([(0, -4), (-2.5, -5.5), (-8, -5), (-8, 5), (-2.5, 4.6), (0, 6)])
        right = left * (-1, 1) + (2 * cx, 0)
        fills = [([P([(-8.8, 5.6), (0, 7), (8.8, 5.6), (8.8, -4), (-8.8, -4)])], (60, 60, 140), True),
                 ([left, right], (225, 240, 248), False)]
        lines = [(left, 0.3, True), (right, 0.3, True)]
        lines += [(P([(x0, y), (x1, y + 0.2)]), 0.15, False) for y in np.arange(-3, 4, 1.4)
                  for x0, x1 in ((-6.8, -1.5), (6.8, 1.5))]
    elif sight == "toucan":
        beak = P([(1.8, -4.2), (6.5, -4.4), (9.3, -2.5), (6.5, -1.3), (1.8, -1)])
        lines = [(P([(-8, 7.5), (8, 6.5)]), 0.5, False, (40, 70, 110)), (beak, 0.3, True)]
        fills = [([P(oval((-1.5, 1.5), 3.8, 5.5)), P([(-3, 6), (-5, 9.5), (-1.5, 9)])], INK, False),
                 ([P(oval((0.8, -1.5), 1.8, 2.4)), P(oval((0.5, -3.2), 0.7, n=12))], (225, 240, 248), False),
                 ([beak], (30, 140, 245), True)]
    elif sight == "yeti":
        t, r = np.linspace(0, 2 * np.pi, 60, endpoint=False), 1 + 0.1 * (np.arange(60) % 2)
        fur = P(np.stack([5.2 * r * np.cos(t), 2 + 6 * r * np.sin(t)], 1))
        head = P(np.stack([3 * r * np.cos(t), -5.5 + 3 * r * np.sin(t)], 1)[::2])
        fills = [([fur, head], (200, 170, 150), True), ([P(oval((0, -5.2), 1.8, 1.4))], (60, 70, 90), False)]
        lines = [(fur, 0.3, True), (head, 0.3, True)]
        lines += [(P([(x * 0.8, -5.6), (x * 0.6, -5.6)]), 0.3, False, WHITE_INK) for x in (-1, 1)]
        lines += [(P(pts) * (x, 1) + ((1 - x) * cx, 0), 0.6, False) for x in (-1, 1)
                  for pts in ([(4.5, -1), (7.5, -5), (8, -6.5)], [(2, 7.5), (2.4, 9.5)])]
    else:  # sea monster
        humps = [P(np.vstack([oval((x0, 4), r, r * 1.4, 24)[12:], [(x0 + r, 4)]])) for x0, r in ((-7, 1.8), (-2.5, 2.2))]
        neck = P([(1.5, 4), (3, -2), (4, -5.5), (7.5, -6.5), (8.5, -4.5), (6, -3.8), (5.5, -1), (5, 4)])
        fills = [([*humps, neck], (70, 140, 60), True), ([P(oval((6.3, -5.4), 0.6, n=12))], INK, False)]
        lines = [(b, 0.3, True) for b in [*humps, neck]]
        x = np.linspace(-9, 9, 37)
        lines += [(P(np.stack([x, y + 0.5 * np.sin(x * 1.6 + y)], 1)), 0.3, False, (150, 90, 40)) for y in (4.5, 6.5)]
    for polys, colour, watery in fills:
        if watery:
            c.wash(c.poly(*polys), colour, 1.0, blooms=0)
        else:
            c.cover(c.poly(*polys), colour, 0.95)
    for pts, width, closed, *colour in lines:
        c.stroke(pts, width, *(colour or [INK]), closed=closed)


def _setup(c: Canvas, letters: str) -> None:
    c.seed("wash")
    c.wash(c.rect(0, 0, c.W, c.H), SAGE, 0.9, blooms=3)
    cx, cy, rx, ry = c.W / 2, 44, 21, 32
    route = oval((cx, cy), rx - 6, ry - 6, 72)
    for k in range(0, 72, 3):
        c.stroke(route[k:k + 2], 0.3, jitter=0.03)
    c.stroke(oval((cx, cy), 3), 0.3, closed=True)
    c.stroke([(cx, cy - 7), (cx + 1.5, cy - 1.5), (cx, cy + 7), (cx - 1.5, cy - 1.5)], 0.3, closed=True)
    c.stroke([(cx - 6, cy), (cx, cy - 1), (cx + 6, cy), (cx, cy + 1)], 0.3, closed=True)
    a = -np.pi / 2 + np.arange(10) * 2 * np.pi / 10  # clockwise from the top: y grows downwards
    spots = np.stack([cx + rx * np.cos(a), cy + ry * np.sin(a)], 1)
    for i, (x, y) in enumerate(spots):
        c.seed(f"tile{i}")
        tile = round_rect(x - 3.5, y - 3.5, x + 3.5, y + 3.5, 1.3)
        c.cover(c.poly(tile), PAPER if i else (220, 232, 240), 0.92)
        c.wash(c.poly(tile), CRIMSON if i == 0 else SAGE, 1.0 if i == 0 else 0.3, pool=0.5, blooms=0)
        c.stroke(tile, 0.3, closed=True, jitter=0.05)
    for i, (letter, spot) in enumerate(zip(letters, spots, strict=True)):
        c.text(letter, spot, 3.8, WHITE_INK if i == 0 else INK, SERIF, 0.5)


@lru_cache(maxsize=256)
def _face(card: str, ppm: float) -> np.ndarray:
    face = card_face(card)
    if face is None:
        raise ValueError(f"unknown card ID {card!r}")
    group = {CardKind.TERRAIN: card, CardKind.BLUE: "blue", CardKind.RED: "red", CardKind.SETUP: "setup"}
    c = Canvas(CARD_W_MM, CARD_H_MM, ppm, group[face.kind])
    if face.kind is CardKind.TERRAIN:
        _terrain(c, face.terrain)
    elif face.kind is CardKind.BLUE:
        _bonus(c, INDIGO, BLUE_POINTS[face.letter][face.number - 1])
        c.text(f"{face.letter} / {face.letter}", (c.W / 2, 69), 8.0, WHITE_INK, SERIF, 0.8)
        c.text(f"#{face.number}", (c.W - 8, c.H - 6.5), 3.0, WHITE_INK, SERIF, 0.4)
    elif face.kind is CardKind.RED:
        _bonus(c, CRIMSON, RED_POINTS)
        for x in (19.5, c.W - 19.5):
            _sight(c, face.sight, x, 68)
    else:
        _setup(c, face.letters)
    return c.finish()


def render_face(card: str, px_per_mm: float = 4.0) -> np.ndarray:
    """One card face in the inkwash style: BGR uint8, portrait 63x88 mm, deterministic."""
    return _face(card, float(px_per_mm)).copy()


@lru_cache(maxsize=32)
def _back(kind: BackKind, ppm: float) -> np.ndarray:
    c = Canvas(CARD_W_MM, CARD_H_MM, ppm, f"back-{kind.value}")
    if kind is BackKind.TERRAIN:
        c.seed("mosaic")
        seeds = np.stack([c.rng.uniform(0, c.W, 28), c.rng.uniform(0, c.H, 28)], 1)
        yy, xx = np.mgrid[0:c.h, 0:c.w].astype(np.float32) / ppm
        label = np.argmin((xx[..., None] - seeds[:, 0]) ** 2 + (yy[..., None] - seeds[:, 1]) ** 2, -1)
        for t, tone in enumerate(TONES):
            cells = ((label % 4) == t).astype(np.uint8) * 255
            cells = cv2.erode(cells, np.ones((3, 3), np.uint8), iterations=max(1, round(0.2 * ppm)))
            c.wash(cells.astype(np.float32) / 255, tone, 0.85, blooms=1)
        cx, cy = c.W / 2, c.H / 2
        c.cover(c.disc((cx, cy), 12), PAPER, 0.95)
        c.stroke(oval((cx, cy), 12), 0.5, closed=True)
        c.stroke(oval((cx, cy), 10.5), 0.25, closed=True)
        for k in range(8):  # a compass rose, one point per terrain colour
            a, r = k * np.pi / 4, 9.5 if k % 2 == 0 else 5.5
            pts = [(cx, cy)] + [(cx + q * np.cos(a + da), cy + q * np.sin(a + da)) for q, da in
                                ((1.8, -0.7), (r, 0), (1.8, 0.7))]
            c.wash(c.poly(pts), TONES[k % 4], 1.0, blooms=0)
            c.stroke(pts, 0.25, closed=True, jitter=0.03)
    else:
        c.seed("wash")
        c.wash(c.rect(0, 0, c.W, c.H), INDIGO if kind is BackKind.BLUE else CRIMSON, 0.9, blooms=3)
        c.key = "back-bonus"  # the same pattern of circles on both bonus backs
        c.seed("circles")
        for row, y in enumerate(np.arange(5.5, c.H - 3, 5.5)):
            for x in np.arange(5.5 + 2.75 * (row % 2), c.W - 3, 5.5):
                c.stroke(oval((x, y), 1.6, n=16), 0.3, WHITE_INK, closed=True, jitter=0.04, alpha=0.75)
    return c.finish()


def render_back(kind, px_per_mm: float = 4.0) -> np.ndarray:
    """One card back in the inkwash style (BackKind TERRAIN, BLUE or RED): BGR uint8, 63x88 mm."""
    return _back(BackKind(kind), float(px_per_mm)).copy()
