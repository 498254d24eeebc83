"""Other games' cards, which a reader must never name: playing cards, full-bleed fantasy cards,
photo postcards and number cards; each drawn from the generator passed in."""

from __future__ import annotations

import cv2
import numpy as np

from vision.art.brush import Sheet, fractal, texture
from vision.props import foreign_card as shapes_or_playing_card
from vision.render import CARD_H_MM, CARD_W_MM
from vision.tables import TableTop, render_top

W, H = CARD_W_MM, CARD_H_MM
KINDS = ("playing", "fantasy", "photo", "number")


def other_card(rng: np.random.Generator, px_per_mm: float = 4.0) -> tuple[np.ndarray, str]:
    """Another game's card face and what it is ('foreign-fantasy', ...)."""
    kind = KINDS[int(rng.integers(0, len(KINDS)))]
    if kind == "playing":
        return shapes_or_playing_card(rng, px_per_mm), "foreign-playing"
    if kind == "fantasy":
        return _fantasy(rng, px_per_mm), "foreign-fantasy"
    if kind == "photo":
        return _photo(rng, px_per_mm), "foreign-photo"
    return _number(rng, px_per_mm), "foreign-number"


def _colour(rng: np.random.Generator, lo: int = 20, hi: int = 230) -> tuple[float, float, float]:
    return tuple(float(v) for v in rng.integers(lo, hi, 3))


def _fantasy(rng: np.random.Generator, ppm: float) -> np.ndarray:
    """A full-bleed painted card: a dark frame, a painting, a title bar and a text box."""
    sheet = Sheet(W, H, ppm)
    frame = _colour(rng, 10, 120)
    sheet.img[:] = texture(sheet, rng, frame, _colour(rng, 10, 120), dabs=150)
    art = sheet.poly([(4, 11), (W - 4, 11), (W - 4, 50), (4, 50)])
    sky, ground = np.asarray(_colour(rng), np.float32), np.asarray(_colour(rng), np.float32)
    t = np.clip(0.5 + 0.35 * fractal(rng, sheet.shape, ppm, (20, 8, 3, 1)), 0, 1)[..., None]
    sheet.lay(art, sky * (1 - t) + ground * t)
    for _ in range(int(rng.integers(1, 4))):
        c = (float(rng.uniform(10, W - 10)), float(rng.uniform(18, 45)))
        sheet.lay(sheet.disc(c, float(rng.uniform(3, 9))), _colour(rng))
    bar = sheet.poly([(4, 4), (W - 4, 4), (W - 4, 10), (4, 10)])
    sheet.poly([(4, 52), (W - 4, 52), (W - 4, 58), (4, 58)], bar)
    sheet.lay(bar, _colour(rng, 150, 240))
    sheet.lay(sheet.poly([(5, 60), (W - 5, 60), (W - 5, H - 5), (5, H - 5)]), (200, 225, 235))
    img = sheet.uint8()
    for i in range(5):  # lines of rules text
        y = round((65 + i * 4) * ppm)
        cv2.line(img, (round(8 * ppm), y), (round((W - 8 - rng.uniform(0, 20)) * ppm), y), (60, 60, 60),
                 max(1, round(0.6 * ppm)))
    return img


def _photo(rng: np.random.Generator, ppm: float) -> np.ndarray:
    """A postcard-like photo card: a patch of some textured scene inside a thin white frame."""
    top = list(TableTop)[int(rng.integers(0, len(TableTop)))]
    h, w = round(H * ppm), round(W * ppm)
    img = render_top(top, (h, w), ppm * rng.uniform(0.2, 1.0), rng)
    tint = np.asarray(_colour(rng, 60, 255), np.float32) / 255
    img = np.clip(img * (0.5 + 0.5 * tint), 0, 255).astype(np.uint8)
    border = max(1, round(2.0 * ppm)) if rng.random() < 0.5 else 0
    if border:
        img[:border], img[-border:], img[:, :border], img[:, -border:] = 245, 245, 245, 245
    return img


def _number(rng: np.random.Generator, ppm: float) -> np.ndarray:
    """A number card: one strong colour, a white tilted oval and a big numeral."""
    h, w = round(H * ppm), round(W * ppm)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = (245, 245, 245)
    fill = tuple(int(v) for v in _colour(rng))
    cv2.rectangle(img, (round(3 * ppm), round(3 * ppm)), (w - round(3 * ppm), h - round(3 * ppm)), fill, -1)
    cv2.ellipse(img, (w // 2, h // 2), (round(22 * ppm), round(36 * ppm)), 30, 0, 360, (245, 245, 245), -1,
                cv2.LINE_AA)
    digit = str(int(rng.integers(0, 10)))
    scale = 28 * ppm / 22
    (tw, th), _ = cv2.getTextSize(digit, cv2.FONT_HERSHEY_SIMPLEX, scale, max(1, round(3 * ppm)))
    cv2.putText(img, digit, ((w - tw) // 2, (h + th) // 2), cv2.FONT_HERSHEY_SIMPLEX, scale, fill,
                max(1, round(3 * ppm)), cv2.LINE_AA)
    for x, y in ((6, 9), (W - 6, H - 5)):
        cv2.putText(img, digit, (round((x - 2) * ppm), round(y * ppm)), cv2.FONT_HERSHEY_SIMPLEX, 1.5 * ppm / 22 * 4,
                    (245, 245, 245), max(1, round(0.8 * ppm)), cv2.LINE_AA)
    return img
