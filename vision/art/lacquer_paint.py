"""Lacquer style's paint box: a float sheet in millimetres, soft masks, lacquer and gold textures.

Everything is drawn as an anti-aliased mask first and then laid on in a colour (or a colour field),
optionally with a bevel lit from the top left, so gold ornament looks raised and lacquer looks
brushed and glossy. Textures are seeded from a name via zlib.crc32, so a sheet is deterministic.
"""

from __future__ import annotations

import math
import zlib

import cv2
import numpy as np

from vision.render import CARD_H_MM, CARD_W_MM

_SHIFT = 4
_ONE = 1 << _SHIFT
AA = cv2.LINE_AA

GOLD = (60, 172, 222)
GOLD_DARK = (18, 70, 118)
BLACK = (18, 14, 16)
CREAM = (200, 232, 244)


def seed_of(name: str) -> int:
    """A stable integer seed for a texture name."""
    return zlib.crc32(name.encode("utf-8"))


def noise(h: int, w: int, cells: tuple[int, int], name: str) -> np.ndarray:
    """Smooth value noise of about zero mean and unit spread, float32 (h, w)."""
    rng = np.random.default_rng(seed_of(name))
    grid = rng.standard_normal((cells[0] + 1, cells[1] + 1)).astype(np.float32)
    field = cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)
    return (field - field.mean()) / (field.std() + 1e-6)


def grain(h: int, w: int, name: str) -> np.ndarray:
    """Fine per-pixel grain, float32 (h, w) in about -1..1."""
    rng = np.random.default_rng(seed_of(name))
    return cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 0.7)


def hexagon(centre: tuple[float, float], r: float) -> list[tuple[float, float]]:
    """The six corners of a pointy-top hexagon, clockwise from the top."""
    cx, cy = centre
    return [(cx + r * math.sin(k * math.pi / 3), cy - r * math.cos(k * math.pi / 3)) for k in range(6)]


class Sheet:
    """A card-sized float BGR image addressed in millimetres."""

    def __init__(self, ppm: float, w_mm: float = CARD_W_MM, h_mm: float = CARD_H_MM) -> None:
        """An empty (black) sheet at px_per_mm."""
        self.ppm = ppm
        self.h, self.w = round(h_mm * ppm), round(w_mm * ppm)
        self.img = np.zeros((self.h, self.w, 3), np.float32)

    # --- masks ------------------------------------------------------------------------------
    def blank(self) -> np.ndarray:
        """A new empty uint8 mask."""
        return np.zeros((self.h, self.w), np.uint8)

    def fix(self, points) -> np.ndarray:
        """Millimetre points to cv2's fixed-point pixel coordinates."""
        return np.round(np.asarray(points, np.float64) * self.ppm * _ONE).astype(np.int32)

    def px(self, mm: float) -> int:
        """A width in mm as whole pixels, at least one."""
        return max(1, round(mm * self.ppm))

    def poly(self, m: np.ndarray, points, value: int = 255) -> np.ndarray:
        """Fill a polygon on a mask."""
        cv2.fillPoly(m, [self.fix(points)], value, AA, _SHIFT)
        return m

    def line(self, m: np.ndarray, points, width: float, closed: bool = False, value: int = 255) -> np.ndarray:
        """Stroke a polyline of width mm on a mask."""
        cv2.polylines(m, [self.fix(points)], closed, value, self.px(width), AA, _SHIFT)
        return m

    def circle(self, m: np.ndarray, c, r: float, width: float | None = None, value: int = 255) -> np.ndarray:
        """A filled disc, or a ring of width mm."""
        thick = -1 if width is None else self.px(width)
        cv2.circle(m, tuple(int(v) for v in self.fix(c)), int(round(r * self.ppm * _ONE)), value, thick, AA, _SHIFT)
        return m

    def ellipse(self, m: np.ndarray, c, axes, angle: float = 0.0, arc: tuple[float, float] = (0, 360),
                width: float | None = None, value: int = 255) -> np.ndarray:
        """A filled ellipse (or arc of width mm), angles in degrees."""
        thick = -1 if width is None else self.px(width)
        cv2.ellipse(m, tuple(int(v) for v in self.fix(c)), tuple(int(v) for v in self.fix(axes)), angle,
                    arc[0], arc[1], value, thick, AA, _SHIFT)
        return m

    def text(self, m: np.ndarray, s: str, centre, height: float, font: int, weight: float,
             value: int = 255) -> np.ndarray:
        """Text centred on a point, its capitals about height mm tall, strokes weight mm."""
        thick = self.px(weight)
        (tw, th), _ = cv2.getTextSize(s, font, 1.0, thick)
        scale = height * self.ppm / max(th, 1)
        (tw, th), _ = cv2.getTextSize(s, font, scale, thick)
        x = centre[0] * self.ppm - tw / 2
        y = centre[1] * self.ppm + th / 2
        cv2.putText(m, s, (round(x), round(y)), font, scale, value, thick, AA)
        return m

    # --- paint ------------------------------------------------------------------------------
    def alpha(self, m: np.ndarray, soften: float = 0.0) -> np.ndarray:
        """A uint8 mask as float 0..1, optionally blurred by soften mm."""
        a = m.astype(np.float32) / 255.0
        return cv2.GaussianBlur(a, (0, 0), soften * self.ppm) if soften > 0 else a

    def relief(self, a: np.ndarray, depth: float = 0.45) -> np.ndarray:
        """Light from the top left on a raised mask: about -1 (shadow) .. 1 (lit)."""
        soft = cv2.GaussianBlur(a, (0, 0), max(0.6, depth * self.ppm))
        gx = cv2.Sobel(soft, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(soft, cv2.CV_32F, 0, 1, ksize=3)
        return np.clip(-(gx + gy) * depth * self.ppm * 1.6, -1.0, 1.0)

    def paint(self, m: np.ndarray, colour, bevel: float = 0.0, opacity: float = 1.0,
              soften: float = 0.0) -> None:
        """Lay a colour (BGR tuple or float field) through a mask, optionally bevelled."""
        a = self.alpha(m, soften) * opacity
        col = np.broadcast_to(np.asarray(colour, np.float32), self.img.shape)
        if bevel:
            col = col * (1.0 + bevel * self.relief(self.alpha(m)))[..., None]
        self.img += (col - self.img) * a[..., None]

    def gold(self, m: np.ndarray, name: str = "gold", bevel: float = 0.55) -> None:
        """Raised gold leaf with a sheen that drifts across the card."""
        yy, xx = np.mgrid[0:self.h, 0:self.w].astype(np.float32)
        sheen = np.sin((xx * 0.8 + yy) / (self.ppm * 9.0)) * 0.18 + noise(self.h, self.w, (5, 4), name) * 0.08
        field = np.asarray(GOLD, np.float32) * (1.0 + sheen)[..., None]
        self.paint(m, field, bevel=bevel)
        self.paint(cv2.dilate(m, np.ones((3, 3), np.uint8)) - m, GOLD_DARK, opacity=0.6)

    def lacquer(self, colour, name: str, streak: float = 0.10, gloss: float = 0.22) -> None:
        """Cover the sheet with brushed, glossy lacquer of a colour."""
        h, w = self.h, self.w
        brush = noise(h, w, (60, 5), name + "/brush") * 0.6 + noise(h, w, (7, 5), name + "/cloud")
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        band = np.exp(-(((xx - yy * 0.55) / w - 0.15) ** 2) / 0.02)
        shade = 1.0 + streak * brush + gloss * band - 0.18 * (yy / h)
        self.img[:] = np.asarray(colour, np.float32) * shade[..., None]

    def finish(self, name: str) -> np.ndarray:
        """Vignette, print grain and a touch of lens softness: the uint8 BGR card."""
        h, w = self.h, self.w
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        r2 = ((xx - w / 2) / w) ** 2 + ((yy - h / 2) / h) ** 2
        img = self.img * (1.0 - 0.35 * r2)[..., None] + grain(h, w, name)[..., None] * 4.0
        img = cv2.GaussianBlur(img, (0, 0), 0.35)
        return np.clip(img + 0.5, 0, 255).astype(np.uint8)


def spiral(c, r0: float, r1: float, turns: float, start: float, sign: int = 1, steps: int = 60):
    """Points of a spiral from radius r0 to r1 around c (angles in radians)."""
    out = []
    for i in range(steps + 1):
        t = i / steps
        a = start + sign * t * turns * 2 * math.pi
        r = r0 + (r1 - r0) * t
        out.append((c[0] + r * math.cos(a), c[1] + r * math.sin(a)))
    return out


def leaf(at, angle: float, length: float, width: float):
    """A pointed leaf polygon growing from a point at an angle (radians)."""
    ux, uy = math.cos(angle), math.sin(angle)
    nx, ny = -uy, ux
    pts = []
    for i in range(13):
        t = i / 12
        bulge = math.sin(math.pi * t) * width / 2
        pts.append((at[0] + ux * length * t + nx * bulge, at[1] + uy * length * t + ny * bulge))
    for i in range(11, 0, -1):
        t = i / 12
        bulge = math.sin(math.pi * t) * width / 2 * 0.8
        pts.append((at[0] + ux * length * t - nx * bulge, at[1] + uy * length * t - ny * bulge))
    return pts
