"""The riso style's press: plates drawn in millimetres, halftoned, misregistered and overprinted.

A card is a few plates, one per spot ink, each a coverage map in [0, 1] drawn with cv2. Printing
screens a plate into dots (solid where the coverage is full), mottles the ink, shifts the whole
plate by its drum's fixed misregistration and multiplies it onto speckled recycled paper.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

CARD_W_MM, CARD_H_MM = 63.0, 88.0
BORDER_MM = 3.0  # the paper margin no ink reaches (before misregistration)
DOT_PITCH_MM = 1.0  # halftone screen: coarse enough that the dots show, as on a riso print
SOLID = 0.97  # coverage at or above this prints solid, with no screen
SUPERSAMPLE = 4  # plates are drawn this many times finer and shrunk: smooth letters at 4 px/mm
FONT = cv2.FONT_HERSHEY_DUPLEX  # a plain sans with some weight, like a stencil poster face
PAPER = (212, 228, 236)  # BGR: warm, slightly grey recycled off-white


@dataclass(frozen=True)
class Ink:
    """One drum of the duplicator: its colour (BGR), screen angle and misregistration (mm)."""

    bgr: tuple[int, int, int]
    angle_deg: float
    offset_mm: tuple[float, float]


# Each drum sits a little off true, always by the same amount (0.5 to 0.6 mm): the riso look.
PINK = Ink((170, 74, 255), 15.0, (0.45, -0.3))  # fluorescent pink
TEAL = Ink((140, 126, 0), 75.0, (-0.35, 0.4))
YELLOW = Ink((30, 222, 255), 45.0, (0.3, 0.5))


def seed_of(name: str) -> int:
    """A fixed seed for a named part of the deck (twins share their paper and their ink mottle)."""
    return zlib.crc32(f"riso:{name}".encode())


class Plate:
    """A coverage map for one ink, drawn at SUPERSAMPLE times the card's scale."""

    def __init__(self, ppm: float) -> None:
        self.ppm = ppm
        self.fine = ppm * SUPERSAMPLE
        self.img = np.zeros((round(CARD_H_MM * ppm) * SUPERSAMPLE, round(CARD_W_MM * ppm) * SUPERSAMPLE),
                            np.uint8)

    def _pts(self, points_mm) -> np.ndarray:
        """Millimetre points as this plate's pixels."""
        return np.round(np.asarray(points_mm, np.float64) * self.fine).astype(np.int32).reshape(-1, 1, 2)

    def poly(self, points_mm, level: float = 1.0) -> None:
        """Fill a polygon at a coverage level (0 knocks out)."""
        cv2.fillPoly(self.img, [self._pts(points_mm)], round(level * 255))

    def disc(self, centre_mm, r_mm: float, level: float = 1.0, width_mm: float = 0) -> None:
        """A disc, or a ring of that width, at a coverage level."""
        thick = -1 if width_mm <= 0 else max(1, round(width_mm * self.fine))
        cv2.circle(self.img, tuple(int(v) for v in self._pts([centre_mm]).ravel()),
                   round(r_mm * self.fine), round(level * 255), thick)

    def line(self, a_mm, b_mm, width_mm: float, level: float = 1.0) -> None:
        """A stroke with round ends."""
        a, b = (tuple(int(v) for v in self._pts([p]).ravel()) for p in (a_mm, b_mm))
        cv2.line(self.img, a, b, round(level * 255), max(1, round(width_mm * self.fine)))

    def polyline(self, points_mm, width_mm: float, level: float = 1.0) -> None:
        """An open stroked path."""
        cv2.polylines(self.img, [self._pts(points_mm)], False, round(level * 255),
                      max(1, round(width_mm * self.fine)))

    def ellipse(self, centre_mm, axes_mm, angle_deg: float, level: float = 1.0) -> None:
        """A filled ellipse."""
        c = tuple(int(v) for v in self._pts([centre_mm]).ravel())
        ax = (round(axes_mm[0] * self.fine), round(axes_mm[1] * self.fine))
        cv2.ellipse(self.img, c, ax, angle_deg, 0, 360, round(level * 255), -1)

    def text(self, s: str, centre_mm, height_mm: float, weight_mm: float, level: float = 1.0) -> None:
        """A string with capitals height_mm tall, centred on centre_mm."""
        thick = max(1, round(weight_mm * self.fine))
        (_, h1), _ = cv2.getTextSize(s, FONT, 1.0, 1)
        scale = height_mm * self.fine / h1
        (tw, th), _ = cv2.getTextSize(s, FONT, scale, thick)
        org = (round(centre_mm[0] * self.fine - tw / 2), round(centre_mm[1] * self.fine + th / 2))
        cv2.putText(self.img, s, org, FONT, scale, round(level * 255), thick, cv2.LINE_8)

    def gradient(self, points_mm, top_mm: float, bottom_mm: float, top: float, bottom: float) -> None:
        """Fill a polygon with a vertical ramp of coverage, top at top_mm to bottom at bottom_mm."""
        m = np.zeros_like(self.img)
        cv2.fillPoly(m, [self._pts(points_mm)], 255)
        ys = np.arange(self.img.shape[0])[:, None] / self.fine
        ramp = np.clip((ys - top_mm) / (bottom_mm - top_mm), 0, 1)
        value = np.round((top + (bottom - top) * ramp) * 255).astype(np.uint8)
        np.copyto(self.img, np.broadcast_to(value, self.img.shape), where=m > 0)

    def coverage(self) -> np.ndarray:
        """The plate at the card's scale, float32 in [0, 1], clipped to the paper border."""
        h, w = self.img.shape[0] // SUPERSAMPLE, self.img.shape[1] // SUPERSAMPLE
        cov = cv2.resize(self.img, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
        b = round(BORDER_MM * self.ppm)
        cov[:b], cov[-b:], cov[:, :b], cov[:, -b:] = 0, 0, 0, 0
        return cov


@lru_cache(maxsize=16)
def _screen(h: int, w: int, ppm: float, angle_deg: float) -> np.ndarray:
    """A round-dot halftone threshold in [0, 1] at DOT_PITCH_MM, turned by the ink's screen angle."""
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    th = math.radians(angle_deg)
    f = 2 * math.pi / (DOT_PITCH_MM * ppm)
    u, v = xs * math.cos(th) + ys * math.sin(th), -xs * math.sin(th) + ys * math.cos(th)
    return 0.5 - 0.25 * (np.cos(f * u) + np.cos(f * v))


@lru_cache(maxsize=16)
def _mottle(h: int, w: int, ppm: float, seed: int) -> np.ndarray:
    """Uneven ink laydown: a soft blotchy factor in about [0.8, 1], plus rare specks with no ink."""
    rng = np.random.default_rng(seed)
    noise = cv2.GaussianBlur(rng.random((h, w)).astype(np.float32), (0, 0), 1.5 * ppm)
    noise = (noise - noise.min()) / max(1e-6, float(noise.max() - noise.min()))
    mottle = 0.8 + 0.2 * noise
    mottle[rng.random((h, w)) < 0.004] = 0.35
    return mottle


@lru_cache(maxsize=16)
def paper(h: int, w: int, ppm: float, seed: int) -> np.ndarray:
    """Recycled paper, float32 BGR in [0, 1]: a faint cloudy tone, dark flecks and coloured fibres."""
    rng = np.random.default_rng(seed)
    cloud = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 3 * ppm)
    cloud *= 0.025 / max(1e-6, float(cloud.std()))
    img = np.empty((h, w, 3), np.float32)
    img[:] = np.asarray(PAPER, np.float32) / 255
    img *= (1 + cloud)[..., None]
    area_mm2 = CARD_W_MM * CARD_H_MM
    for _ in range(int(area_mm2 * 0.05)):  # flecks of bark and ink from the pulp
        x, y = rng.random() * w, rng.random() * h
        shade = 0.45 + 0.35 * rng.random()
        cv2.circle(img, (int(x), int(y)), int(rng.random() < 0.2), (shade * 0.95, shade * 0.97, shade), -1)
    for _ in range(int(area_mm2 * 0.008)):  # short fibres, faintly blue or red
        x, y, a = rng.random() * w, rng.random() * h, rng.random() * math.pi
        length = (0.6 + 1.2 * rng.random()) * ppm
        colour = (0.85, 0.72, 0.6) if rng.random() < 0.5 else (0.62, 0.66, 0.86)
        cv2.line(img, (int(x), int(y)), (int(x + length * math.cos(a)), int(y + length * math.sin(a))), colour, 1)
    return img


def press(plates: list[tuple[Ink, Plate]], paper_name: str, ppm: float) -> np.ndarray:
    """Print the plates in order onto the named paper: BGR uint8."""
    h, w = round(CARD_H_MM * ppm), round(CARD_W_MM * ppm)
    out = paper(h, w, ppm, seed_of(paper_name)).copy()
    for ink, plate in plates:
        cov = plate.coverage()
        screened = np.clip((cov - _screen(h, w, ppm, ink.angle_deg)) * DOT_PITCH_MM * ppm * 0.9, 0, 1)
        cov = np.where(cov >= SOLID, 1.0, screened) * _mottle(h, w, ppm, seed_of(f"{paper_name}:{ink.angle_deg}"))
        shift = np.float32([[1, 0, ink.offset_mm[0] * ppm], [0, 1, ink.offset_mm[1] * ppm]])
        cov = cv2.warpAffine(cov.astype(np.float32), shift, (w, h), flags=cv2.INTER_LINEAR, borderValue=0)
        out *= 1 - cov[..., None] * (1 - np.asarray(ink.bgr, np.float32) / 255)
    return np.clip(out * 255 + 0.5, 0, 255).astype(np.uint8)


def sight(plate: Plate, name: str, centre_mm, size_mm: float) -> None:
    """A pictogram of a sight, size_mm across: obelisk, book, toucan, yeti, sea_monster."""
    cx, cy = centre_mm
    s = size_mm / 2

    def p(u: float, v: float) -> tuple[float, float]:
        return cx + u * s, cy + v * s

    if name == "obelisk":  # a needle with a sun behind its tip
        plate.disc(p(0.45, -0.55), 0.38 * s)
        plate.poly([p(-0.22, 0.9), p(0.22, 0.9), p(0.12, -0.7), p(0, -0.98), p(-0.12, -0.7)], 0)
        plate.poly([p(-0.16, 0.85), p(0.16, 0.85), p(0.08, -0.65), p(0, -0.88), p(-0.08, -0.65)])
        plate.line(p(-0.7, 0.92), p(0.7, 0.92), 0.12 * s)
    elif name == "book":  # a closed book standing at an angle, seen from the side
        plate.poly([p(-0.7, -0.5), p(0.35, -0.85), p(0.7, 0.55), p(-0.35, 0.9)])
        plate.poly([p(-0.45, -0.35), p(0.3, -0.6), p(0.36, -0.4), p(-0.4, -0.15)], 0)
        plate.line(p(-0.55, 0.05), p(0.45, -0.25), 0.08 * s, 0)
    elif name == "toucan":  # a bird's head in profile: round head, eye ring, huge beak
        plate.disc(p(-0.45, 0.0), 0.5 * s)
        plate.poly([p(-0.1, -0.35), p(0.98, -0.05), p(0.55, 0.25), p(-0.1, 0.3)])
        plate.disc(p(-0.45, -0.1), 0.2 * s, 0)
        plate.disc(p(-0.45, -0.1), 0.09 * s)
        plate.line(p(-0.1, 0.0), p(0.85, 0.0), 0.06 * s, 0)
    elif name == "yeti":  # a big footprint: a sole and five toes
        plate.ellipse(p(0, 0.25), (0.42 * s, 0.65 * s), 8)
        for k, (u, v, r) in enumerate(((-0.45, -0.55, 0.15), (-0.22, -0.75, 0.16), (0.05, -0.82, 0.17),
                                       (0.32, -0.74, 0.16), (0.55, -0.52, 0.14))):
            plate.disc(p(u, v), r * s * (1.1 if k == 2 else 1.0))
    else:  # sea_monster: a tentacle curling out of three wave crests
        xs = np.linspace(-0.35, 0.45, 17)
        plate.polyline([p(u, 0.55 - 1.4 * (u + 0.35) + 0.3 * math.sin(6 * u)) for u in xs], 0.2 * s)
        plate.disc(p(0.45, -0.62), 0.16 * s)
        for k in range(3):
            u = -0.9 + 0.62 * k
            plate.polyline([p(u + 0.05 * i, 0.75 - 0.25 * math.sin(math.pi * i / 10)) for i in range(11)], 0.13 * s)


def ring_points(centre_mm, r_mm: float, n: int) -> list[tuple[float, float]]:
    """n points clockwise on a circle, starting at the top."""
    cx, cy = centre_mm
    return [(cx + r_mm * math.sin(2 * math.pi * k / n), cy - r_mm * math.cos(2 * math.pi * k / n))
            for k in range(n)]
