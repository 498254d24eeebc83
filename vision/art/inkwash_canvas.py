"""The 'inkwash' style's canvas: a sheet in mm painted with washes and inks, and the shapes drawn on it."""

from __future__ import annotations

import zlib

import cv2
import numpy as np

PAPER = (208, 232, 244)  # cream, BGR
INK = (48, 40, 44)  # sepia-black
SERIF = cv2.FONT_HERSHEY_COMPLEX


class Canvas:
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

    def fix(self, pts) -> np.ndarray:
        """Points in mm as cv2 fixed-point pixels (shift 4)."""
        return np.round(np.asarray(pts, np.float64) * self.ppm * 16).astype(np.int32).reshape(-1, 1, 2)

    def poly(self, *polys) -> np.ndarray:
        """A float mask of filled polygons given in mm."""
        m = np.zeros((self.h, self.w), np.uint8)
        cv2.fillPoly(m, [self.fix(p) for p in polys], 255, cv2.LINE_AA, 4)
        return m.astype(np.float32) / 255

    def disc(self, centre, r: float) -> np.ndarray:
        """A float mask of a disc, centre and radius in mm."""
        return self.poly(oval(centre, r))

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
        """A float mask of an upright rectangle in mm."""
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


def oval(centre, rx: float, ry: float | None = None, n: int = 48) -> np.ndarray:
    """Points around an ellipse (a circle when ry is None)."""
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([centre[0] + rx * np.cos(t), centre[1] + (ry or rx) * np.sin(t)], 1)


def at(cx: float, cy: float, s: float, pts) -> np.ndarray:
    """Points drawn around (0, 0) at scale s, moved to (cx, cy)."""
    return np.asarray(pts, np.float64) * s + (cx, cy)


def round_rect(x0: float, y0: float, x1: float, y1: float, r: float) -> np.ndarray:
    """Points around a rectangle with corners rounded to radius r."""
    t = np.radians(np.linspace(0, 90, 7))
    return np.vstack([at(cx, cy, r, np.stack([np.cos(t + a), np.sin(t + a)], 1)) for cx, cy, a in
                      ((x1 - r, y0 + r, -np.pi / 2), (x1 - r, y1 - r, 0), (x0 + r, y1 - r, np.pi / 2),
                       (x0 + r, y0 + r, np.pi))])
