"""Paint on a card in millimetres: brush-stroke textures laid through masks, for the PAINTED style.

A Sheet is a float32 BGR card image addressed in millimetres. Shapes are drawn as masks (uint8,
anti-aliased) and filled with a colour or a texture; textures are made of seeded noise and brush
strokes placed in millimetres, so the same card looks the same at any resolution.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence

import cv2
import numpy as np

Colour = tuple[float, float, float]  # BGR 0..255
Point = tuple[float, float]  # millimetres from the card's top-left corner

SHIFT = 4  # fixed-point bits for cv2 drawing: sub-pixel placement at small scales
STROKE_SOFTEN_MM = 0.12  # blur of a stroke layer: paint edges are soft, not pixel-sharp


def stable_rng(*keys: object) -> np.random.Generator:
    """A generator seeded from the keys' text (crc32), the same in every process and platform."""
    return np.random.default_rng(zlib.crc32("/".join(map(str, keys)).encode()))


class Sheet:
    """A float32 BGR image of w_mm x h_mm at px_per_mm, with mask and fill helpers."""

    def __init__(self, w_mm: float, h_mm: float, px_per_mm: float, fill: Colour = (0, 0, 0)) -> None:
        self.ppm = px_per_mm
        self.w_mm, self.h_mm = w_mm, h_mm
        self.shape = (round(h_mm * px_per_mm), round(w_mm * px_per_mm))
        self.img = np.empty((*self.shape, 3), np.float32)
        self.img[:] = fill

    def pts(self, points: Sequence[Point]) -> np.ndarray:
        """Millimetre points as fixed-point pixel coordinates for cv2."""
        return np.round(np.asarray(points, np.float64) * self.ppm * (1 << SHIFT)).astype(np.int32)

    def px(self, mm: float) -> int:
        """A length in whole pixels, at least one."""
        return max(1, round(mm * self.ppm))

    def blank(self) -> np.ndarray:
        """An empty uint8 mask of the sheet's size."""
        return np.zeros(self.shape, np.uint8)

    def poly(self, points: Sequence[Point], mask: np.ndarray | None = None) -> np.ndarray:
        """A filled polygon drawn into mask (a new one when None)."""
        mask = self.blank() if mask is None else mask
        cv2.fillPoly(mask, [self.pts(points)], 255, cv2.LINE_AA, SHIFT)
        return mask

    def disc(self, c: Point, r_mm: float, mask: np.ndarray | None = None, width_mm: float = 0.0) -> np.ndarray:
        """A disc (width 0) or a ring drawn into mask."""
        mask = self.blank() if mask is None else mask
        thick = -1 if width_mm <= 0 else self.px(width_mm)
        centre = tuple(int(v) for v in self.pts([c])[0])
        cv2.circle(mask, centre, round(r_mm * self.ppm * (1 << SHIFT)), 255, thick, cv2.LINE_AA, SHIFT)
        return mask

    def line(self, points: Sequence[Point], width_mm: float, mask: np.ndarray | None = None,
             closed: bool = False) -> np.ndarray:
        """A stroked polyline drawn into mask."""
        mask = self.blank() if mask is None else mask
        cv2.polylines(mask, [self.pts(points)], closed, 255, self.px(width_mm), cv2.LINE_AA, SHIFT)
        return mask

    def lay(self, mask: np.ndarray, paint: Colour | np.ndarray, opacity: float = 1.0) -> None:
        """Cover the sheet with paint (a colour or a BGR image of the sheet's size) through mask."""
        a = mask.astype(np.float32)[..., None] * (opacity / 255.0)
        src = np.asarray(paint, np.float32)
        self.img += (src - self.img) * a

    def uint8(self) -> np.ndarray:
        """The sheet as a BGR uint8 image."""
        return np.clip(np.rint(self.img), 0, 255).astype(np.uint8)


def smooth_noise(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float,
                 cell_mm: float) -> np.ndarray:
    """A smooth random field of unit spread with features about cell_mm across (bicubic cells)."""
    h, w = shape
    gh, gw = max(2, round(h / px_per_mm / cell_mm) + 2), max(2, round(w / px_per_mm / cell_mm) + 2)
    grid = rng.standard_normal((gh, gw)).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


def fractal(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float,
            cells_mm: Sequence[float] = (16, 6, 2.5, 1.0), falloff: float = 0.6) -> np.ndarray:
    """Octaves of smooth noise, each finer one weaker by falloff: a mottle like a painted wash."""
    total = np.zeros(shape, np.float32)
    amp = 1.0
    for cell in cells_mm:
        total += amp * smooth_noise(rng, shape, px_per_mm, cell)
        amp *= falloff
    return total / max(1e-6, float(total.std()))


def strokes(rng: np.random.Generator, sheet: Sheet, count: int, length_mm: tuple[float, float],
            width_mm: tuple[float, float], angle: float, spread: float) -> np.ndarray:
    """A field in -1..1 of overlapping brush strokes, each a short curved dab of one value."""
    field = np.zeros(sheet.shape, np.float32)
    for _ in range(count):
        x, y = rng.uniform(-3, sheet.w_mm + 3), rng.uniform(-3, sheet.h_mm + 3)
        a = math.radians(angle + rng.normal(0, spread))
        half = rng.uniform(*length_mm) / 2
        bend = rng.normal(0, 0.25) * half
        dx, dy = math.cos(a) * half, math.sin(a) * half
        pts = [(x - dx, y - dy), (x - dy * bend / half, y + dx * bend / half), (x + dx, y + dy)]
        width = sheet.px(rng.uniform(*width_mm))
        cv2.polylines(field, [sheet.pts(pts)], False, float(rng.uniform(-1, 1)), width, cv2.LINE_8, SHIFT)
    sigma = STROKE_SOFTEN_MM * sheet.ppm
    return cv2.GaussianBlur(field, (0, 0), sigma) if sigma > 0.4 else field


def bristles(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float, angle: float) -> np.ndarray:
    """Fine streaks along angle degrees, as a dry brush leaves: noise stretched along one axis."""
    h, w = shape
    side = int(math.hypot(h, w)) + 2
    small = rng.standard_normal((side, max(2, round(side / px_per_mm / 1.5)))).astype(np.float32)
    streaks = cv2.resize(small, (side, side), interpolation=cv2.INTER_LINEAR)  # long along x
    turn = cv2.getRotationMatrix2D((side / 2, side / 2), -angle, 1.0)
    turn[:, 2] += (w / 2 - side / 2, h / 2 - side / 2)
    return cv2.warpAffine(streaks, turn, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def texture(sheet: Sheet, rng: np.random.Generator, base: Colour, alt: Colour, *, mottle: float = 0.12,
            dabs: int = 250, dab_mm: tuple[float, float] = (3.0, 9.0), dab_width_mm: tuple[float, float] = (0.8, 2.2),
            dab_amount: float = 0.10, angle: float = 30.0, spread: float = 25.0, streaks: float = 0.04,
            shift: float = 0.35) -> np.ndarray:
    """A painted surface of the sheet's size: base colour with mottle, brush dabs leaning towards
    alt (shift: how far), and bristle streaks; amounts are shares of the base brightness."""
    b = np.asarray(base, np.float32)
    toward = np.asarray(alt, np.float32) - b
    light = mottle * fractal(rng, sheet.shape, sheet.ppm)
    dab = strokes(rng, sheet, dabs, dab_mm, dab_width_mm, angle, spread)
    light += dab_amount * dab + streaks * bristles(rng, sheet.shape, sheet.ppm, angle)
    hue = np.clip(0.5 + 0.5 * smooth_noise(rng, sheet.shape, sheet.ppm, 9.0) + 0.6 * dab, 0, 1) * shift
    out = b * (1 + light[..., None]) + toward * hue[..., None]
    return np.clip(out, 0, 255)


def metal(sheet: Sheet, rng: np.random.Generator, dark: Colour, light: Colour, angle: float = 60.0,
          sheen_mm: float = 14.0) -> np.ndarray:
    """A painted metal (gold) surface: bands of light and shade across angle degrees, mottled."""
    h, w = sheet.shape
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32) / sheet.ppm
    a = math.radians(angle)
    t = (xs * math.cos(a) + ys * math.sin(a)) * (2 * math.pi / sheen_mm)
    t = 0.5 + 0.35 * np.sin(t) + 0.15 * fractal(rng, sheet.shape, sheet.ppm, (5, 2, 0.8))
    d, li = np.asarray(dark, np.float32), np.asarray(light, np.float32)
    return np.clip(d + (li - d) * np.clip(t, 0, 1)[..., None], 0, 255)


def star_points(c: Point, r_out: float, r_in: float, n: int = 5, turn_deg: float = 0.0) -> list[Point]:
    """The outline of an n-pointed star, first point straight up (turned by turn_deg)."""
    pts = []
    for i in range(2 * n):
        r = r_out if i % 2 == 0 else r_in
        a = math.radians(turn_deg) + i * math.pi / n
        pts.append((c[0] + r * math.sin(a), c[1] - r * math.cos(a)))
    return pts


def hexagon(c: Point, r: float, flat_top: bool = True) -> list[Point]:
    """A regular hexagon of circumradius r."""
    start = 0.0 if flat_top else math.pi / 6
    return [(c[0] + r * math.cos(start + k * math.pi / 3), c[1] + r * math.sin(start + k * math.pi / 3))
            for k in range(6)]


def leaf(c: Point, length: float, width: float, angle: float) -> list[Point]:
    """A pointed leaf (two arcs meeting at both tips) centred on c, its axis at angle degrees."""
    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)
    pts = []
    for side in (1, -1):
        for t in np.linspace(-1, 1, 9)[:: side]:
            u, v = t * length / 2, side * width / 2 * (1 - t * t) * (1 + 0.25 * t)
            pts.append((c[0] + u * ca - v * sa, c[1] + u * sa + v * ca))
    return pts
