"""The 'gilded' card style: full-bleed cards with gold filigree, drawn with plain cv2 and numpy.

Modelled on the structure of the published deck, drawn its own way: one teal filigree frame on
all terrain cards (only a central hexagon differs), one gold compass rose on all bonus cards (only
a top band differs), parchment set-up cards that differ only in their ten letters.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from vision.art import BackKind
from vision.art import gilded_pen as pen
from vision.art.gilded_pen import (
    BAND,
    CREAM,
    CX,
    GOLD,
    GOLD_DK,
    GOLD_LT,
    HEX_C,
    HEX_R,
    INK,
    PALETTE,
    RED,
    RING_C,
    RING_R,
    SHADOW,
    WHITE,
    H,
    W,
)
from vision.cards import BLUE_POINTS, CARD_IDS, RED_POINTS, CardKind, card_face

# ---------------------------------------------------------------- terrain cards: frame and hexagon

def _filigree():
    """The filigree of the top-left quarter of the terrain frame (mirrored to all four) and its leafy vines."""
    corner = pen.spiral((8.6, 8.6), 3.6, 225, 1.5, 1)
    top = np.vstack([pen.bezier((5.2, 6.0), (10, 4.8), (16, 4.8), (21, 6.4)), pen.spiral((22.4, 8.2), 2.2, 235, 1.2, 1)])
    side = np.vstack([pen.bezier((6.0, 5.2), (4.8, 12), (4.8, 19), (6.4, 25)), pen.spiral((8.2, 26.6), 2.2, 215, 1.2, -1)])
    crown = np.vstack([pen.bezier((CX, 25.0), (CX - 4, 20.5), (CX - 11, 22.5), (CX - 14, 17.5)),
                       pen.spiral((CX - 12.4, 15.4), 2.4, 140, 1.3, 1)])
    crown2 = pen.bezier((CX, 22.0), (CX - 3, 17.0), (CX - 7, 14.5), (CX - 9.5, 12.0), 16)
    vine = pen.bezier((6.8, 32), (10.5, 36), (5.5, 40), (8.5, H / 2), 30)
    wing = np.vstack([pen.bezier((HEX_C[0] - 15.4, HEX_C[1] - 9.0), (12, 34), (10.5, 30), (13.5, 28.5)),
                      pen.spiral((14.2, 30.4), 1.7, 250, 1.2, -1)])
    return [corner, top, side, crown, crown2, vine, wing], [vine, crown]


@lru_cache(maxsize=8)
def _terrain_frame(s: float) -> np.ndarray:
    img = pen.paper(s, "terrain-frame", (78, 84, 22), amp=0.16, vignette=0.55, centre=(0.5, 0.51))
    pen.strokes(img, s, pen.seeded("terrain-frame/strokes"), 700, (0, 0, W, H), (82, 90, 24), spread=6, w=0.25)
    pen.border(img, s)
    for t in np.arange(6.0, max(W, H) - 5.5, 2.0):  # dotted lines inside the border
        for p in ((t, 4.4), (t, H - 4.4), (4.4, t), (W - 4.4, t)):
            if p[0] < W - 5.5 and p[1] < H - 5.5:
                pen.circle(img, p, 0.28, s, GOLD)
    paths, leafy = _filigree()
    for p in pen.mirror4(paths):
        pen.gold(img, p, s, 0.5)
    for p in pen.mirror4(leafy):
        pen.leaves(img, p, s)
    for p in np.vstack(pen.mirror4([[(13.0, 13.0), (CX - 9.5, 11.5), (4.6, 34), (17.5, 21.0), (CX, 9.2)]])):
        pen.dot(img, p, 0.6, s)
    for cy in (7.0, H - 7.0):  # crest diamonds on the top and bottom edges
        pen.gold(img, pen.ngon((CX, cy), 2.2, 4), s, 0.4, True)
        pen.dot(img, (CX, cy), 0.7, s)
    pen.fill(img, pen.ngon((HEX_C[0] + 0.5, HEX_C[1] + 0.6), HEX_R + 2.3), s, SHADOW)
    pen.gold(img, pen.ngon(HEX_C, HEX_R + 1.6), s, 0.9, True)
    for v in pen.ngon(HEX_C, HEX_R + 3.6):
        pen.dot(img, v, 0.8, s)
    return img


def _hex_desert(s, rng):
    img = pen.paper(s, "desert", PALETTE["desert"], amp=0.1, vignette=0.0)
    x = np.linspace(CX - HEX_R - 1, CX + HEX_R + 1, 60)
    for i, y0 in enumerate(np.arange(HEX_C[1] - 17, HEX_C[1] + 20, 4.6)):
        y = y0 + rng.uniform(1.2, 2.6) * np.sin(rng.uniform(0.14, 0.28) * x + rng.uniform(0, 6.3))
        tone = tuple(int(v * (0.7 + 0.1 * (i % 2) + 0.025 * i)) for v in PALETTE["desert"])
        pen.fill(img, np.vstack([np.c_[x, y], [(x[-1], H), (x[0], H)]]), s, tone)
        pen.line(img, np.c_[x, y], s, (170, 226, 250), 0.35)
        pen.line(img, np.c_[x, y + 0.9], s, tuple(int(v * 0.85) for v in tone), 1.0)
    pen.strokes(img, s, rng, 160, (CX - HEX_R, HEX_C[1] - HEX_R, CX + HEX_R, HEX_C[1] + HEX_R),
             (100, 165, 210), spread=15, length=(0.5, 1.4), w=0.2, angle=0.1)
    pen.circle(img, (CX + 7, HEX_C[1] - 10), 2.6, s, (150, 230, 252))
    return img


def _hex_forest(s, rng):
    img = pen.paper(s, "forest", (40, 84, 34), amp=0.18, vignette=0.0)
    trees = [(x + rng.uniform(-1, 1), y + rng.uniform(-0.8, 0.8))
             for y in np.arange(HEX_C[1] - 15, HEX_C[1] + 20, 5.2)
             for x in np.arange(CX - HEX_R - 1 + 2.6 * (round(y) % 2), CX + HEX_R + 2, 5.0)]
    for x, y in sorted(trees, key=lambda t: t[1]):
        base = tuple(int(min(255, v * rng.uniform(0.75, 1.25))) for v in PALETTE["forest"])
        dark, shade = tuple(v // 2 for v in base), tuple(int(v * 0.72) for v in base)
        pen.line(img, [(x, y), (x, y + 2.2)], s, (28, 52, 80), 0.7)
        if rng.random() < 0.3:  # a round broadleaf tree
            pen.circle(img, (x, y - 1.2), 2.6, s, dark)
            pen.circle(img, (x - 0.4, y - 1.6), 2.2, s, base)
            pen.circle(img, (x - 1.0, y - 2.3), 0.9, s, tuple(min(255, v + 45) for v in base))
            continue
        for k in range(3):  # a conifer: three tiers, lit from the left
            yb, hw = y - k * 1.9, 2.6 - 0.6 * k
            pen.fill(img, [(x - hw, yb), (x + hw, yb), (x, yb - 3.2)], s, dark)
            pen.fill(img, [(x - hw + 0.3, yb - 0.2), (x, yb - 0.2), (x, yb - 3.0)], s, base)
            pen.fill(img, [(x, yb - 0.2), (x + hw - 0.3, yb - 0.2), (x, yb - 3.0)], s, shade)
    return img


def _hex_mountain(s, rng):
    img = pen.paper(s, "mountain", (196, 178, 160), amp=0.08, vignette=0.0, centre=(0.5, 0.2))
    for layer, (yb, tone, n) in enumerate(((HEX_C[1] + 2, 0.85, 4), (HEX_C[1] + 12, 0.62, 3))):
        for x in np.linspace(CX - HEX_R - 4, CX + HEX_R + 4, n) + rng.uniform(-2, 2, n):
            top = np.array((x + rng.uniform(-1, 1), yb - rng.uniform(14, 20) + 4 * layer))
            left, right = np.array((x - 11, yb + 12)), np.array((x + 11, yb + 12))
            base = tuple(int(v * tone) for v in PALETTE["mountain"])
            pen.fill(img, [left, top, right], s, base)
            pen.fill(img, [top, right, (top[0] + 1.5, yb + 12)], s, tuple(int(v * 0.7) for v in base))
            sl, sr = top + (left - top) * 0.3, top + (right - top) * 0.3
            teeth = [(tx, sl[1] + (0.9 if i % 2 else -0.3)) for i, tx in enumerate(np.linspace(sr[0], sl[0], 6))]
            pen.fill(img, [sl, top, sr, *teeth], s, (238, 236, 230))
    for _ in range(9):  # boulders in front
        x, y, r = rng.uniform(CX - 13, CX + 13), rng.uniform(HEX_C[1] + 9, HEX_C[1] + 16), rng.uniform(1.2, 2.4)
        rock = pen.ngon((0, 0), r, 6, rng.uniform(0, 60)) + rng.uniform(-0.4, 0.4, (6, 2))
        for k, d, col in ((1.0, 0, (70, 72, 74)), (0.8, 0.25, (128, 130, 134)), (0.45, 0.6, (170, 172, 176))):
            pen.fill(img, rock * k + (x - d, y - d), s, col)
    pen.strokes(img, s, rng, 120, (CX - HEX_R, HEX_C[1] - 8, CX + HEX_R, HEX_C[1] + HEX_R),
             (120, 118, 116), spread=20, length=(0.6, 1.6), w=0.2, angle=1.2)
    return img


def _hex_water(s, rng):
    img = pen.paper(s, "water", PALETTE["water"], amp=0.14, vignette=0.0, centre=(0.5, 0.2))
    x = np.linspace(CX - HEX_R - 2, CX + HEX_R + 2, 80)
    for j, y0 in enumerate(np.arange(HEX_C[1] - 17, HEX_C[1] + 19, 3.4)):
        ph = rng.uniform(0, 6.3)
        y = y0 + 0.8 * np.sin(0.9 * x + ph)
        pen.line(img, np.c_[x, y + 0.45], s, (110, 60, 14), 0.4)
        pen.line(img, np.c_[x, y], s, (226, 190, 120), 0.35)
        crest = (np.arange(-6, 6) * 2 * np.pi - ph + np.pi / 2) / 0.9 - 0.4
        for cx in crest[(crest > CX - HEX_R) & (crest < CX + HEX_R)][j % 2::2]:  # foam curls
            pen.line(img, pen.spiral((cx + 0.5, y0 - 0.4), 0.7, 180, 0.8, 1, 12), s, (250, 240, 226), 0.3)
    return img


def _hex_any(s, rng):
    cy, img = HEX_C[1], np.zeros((round(H * s), round(W * s), 3), np.uint8)
    boxes = {"desert": (0, 0, CX, cy), "forest": (CX, 0, W, cy), "mountain": (CX, cy, W, H), "water": (0, cy, CX, H)}
    for name, (x0, y0, x1, y1) in boxes.items():
        part = pen.paper(s, "any-" + name, PALETTE[name], amp=0.16, vignette=0.0)
        pen.strokes(part, s, rng, 90, (x0, y0, x1, y1), PALETTE[name], spread=18, w=0.3)
        r0, r1, c0, c1 = round(y0 * s), round(y1 * s), round(x0 * s), round(x1 * s)
        img[r0:r1, c0:c1] = part[r0:r1, c0:c1]
    return img


HEX_ART = {"desert": _hex_desert, "forest": _hex_forest, "mountain": _hex_mountain,
           "water": _hex_water, "any": _hex_any}


def _terrain(terrain, s):
    img, hexagon = _terrain_frame(s).copy(), pen.ngon(HEX_C, HEX_R)
    mask = np.zeros(img.shape[:2], np.uint8)
    pen.fill(mask, hexagon, s, 255)
    a = (mask.astype(np.float32) / 255)[..., None]
    img[:] = np.round(HEX_ART[terrain](s, pen.seeded(terrain)) * a + img * (1 - a)).astype(np.uint8)
    if terrain == "any":
        pen.gold(img, [(CX, HEX_C[1] - HEX_R), (CX, HEX_C[1] + HEX_R)], s, 0.5)
        pen.gold(img, [(CX - HEX_R * 0.866, HEX_C[1]), (CX + HEX_R * 0.866, HEX_C[1])], s, 0.5)
    pen.gold(img, hexagon, s, 0.6, True)
    return img


# ---------------------------------------------------------------- bonus cards

def _compass(img, c, r, s):
    pen.circle(img, (c[0] + 0.5, c[1] + 0.6), r + 0.4, s, SHADOW, 1.6)
    for rr, w in ((r, 0.9), (r - 1.6, 0.35), (r * 0.42, 0.4)):
        pen.gold(img, pen.ngon(c, rr, 90), s, w, True)
    for k, (p0, p1) in enumerate(zip(pen.ngon(c, r - 1.6, 64), pen.ngon(c, r - 2.3, 64), strict=True)):
        pen.line(img, [p0, p1 if k % 4 else p0 + (p1 - p0) * 1.9], s, GOLD, 0.22)
    for k in (1, 3, 5, 7, 0, 2, 4, 6):  # the eight points, lit on one side
        ln, hw = (r - 0.6, r * 0.15) if k % 2 == 0 else (r * 0.66, r * 0.11)
        tip = pen.ngon(c, ln, 8)[k]
        left, right = pen.ngon(c, hw, 8, k * 45 - 180)[[0, 4]]
        pen.fill(img, [(c[0] + 0.4, c[1] + 0.5), tip + (0.4, 0.5), left], s, SHADOW)
        pen.fill(img, [c, tip, left], s, GOLD_LT)
        pen.fill(img, [c, tip, right], s, GOLD_DK)
        pen.line(img, [left, tip, right], s, GOLD_DK, 0.15)
    for p in pen.ngon(c, r + 2.2, 8, -67.5):
        pen.dot(img, p, 0.55, s)
    pen.circle(img, c, 1.8, s, GOLD_DK)
    pen.circle(img, c, 1.3, s, GOLD)


@lru_cache(maxsize=8)
def _bonus_base(red: bool, s: float) -> np.ndarray:
    base = (36, 34, 128) if red else (104, 46, 18)
    img = pen.paper(s, f"bonus-{red}", base, amp=0.15, vignette=0.6, centre=(0.5, 0.6))
    pen.strokes(img, s, pen.seeded(f"bonus-{red}/strokes"), 500, (0, 0, W, H), base, spread=8, w=0.25)
    img[: round(BAND * s)] = (img[: round(BAND * s)] * 0.8).astype(np.uint8)
    pen.border(img, s)
    pen.gold(img, [(3.3, BAND), (W - 3.3, BAND)], s, 0.5)
    pen.gold(img, pen.ngon((CX, BAND), 1.8, 4), s, 0.35, True)
    _compass(img, (CX, 53.0), 20.0, s)
    for p in ((7.5, 22.5), (W - 7.5, 22.5), (7.5, H - 7.5), (W - 7.5, H - 7.5)):
        pen.star(img, p, 2.2, s)
    return img


def _bonus(face, s):
    img, y = _bonus_base(face.kind is CardKind.RED, s).copy(), BAND / 2 + 0.3
    if face.kind is CardKind.BLUE:  # the letter pair and a small #1 / #2 badge
        pen.text(img, f"{face.letter} - {face.letter}", (CX - 4.0, y), 6.2, s, GOLD_LT, 0.42)
        pen.fill(img, [(5.8, y - 1.5), (11.0, y - 1.5), (11.0, y + 1.5), (5.8, y + 1.5)], s, CREAM)
        pen.text(img, f"#{face.number}", (8.4, y), 2.0, s, INK, 0.3)
    for x in (12.5, 28.5) if face.kind is CardKind.RED else ():  # the sight, twice
        for dx, r, col in ((0.3, 5.7, SHADOW), (0, 5.7, GOLD_DK), (0, 5.1, CREAM)):
            pen.circle(img, (x + dx, y + dx), r, s, col)
        _sight(img, face.sight, (x, y), s)
    c = (W - 10.0, y)  # the points disc
    for d, r, col in ((0.3, 4.8, SHADOW), (0, 4.6, GOLD_DK), (0, 3.9, GOLD)):
        pen.circle(img, (c[0] + d, c[1] + d), r, s, col)
    pen.circle(img, c, 3.9, s, GOLD_LT, 0.2)
    pen.text(img, str(RED_POINTS if face.letter is None else BLUE_POINTS[face.letter][face.number - 1]), c, 4.2, s, INK, 0.55)
    return img


def _sight(img, sight, c, s):
    def at(pts):
        return np.asarray(pts, np.float64) + c

    if sight == "obelisk":
        pen.fill(img, at([(-1.1, 3.2), (1.1, 3.2), (0.75, -2.3), (0, -3.8), (-0.75, -2.3)]), s, INK)
        pen.fill(img, at([(-2.4, 3.0), (2.4, 3.0), (2.4, 3.9), (-2.4, 3.9)]), s, INK)
        pen.line(img, at([(0.2, -2.1), (0.5, 2.8)]), s, (120, 130, 150), 0.25)
    elif sight == "book":
        for sg in (-1, 1):
            pen.fill(img, at([(0, -1.6), (sg * 3.9, -2.7), (sg * 3.9, 2.3), (0, 3.2)]), s, INK)
            pen.fill(img, at([(sg * 0.4, -1.1), (sg * 3.4, -2.0), (sg * 3.4, 1.8), (sg * 0.4, 2.5)]), s, WHITE)
            for k in range(4):
                pen.line(img, at([(sg * 1.0, -0.6 + k), (sg * 2.9, -1.2 + k)]), s, INK, 0.2)
    elif sight == "toucan":
        pen.line(img, at([(-3.6, 3.4), (3.6, 3.0)]), s, (30, 70, 110), 0.5)
        pen.circle(img, at((0.7, 0.6)), 2.4, s, INK)
        pen.fill(img, at([(1.6, 1.8), (3.6, 3.8), (2.6, 1.0)]), s, INK)
        pen.circle(img, at((-0.2, -1.7)), 1.5, s, INK)
        pen.circle(img, at((-0.6, -0.5)), 0.8, s, WHITE)
        pen.fill(img, at([(-0.9, -2.9), (-3.2, -2.6), (-4.4, -1.4), (-0.9, -0.8)]), s, (30, 140, 250))
        pen.line(img, at([(-1.0, -1.75), (-4.1, -1.3)]), s, (20, 60, 200), 0.2)
        pen.circle(img, at((-0.3, -2.0)), 0.35, s, WHITE)
    elif sight == "yeti":
        for sg in (-1, 1):
            pen.line(img, at([(sg * 1.6, 0.0), (sg * 3.6, 2.6)]), s, INK, 1.3)
            pen.line(img, at([(sg * 1.6, 0.0), (sg * 3.6, 2.6)]), s, (226, 214, 200), 0.8)
        fur = pen.ngon((0, 0), 1.0, 24, 0) * np.where(np.arange(24) % 2, 1.13, 1.0)[:, None] * (2.6, 3.3) + (0, 0.5)
        pen.fill(img, at(fur), s, INK)
        pen.fill(img, at(fur * 0.86), s, (226, 214, 200))
        pen.fill(img, at([(-1.2, -1.6), (1.2, -1.6), (1.0, 0.4), (-1.0, 0.4)]), s, (110, 96, 84))
        for dx in (-0.5, 0.5):
            pen.circle(img, at((dx, -0.9)), 0.25, s, WHITE)
        pen.line(img, at([(-0.5, -0.1), (0.5, -0.1)]), s, WHITE, 0.2)
    else:  # sea monster: a neck, two humps and a curled tail above a wavy waterline
        humps = np.linspace(0, 2 * np.pi, 24)
        body = np.vstack([pen.bezier((-3.0, -2.4), (-1.8, -1.0), (-2.6, 0.8), (-2.1, 1.6), 10),
                          np.c_[np.linspace(-2.1, 2.7, 24), 1.6 - 2.0 * np.abs(np.sin(humps))],
                          pen.bezier((2.7, 1.6), (3.4, 0.4), (4.1, 0.2), (3.8, -0.8), 8)])
        pen.line(img, at(body), s, (40, 80, 24), 0.95)
        pen.line(img, at(body), s, (70, 140, 60), 0.45)
        pen.fill(img, at([(-4.0, -3.0), (-2.6, -3.6), (-1.9, -2.6), (-2.8, -1.9), (-4.1, -2.3)]), s, (40, 80, 24))
        pen.circle(img, at((-2.7, -2.9)), 0.3, s, WHITE)
        xs = np.linspace(-4, 4, 30)
        pen.line(img, at(np.c_[xs, 2.4 + 0.35 * np.sin(xs * 3)]), s, (150, 80, 20), 0.45)


# ---------------------------------------------------------------- set-up cards, faces, backs

@lru_cache(maxsize=8)
def _setup_base(s: float) -> np.ndarray:
    img = pen.paper(s, "setup", (178, 222, 240), amp=0.1, vignette=0.35)
    pen.strokes(img, s, pen.seeded("setup/fibres"), 900, (0, 0, W, H), (150, 196, 220), spread=10,
             length=(1.0, 3.5), w=0.15, angle=0.05)
    for y0 in (3.0, H - 11.0):  # rolled scroll ends: a shaded cylinder with curled tips
        r0, r1, c0, c1 = round(y0 * s), round((y0 + 7.5) * s), round(5.5 * s), round((W - 5.5) * s)
        shade = 0.55 + 0.45 * np.sin(np.linspace(0.15, np.pi - 0.15, r1 - r0))[:, None, None]
        img[r0:r1, c0:c1] = (img[r0:r1, c0:c1] * shade * 0.95).astype(np.uint8)
        for sx, sg in ((5.5, 1), (W - 5.5, -1)):
            pen.line(img, pen.spiral((sx, y0 + 3.8), 3.7, 90 - 90 * sg, 1.3, -sg), s, (60, 100, 140), 0.45)
        pen.line(img, [(5.5, y0 + 8.0), (W - 5.5, y0 + 8.0)], s, (70, 110, 150), 0.3)
    trail = pen.ngon((0, 0), 1.0, 200, 0) * RING_R + RING_C
    for k in range(0, 200, 4):  # a dashed trail through the letters
        pen.line(img, trail[k:k + 2], s, (70, 100, 140), 0.3)
    for k in range(4):  # a faint compass star in the middle of the ring
        tip, (left, right) = pen.ngon(RING_C, 8.0, 4)[k], pen.ngon(RING_C, 1.6, 4, k * 90 - 180)[[0, 2]]
        pen.fill(img, [RING_C, tip, left], s, (130, 170, 200))
        pen.fill(img, [RING_C, tip, right], s, (100, 140, 175))
    pen.circle(img, RING_C, 11.0, s, (110, 150, 185), 0.25)
    return img


def _setup(letters, s):
    img = _setup_base(s).copy()
    for k, (letter, p) in enumerate(zip(letters, pen.ngon((0, 0), 1.0, 10) * RING_R + RING_C, strict=True)):
        pen.circle(img, p + (0.35, 0.45), 3.9, s, (80, 110, 140))
        pen.circle(img, p, 3.8, s, (40, 60, 90))
        pen.circle(img, p, 3.3, s, RED if k == 0 else WHITE)
        pen.text(img, letter, (p[0], p[1] + 0.05), 3.6, s, WHITE if k == 0 else INK, 0.45)
    return img


@lru_cache(maxsize=128)
def _face(card: str, s: float) -> np.ndarray:
    face = card_face(card)
    if face.kind is CardKind.TERRAIN:
        return _terrain(face.terrain, s)
    return _setup(face.letters, s) if face.kind is CardKind.SETUP else _bonus(face, s)


def render_face(card: str, px_per_mm: float = 4.0) -> np.ndarray:
    """One card face in the gilded style, BGR uint8, portrait 63x88 mm; ValueError for an unknown card."""
    if card not in CARD_IDS:
        raise ValueError(f"unknown card ID {card!r}")
    return _face(card, float(px_per_mm)).copy()


@lru_cache(maxsize=16)
def _back(kind: BackKind, s: float) -> np.ndarray:
    if kind is BackKind.TERRAIN:  # an emblem of seven hexagons on a purple lattice with corner scrolls
        img = pen.paper(s, "back-terrain", (96, 34, 78), amp=0.14, vignette=0.5)
        for k in np.arange(-H, W + H, 6.0):
            pen.line(img, [(k, 0), (k + H, H)], s, (120, 52, 100), 0.25)
            pen.line(img, [(k, 0), (k - H, H)], s, (120, 52, 100), 0.25)
        pen.border(img, s)
        for p in pen.mirror4(_filigree()[0][:3]):
            pen.gold(img, p, s, 0.5)
        c = (CX, H / 2)
        pen.circle(img, (c[0] + 0.6, c[1] + 0.7), 15.6, s, SHADOW)
        pen.circle(img, c, 15.2, s, GOLD_DK)
        pen.circle(img, c, 14.0, s, (70, 80, 20))
        for k, p in enumerate([c, *pen.ngon(c, 7.4, 6, 0)]):
            pen.fill(img, pen.ngon(p, 4.1), s, GOLD if k == 0 else tuple(PALETTE.values())[k % 4])
            pen.gold(img, pen.ngon(p, 4.1), s, 0.3, True)
        pen.text(img, "TUCANA", (CX, H - 13.0), 3.8, s, GOLD_LT, 0.45)
        return img
    red = kind is BackKind.RED  # bonus backs: a field of stars, a big star and a ribbon
    img = pen.paper(s, f"back-{kind.value}", (30, 26, 110) if red else (86, 36, 12), amp=0.12, vignette=0.4)
    for j, y in enumerate(np.arange(4.0, H, 5.5)):
        for x in np.arange(4.0 + 2.75 * (j % 2), W, 5.5):
            pen.star(img, (x, y), 1.2, s, (50, 120, 170))
    ribbon = np.vstack([pen.bezier((-2, 52), (18, 38), (40, 58), (W + 2, 40)),
                        pen.bezier((W + 2, 50), (40, 68), (18, 48), (-2, 62))])
    pen.fill(img, ribbon + (0.6, 0.8), s, SHADOW)
    pen.fill(img, ribbon, s, (200, 230, 245) if red else (178, 222, 240))
    pen.line(img, ribbon, s, GOLD_DK, 0.6, True)
    pen.border(img, s)
    pen.star(img, (CX, 24.0), 8.0, s, GOLD)
    return img


def render_back(kind, px_per_mm: float = 4.0) -> np.ndarray:
    """One card back in the gilded style (terrain, blue or red), BGR uint8, portrait 63x88 mm."""
    return _back(BackKind(kind), float(px_per_mm)).copy()
