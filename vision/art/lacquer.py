"""Lacquer: full-bleed cards painted like glossy Chinese lacquer ware, with the published deck's twins.

Terrain cards share one ornate oxblood-red frame (a black band wound with a gold vine, black and
gold corner scrolls, gold rosettes) and differ only in the central hexagon: dunes with a cactus,
rows of pines, snowy peaks, curling waves, or a gold cross parting all four. Blue bonus cards are
navy lacquer with one big glowing gold lantern, identical on all ten, and differ only in a black
cartouche at the top: a tiny cream '#1'/'#2' badge, the letter pair ('C-C') and a gold points disc.
Red bonus cards are vermilion with the same lantern and differ only in the cartouche's two gold
sights. Set-up cards are stained parchment with ten letter discs on a dashed oval around an
island, the first disc red. Backs: a gold logo on a purple frame; a heap of shapes under a ribbon
on navy (blue) or on vermilion (red). Drawn in session 24 by a separate hand, never tuned on.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.art import BackKind, face_by_kind
from vision.art.lacquer_marks import (
    badge,
    cartouche,
    disc,
    lantern,
    scroll,
    sight_mask,
    terrain_scene,
    vine,
)
from vision.art.lacquer_paint import BLACK, CREAM, Sheet, hexagon, noise
from vision.cards import RED_POINTS
from vision.render import CARD_H_MM, CARD_W_MM

HEX_CENTRE = (31.5, 45.0)
HEX_R = 16.5
BAND = (6.0, 4.5, 57.0, 17.5)  # x0, y0, x1, y1 mm: the cartouche where bonus twins differ
RING_CENTRE = (31.5, 49.0)
RING_RX, RING_RY = 20.0, 27.5
DISC_R = 4.3

OXBLOOD = (30, 24, 128)
NAVY = (78, 34, 14)
VERMILION = (38, 48, 190)
PURPLE = (92, 34, 78)
PARCHMENT = (168, 210, 232)
INK = (30, 52, 84)

_SERIF = cv2.FONT_HERSHEY_TRIPLEX
_TITLE = cv2.FONT_HERSHEY_COMPLEX


def _rect(inset: float):
    return [(inset, inset), (CARD_W_MM - inset, inset), (CARD_W_MM - inset, CARD_H_MM - inset),
            (inset, CARD_H_MM - inset)]


def _rosette(sh: Sheet, m: np.ndarray, c, r: float) -> None:
    for k in range(8):
        a = k * math.pi / 4
        sh.ellipse(m, (c[0] + r * 0.55 * math.cos(a), c[1] + r * 0.55 * math.sin(a)), (r * 0.45, r * 0.2),
                   math.degrees(a))
    sh.circle(m, c, r * 0.3, value=0)
    sh.circle(m, c, r * 0.18)


def _terrain_frame(ppm: float) -> Sheet:
    sh = Sheet(ppm)
    sh.lacquer(OXBLOOD, "lacquer/terrain")
    band = sh.line(sh.blank(), _rect(3.9), 3.3, closed=True)
    sh.paint(band, BLACK, bevel=0.25)
    gold = sh.line(sh.blank(), _rect(2.2), 0.35, closed=True)
    sh.line(gold, _rect(5.6), 0.35, closed=True)
    vine(sh, gold, _rect(3.9) + [_rect(3.9)[0]], 0.75, 6.3, "lacquer/band-vine")
    scrolls = sh.blank()
    for sx, sy in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
        cx = CARD_W_MM / 2 - sx * 20.0
        cy = CARD_H_MM / 2 - sy * 33.0
        scroll(sh, scrolls, (cx, cy), 4.6, math.pi / 2 * (1 + sy) + (0 if sx == sy else math.pi / 2), sx * sy)
    sh.paint(scrolls, BLACK, bevel=0.3)
    sh.gold(cv2.dilate(scrolls, np.ones((5, 5), np.uint8)) - scrolls, "lacquer/scroll-rim", bevel=0.2)
    for side in (-1, 1):
        x = CARD_W_MM / 2 + side * 22.0
        vine(sh, gold, [(x, 20.0), (x - side * 1.5, 44.0), (x, 68.0)], 1.1, 8.0, "lacquer/side-vine")
    for y in (12.5, 77.5):
        _rosette(sh, gold, (CARD_W_MM / 2, y), 4.2)
    sh.gold(gold, "lacquer/frame-gold")
    mount = sh.poly(sh.blank(), hexagon(HEX_CENTRE, HEX_R + 2.6))
    sh.paint(mount, BLACK, bevel=0.35)
    sh.gold(sh.line(sh.blank(), hexagon(HEX_CENTRE, HEX_R + 2.0), 0.4, closed=True), "lacquer/mount")
    return sh


def _terrain(terrain: str, ppm: float) -> np.ndarray:
    sh = _terrain_frame(ppm)
    inside = sh.alpha(sh.poly(sh.blank(), hexagon(HEX_CENTRE, HEX_R)))[..., None]
    scene = terrain_scene(terrain, ppm, HEX_CENTRE, HEX_R)
    sh.img = sh.img * (1 - inside) + scene * inside
    shade = sh.alpha(sh.poly(sh.blank(), hexagon(HEX_CENTRE, HEX_R)))
    sh.img *= (1.0 - 0.25 * np.clip(sh.relief(shade, 0.9), 0, 1) * shade)[..., None]
    sh.gold(sh.line(sh.blank(), hexagon(HEX_CENTRE, HEX_R), 1.1, closed=True), "lacquer/hex-rim")
    return sh.finish("lacquer/grain")


def _bonus_base(ppm: float, colour, name: str) -> Sheet:
    sh = Sheet(ppm)
    sh.lacquer(colour, name)
    gold = sh.line(sh.blank(), _rect(2.6), 0.5, closed=True)
    sh.line(gold, _rect(3.7), 0.25, closed=True)
    for sx, sy in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
        c = (CARD_W_MM / 2 - sx * 25.5, CARD_H_MM / 2 - sy * 38.5)
        for k in range(5):
            a = math.atan2(sy, sx) + (k - 2) * 0.32
            sh.line(gold, [c, (c[0] + 4.2 * math.cos(a), c[1] + 4.2 * math.sin(a))], 0.35)
        sh.circle(gold, c, 1.1)
    for k in range(9):
        sh.circle(gold, (CARD_W_MM / 2 + (k - 4) * 4.0, 81.0), 0.55 if k % 2 else 0.9)
    sh.gold(gold, name + "/border")
    lantern(sh)
    cartouche(sh, BAND, name + "/cartouche")
    return sh


def _blue(letter: str, number: int, points: int, ppm: float) -> np.ndarray:
    sh = _bonus_base(ppm, NAVY, "lacquer/blue")
    cy = (BAND[1] + BAND[3]) / 2
    badge(sh, (BAND[0] + 4.2, cy), number)
    pair = sh.text(sh.blank(), f"{letter}-{letter}", (27.5, cy), 6.2, _SERIF, 0.75)
    sh.paint(pair, CREAM, bevel=0.3)
    disc(sh, (BAND[2] - 6.0, cy), 4.6, str(points), _SERIF)
    return sh.finish("lacquer/grain")


def _red(sight: str, ppm: float) -> np.ndarray:
    sh = _bonus_base(ppm, VERMILION, "lacquer/red")
    cy = (BAND[1] + BAND[3]) / 2
    icons = sh.blank()
    for x in (15.0, 30.0):
        icons |= sight_mask(sh, sight, (x, cy), 9.0)
    sh.gold(icons, "lacquer/sights", bevel=0.4)
    disc(sh, (BAND[2] - 6.0, cy), 4.6, str(RED_POINTS), _SERIF)
    return sh.finish("lacquer/grain")


def _parchment(ppm: float) -> Sheet:
    sh = Sheet(ppm)
    h, w = sh.h, sh.w
    mottle = noise(h, w, (9, 7), "lacquer/parch") * 0.06 + noise(h, w, (h // 3, 4), "lacquer/fibre") * 0.025
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32) / ppm
    edge = np.minimum(np.minimum(xx, CARD_W_MM - xx), np.minimum(yy, CARD_H_MM - yy))
    burn = np.clip(np.exp(-edge / 2.2) * (0.75 + 0.3 * noise(h, w, (12, 9), "lacquer/burn")), 0, 0.85)[..., None]
    paper = np.asarray(PARCHMENT, np.float32) * (1.0 + mottle)[..., None]
    sh.img[:] = paper * (1 - burn) + np.asarray((30, 62, 112), np.float32) * burn
    return sh


def _setup(letters: str, ppm: float) -> np.ndarray:
    sh = _parchment(ppm)
    ink = sh.line(sh.blank(), _rect(3.2), 0.5, closed=True)
    sh.line(ink, _rect(4.4), 0.25, closed=True)
    for c in _rect(3.8):
        sh.circle(ink, c, 1.3, 0.3)
    ribbon = [(17, 9.5), (46, 9.5), (48, 11.5), (46, 13.5), (17, 13.5), (15, 11.5)]
    sh.line(ink, ribbon, 0.3, closed=True)
    sh.text(ink, "TUCANA", (31.5, 11.5), 2.4, _TITLE, 0.3)
    cx, cy = RING_CENTRE
    for k in range(60):
        a0, a1 = k * 6, k * 6 + 3
        sh.ellipse(ink, RING_CENTRE, (RING_RX, RING_RY), 0, (a0, a1), 0.35)
    isle = [(cx + 7.5 * math.cos(a) * (1 + 0.15 * math.sin(3 * a)), cy + 9 * math.sin(a) * (1 + 0.1 * math.cos(5 * a)))
            for a in np.linspace(0, 2 * math.pi, 40, endpoint=False)]
    sh.paint(sh.poly(sh.blank(), isle), (110, 165, 175), bevel=0.3)
    sh.line(ink, isle, 0.35, closed=True)
    palm = [(cx - 1, cy + 5), (cx - 0.5, cy + 1), (cx + 0.6, cy - 3)]
    sh.line(ink, palm, 0.5)
    top = palm[-1]
    for k in range(6):
        d = (k - 2.5) / 2.5
        sh.line(ink, [top, (top[0] + 2.2 * d, top[1] - 1.4 + abs(d) * 0.6), (top[0] + 3.6 * d, top[1] + 0.3 + abs(d))],
                0.4)
    sh.paint(ink, INK, opacity=0.9)
    for k, letter in enumerate(letters):
        a = 2 * math.pi * k / len(letters)
        c = (cx + RING_RX * math.sin(a), cy - RING_RY * math.cos(a))
        face, text = ((42, 40, 182), CREAM) if k == 0 else ((130, 196, 226), (28, 36, 60))
        sh.paint(sh.circle(sh.blank(), c, DISC_R), face, bevel=0.45)
        sh.paint(sh.circle(sh.blank(), c, DISC_R, 0.4), INK)
        sh.paint(sh.text(sh.blank(), letter, c, 3.9, _SERIF, 0.5), text)
    return sh.finish("lacquer/grain")


def render_face(card: str, px_per_mm: float) -> np.ndarray:
    """One card face in the lacquer style, BGR uint8, portrait 63x88 mm; ValueError if unknown."""
    return face_by_kind(card, px_per_mm, _terrain, _blue, _red, _setup)


def _terrain_back(ppm: float) -> np.ndarray:
    sh = Sheet(ppm)
    sh.lacquer(PURPLE, "lacquer/back-terrain", streak=0.2)
    frame = sh.line(sh.blank(), _rect(6.0), 7.0, closed=True)
    sh.paint(frame, (150, 80, 140), bevel=0.3, opacity=0.8)
    sh.paint(sh.line(sh.blank(), _rect(9.7), 0.8, closed=True), (40, 10, 35))
    c = (CARD_W_MM / 2, 40.0)
    logo = sh.circle(sh.blank(), c, 13.0, 1.4)
    sh.line(logo, hexagon(c, 9.0), 0.9, closed=True)
    trail = [(c[0] - 5, c[1] + 3), (c[0] - 1, c[1] - 2), (c[0] + 2, c[1] + 2), (c[0] + 5.5, c[1] - 4)]
    sh.line(logo, trail, 0.6)
    for p in trail:
        sh.circle(logo, p, 1.2)
    sh.text(logo, "TUCANA", (c[0], 64.0), 5.0, _SERIF, 0.6)
    sh.gold(logo, "lacquer/logo")
    return sh.finish("lacquer/grain")


def _pile_back(colour, ribbon, name: str, ppm: float) -> np.ndarray:
    sh = Sheet(ppm)
    sh.lacquer(colour, name)
    rng = np.random.default_rng(sum(map(ord, name)))
    tones = [(60, 172, 222), (200, 232, 244), (18, 14, 16), tuple(min(255, v * 1.6) for v in colour)]
    for _ in range(26):
        x, y = rng.uniform(12, 51), rng.uniform(50, 80) - rng.uniform(0, 10)
        size, kind = rng.uniform(3, 7), rng.integers(3)
        m = sh.blank()
        if kind == 0:
            sh.poly(m, hexagon((x, y), size))
        elif kind == 1:
            sh.circle(m, (x, y), size * 0.8)
        else:
            sh.poly(m, [(x, y - size), (x + size, y + size * 0.7), (x - size, y + size * 0.7)])
        sh.paint(m, tones[int(rng.integers(len(tones)))], bevel=0.5)
    band = [(4 + t * 55, 30 + 4 * math.sin(t * 2 * math.pi)) for t in np.linspace(0, 1, 30)]
    m = sh.line(sh.blank(), band, 6.5)
    for end, d in ((band[0], -1), (band[-1], 1)):
        sh.poly(m, [(end[0], end[1] - 3.2), (end[0] + d * 4, end[1] - 3.2), (end[0] + d * 2, end[1]),
                    (end[0] + d * 4, end[1] + 3.2), (end[0], end[1] + 3.2)])
    sh.paint(m, ribbon, bevel=0.5)
    sh.paint(sh.line(sh.blank(), [(x, y + 2.4) for x, y in band], 0.3), BLACK, opacity=0.5)
    return sh.finish("lacquer/grain")


def render_back(kind: BackKind, px_per_mm: float) -> np.ndarray:
    """One of the three backs in the lacquer style, BGR uint8, portrait 63x88 mm."""
    if kind is BackKind.TERRAIN:
        return _terrain_back(px_per_mm)
    if kind is BackKind.BLUE:
        return _pile_back(NAVY, (60, 172, 222), "lacquer/back-blue", px_per_mm)
    return _pile_back(VERMILION, CREAM, "lacquer/back-red", px_per_mm)
