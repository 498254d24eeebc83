"""The 'inkwash' card style: ink-and-watercolour paintings inside a thin cream paper margin."""

from __future__ import annotations

import zlib
from functools import lru_cache

import cv2
import numpy as np

from vision.art import BackKind
from vision.cards import BLUE_POINTS, RED_POINTS, CardKind, card_face
from vision.render import CARD_H_MM, CARD_W_MM

PAPER = (208, 232, 244)  # cream, BGR
INK = (48, 40, 44)  # sepia-black
WHITE_INK = (236, 242, 246)
INDIGO, CRIMSON, SAGE = (132, 62, 42), (58, 42, 172), (178, 198, 182)
SKY = {"desert": (165, 212, 246), "forest": (226, 214, 182), "mountain": (226, 206, 212),
       "water": (238, 216, 186)}
TONES = ((95, 175, 228), (72, 128, 64), (168, 134, 150), (196, 138, 62))  # the four terrains
SCRIPT, SERIF = cv2.FONT_HERSHEY_SCRIPT_COMPLEX, cv2.FONT_HERSHEY_COMPLEX


class _Canvas:
    """A float BGR sheet measured in mm, painted with washes (multiply) and inks (cover)."""

    def __init__(self, w_mm: float, h_mm: float, ppm: float, key: str):
        self.W, self.H, self.ppm, self.key = w_mm, h_mm, ppm, key
        self.h, self.w = round(h_mm * ppm), round(w_mm * ppm)
        self.seed("paper")
        self.img = np.float32(PAPER) * (1 + 0.03 * self.noise(9.0))[..., None]
        self.grain = self.noise(0.6)

    def seed(self, name: str) -> None:
        """Restart randomness per element, so twins share every element they have in common."""
        self.rng = np.random.default_rng(zlib.crc32(f"inkwash/{self.key}/{name}".encode()))

    def noise(self, cell_mm: float) -> np.ndarray:
        """Smooth noise of unit spread with features about cell_mm across (same at any ppm)."""
        grid = self.rng.standard_normal((int(self.H / cell_mm) + 3, int(self.W / cell_mm) + 3))
        n = cv2.resize(grid.astype(np.float32), (self.w, self.h), interpolation=cv2.INTER_CUBIC)
        return n / (n.std() + 1e-6)

    def fix(self, pts) -> np.ndarray:  # mm to cv2 fixed-point pixels (shift 4)
        return np.round(np.asarray(pts, np.float64) * self.ppm * 16).astype(np.int32).reshape(-1, 1, 2)

    def poly(self, *polys) -> np.ndarray:
        """A float mask of filled polygons given in mm."""
        m = np.zeros((self.h, self.w), np.uint8)
        cv2.fillPoly(m, [self.fix(p) for p in polys], 255, cv2.LINE_AA, 4)
        return m.astype(np.float32) / 255

    def disc(self, centre, r: float) -> np.ndarray:
        return self.poly(_oval(centre, r))

    def cover(self, mask: np.ndarray, colour, alpha: float = 1.0) -> None:
        """Lay opaque colour (ink, gouache) over the sheet where the float mask is set."""
        x, y, w, h = cv2.boundingRect((mask > 0).astype(np.uint8))
        box = self.img[y:y + h, x:x + w]
        box += (np.float32(colour) - box) * (mask[y:y + h, x:x + w] * alpha)[..., None]

    def ink(self, mask: np.ndarray, colour=INK, alpha: float = 0.93) -> None:
        """Lay ink where an 8-bit mask is drawn, with a little grain along the strokes."""
        x, y, w, h = cv2.boundingRect(mask)
        a = np.zeros(mask.shape, np.float32)
        a[y:y + h, x:x + w] = mask[y:y + h, x:x + w] / 255 * (0.88 + 0.08 * self.grain[y:y + h, x:x + w])
        self.cover(a, colour, alpha)

    def wash(self, mask: np.ndarray, colour, density: float = 1.0, pool: float = 0.7, blooms: int = 2):
        """A transparent watercolour wash: ragged edge, uneven pigment, pooled rim, a few blooms."""
        p = self.ppm
        soft = cv2.GaussianBlur(mask, (0, 0), 0.5 * p)
        m = np.clip((soft - 0.5 + 0.1 * self.noise(1.5)) * 3 + 0.5, 0, 1) * np.minimum(soft * 2, 1)
        d = m * (0.82 + 0.16 * self.noise(7.0) + 0.06 * self.noise(2.0))
        d += pool * np.clip(m - cv2.GaussianBlur(m, (0, 0), 1.0 * p), 0, 1)
        inside = np.flatnonzero(mask.ravel() > 0.9)
        for _ in range(blooms if inside.size else 0):
            i = inside[self.rng.integers(inside.size)]
            centre = ((i % self.w) / p, (i // self.w) / p)
            b = cv2.GaussianBlur(self.disc(centre, self.rng.uniform(2, 5)), (0, 0), 0.4 * p)
            d = d * (1 - 0.35 * b) + 0.9 * m * np.clip(b - cv2.GaussianBlur(b, (0, 0), 0.8 * p), 0, 1)
        d = np.clip(d * density, 0, 1.15)
        self.img *= 1 - d[..., None] * (1 - np.float32(colour) / 255)

    def stroke(self, pts, width: float = 0.35, colour=INK, closed: bool = False,
               jitter: float = 0.08, alpha: float = 0.93) -> None:
        """A hand-inked line through points in mm, wobbling a little."""
        pts = np.asarray(pts, np.float64)
        pts = np.vstack([pts, pts[:1]]) if closed else pts
        n = np.maximum(2, (np.hypot(*np.diff(pts, axis=0).T) / 0.6).astype(int) + 1)
        dense = np.vstack([a + (b - a) * np.linspace(0, 1, k, endpoint=False)[:, None]
                           for a, b, k in zip(pts[:-1], pts[1:], n, strict=True)] + [pts[-1:]])
        j, k = self.rng.standard_normal(dense.shape), np.ones(min(7, len(dense))) / 7
        dense += np.stack([np.convolve(j[:, i], k, "same") for i in (0, 1)], 1) * jitter * 2.6
        if closed:
            dense[-1] = dense[0]
        m = np.zeros((self.h, self.w), np.uint8)
        cv2.polylines(m, [self.fix(dense)], False, 255, max(1, round(width * self.ppm)), cv2.LINE_AA, 4)
        self.ink(m, colour, alpha)

    def text(self, s: str, centre, height: float, colour=INK, font=SERIF, weight: float = 0.0) -> None:
        """Hand-lettered text centred at a point in mm, capital height in mm."""
        t = max(1, round((weight or height * 0.11) * self.ppm))
        scale = height * self.ppm / cv2.getTextSize("H", font, 1.0, t)[0][1]
        w = cv2.getTextSize(s, font, scale, t)[0][0]
        m = np.zeros((self.h, self.w), np.uint8)
        org = (round(centre[0] * self.ppm - w / 2), round((centre[1] + height / 2) * self.ppm))
        cv2.putText(m, s, org, font, scale, 255, t, cv2.LINE_AA)
        self.ink(m, colour, 0.95)

    def rows(self, top: float, bottom: float) -> np.ndarray:
        """A vertical ramp mask: 1 at top mm, fading linearly to 0 at bottom mm."""
        y = (np.arange(self.h, dtype=np.float32) + 0.5) / self.ppm
        return np.repeat(np.clip((bottom - y) / (bottom - top), 0, 1)[:, None], self.w, 1)

    def rect(self, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
        return self.poly([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])

    def finish(self) -> np.ndarray:
        """Paper grain, the cream margin and its hand-inked line; the card as BGR uint8."""
        self.seed("finish")
        speck = self.rng.standard_normal((self.h, self.w)).astype(np.float32)
        self.img *= (1 + 0.025 * self.grain + 0.02 * speck)[..., None]
        m, W, H = 1.25, self.W, self.H
        paper = np.float32(PAPER) * (1 + 0.02 * self.grain)[..., None]
        self.img += (paper - self.img) * (1 - self.rect(m, m, W - m, H - m))[..., None]
        e = m + 0.15
        corners = np.array([(e, e), (W - e, e), (W - e, H - e), (e, H - e)])
        for a, b in zip(corners, np.roll(corners, -1, 0), strict=True):
            u = (b - a) / np.hypot(*(b - a))
            self.stroke([a - u * self.rng.uniform(0, 0.3), b + u * self.rng.uniform(0, 0.3)], 0.32, jitter=0.06)
        return np.clip(self.img, 0, 255).astype(np.uint8)


def _oval(centre, rx: float, ry: float | None = None, n: int = 48) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([centre[0] + rx * np.cos(t), centre[1] + (ry or rx) * np.sin(t)], 1)


def _at(cx: float, cy: float, s: float, pts) -> np.ndarray:
    """Points drawn around (0, 0) at scale s, moved to (cx, cy)."""
    return np.asarray(pts, np.float64) * s + (cx, cy)


def _round_rect(x0: float, y0: float, x1: float, y1: float, r: float) -> np.ndarray:
    t = np.radians(np.linspace(0, 90, 7))
    return np.vstack([_at(cx, cy, r, np.stack([np.cos(t + a), np.sin(t + a)], 1)) for cx, cy, a in
                      ((x1 - r, y0 + r, -np.pi / 2), (x1 - r, y1 - r, 0), (x0 + r, y1 - r, np.pi / 2),
                       (x0 + r, y0 + r, np.pi))])


def _ridge(c: _Canvas, base: float, amp: float, waves: float) -> np.ndarray:
    """A rolling ridge line across the canvas, closed down to its bottom."""
    x = np.linspace(-1, c.W + 1, 60)
    a, b = c.rng.uniform(0, 2 * np.pi, 2)
    y = base + amp * (np.sin(x / c.W * waves * np.pi + a) + 0.4 * np.sin(x / c.W * waves * 7.2 + b))
    return np.vstack([np.stack([x, y], 1), [(c.W + 1, c.H + 1), (-1, c.H + 1)]])


def _scene(c: _Canvas, terrain: str) -> None:
    """A landscape: a sky band, then the terrain's own ground."""
    c.seed("sky")
    horizon = c.H * {"desert": 0.3, "forest": 0.28, "mountain": 0.35, "water": 0.3}[terrain]
    c.wash(c.rect(-1, -1, c.W + 1, horizon + 1) * (0.55 + 0.45 * c.rows(0, horizon)), SKY[terrain], 0.9, blooms=1)
    SCENES[terrain](c)


def _desert(c: _Canvas) -> None:
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


def _forest(c: _Canvas) -> None:
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


def _mountain(c: _Canvas) -> None:
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


def _water(c: _Canvas) -> None:
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


def _terrain(c: _Canvas, terrain: str) -> None:
    if terrain == "any":
        for i, t in enumerate(SCENES):
            sub = _Canvas(c.W / 2, c.H / 2, c.ppm, f"any/{t}")
            _scene(sub, t)
            y, x = (i // 2) * c.h // 2, (i % 2) * c.w // 2
            c.img[y:y + sub.h, x:x + sub.w] = sub.img[:c.h - y, :c.w - x]
        c.seed("cross")
        c.stroke([(c.W / 2, 0), (c.W / 2, c.H)], 0.4)
        c.stroke([(0, c.H / 2), (c.W, c.H / 2)], 0.4)
    else:
        _scene(c, terrain)
    c.seed("label")
    box = _round_rect(13, c.H - 10, c.W - 13, c.H - 3.5, 1.2)
    c.cover(cv2.GaussianBlur(c.poly(box), (0, 0), 0.3 * c.ppm), PAPER, 0.88)
    c.stroke(box, 0.28, closed=True)
    c.text(terrain.upper(), (c.W / 2, c.H - 6.75), 3.2, INK, SCRIPT)


def _lantern(c: _Canvas, cx: float, cy: float, s: float) -> None:
    """A large white-ink lantern, the same on every bonus card."""
    c.seed("lantern")

    def P(pts):
        return _at(cx, cy, s, pts)

    c.cover(cv2.GaussianBlur(c.disc((cx, cy + 2 * s), 9 * s), (0, 0), 5 * s * c.ppm), (150, 215, 250), 0.45)
    c.cover(c.poly(P([(-8, -9.5), (-9, 1), (-8, 12), (8, 12), (9, 1), (8, -9.5)])), (190, 230, 248), 0.25)
    flame = P([(0, -4), (1.4, -0.8), (2.5, 2.4), (2.1, 5), (0, 6.2), (-2.1, 5), (-2.5, 2.4), (-1.4, -0.8)])
    c.cover(c.poly(flame), (120, 205, 252), 0.95)
    c.cover(c.poly(P([(0, 0.5), (1.1, 3.2), (0, 5.2), (-1.1, 3.2)])), (225, 248, 255), 0.95)
    lines = [(flame, 0.7, True), (_oval((cx, cy - 19 * s), 2.2 * s, n=24), 1, True),
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


def _bonus(c: _Canvas, colour, points: int) -> None:
    """Shared by all bonus cards: the wash, the lantern and the points in their circle."""
    c.seed("wash")
    c.wash(c.rect(0, 0, c.W, c.H), colour, 0.85, blooms=3)
    c.wash(1 - c.rows(10, c.H), colour, 0.35, blooms=2)
    _lantern(c, c.W / 2, 36 if colour == INDIGO else 33, 1.0 if colour == INDIGO else 0.85)
    c.seed("points")
    c.cover(c.disc((10.5, 10.5), 5.2), PAPER, 0.92)
    c.stroke(_oval((10.5, 10.5), 5.2), 0.4, closed=True)
    c.text(str(points), (10.5, 10.5), 5.0, INK, SERIF, 0.6)


def _sight(c: _Canvas, sight: str, cx: float, cy: float) -> None:
    """A small ink drawing of a sight on a cream roundel."""
    def P(pts):
        return _at(cx, cy, 0.75, pts)

    c.seed(f"roundel{cx:.0f}")
    c.cover(c.disc((cx, cy), 9), PAPER, 0.93)
    c.stroke(_oval((cx, cy), 9), 0.4, closed=True)
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
        fills = [([P(_oval((-1.5, 1.5), 3.8, 5.5)), P([(-3, 6), (-5, 9.5), (-1.5, 9)])], INK, False),
                 ([P(_oval((0.8, -1.5), 1.8, 2.4)), P(_oval((0.5, -3.2), 0.7, n=12))], (225, 240, 248), False),
                 ([beak], (30, 140, 245), True)]
    elif sight == "yeti":
        t, r = np.linspace(0, 2 * np.pi, 60, endpoint=False), 1 + 0.1 * (np.arange(60) % 2)
        fur = P(np.stack([5.2 * r * np.cos(t), 2 + 6 * r * np.sin(t)], 1))
        head = P(np.stack([3 * r * np.cos(t), -5.5 + 3 * r * np.sin(t)], 1)[::2])
        fills = [([fur, head], (200, 170, 150), True), ([P(_oval((0, -5.2), 1.8, 1.4))], (60, 70, 90), False)]
        lines = [(fur, 0.3, True), (head, 0.3, True)]
        lines += [(P([(x * 0.8, -5.6), (x * 0.6, -5.6)]), 0.3, False, WHITE_INK) for x in (-1, 1)]
        lines += [(P(pts) * (x, 1) + ((1 - x) * cx, 0), 0.6, False) for x in (-1, 1)
                  for pts in ([(4.5, -1), (7.5, -5), (8, -6.5)], [(2, 7.5), (2.4, 9.5)])]
    else:  # sea monster
        humps = [P(np.vstack([_oval((x0, 4), r, r * 1.4, 24)[12:], [(x0 + r, 4)]])) for x0, r in ((-7, 1.8), (-2.5, 2.2))]
        neck = P([(1.5, 4), (3, -2), (4, -5.5), (7.5, -6.5), (8.5, -4.5), (6, -3.8), (5.5, -1), (5, 4)])
        fills = [([*humps, neck], (70, 140, 60), True), ([P(_oval((6.3, -5.4), 0.6, n=12))], INK, False)]
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


def _setup(c: _Canvas, letters: str) -> None:
    c.seed("wash")
    c.wash(c.rect(0, 0, c.W, c.H), SAGE, 0.9, blooms=3)
    cx, cy, rx, ry = c.W / 2, 44, 21, 32
    route = _oval((cx, cy), rx - 6, ry - 6, 72)
    for k in range(0, 72, 3):
        c.stroke(route[k:k + 2], 0.3, jitter=0.03)
    c.stroke(_oval((cx, cy), 3), 0.3, closed=True)
    c.stroke([(cx, cy - 7), (cx + 1.5, cy - 1.5), (cx, cy + 7), (cx - 1.5, cy - 1.5)], 0.3, closed=True)
    c.stroke([(cx - 6, cy), (cx, cy - 1), (cx + 6, cy), (cx, cy + 1)], 0.3, closed=True)
    a = -np.pi / 2 + np.arange(10) * 2 * np.pi / 10  # clockwise from the top: y grows downwards
    spots = np.stack([cx + rx * np.cos(a), cy + ry * np.sin(a)], 1)
    for i, (x, y) in enumerate(spots):
        c.seed(f"tile{i}")
        tile = _round_rect(x - 3.5, y - 3.5, x + 3.5, y + 3.5, 1.3)
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
    c = _Canvas(CARD_W_MM, CARD_H_MM, ppm, group[face.kind])
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
    c = _Canvas(CARD_W_MM, CARD_H_MM, ppm, f"back-{kind.value}")
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
        c.stroke(_oval((cx, cy), 12), 0.5, closed=True)
        c.stroke(_oval((cx, cy), 10.5), 0.25, closed=True)
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
                c.stroke(_oval((x, y), 1.6, n=16), 0.3, WHITE_INK, closed=True, jitter=0.04, alpha=0.75)
    return c.finish()


def render_back(kind, px_per_mm: float = 4.0) -> np.ndarray:
    """One card back in the inkwash style (BackKind TERRAIN, BLUE or RED): BGR uint8, 63x88 mm."""
    return _back(BackKind(kind), float(px_per_mm)).copy()
