"""Drawing primitives in card millimetres and the project's own terrain and sight pictograms."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import cv2
import numpy as np

Colour = tuple[int, int, int]  # BGR, 0..255
Point = tuple[float, float]  # (x, y) in millimetres from the card's top-left corner

SHIFT = 4  # fixed-point bits for cv2 drawing: sub-pixel placement keeps small cards crisp


class Canvas:
    """A BGR card image addressed in millimetres, so one layout renders at any resolution."""

    def __init__(self, width_mm: float, height_mm: float, px_per_mm: float, fill: Colour) -> None:
        self.scale = px_per_mm
        size = (round(height_mm * px_per_mm), round(width_mm * px_per_mm), 3)
        self.image = np.empty(size, np.uint8)
        self.image[:] = fill

    def _pt(self, p: Point) -> tuple[int, int]:
        return (round(p[0] * self.scale * (1 << SHIFT)), round(p[1] * self.scale * (1 << SHIFT)))

    def _w(self, mm: float) -> int:
        return max(1, round(mm * self.scale))

    def rect(self, p0: Point, p1: Point, colour: Colour) -> None:
        """Fill an axis-aligned rectangle."""
        self.poly([p0, (p1[0], p0[1]), p1, (p0[0], p1[1])], colour)

    def poly(self, points: Sequence[Point], colour: Colour) -> None:
        """Fill a polygon."""
        pts = np.array([self._pt(p) for p in points], np.int32)
        cv2.fillPoly(self.image, [pts], colour, cv2.LINE_AA, SHIFT)

    def line(self, points: Sequence[Point], colour: Colour, width_mm: float) -> None:
        """Draw an open polyline of the given stroke width."""
        pts = np.array([self._pt(p) for p in points], np.int32)
        cv2.polylines(self.image, [pts], False, colour, self._w(width_mm), cv2.LINE_AA, SHIFT)

    def circle(self, c: Point, r_mm: float, colour: Colour, width_mm: float = 0.0) -> None:
        """Draw a disc (width 0) or a ring."""
        thickness = -1 if width_mm <= 0 else self._w(width_mm)
        radius = round(r_mm * self.scale * (1 << SHIFT))
        cv2.circle(self.image, self._pt(c), radius, colour, thickness, cv2.LINE_AA, SHIFT)

    def ellipse(self, c: Point, axes_mm: Point, angle: float, colour: Colour) -> None:
        """Fill an ellipse rotated by angle degrees."""
        pts = cv2.ellipse2Poly(
            (0, 0), (1000, 1000), 0, 0, 360, 5
        ).astype(np.float64) / 1000.0
        a = math.radians(angle)
        xs = pts[:, 0] * axes_mm[0]
        ys = pts[:, 1] * axes_mm[1]
        rot = [(c[0] + x * math.cos(a) - y * math.sin(a), c[1] + x * math.sin(a) + y * math.cos(a))
               for x, y in zip(xs, ys, strict=True)]
        self.poly(rot, colour)

    def text(self, s: str, c: Point, height_mm: float, colour: Colour, font: int,
             weight: float = 0.12, upside_down: bool = False) -> None:
        """Write text centred on c with capitals about height_mm tall (Hershey fonts: no files)."""
        h_px = height_mm * self.scale
        thick = max(1, round(h_px * weight))
        (w1, h1), _ = cv2.getTextSize(s, font, 1.0, thick)
        fs = h_px / max(h1, 1)
        (w, h), _ = cv2.getTextSize(s, font, fs, thick)
        pad = thick + 2
        tile = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
        cv2.putText(tile, s, (pad, pad + h), font, fs, 255, thick, cv2.LINE_AA)
        if upside_down:
            tile = tile[::-1, ::-1]
        cx, cy = c[0] * self.scale, c[1] * self.scale
        x0, y0 = round(cx - tile.shape[1] / 2), round(cy - tile.shape[0] / 2)
        self._blend(tile, x0, y0, colour)

    def _blend(self, alpha: np.ndarray, x0: int, y0: int, colour: Colour) -> None:
        h, w = alpha.shape
        ih, iw = self.image.shape[:2]
        xa, ya, xb, yb = max(x0, 0), max(y0, 0), min(x0 + w, iw), min(y0 + h, ih)
        if xa >= xb or ya >= yb:
            return
        a = alpha[ya - y0:yb - y0, xa - x0:xb - x0, None].astype(np.float32) / 255.0
        region = self.image[ya:yb, xa:xb].astype(np.float32)
        mixed = region * (1 - a) + np.array(colour, np.float32) * a
        self.image[ya:yb, xa:xb] = np.round(mixed).astype(np.uint8)


def _box(c: Point, size: float, pts: Sequence[Point], flip: bool) -> list[Point]:
    """Map unit-box points (-1..1) to a box of the given size centred on c, turned 180° on flip."""
    k = -1.0 if flip else 1.0
    return [(c[0] + k * x * size / 2, c[1] + k * y * size / 2) for x, y in pts]


def draw_desert(cv: Canvas, c: Point, size: float, ink: Colour, flip: bool = False) -> None:
    """A sun over three dunes."""
    cv.circle(_box(c, size, [(0.35, -0.55)], flip)[0], size * 0.17, ink)
    for i, y in enumerate((0.05, 0.35, 0.65)):
        x0 = -0.9 + 0.25 * i
        dune = [(x0 + 1.6 * t, y - 0.25 * math.sin(math.pi * t)) for t in np.linspace(0, 1, 12)]
        cv.poly(_box(c, size, dune + [(x0 + 1.6, y + 0.1), (x0, y + 0.1)], flip), ink)


def draw_forest(cv: Canvas, c: Point, size: float, ink: Colour, flip: bool = False) -> None:
    """Three pine trees, the middle one tallest."""
    for x, top, h in ((-0.55, -0.35, 1.0), (0.0, -0.85, 1.5), (0.55, -0.35, 1.0)):
        w = 0.22 * h
        cv.poly(_box(c, size, [(x, top), (x + w, top + 0.75 * h), (x - w, top + 0.75 * h)], flip), ink)
        cv.poly(_box(c, size, [(x - 0.05, top + 0.75 * h), (x + 0.05, top + 0.75 * h),
                               (x + 0.05, top + 0.95 * h), (x - 0.05, top + 0.95 * h)], flip), ink)


def draw_mountain(cv: Canvas, c: Point, size: float, ink: Colour, flip: bool = False,
                  snow: Colour = (255, 255, 255)) -> None:
    """Two peaks with snow caps."""
    cv.poly(_box(c, size, [(-1.0, 0.8), (-0.3, -0.7), (0.3, 0.8)], flip), ink)
    cv.poly(_box(c, size, [(-0.2, 0.8), (0.45, -0.2), (1.0, 0.8)], flip), ink)
    cv.poly(_box(c, size, [(-0.3, -0.7), (-0.12, -0.32), (-0.3, -0.4), (-0.48, -0.32)], flip), snow)


def draw_water(cv: Canvas, c: Point, size: float, ink: Colour, flip: bool = False) -> None:
    """Three waves."""
    for y in (-0.5, 0.0, 0.5):
        wave = [(x, y + 0.15 * math.sin(3 * math.pi * x)) for x in np.linspace(-0.9, 0.9, 25)]
        cv.line(_box(c, size, wave, flip), ink, size * 0.07)


def draw_obelisk(cv: Canvas, c: Point, size: float, ink: Colour, flip: bool = False) -> None:
    """A tall tapered column with a pointed top, on a plinth."""
    cv.poly(_box(c, size, [(-0.2, 0.7), (-0.12, -0.6), (0.0, -0.9), (0.12, -0.6), (0.2, 0.7)], flip), ink)
    cv.poly(_box(c, size, [(-0.5, 0.7), (0.5, 0.7), (0.5, 0.9), (-0.5, 0.9)], flip), ink)


def draw_book(cv: Canvas, c: Point, size: float, ink: Colour, flip: bool = False) -> None:
    """An open book seen from above."""
    cv.poly(_box(c, size, [(-0.9, -0.5), (-0.05, -0.35), (-0.05, 0.65), (-0.9, 0.5)], flip), ink)
    cv.poly(_box(c, size, [(0.9, -0.5), (0.05, -0.35), (0.05, 0.65), (0.9, 0.5)], flip), ink)


def draw_toucan(cv: Canvas, c: Point, size: float, ink: Colour, flip: bool = False) -> None:
    """A toucan's head with its huge beak."""
    head = _box(c, size, [(-0.45, -0.1)], flip)[0]
    cv.circle(head, size * 0.25, ink)
    cv.poly(_box(c, size, [(-0.3, -0.35), (0.6, -0.3), (0.95, 0.05), (0.5, 0.1), (-0.25, 0.15)], flip), ink)
    cv.poly(_box(c, size, [(-0.65, 0.1), (-0.25, 0.1), (-0.35, 0.9), (-0.65, 0.9)], flip), ink)


def draw_yeti(cv: Canvas, c: Point, size: float, ink: Colour, flip: bool = False) -> None:
    """A big furry figure with raised arms."""
    cv.circle(_box(c, size, [(0.0, -0.6)], flip)[0], size * 0.16, ink)
    cv.ellipse(_box(c, size, [(0.0, 0.1)], flip)[0], (size * 0.3, size * 0.4), 0, ink)
    for arm in ([(-0.25, -0.1), (-0.75, -0.7)], [(0.25, -0.1), (0.75, -0.7)],
                [(-0.15, 0.4), (-0.3, 0.95)], [(0.15, 0.4), (0.3, 0.95)]):
        cv.line(_box(c, size, arm, flip), ink, size * 0.12)


def draw_sea_monster(cv: Canvas, c: Point, size: float, ink: Colour, flip: bool = False) -> None:
    """A serpent's head and two humps above a wave."""
    for x in (-0.45, 0.15):
        hump = [(x + 0.25 * math.cos(t), 0.2 - 0.35 * math.sin(t)) for t in np.linspace(0, math.pi, 12)]
        cv.line(_box(c, size, hump, flip), ink, size * 0.12)
    cv.line(_box(c, size, [(0.6, 0.2), (0.65, -0.45)], flip), ink, size * 0.12)
    cv.poly(_box(c, size, [(0.55, -0.45), (0.95, -0.55), (0.9, -0.35), (0.6, -0.3)], flip), ink)
    wave = [(x, 0.55 + 0.1 * math.sin(4 * math.pi * x)) for x in np.linspace(-0.95, 0.95, 25)]
    cv.line(_box(c, size, wave, flip), ink, size * 0.08)


TERRAIN_GLYPHS: dict[str, Callable[..., None]] = {
    "desert": draw_desert, "forest": draw_forest, "mountain": draw_mountain, "water": draw_water,
}
SIGHT_GLYPHS: dict[str, Callable[..., None]] = {
    "obelisk": draw_obelisk, "book": draw_book, "toucan": draw_toucan, "yeti": draw_yeti,
    "sea_monster": draw_sea_monster,
}
