"""The 'gilded' style's pen: its measures, colours and drawing primitives (gold lines, paper, filigree curves)."""

from __future__ import annotations

import zlib

import cv2
import numpy as np

from vision.render import CARD_H_MM, CARD_W_MM

W, H, CX = CARD_W_MM, CARD_H_MM, CARD_W_MM / 2
HEX_C, HEX_R = (CX, 45.0), 17.5  # pointy-top hexagon, 35 mm tip to tip, 30 mm flat to flat
BAND = 17.0  # the top band of the bonus cards, where twins differ
RING_C, RING_R = (CX, 46.0), (19.5, 26.0)  # the oval of letter discs on the set-up cards
AA, SH = cv2.LINE_AA, 4  # anti-aliased drawing with 4 fixed-point bits

GOLD, GOLD_DK, GOLD_LT, SHADOW = (62, 172, 218), (24, 92, 138), (150, 228, 252), (12, 18, 14)
INK, CREAM, RED, WHITE = (28, 32, 44), (206, 236, 246), (40, 40, 196), (240, 250, 255)
PALETTE = {"desert": (112, 184, 226), "forest": (52, 112, 46), "mountain": (150, 146, 140),
           "water": (176, 112, 34)}


def seeded(key: str) -> np.random.Generator:
    """The style's random generator for one drawing, seeded by its key (deterministic)."""
    return np.random.default_rng(zlib.crc32(f"gilded/{key}".encode()))


def pts(p, s: float) -> np.ndarray:
    """Points in mm as cv2 fixed-point pixels at s px per mm."""
    return np.round(np.asarray(p, np.float64).reshape(-1, 2) * s * 16).astype(np.int32)


def line(img, p, s, col, w, closed=False):
    """An anti-aliased polyline in mm, w mm wide."""
    cv2.polylines(img, [pts(p, s)], closed, col, max(1, round(w * s)), AA, SH)


def fill(img, p, s, col):
    """An anti-aliased filled polygon in mm."""
    cv2.fillPoly(img, [pts(p, s)], col, AA, SH)


def circle(img, c, r, s, col, w=None, ry=None, angle=0.0):
    """A circle or ellipse in mm, filled when w is None."""
    (x, y), ax = pts(c, s)[0], (round(r * s * 16), round((ry or r) * s * 16))
    cv2.ellipse(img, (int(x), int(y)), ax, angle, 0, 360, col, -1 if w is None else max(1, round(w * s)), AA, SH)


def gold(img, p, s, w=0.45, closed=False):
    """A raised gold line: a shadow, a dark and a bright stroke, a highlight when wide enough."""
    p, layers = np.asarray(p, np.float64), [(0.2, SHADOW, w + 0.3), (0, GOLD_DK, w + 0.25), (0, GOLD, w)]
    for d, col, ww in layers + ([(-w * 0.18, GOLD_LT, w * 0.3)] if w * s >= 1.6 else []):
        line(img, p + d, s, col, ww, closed)


def dot(img, c, r, s):
    """A small gold bead with its shadow."""
    for d, rr, col in ((0.15, r + 0.1, SHADOW), (0, r, GOLD_DK), (-0.2 * r, 0.7 * r, GOLD)):
        circle(img, (c[0] + d, c[1] + d), rr, s, col)


def text(img, txt, c, cap, s, col, thick=0.5, font=cv2.FONT_HERSHEY_TRIPLEX):
    """Text centred at c, cap mm tall."""
    (_, th), _ = cv2.getTextSize(txt, font, 1.0, 1)
    scale, t = cap * s / th, max(1, round(thick * s))
    (tw, th), _ = cv2.getTextSize(txt, font, scale, t)
    cv2.putText(img, txt, (round(c[0] * s - tw / 2), round(c[1] * s + th / 2)), font, scale, col, t, AA)


def paper(s, key, base, amp=0.12, grain=0.035, vignette=0.3, centre=(0.5, 0.5)):
    """A textured sheet: smooth multi-scale noise, pixel grain and a vignette around `centre`."""
    h, w = round(H * s), round(W * s)
    rng, f = seeded(key), np.ones((h, w), np.float32)
    for cells, a in ((5, 0.55), (16, 0.3), (50, 0.15)):
        g = rng.standard_normal((max(2, round(cells * h / w)), cells)).astype(np.float32)
        f += amp * a * cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)
    f += grain * rng.standard_normal((h, w)).astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    f -= vignette * ((xx / w - centre[0]) ** 2 + (yy / h - centre[1]) ** 2) * 2
    return np.clip(np.asarray(base, np.float32) * f[..., None], 0, 255).astype(np.uint8)


def strokes(img, s, rng, n, box, col, spread=12, length=(0.8, 2.2), w=0.3, angle=None):
    """Short brush strokes scattered in a box (painted texture)."""
    for _ in range(n):
        x, y, ln = rng.uniform(box[0], box[2]), rng.uniform(box[1], box[3]), rng.uniform(*length) / 2
        a = rng.uniform(0, np.pi) if angle is None else angle + rng.normal(0, 0.25)
        k = 1 + rng.normal(0, spread) / 100
        c = tuple(int(np.clip(v * k + rng.normal(0, 3), 0, 255)) for v in col)
        line(img, [(x - np.cos(a) * ln, y - np.sin(a) * ln), (x + np.cos(a) * ln, y + np.sin(a) * ln)], s, c, w)


def bezier(p0, p1, p2, p3, n=24):
    """Points along a cubic Bezier curve."""
    t = np.linspace(0, 1, n)[:, None]
    return sum(np.asarray(p, np.float64) * k for p, k in
               zip((p0, p1, p2, p3), ((1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t ** 2, t ** 3), strict=True))


def spiral(c, r0, a0, turns=1.4, sign=1, n=40):
    """Points along a spiral from radius r0 at angle a0 (a filigree curl)."""
    t = np.linspace(0, turns * 2 * np.pi, n)
    r, a = r0 * (1 - t / (turns * 2 * np.pi * 1.12)), np.radians(a0) + sign * t
    return np.c_[c[0] + r * np.cos(a), c[1] + r * np.sin(a)]


def ngon(c, r, n=6, rot=-90.0):
    """The corners of a regular polygon."""
    a = np.radians(rot + 360 / n * np.arange(n))
    return np.c_[c[0] + r * np.cos(a), c[1] + r * np.sin(a)]


def star(img, c, r, s, col=GOLD, n=5):
    """A gold star of n points."""
    p = ngon((0, 0), r, 2 * n) * np.where(np.arange(2 * n) % 2, 0.42, 1.0)[:, None] + c
    fill(img, p + 0.15, s, SHADOW)
    fill(img, p, s, col)


def leaves(img, path, s, every=6, size=1.1):
    """Little gold leaves along a path, one every few points."""
    for i in range(every // 2, len(path) - 1, every):
        (x, y), (x2, y2) = path[i], path[i + 1]
        a = np.arctan2(y2 - y, x2 - x) + (0.9 if (i // every) % 2 else -0.9)
        c = (x + size * np.cos(a), y + size * np.sin(a))
        for col, k, d in ((SHADOW, 1.0, 0.15), (GOLD_DK, 1.0, 0.0), (GOLD, 0.6, -0.1)):
            circle(img, (c[0] + d, c[1] + d), size * k, s, col, ry=size * 0.42 * k, angle=np.degrees(a))


def mirror4(paths):
    """Paths of the top-left quarter mirrored into all four quarters."""
    return [np.c_[W - p[:, 0] if fx else p[:, 0], H - p[:, 1] if fy else p[:, 1]]
            for p in map(np.asarray, paths) for fx in (0, 1) for fy in (0, 1)]


def border(img, s):
    """The card's double gold border line."""
    for inset, w in ((2.4, 0.45), (3.3, 0.2)):
        gold(img, [(inset, inset), (W - inset, inset), (W - inset, H - inset), (inset, H - inset)], s, w, True)
