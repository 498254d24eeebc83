"""Chalk style's drawings: the four landscapes (and the split 'any'), the key, the five sights.

Each drawing fills a box (x0, y0, x1, y1 in mm) on a Board, so a landscape can fill a card or a
quarter of one. Pastel chalk colours, BGR.
"""

from __future__ import annotations

import math

import numpy as np

from vision.art.chalk_board import WHITE, Board, crc

OCHRE = (90, 180, 228)
SAND = (150, 214, 240)
ORANGE = (80, 140, 232)
GREEN = (125, 205, 140)
MOSS = (70, 140, 85)
BARK = (80, 115, 165)
GREY = (200, 202, 208)
LAVENDER = (205, 160, 178)
SKY = (236, 208, 160)
BLUE = (228, 165, 88)
PINK = (150, 125, 238)
RED = (75, 78, 222)


class _Box:
    """Unit coordinates (u, v) in a millimetre box, and a scale for widths."""

    def __init__(self, box) -> None:
        self.x0, self.y0, self.x1, self.y1 = box
        self.s = min(self.x1 - self.x0, self.y1 - self.y0) / 55.0

    def __call__(self, u: float, v: float) -> tuple[float, float]:
        return self.x0 + u * (self.x1 - self.x0), self.y0 + v * (self.y1 - self.y0)


def _curve(f, u0: float, u1: float, v, n: int = 30):
    return [f(u, v(u)) for u in np.linspace(u0, u1, n)]


def desert(b: Board, box) -> None:
    """Dunes under a big sun, a saguaro and two birds."""
    f = _Box(box)
    sun = f(0.74, 0.2)
    b.smudge([(sun[0] + 6 * f.s * math.cos(a), sun[1] + 6 * f.s * math.sin(a))
              for a in np.linspace(0, 2 * math.pi, 24)], SAND, 0.45)
    b.ring(sun, 6.0 * f.s, 0.8 * f.s, SAND)
    for k in range(10):
        a = k * math.pi / 5 + 0.2
        b.stroke([(sun[0] + 8 * f.s * math.cos(a), sun[1] + 8 * f.s * math.sin(a)),
                  (sun[0] + 11 * f.s * math.cos(a), sun[1] + 11 * f.s * math.sin(a))], 0.6 * f.s, SAND)
    for k in range(4):
        v0 = 0.45 + k * 0.14
        crest = _curve(f, -0.02, 1.02, lambda u, v0=v0, k=k: v0 + 0.05 * math.sin(2 * math.pi * (0.9 * u + 0.3 * k)))
        b.smudge(crest + [f(1.02, 1.0), f(-0.02, 1.0)], ORANGE if k % 2 else OCHRE, 0.16 + 0.04 * k)
        b.stroke(crest, 0.75 * f.s, OCHRE if k % 2 else SAND)
    x, y = f(0.24, 0.62)
    b.stroke([(x, y), (x, y - 14 * f.s)], 1.3 * f.s, GREEN)
    b.stroke([(x, y - 6 * f.s), (x - 4 * f.s, y - 7 * f.s), (x - 4 * f.s, y - 11 * f.s)], 1.0 * f.s, GREEN)
    b.stroke([(x, y - 8 * f.s), (x + 3.5 * f.s, y - 9 * f.s), (x + 3.5 * f.s, y - 12 * f.s)], 1.0 * f.s, GREEN)
    for bx, by in ((0.2, 0.15), (0.32, 0.22)):
        p = f(bx, by)
        b.stroke([(p[0] - 2 * f.s, p[1] - 1 * f.s), (p[0], p[1]), (p[0] + 2 * f.s, p[1] - 1 * f.s)], 0.4 * f.s)
    rng = np.random.default_rng(crc(f"chalk/sand/{box}"))
    for _ in range(40):
        b.dot(f(rng.uniform(0, 1), rng.uniform(0.55, 0.98)), 0.25 * f.s, SAND, 0.7)


def _pine(b: Board, base, height: float, s: float) -> None:
    x, y = base
    b.stroke([(x, y), (x, y - height * 0.25)], 0.9 * s, BARK)
    outline = [(x, y - height)]
    for i in range(1, 5):
        yy, half = y - height + i * height * 0.19, height * (0.1 + 0.075 * i)
        outline += [(x + half, yy), (x + half * 0.45, yy - height * 0.02)]
    left = [(2 * x - px, py) for px, py in reversed(outline[1:])]
    poly = outline + left
    b.smudge(poly, MOSS, 0.55, 0.5)
    b.stroke(poly, 0.6 * s, GREEN, closed=True)
    b.stroke([(x - height * 0.08, y - height * 0.75), (x - height * 0.2, y - height * 0.45)], 0.4 * s, WHITE, 0.6)


def forest(b: Board, box) -> None:
    """A stand of pines on a hillside under a crescent moon."""
    f = _Box(box)
    moon = f(0.8, 0.13)
    b.ring(moon, 4 * f.s, 0.7 * f.s, SAND, start=60, sweep=240)
    b.ring((moon[0] + 1.8 * f.s, moon[1] - 0.6 * f.s), 3.4 * f.s, 0.5 * f.s, SAND, start=90, sweep=180)
    ground = _curve(f, -0.02, 1.02, lambda u: 0.9 - 0.04 * math.sin(math.pi * u))
    b.stroke(ground, 0.7 * f.s, GREEN)
    for u, v, hgt in ((0.16, 0.62, 0.34), (0.5, 0.58, 0.38), (0.84, 0.62, 0.34), (0.3, 0.92, 0.5),
                      (0.68, 0.93, 0.52)):
        _pine(b, f(u, v), hgt * (f.y1 - f.y0), f.s)


def mountain(b: Board, box) -> None:
    """Three peaks with snow caps, hatched shadows, a cloud and rocks."""
    f = _Box(box)
    for (u, v, half) in ((0.68, 0.22, 0.32), (0.3, 0.3, 0.34), (0.9, 0.48, 0.2)):
        top, left, right = f(u, v), f(u - half, 0.95), f(u + half, 0.95)
        shade = [top, right, f(u + 0.05, 0.95)]
        b.smudge(shade, LAVENDER, 0.35, 0.6)
        for k in range(1, 7):
            t = k / 7
            p = (top[0] + (right[0] - top[0]) * t, top[1] + (right[1] - top[1]) * t)
            b.stroke([p, (p[0] - 3 * f.s * t, p[1] + 5 * f.s)], 0.35 * f.s, LAVENDER, 0.8)
        b.stroke([left, top, right], 0.75 * f.s, GREY)
        cap_t = 0.3
        cl = (top[0] + (left[0] - top[0]) * cap_t, top[1] + (left[1] - top[1]) * cap_t)
        cr = (top[0] + (right[0] - top[0]) * cap_t, top[1] + (right[1] - top[1]) * cap_t)
        zig = [cl]
        for k in range(1, 4):
            t = k / 4
            zig.append((cl[0] + (cr[0] - cl[0]) * t, cl[1] - (2.5 * f.s if k % 2 else 0)))
        zig.append(cr)
        b.smudge([top] + zig, WHITE, 0.55, 0.4)
        b.stroke(zig, 0.6 * f.s, WHITE)
    c = f(0.22, 0.12)
    for k, (dx, r) in enumerate(((0, 3), (4, 4), (8.5, 3))):
        b.ring((c[0] + dx * f.s, c[1] - (k == 1) * 1.5 * f.s), r * f.s, 0.5 * f.s, WHITE, 0.8, 170, 190)
    for u, r in ((0.15, 2.5), (0.5, 3.2), (0.78, 2.0)):
        b.ring(f(u, 0.97), r * f.s, 0.55 * f.s, GREY, 0.8, 180, 190)


def water(b: Board, box) -> None:
    """Rows of curling waves with foam."""
    f = _Box(box)
    rng = np.random.default_rng(crc(f"chalk/foam/{box}"))
    for k in range(6):
        v = 0.12 + k * 0.16
        line = _curve(f, -0.02, 1.02, lambda u, v=v, k=k: v + 0.025 * math.sin(2 * math.pi * (3 * u + 0.5 * k)), 60)
        b.smudge(line + [f(1.02, v + 0.12), f(-0.02, v + 0.12)], BLUE, 0.14, 1.0)
        b.stroke(line, 0.6 * f.s, SKY if k % 2 else BLUE)
        for j in range(3):
            u = (j + 0.15 + 0.5 * (k % 2)) / 3
            c = f(u, v - 0.03)
            b.ring(c, 2.4 * f.s, 0.55 * f.s, WHITE, 0.9, 90, -250)
        for _ in range(5):
            b.dot(f(rng.uniform(0, 1), v - rng.uniform(0.0, 0.05)), 0.3 * f.s, WHITE, 0.7)


def any_terrain(b: Board, box) -> None:
    """The card split four ways by a wavy chalk cross: dunes, pines, peaks and waves."""
    x0, y0, x1, y1 = box
    xm, ym = (x0 + x1) / 2, (y0 + y1) / 2
    g = 1.6
    desert(b, (x0 + g, y0 + g, xm - g, ym - g))
    forest(b, (xm + g, y0 + g, x1 - g, ym - g))
    mountain(b, (x0 + g, ym + g, xm - g, y1 - g))
    water(b, (xm + g, ym + g, x1 - g, y1 - g))
    b.stroke([(xm + 0.6 * math.sin(t * 9), y0 + (y1 - y0) * t) for t in np.linspace(0, 1, 40)], 0.8)
    b.stroke([(x0 + (x1 - x0) * t, ym + 0.6 * math.sin(t * 7)) for t in np.linspace(0, 1, 40)], 0.8)


LANDSCAPES = {"desert": desert, "forest": forest, "mountain": mountain, "water": water, "any": any_terrain}

KEY_CENTRE = (31.5, 53.0)


def key(b: Board, colour, light) -> None:
    """The big old key of the bonus cards, tilted, with sparkles around it."""
    cx, cy = KEY_CENTRE
    ang = math.radians(-50)
    ca, sa = math.cos(ang), math.sin(ang)

    def _at(u: float, v: float) -> tuple[float, float]:
        return cx + u * ca - v * sa, cy + u * sa + v * ca

    bow = _at(-12, 0)
    b.smudge([(bow[0] + 6 * math.cos(a), bow[1] + 6 * math.sin(a)) for a in np.linspace(0, 6.3, 30)], colour, 0.3)
    b.ring(bow, 6.2, 1.1, colour)
    b.ring(bow, 3.0, 0.8, colour)
    for k in range(3):
        a = ang + math.pi + (k - 1) * 0.95
        b.ring((bow[0] + 7.6 * math.cos(a), bow[1] + 7.6 * math.sin(a)), 2.3, 0.8, colour, start=0, sweep=370)
    b.stroke([_at(-5.8, -1.3), _at(16, -1.3)], 0.9, colour)
    b.stroke([_at(-5.8, 1.3), _at(16, 1.3)], 0.9, colour)
    b.stroke([_at(16, -1.3), _at(16, 1.3)], 0.9, colour)
    for u in (-4.5, -3):
        b.stroke([_at(u, -2.4), _at(u, 2.4)], 0.8, colour)
    teeth = [_at(8, 1.3), _at(8, 7), _at(10, 7), _at(10, 5), _at(12, 5), _at(12, 8), _at(14.5, 8), _at(14.5, 1.3)]
    b.smudge(teeth, colour, 0.35, 0.4)
    b.stroke(teeth, 0.8, colour)
    b.stroke([_at(-3, -0.6), _at(14, -0.6)], 0.35, light, 0.8)
    b.ring(bow, 4.6, 0.35, light, 0.7, start=200, sweep=90)
    for k in range(8):
        a = k * math.pi / 4 + 0.3
        r0 = 21.0 + 2 * (k % 2)
        b.stroke([(cx + r0 * math.cos(a), cy + r0 * math.sin(a)),
                  (cx + (r0 + 2.5) * math.cos(a), cy + (r0 + 2.5) * math.sin(a))], 0.5, light, 0.8)


def sight(b: Board, name: str, c, s: float, colour=WHITE) -> None:
    """A small chalk line drawing of a sight, about s mm tall."""
    x, y = c
    w = max(0.35, s * 0.07)
    if name == "obelisk":
        body = [(x - 0.15 * s, y + 0.4 * s), (x - 0.1 * s, y - 0.3 * s), (x, y - 0.48 * s),
                (x + 0.1 * s, y - 0.3 * s), (x + 0.15 * s, y + 0.4 * s)]
        b.stroke(body, w, colour)
        b.stroke([(x - 0.1 * s, y - 0.3 * s), (x + 0.1 * s, y - 0.3 * s)], w * 0.7, colour)
        b.stroke([(x - 0.32 * s, y + 0.42 * s), (x + 0.32 * s, y + 0.42 * s)], w, colour)
        b.stroke([(x + 0.05 * s, y - 0.2 * s), (x + 0.08 * s, y + 0.35 * s)], w * 0.6, colour, 0.7)
    elif name == "book":
        for side in (-1, 1):
            page = [(x, y - 0.25 * s), (x + side * 0.25 * s, y - 0.35 * s), (x + side * 0.48 * s, y - 0.28 * s),
                    (x + side * 0.48 * s, y + 0.3 * s), (x + side * 0.25 * s, y + 0.22 * s), (x, y + 0.32 * s)]
            b.stroke(page, w, colour)
            for k in range(3):
                yy = y - 0.12 * s + k * 0.13 * s
                b.stroke([(x + side * 0.1 * s, yy), (x + side * 0.38 * s, yy - 0.03 * s)], w * 0.6, colour, 0.8)
        b.stroke([(x, y - 0.25 * s), (x, y + 0.32 * s)], w, colour)
    elif name == "toucan":
        b.ring((x - 0.15 * s, y + 0.1 * s), 0.17 * s, w, colour, ry=0.3 * s)
        b.ring((x - 0.08 * s, y - 0.22 * s), 0.13 * s, w, colour)
        beak = [(x + 0.02 * s, y - 0.32 * s), (x + 0.48 * s, y - 0.24 * s), (x + 0.44 * s, y - 0.16 * s),
                (x + 0.02 * s, y - 0.13 * s)]
        b.stroke(beak, w, ORANGE, closed=True)
        b.dot((x - 0.07 * s, y - 0.24 * s), w * 0.8, colour)
        b.stroke([(x - 0.45 * s, y + 0.44 * s), (x + 0.2 * s, y + 0.44 * s)], w, BARK)
    elif name == "yeti":
        fur = [(x + 0.28 * s * (1 + 0.15 * (k % 2)) * math.cos(a), y + 0.05 * s + 0.38 * s * (1 + 0.12 * (k % 2))
                * math.sin(a)) for k, a in enumerate(np.linspace(0, 2 * math.pi, 21))]
        b.stroke(fur, w, colour)
        for side in (-1, 1):
            b.stroke([(x + side * 0.25 * s, y), (x + side * 0.46 * s, y - 0.32 * s)], w, colour)
            b.dot((x + side * 0.09 * s, y - 0.15 * s), w * 0.8, colour)
        b.stroke([(x - 0.08 * s, y + 0.0 * s), (x + 0.08 * s, y + 0.0 * s)], w * 0.7, colour)
    else:  # sea monster
        for k, hx in enumerate((-0.28, 0.0, 0.26)):
            b.ring((x + hx * s, y + 0.15 * s), 0.11 * s, w, colour, start=180, sweep=180, ry=(0.2 - 0.04 * k) * s)
        b.ring((x - 0.42 * s, y - 0.12 * s), 0.11 * s, w, colour)
        b.stroke([(x - 0.38 * s, y - 0.02 * s), (x - 0.38 * s, y + 0.15 * s)], w, colour)
        b.dot((x - 0.44 * s, y - 0.14 * s), w * 0.8, colour)
        b.stroke([(x + t * s, y + 0.22 * s + 0.05 * s * math.sin(t * 14)) for t in np.linspace(-0.5, 0.5, 20)],
                 w, BLUE)
