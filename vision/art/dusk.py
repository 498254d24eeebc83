"""DUSK: dark, low-contrast cards with thin silver line art, no light border at all.

A hard case on purpose: charcoal card stock whose edge barely stands off a dark mat, muted terrain
medallions, outlined stars and pictograms, script lettering (Hershey script: no other style uses
it). Terrain cards differ only in their medallion, bonus cards in their lower third, set-up
cards in their letters. Drawn with vision.glyphs.Canvas primitives only.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.art import BackKind
from vision.cards import BLUE_POINTS, RED_POINTS, SETUP_LETTERS, TERRAINS
from vision.glyphs import Canvas, Colour, Point
from vision.render import CARD_H_MM, CARD_W_MM

W, H = CARD_W_MM, CARD_H_MM
FONT = cv2.FONT_HERSHEY_SCRIPT_COMPLEX
STOCK: Colour = (34, 31, 30)
LINE: Colour = (72, 70, 68)  # the thin frame a little lighter than the stock
SILVER: Colour = (150, 150, 146)
DULL_RED: Colour = (45, 45, 125)
MEDALLION = (W / 2, 40.0, 19.0)  # centre x, y and radius, mm
MUTED = {"desert": (45, 78, 98), "forest": (42, 68, 40), "mountain": (66, 62, 62), "water": (88, 60, 36)}
BASE = {"blue": (58, 32, 22), "red": (32, 28, 74), "setup": (58, 54, 50)}


def _stock(px_per_mm: float, fill: Colour) -> Canvas:
    """Dark stock, faintly lit from the top, with a thin frame inset 2.5 mm."""
    cv = Canvas(W, H, px_per_mm, fill)
    h = cv.image.shape[0]
    ramp = np.linspace(1.18, 0.92, h, dtype=np.float32)[:, None, None]
    cv.image[:] = np.clip(cv.image.astype(np.float32) * ramp, 0, 255).astype(np.uint8)
    cv.line([(2.5, 2.5), (W - 2.5, 2.5), (W - 2.5, H - 2.5), (2.5, H - 2.5), (2.5, 2.5)], LINE, 0.35)
    return cv


def _lines(cv: Canvas, pts, ink: Colour, width: float = 0.55) -> None:
    cv.line(pts, ink, width)


def _arc(c: Point, r: float, a0: float, a1: float, n: int = 16) -> list[Point]:
    return [(c[0] + r * math.cos(math.radians(a)), c[1] + r * math.sin(math.radians(a))) for a in np.linspace(a0, a1, n)]


def _terrain_art(cv: Canvas, terrain: str, c: Point, r: float, ink: Colour) -> None:
    x, y = c
    if terrain == "desert":
        cv.circle((x + r * 0.35, y - r * 0.4), r * 0.18, ink, 0.5)
        for k in range(3):
            _lines(cv, _arc((x - r * 0.3 + k * r * 0.35, y + r * 0.55), r * 0.45, 200, 340), ink)
    elif terrain == "forest":
        for dx, s in ((-0.45, 0.7), (0.0, 1.0), (0.45, 0.7)):
            top, base = y - r * 0.6 * s, y + r * 0.45
            _lines(cv, [(x + dx * r - r * 0.25 * s, base), (x + dx * r, top), (x + dx * r + r * 0.25 * s, base),
                        (x + dx * r - r * 0.25 * s, base)], ink)
    elif terrain == "mountain":
        _lines(cv, [(x - r * 0.8, y + r * 0.45), (x - r * 0.25, y - r * 0.5), (x + r * 0.05, y - r * 0.05),
                    (x + r * 0.35, y - r * 0.35), (x + r * 0.8, y + r * 0.45)], ink)
    else:
        for k in range(3):
            yy = y - r * 0.35 + k * r * 0.35
            _lines(cv, [(x - r * 0.7 + t * r * 1.4, yy + r * 0.08 * math.sin(t * 4 * math.pi)) for t in np.linspace(0, 1, 20)], ink)


def _medallion(cv: Canvas, terrain: str) -> None:
    x, y, r = MEDALLION
    if terrain == "any":
        for k, name in enumerate(("desert", "forest", "mountain", "water")):
            cv.poly([(x, y)] + _arc((x, y), r, 180 + 90 * k, 270 + 90 * k), MUTED[name])
        cv.line([(x - r, y), (x + r, y)], SILVER, 0.4)
        cv.line([(x, y - r), (x, y + r)], SILVER, 0.4)
    else:
        cv.circle((x, y), r, MUTED[terrain])
        _terrain_art(cv, terrain, (x, y), r * 0.8, SILVER)
    cv.circle((x, y), r, SILVER, 0.5)


def _outlined_star(cv: Canvas, c: Point, r: float) -> None:
    pts = [(c[0] + (r if i % 2 == 0 else r * 0.42) * math.sin(i * math.pi / 5),
            c[1] - (r if i % 2 == 0 else r * 0.42) * math.cos(i * math.pi / 5)) for i in range(11)]
    cv.line(pts, SILVER, 0.6)


def _sight(cv: Canvas, name: str, c: Point, s: float) -> None:
    """Line-art sights: obelisk, book, toucan, three yeti claw marks, a sea serpent's spiral."""
    x, y = c
    if name == "obelisk":
        _lines(cv, [(x - s * 0.12, y + s * 0.5), (x - s * 0.07, y - s * 0.35), (x, y - s * 0.5),
                    (x + s * 0.07, y - s * 0.35), (x + s * 0.12, y + s * 0.5), (x - s * 0.12, y + s * 0.5)], SILVER)
    elif name == "book":
        _lines(cv, [(x - s * 0.45, y - s * 0.3), (x, y - s * 0.2), (x + s * 0.45, y - s * 0.3), (x + s * 0.45, y + s * 0.3),
                    (x, y + s * 0.4), (x - s * 0.45, y + s * 0.3), (x - s * 0.45, y - s * 0.3)], SILVER)
        _lines(cv, [(x, y - s * 0.2), (x, y + s * 0.4)], SILVER)
    elif name == "toucan":
        cv.circle((x - s * 0.15, y), s * 0.2, SILVER, 0.55)
        _lines(cv, [(x + s * 0.03, y - s * 0.1), (x + s * 0.5, y), (x + s * 0.03, y + s * 0.08)], SILVER)
    elif name == "yeti":
        for k in range(3):
            _lines(cv, [(x - s * 0.3 + k * s * 0.3, y - s * 0.4), (x - s * 0.4 + k * s * 0.3, y + s * 0.4)], SILVER, 0.8)
    else:
        _lines(cv, [(x + s * 0.06 * t * math.cos(t), y + s * 0.06 * t * math.sin(t)) for t in np.linspace(0, 7.5, 40)], SILVER)


def render_face(card: str, px_per_mm: float = 4.0) -> np.ndarray:
    """One card face, BGR uint8; the same inputs give the same pixels."""
    if card in TERRAINS:
        cv = _stock(px_per_mm, STOCK)
        _medallion(cv, card)
        cv.line([(12, 70), (W - 12, 70)], LINE, 0.4)
    elif card.startswith("blue-"):
        letter, number = card[len("blue-")], int(card[-1])
        cv = _stock(px_per_mm, BASE["blue"])
        _outlined_star(cv, (W / 2, 30.0), 17.0)
        cv.text(letter, (W / 2 - 8, 66.0), 12.0, SILVER, FONT, weight=0.09)
        cv.circle((W / 2 + 12, 66.0), 6.0, SILVER, 0.4)
        cv.text(str(BLUE_POINTS[letter][number - 1]), (W / 2 + 12, 66.0), 6.0, SILVER, FONT, weight=0.1)
        for k in range(number):
            cv.line([(W / 2 - 6 + k * 7, 78.0), (W / 2 - 1 + k * 7, 78.0)], SILVER, 0.6)
    elif card.startswith("red-"):
        cv = _stock(px_per_mm, BASE["red"])
        _outlined_star(cv, (W / 2, 30.0), 17.0)
        _sight(cv, card[len("red-"):], (W / 2 - 6, 66.0), 14.0)
        cv.text(str(RED_POINTS), (W / 2 + 14, 66.0), 7.0, SILVER, FONT, weight=0.1)
    elif card in SETUP_LETTERS:
        cv = _stock(px_per_mm, BASE["setup"])
        cx, cy, ring = W / 2, 42.0, 18.0
        for i, letter in enumerate(SETUP_LETTERS[card]):
            a = 2 * math.pi * i / 10
            p = (cx + ring * math.sin(a), cy - ring * math.cos(a))
            if i == 0:
                cv.circle(p, 3.6, DULL_RED)
            cv.circle(p, 3.6, SILVER, 0.35)
            cv.text(letter, p, 4.2, SILVER, FONT, weight=0.1)
        cv.circle((cx, cy), 4.0, LINE, 0.4)
    else:
        raise ValueError(f"unknown card ID {card!r}")
    return cv.image


def render_back(kind: BackKind, px_per_mm: float = 4.0) -> np.ndarray:
    """One card back: a compass rose, a field of dots or fine diagonal lines, in silver on dark."""
    if kind is BackKind.TERRAIN:
        cv = _stock(px_per_mm, STOCK)
        for k in range(8):
            a = k * math.pi / 4
            r = 16.0 if k % 2 == 0 else 9.0
            cv.line([(W / 2, H / 2), (W / 2 + r * math.sin(a), H / 2 - r * math.cos(a))], SILVER, 0.5)
        cv.circle((W / 2, H / 2), 11.0, SILVER, 0.4)
    elif kind is BackKind.BLUE:
        cv = _stock(px_per_mm, BASE["blue"])
        for i in range(7):
            for j in range(10):
                cv.circle((8 + i * 7.8, 9 + j * 7.8), 0.7, SILVER)
    else:
        cv = _stock(px_per_mm, BASE["red"])
        for k in range(-14, 10):
            cv.line([(4 + k * 5.0, 4), (4 + k * 5.0 + 80, H - 4)], LINE, 0.4)
        cv.line([(2.5, 2.5), (W - 2.5, 2.5), (W - 2.5, H - 2.5), (2.5, H - 2.5), (2.5, 2.5)], SILVER, 0.35)
    return cv.image
