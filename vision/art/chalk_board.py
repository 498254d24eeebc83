"""Chalk style's board: dark slate or pastel paper, and chalk that lays on grainy, wobbly strokes.

Strokes are gathered per chalk colour as masks in millimetre coordinates, each path wobbling by a
smooth jitter seeded from its own geometry (zlib.crc32), so the same stroke is drawn the same on
every card. On finishing, the masks are bent by one smooth warp (the hand's unsteadiness), broken
up by the paper's tooth (a fixed grain field) and dusted, over rubbed-in smudges of colour.
"""

from __future__ import annotations

import math
import zlib

import cv2
import numpy as np

from vision.render import CARD_H_MM, CARD_W_MM

AA = cv2.LINE_AA
WHITE = (226, 232, 234)


def crc(text: str) -> int:
    """A stable seed for a name."""
    return zlib.crc32(text.encode("utf-8"))


def field(h: int, w: int, cells: tuple[int, int], name: str) -> np.ndarray:
    """Smooth noise, zero mean, unit spread, float32 (h, w)."""
    rng = np.random.default_rng(crc(name))
    grid = rng.standard_normal((cells[0] + 1, cells[1] + 1)).astype(np.float32)
    out = cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)
    return (out - out.mean()) / (out.std() + 1e-6)


class Board:
    """A dark card to draw on in chalk, in millimetres."""

    def __init__(self, ppm: float, paper, name: str) -> None:
        """A fresh board of a paper colour; its texture seeded from name."""
        self.ppm = ppm
        self.h, self.w = h, w = round(CARD_H_MM * ppm), round(CARD_W_MM * ppm)
        cloud = field(h, w, (6, 5), name + "/cloud") * 0.07 + field(h, w, (22, 16), name + "/mottle") * 0.04
        rng = np.random.default_rng(crc(name + "/fibre"))
        fibre = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 0.6) * 0.05
        self.img = np.asarray(paper, np.float32) * (1.0 + cloud + fibre)[..., None]
        self.strokes: dict[tuple, np.ndarray] = {}
        self.smudges: dict[tuple, np.ndarray] = {}
        self._ghosts(name)

    def _ghosts(self, name: str) -> None:
        """Faint traces of earlier, wiped-off chalk."""
        rng = np.random.default_rng(crc(name + "/ghost"))
        m = np.zeros((self.h, self.w), np.float32)
        for _ in range(5):
            c = (rng.uniform(0, CARD_W_MM), rng.uniform(0, CARD_H_MM))
            ax = (rng.uniform(8, 25), rng.uniform(3, 12))
            cv2.ellipse(m, self.pt(c), (self.px(ax[0]), self.px(ax[1])), rng.uniform(0, 180), 0,
                        rng.uniform(120, 300), 1.0, self.px(rng.uniform(2, 6)), AA)
        m = cv2.GaussianBlur(m, (0, 0), 2.0 * self.ppm)
        self.img += (np.asarray(WHITE, np.float32) - self.img) * (m * 0.07)[..., None]

    # --- geometry ---------------------------------------------------------------------------
    def pt(self, p) -> tuple[int, int]:
        """A millimetre point as a pixel."""
        return round(p[0] * self.ppm), round(p[1] * self.ppm)

    def px(self, mm: float) -> int:
        """A length in mm as whole pixels, at least one."""
        return max(1, round(mm * self.ppm))

    def fix(self, p) -> tuple[int, int]:
        """A millimetre point in cv2's fixed-point pixels (shift 4)."""
        return round(p[0] * self.ppm * 16), round(p[1] * self.ppm * 16)

    def _layer(self, store: dict, colour, dtype=np.uint8) -> np.ndarray:
        key = tuple(int(v) for v in colour)
        if key not in store:
            store[key] = np.zeros((self.h, self.w), dtype)
        return store[key]

    @staticmethod
    def wobble(points, amount: float) -> np.ndarray:
        """A path densified to 0.5 mm steps and bent sideways by smooth jitter seeded from itself."""
        pts = np.asarray(points, np.float64)
        seg = np.linalg.norm(np.diff(pts, axis=0), axis=1)
        cum = np.concatenate([[0.0], np.cumsum(seg)])
        total = max(cum[-1], 1e-6)
        n = max(2, int(total / 0.5) + 1)
        s = np.linspace(0, total, n)
        x, y = np.interp(s, cum, pts[:, 0]), np.interp(s, cum, pts[:, 1])
        if amount <= 0:
            return np.stack([x, y], axis=1)
        rng = np.random.default_rng(crc(np.round(pts, 1).tobytes().hex()))
        knots = rng.standard_normal(int(total / 4.0) + 2)
        off = np.interp(s / total * (len(knots) - 1), np.arange(len(knots)), knots) * amount
        tx, ty = np.gradient(x), np.gradient(y)
        norm = np.hypot(tx, ty) + 1e-9
        return np.stack([x - ty / norm * off, y + tx / norm * off], axis=1)

    # --- chalk ------------------------------------------------------------------------------
    def stroke(self, points, width: float, colour=WHITE, press: float = 1.0, wobble: float = 0.2,
               closed: bool = False) -> None:
        """One chalk stroke along a path, its pressure varying as the hand moves."""
        pts = list(points) + ([points[0]] if closed else [])
        path = self.wobble(pts, wobble)
        m = self._layer(self.strokes, colour)
        rng = np.random.default_rng(crc(np.round(path[:3], 2).tobytes().hex() + str(len(path))))
        steps = max(1, round(1.2 / 0.5))
        thick = self.px(width)
        for i in range(0, len(path) - 1, steps):
            a, b = path[i], path[min(i + steps, len(path) - 1)]
            p = press * (0.72 + 0.28 * rng.random())
            cv2.line(m, self.fix(a), self.fix(b), round(255 * p), thick, AA, 4)

    def ring(self, c, r, width: float, colour=WHITE, press: float = 1.0, start: float = -100.0,
             sweep: float = 380.0, ry: float | None = None) -> None:
        """A hand-drawn circle (or ellipse / arc), overshooting its start a little."""
        ry = r if ry is None else ry
        n = max(12, int(abs(sweep) / 6))
        pts = [(c[0] + r * math.cos(math.radians(start + sweep * k / n)),
                c[1] + ry * math.sin(math.radians(start + sweep * k / n))) for k in range(n + 1)]
        self.stroke(pts, width, colour, press, wobble=0.15 + 0.01 * r)

    def smudge(self, points, colour, strength: float = 0.35, blur: float = 1.2) -> None:
        """Colour rubbed in with a finger over a polygon."""
        m = np.zeros((self.h, self.w), np.float32)
        cv2.fillPoly(m, [np.round(np.asarray(points) * self.ppm).astype(np.int32)], strength, AA)
        m = cv2.GaussianBlur(m, (0, 0), blur * self.ppm)
        layer = self._layer(self.smudges, colour, np.float32)
        np.maximum(layer, m, out=layer)

    def dot(self, c, r: float, colour=WHITE, press: float = 1.0) -> None:
        """A dab of chalk."""
        cv2.circle(self._layer(self.strokes, colour), self.fix(c), round(r * self.ppm * 16), round(255 * press), -1,
                   AA, 4)

    def letters(self, text: str, centre, height: float, font: int, weight: float, colour=WHITE,
                press: float = 1.0) -> None:
        """Hand lettering centred on a point, its capitals about height mm tall."""
        thick = self.px(weight)
        (tw, th), _ = cv2.getTextSize(text, font, 1.0, thick)
        scale = height * self.ppm / max(th, 1)
        (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
        m = np.zeros((self.h, self.w), np.uint8)
        org = (round(centre[0] * self.ppm - tw / 2), round(centre[1] * self.ppm + th / 2))
        cv2.putText(m, text, org, font, scale, round(255 * press), thick, AA)
        layer = self._layer(self.strokes, colour)
        np.maximum(layer, m, out=layer)

    # --- finish -----------------------------------------------------------------------------
    def finish(self) -> np.ndarray:
        """Lay the chalk on the paper and photograph it: uint8 BGR."""
        h, w = self.h, self.w
        rng = np.random.default_rng(crc("chalk/tooth"))
        fine = cv2.resize(rng.random((h, max(1, w // 2))).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
        tooth = np.clip(0.12 + 1.1 * fine + 0.25 * field(h, w, (30, 22), "chalk/tooth2"), 0, 1)
        img = self.img
        for colour, m in self.smudges.items():
            a = np.clip(m * (0.6 + 0.5 * tooth), 0, 1)[..., None]
            img = img + (np.asarray(colour, np.float32) - img) * a
        dx = field(h, w, (9, 7), "chalk/warp-x") * 0.3 * self.ppm
        dy = field(h, w, (9, 7), "chalk/warp-y") * 0.3 * self.ppm
        gy, gx = np.mgrid[0:h, 0:w].astype(np.float32)
        for colour, m in self.strokes.items():
            bent = cv2.remap(m.astype(np.float32) / 255.0, gx + dx, gy + dy, cv2.INTER_LINEAR)
            dust = cv2.GaussianBlur(bent, (0, 0), 0.8 * self.ppm) * 0.22
            a = np.clip(np.maximum(bent * tooth * 1.15, dust * (0.5 + tooth)), 0, 1)[..., None]
            img = img + (np.asarray(colour, np.float32) - img) * a
        r2 = ((gx - w / 2) / w) ** 2 + ((gy - h / 2) / h) ** 2
        light = 1.08 - 0.45 * r2 + 0.05 * (gx - gy) / (w + h)
        noise = np.random.default_rng(crc("chalk/sensor")).standard_normal((h, w)).astype(np.float32) * 3.0
        img = img * light[..., None] + noise[..., None]
        img = cv2.GaussianBlur(img, (0, 0), 0.4)
        return np.clip(img + 0.5, 0, 255).astype(np.uint8)
