"""What happens to the light between the table and the JPEG: lamp, glare, white balance, defocus,
motion, a Bayer sensor with shot and read noise, in-camera sharpening and JPEG compression.

Optics holds the ranges; draw_optics() picks one camera setting from a generator and expose()
turns a float32 scene (BGR, 0..255 under even light) into the camera's uint8 JPEG-decoded frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

LAMP_REACH = 0.9  # lamp falloff radius as a share of the frame diagonal
SHARPEN_SIGMA_PX = 1.0  # cameras sharpen at about a pixel, which rings at every edge
GLARE_ON_CARD = 0.6  # a lamp's reflection most often sits on a glossy card
NOISE_BANK_SHAPE = (1100, 1500)  # rows, columns: more than the largest frame, so windows vary
NOISE_BANK_SEED = 7


@dataclass(frozen=True)
class Optics:
    """Ranges of light and camera; the defaults are issue 9's test photos (a phone over a table)."""

    exposure: tuple[float, float] = (0.7, 1.2)
    lamp: float = 0.45  # how much darker the frame gets away from the lamp
    vignette: tuple[float, float] = (0.0, 0.35)
    warmth: float = 0.22  # colour temperature: red against blue gain, either way
    tint: float = 0.06  # green against magenta
    cast: float = 0.05  # a further random gain per channel
    glare: float = 0.3  # chance of a lamp's reflection
    glare_strength: tuple[float, float] = (40.0, 130.0)  # grey levels at its centre on a glossy card
    glare_size: tuple[float, float] = (0.03, 0.14)  # its radius, share of the frame width
    defocus_px: tuple[float, float] = (0.0, 1.6)  # Gaussian sigma
    motion: float = 0.15  # chance of a motion streak
    motion_px: tuple[float, float] = (2.0, 8.0)
    read_noise: tuple[float, float] = (1.0, 4.0)  # grey levels
    shot_noise: tuple[float, float] = (0.0, 0.06)  # variance per grey level of signal
    bayer: float = 0.5  # chance the frame goes through a colour mosaic and demosaicing
    sharpen: tuple[float, float] = (0.0, 0.8)
    jpeg: tuple[int, int] = (60, 90)

    @classmethod
    def clear(cls) -> Optics:
        """A clear, well lit photo, as asked for at enrollment."""
        return cls(exposure=(0.9, 1.1), lamp=0.15, vignette=(0.0, 0.1), warmth=0.1, tint=0.02, cast=0.02,
                   glare=0.0, defocus_px=(0.0, 0.5), motion=0.0, read_noise=(0.5, 2.0), shot_noise=(0.0, 0.02),
                   sharpen=(0.0, 0.4), jpeg=(85, 95))


@dataclass(frozen=True)
class Setting:
    """One camera setting drawn from Optics."""

    exposure: float
    lamp: tuple[float, float, float]  # x, y (shares of the frame, may lie outside), strength
    vignette: float
    gains: tuple[float, float, float]  # B, G, R
    glare: tuple[float, float, float, float] | None  # strength, radius share, aspect, angle
    defocus: float
    motion: tuple[float, float] | None  # length px, angle degrees
    read_noise: float
    shot_noise: float
    bayer: bool
    sharpen: float
    jpeg: int


def draw_optics(o: Optics, g: np.random.Generator) -> Setting:
    """Pick one camera setting from the ranges."""
    warm, tint = g.uniform(-o.warmth, o.warmth), g.uniform(-o.tint, o.tint)
    cast = g.uniform(-o.cast, o.cast, 3)
    gains = (1 - warm / 2 + cast[0], 1 + tint + cast[1], 1 + warm / 2 + cast[2])
    glare = None
    if g.random() < o.glare:
        glare = (g.uniform(*o.glare_strength), g.uniform(*o.glare_size), g.uniform(0.4, 1.0), g.uniform(0, 180))
    motion = (g.uniform(*o.motion_px), g.uniform(0, 180)) if g.random() < o.motion else None
    return Setting(
        exposure=g.uniform(*o.exposure), lamp=(g.uniform(-0.3, 1.3), g.uniform(-0.3, 1.3), g.uniform(0, o.lamp)),
        vignette=g.uniform(*o.vignette), gains=tuple(float(v) for v in gains), glare=glare,
        defocus=g.uniform(*o.defocus_px), motion=motion, read_noise=g.uniform(*o.read_noise),
        shot_noise=g.uniform(*o.shot_noise), bayer=bool(g.random() < o.bayer), sharpen=g.uniform(*o.sharpen),
        jpeg=int(g.integers(o.jpeg[0], o.jpeg[1] + 1)))


def _light(img: np.ndarray, s: Setting) -> None:
    h, w = img.shape[:2]
    xs = np.linspace(0, 1, w, dtype=np.float32)[None, :]
    ys = np.linspace(0, 1, h, dtype=np.float32)[:, None] * (h / w)
    lx, ly, strength = s.lamp
    d2 = (xs - lx) ** 2 + (ys - ly * h / w) ** 2
    reach = LAMP_REACH * math.hypot(1, h / w)
    field = s.exposure * (1 - strength * (1 - 1 / (1 + d2 / reach**2)))
    field = field * (1 - s.vignette * ((xs - 0.5) ** 2 + (ys - 0.5 * h / w) ** 2) * 2)
    img *= field[..., None]


def _glare(img: np.ndarray, gloss: np.ndarray, s: Setting, g: np.random.Generator, spots: list) -> None:
    h, w = img.shape[:2]
    strength, radius, aspect, angle = s.glare
    if spots and g.random() < GLARE_ON_CARD:
        cx, cy = spots[int(g.integers(0, len(spots)))] + g.normal(0, 0.05 * w, 2)
    else:
        cx, cy = g.uniform(0, w), g.uniform(0, h)
    r = radius * w
    a = math.radians(angle)
    x0, x1 = int(max(0, cx - 3 * r)), int(min(w, cx + 3 * r + 1))
    y0, y1 = int(max(0, cy - 3 * r)), int(min(h, cy + 3 * r + 1))
    if x1 <= x0 or y1 <= y0:
        return
    xs = np.arange(x0, x1, dtype=np.float32)[None, :] - cx
    ys = np.arange(y0, y1, dtype=np.float32)[:, None] - cy
    u = (xs * math.cos(a) + ys * math.sin(a)) / r
    v = (-xs * math.sin(a) + ys * math.cos(a)) / (r * aspect)
    blob = strength * np.exp(-(u * u + v * v) / 2) * gloss[y0:y1, x0:x1]
    img[y0:y1, x0:x1] += blob[..., None]


def _motion_kernel(length: float, angle: float) -> np.ndarray:
    c = int(math.ceil(length))
    k = np.zeros((2 * c + 1, 2 * c + 1), np.float32)
    dx, dy = math.cos(math.radians(angle)) * length / 2, math.sin(math.radians(angle)) * length / 2
    cv2.line(k, (round(c * 16 - dx * 16), round(c * 16 - dy * 16)), (round(c * 16 + dx * 16), round(c * 16 + dy * 16)),
             1.0, 1, cv2.LINE_AA, 4)
    return k / max(1e-6, float(k.sum()))


@cache
def _noise_bank() -> np.ndarray:
    """Unit normal noise to cut frames' noise from: drawing it afresh would cost more than the
    rest of the photo. Each frame takes its own random window of it."""
    return np.random.default_rng(NOISE_BANK_SEED).standard_normal(NOISE_BANK_SHAPE, dtype=np.float32)


def _noise(shape: tuple[int, int], g: np.random.Generator) -> np.ndarray:
    bank = _noise_bank()
    y = int(g.integers(0, bank.shape[0] - shape[0] + 1))
    x = int(g.integers(0, bank.shape[1] - shape[1] + 1))
    window = bank[y:y + shape[0], x:x + shape[1]]
    return window[::-1] if g.random() < 0.5 else window


def _sensor(img: np.ndarray, s: Setting, g: np.random.Generator) -> np.ndarray:
    """Noise as a sensor adds it (more in bright parts), through a Bayer mosaic or not."""
    planes = [img[..., 0]] if s.bayer else cv2.split(img)
    if s.bayer:
        mosaic = planes[0]
        for (i, j), ch in (((0, 1), 1), ((1, 0), 1), ((1, 1), 2)):  # B G / G R
            mosaic[i::2, j::2] = img[i::2, j::2, ch]
    out = []
    for plane in planes:
        sigma = cv2.sqrt(cv2.max(plane, 0.0) * s.shot_noise + s.read_noise**2)
        out.append(cv2.convertScaleAbs(cv2.add(plane, cv2.multiply(sigma, _noise(plane.shape, g)))))
    return cv2.cvtColor(out[0], cv2.COLOR_BayerRG2BGR) if s.bayer else cv2.merge(out)


def expose(img: np.ndarray, gloss: np.ndarray, s: Setting, g: np.random.Generator,
           spots: list | None = None) -> tuple[np.ndarray, bytes, dict]:
    """Turn the scene (float32 BGR, changed in place) into the camera's JPEG; spots are frame points
    where a glossy card lies (glare likes them). Returns (decoded frame, JPEG bytes, truth fields)."""
    _light(img, s)
    if s.glare is not None:
        _glare(img, gloss, s, g, spots or [])
    img *= np.asarray(s.gains, np.float32)
    if s.defocus > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), s.defocus)
    if s.motion is not None:
        img = cv2.filter2D(img, -1, _motion_kernel(*s.motion))
    out = _sensor(img, s, g)
    if s.sharpen > 0.05:
        soft = cv2.GaussianBlur(out, (0, 0), SHARPEN_SIGMA_PX)
        out = cv2.addWeighted(out, 1 + s.sharpen, soft, -s.sharpen, 0)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, s.jpeg])
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    meta = {"blur": round(float(s.defocus), 2), "motion": round(float(s.motion[0]), 1) if s.motion else 0.0,
            "glare": s.glare is not None, "jpeg": s.jpeg}
    return out, buf.tobytes(), meta
