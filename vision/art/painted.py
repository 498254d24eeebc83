"""PAINTED: full-bleed painted card art with the published deck's twin structure (our own drawing).

- Terrain cards share one ornate leafy frame that covers most of the card; only the central
  hexagon differs (sand, trees, rocks, water, or the four-part "any").
- Blue bonus cards share a dark blue painting with a big gold star; only a small band at the top
  differs: the letter pair ("A-A"), the points disc and a tiny "#1"/"#2" badge. Red bonus cards
  share a red painting with the same star; only the pair of sight pictograms in the band differs.
- Set-up cards: a parchment scroll on light card stock with ten small letter discs in a ring, the
  first (red) at the top and the sequence clockwise; the thirteen differ only in their letters.
- Backs: the terrain deck's (a logo on a purple painted frame), the blue and the red bonus
  cards' (a pile of stars with a ribbon).
No border: the painting runs to the card's edge. Every shared part is painted from one seed, so
twins are pixel-identical outside the region where they differ.
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from vision.art import BackKind
from vision.art.brush import (
    Colour,
    Point,
    Sheet,
    fractal,
    hexagon,
    leaf,
    metal,
    stable_rng,
    star_points,
    texture,
)
from vision.art.painted_marks import faceted_star, outline, sight, write
from vision.cards import BLUE_POINTS, RED_POINTS, SETUP_LETTERS, TERRAINS
from vision.render import CARD_H_MM, CARD_W_MM

W, H = CARD_W_MM, CARD_H_MM
HEX_CENTRE: Point = (W / 2, 47.0)
HEX_R = 15.0  # mm: the hexagon is ~14% of the card, the frame the rest
HEX_RIM_MM = 1.4
STAR_CENTRE: Point = (W / 2, 55.0)
STAR_R = (22.0, 9.5)  # outer and inner radius, mm
BAND = (4.0, 4.0, W - 4.0, 18.0)  # the bonus cards' top band: x0, y0, x1, y1 mm
BAND_Y = (BAND[1] + BAND[3]) / 2
RING_CENTRE: Point = (W / 2, 44.0)
RING_R = 15.5  # mm: the set-up letter discs' ring
DISC_R = 3.5  # mm: one set-up letter disc

GOLD_DARK: Colour = (20, 95, 150)
GOLD_LIGHT: Colour = (110, 215, 245)
CREAM: Colour = (200, 232, 245)
INK: Colour = (30, 35, 45)
BLUE_BASE, BLUE_ALT = (95, 35, 15), (130, 60, 30)
RED_BASE, RED_ALT = (35, 40, 160), (40, 70, 190)
STOCK: Colour = (212, 224, 230)
LEAF_GREENS: tuple[Colour, ...] = ((40, 120, 50), (60, 160, 95), (30, 85, 40), (90, 185, 150), (45, 140, 110))
LEAF_PURPLES: tuple[Colour, ...] = ((120, 50, 100), (150, 80, 135), (95, 35, 80), (170, 110, 160), (130, 60, 90))

HEX_PAINT = {  # base, alt, dab amount: the hexagon's terrain
    "desert": ((80, 175, 225), (50, 130, 200), 0.10),
    "forest": ((40, 105, 45), (25, 75, 30), 0.14),
    "mountain": ((130, 130, 128), (100, 110, 125), 0.12),
    "water": ((165, 105, 35), (205, 150, 70), 0.10),
}


def render_face(card: str, px_per_mm: float = 4.0) -> np.ndarray:
    """One card face, BGR uint8; the same inputs give the same pixels."""
    if card in TERRAINS:
        sheet = _terrain_frame(px_per_mm)
        _hexagon(sheet, card)
    elif card.startswith("blue-"):
        letter, number = card[len("blue-")], int(card[-1])
        sheet = _bonus(px_per_mm, "blue")
        _blue_band(sheet, letter, number, BLUE_POINTS[letter][number - 1])
    elif card.startswith("red-"):
        sheet = _bonus(px_per_mm, "red")
        _red_band(sheet, card[len("red-"):])
    elif card in SETUP_LETTERS:
        sheet = _setup_stock(px_per_mm)
        _letter_ring(sheet, SETUP_LETTERS[card])
    else:
        raise ValueError(f"unknown card ID {card!r}")
    return sheet.uint8()


def render_back(kind: BackKind, px_per_mm: float = 4.0) -> np.ndarray:
    """One card back, BGR uint8."""
    return _back(kind, px_per_mm).uint8()


def _copy(sheet: Sheet) -> Sheet:
    out = Sheet(sheet.w_mm, sheet.h_mm, sheet.ppm)
    out.img[:] = sheet.img
    return out


def _gold(sheet: Sheet, mask: np.ndarray, seed: str) -> None:
    sheet.lay(mask, metal(sheet, stable_rng("painted", seed), GOLD_DARK, GOLD_LIGHT))


def _vignette(sheet: Sheet, depth: float) -> None:
    """Darken towards the edges, as painted card art is."""
    h, w = sheet.shape
    ys = np.linspace(-1, 1, h, dtype=np.float32)[:, None]
    xs = np.linspace(-1, 1, w, dtype=np.float32)[None, :]
    sheet.img *= (1 - depth * (xs ** 4 + ys ** 4) / 2)[..., None]


def _foliage(sheet: Sheet, rng: np.random.Generator, palette: tuple[Colour, ...], count: int,
             near: float, hex_wreath: bool) -> None:
    """Leaves along the card's edges (within near mm) and, if asked, in a wreath round the hexagon."""
    masks = [sheet.blank() for _ in palette]
    ribs = sheet.blank()
    for _ in range(count):
        if hex_wreath and rng.random() < 0.3:
            a = rng.uniform(0, 2 * math.pi)
            r = HEX_R + rng.uniform(1.0, 6.0)
            x, y = HEX_CENTRE[0] + r * math.cos(a), HEX_CENTRE[1] + r * math.sin(a)
            angle = math.degrees(a) + 90 + rng.normal(0, 25)
        else:
            side = rng.integers(0, 4)
            t, d = rng.uniform(0, 1), rng.uniform(-1, near) ** 1.0
            x, y = ((t * W, d), (W - d, t * H), (t * W, H - d), (d, t * H))[side]
            angle = (0, 90, 0, 90)[side] + rng.normal(0, 35)
        length = rng.uniform(5.0, 11.0)
        pts = leaf((x, y), length, length * rng.uniform(0.3, 0.45), angle)
        sheet.poly(pts, masks[int(rng.integers(0, len(palette)))])
        a = math.radians(angle)
        sheet.line([(x - math.cos(a) * length * 0.4, y - math.sin(a) * length * 0.4),
                    (x + math.cos(a) * length * 0.4, y + math.sin(a) * length * 0.4)], 0.25, ribs)
    shade = 1 + 0.18 * texture_noise(sheet, rng)
    for mask, colour in zip(masks, palette, strict=True):
        sheet.lay(mask, np.asarray(colour, np.float32) * shade[..., None])
    sheet.lay(ribs, (25, 55, 30) if palette is LEAF_GREENS else (70, 25, 60), 0.6)


def texture_noise(sheet: Sheet, rng: np.random.Generator) -> np.ndarray:
    """A unit-spread painted mottle of the sheet's size."""
    return fractal(rng, sheet.shape, sheet.ppm, (8, 3, 1.2))


def _flowers(sheet: Sheet, rng: np.random.Generator, count: int) -> None:
    petals, hearts = sheet.blank(), sheet.blank()
    for _ in range(count):
        side = rng.integers(0, 4)
        t, d = rng.uniform(0.05, 0.95), rng.uniform(1.5, 9.0)
        x, y = ((t * W, d), (W - d, t * H), (t * W, H - d), (d, t * H))[side]
        r = rng.uniform(0.9, 1.6)
        for k in range(5):
            a = 2 * math.pi * k / 5
            sheet.disc((x + r * math.cos(a), y + r * math.sin(a)), r * 0.7, petals)
        sheet.disc((x, y), r * 0.45, hearts)
    sheet.lay(petals, (70, 90, 225))
    sheet.lay(hearts, (60, 200, 250))


@lru_cache(maxsize=4)
def _terrain_frame_cached(px_per_mm: float) -> Sheet:
    rng = stable_rng("painted", "terrain-frame")
    sheet = Sheet(W, H, px_per_mm)
    sheet.img[:] = texture(sheet, rng, (50, 80, 38), (60, 130, 120), dabs=420, angle=70, spread=40)
    glow = cv2.GaussianBlur(sheet.disc(HEX_CENTRE, HEX_R + 11), (0, 0), 3 * px_per_mm)  # a lighter clearing
    sheet.lay(glow, texture(sheet, rng, (90, 150, 120), (110, 180, 170), dabs=200, angle=20), 0.55)
    _foliage(sheet, rng, LEAF_GREENS, 260, 12.0, hex_wreath=True)
    _flowers(sheet, rng, 14)
    ornament = sheet.blank()
    for inset in (5.0, 6.3):
        sheet.line([(inset, inset), (W - inset, inset), (W - inset, H - inset), (inset, H - inset)], 0.45,
                   ornament, closed=True)
    for cx, cy in ((5.6, 5.6), (W - 5.6, 5.6), (W - 5.6, H - 5.6), (5.6, H - 5.6)):
        sheet.disc((cx, cy), 2.6, ornament)
        sheet.disc((cx, cy), 4.2, ornament, width_mm=0.5)
    for y in np.linspace(14, H - 14, 5):  # vines of gold scrolls down both sides
        for x, turn in ((5.65, 1), (W - 5.65, -1)):
            sheet.line([(x + turn * 1.6 * math.sin(t), y + 3.5 * math.cos(t)) for t in np.linspace(0, 5, 12)],
                       0.4, ornament)
    sheet.poly(hexagon(HEX_CENTRE, HEX_R + HEX_RIM_MM + 1.2), ornament)
    _gold(sheet, ornament, "terrain-gold")
    sheet.lay(sheet.poly(hexagon(HEX_CENTRE, HEX_R + 1.1)), (30, 50, 40))  # the rim's dark inner line
    _vignette(sheet, 0.35)
    return sheet


def _terrain_frame(px_per_mm: float) -> Sheet:
    return _copy(_terrain_frame_cached(float(px_per_mm)))


def _hex_terrain(sheet: Sheet, terrain: str, clip: np.ndarray, rng: np.random.Generator) -> None:
    """Paint one terrain inside clip: a painted ground and its own motifs."""
    base, alt, dab = HEX_PAINT[terrain]
    sheet.lay(clip, texture(sheet, rng, base, alt, dabs=260, dab_amount=dab, dab_mm=(1.5, 5.0),
                            dab_width_mm=(0.5, 1.4), angle=0 if terrain in ("desert", "water") else 80))
    cx, cy = HEX_CENTRE
    light, dark = sheet.blank(), sheet.blank()
    if terrain == "desert":
        for k, y in enumerate(np.linspace(cy - 9, cy + 11, 5)):
            dune = [(x, y - 3.0 * math.sin((x - cx) / 9 + k)) for x in np.linspace(cx - 17, cx + 17, 18)]
            sheet.line(dune, 1.6, light if k % 2 else dark)
        sheet.disc((cx + 7, cy - 8), 3.0, light)
        colours = ((150, 225, 250), (40, 100, 170))
    elif terrain == "forest":
        for _ in range(16):
            x, y, r = cx + rng.uniform(-12, 12), cy + rng.uniform(-11, 11), rng.uniform(2.0, 4.0)
            sheet.line([(x, y), (x, y + r * 1.8)], 0.8, dark)
            sheet.disc((x, y), r, light if rng.random() < 0.5 else dark)
        colours = ((70, 170, 90), (20, 55, 25))
    elif terrain == "mountain":
        for x, top, half in ((cx - 6, cy - 9, 9), (cx + 6, cy - 4, 8), (cx - 1, cy + 1, 11)):
            sheet.poly([(x, top), (x - half, top + half * 1.6), (x, top + half * 1.6)], light)
            sheet.poly([(x, top), (x + half, top + half * 1.6), (x, top + half * 1.6)], dark)
        colours = ((200, 200, 195), (70, 75, 85))
    else:
        for k, y in enumerate(np.linspace(cy - 10, cy + 10, 6)):
            wave = [(x, y + 1.2 * math.sin((x - cx) / 2.2 + k)) for x in np.linspace(cx - 17, cx + 17, 30)]
            sheet.line(wave, 0.8, light if k % 2 == 0 else dark)
        colours = ((230, 205, 170), (120, 60, 20))
    for mask, colour in zip((light, dark), colours, strict=True):
        sheet.lay(np.minimum(mask, clip), colour, 0.85)


def _hexagon(sheet: Sheet, terrain: str) -> None:
    """The one part of a terrain card that differs: the painting inside the central hexagon."""
    rng = stable_rng("painted", "hexagon", terrain)
    inside = sheet.poly(hexagon(HEX_CENTRE, HEX_R))
    if terrain != "any":
        _hex_terrain(sheet, terrain, inside, rng)
        return
    cx, cy = HEX_CENTRE
    big = HEX_R + 1
    quarters = {"desert": [(cx, cy), (cx - big, cy), (cx - big, cy - big), (cx, cy - big)],
                "forest": [(cx, cy), (cx, cy - big), (cx + big, cy - big), (cx + big, cy)],
                "mountain": [(cx, cy), (cx + big, cy), (cx + big, cy + big), (cx, cy + big)],
                "water": [(cx, cy), (cx, cy + big), (cx - big, cy + big), (cx - big, cy)]}
    for name, quad in quarters.items():
        _hex_terrain(sheet, name, np.minimum(sheet.poly(quad), inside), rng)
    cross = sheet.line([(cx - HEX_R, cy), (cx + HEX_R, cy)], 0.9)
    sheet.line([(cx, cy - HEX_R), (cx, cy + HEX_R)], 0.9, cross)
    sheet.disc((cx, cy), 2.4, cross)
    _gold(sheet, np.minimum(cross, inside), "any-cross")


@lru_cache(maxsize=4)
def _bonus_cached(px_per_mm: float, colour: str) -> Sheet:
    rng = stable_rng("painted", "bonus", colour)
    base, alt = (BLUE_BASE, BLUE_ALT) if colour == "blue" else (RED_BASE, RED_ALT)
    sheet = Sheet(W, H, px_per_mm)
    sheet.img[:] = texture(sheet, rng, base, alt, dabs=380, angle=-60, spread=50, mottle=0.18)
    rays = sheet.blank()
    for k in range(16):
        a = 2 * math.pi * k / 16
        sheet.poly([STAR_CENTRE, (STAR_CENTRE[0] + 60 * math.cos(a - 0.05), STAR_CENTRE[1] + 60 * math.sin(a - 0.05)),
                    (STAR_CENTRE[0] + 60 * math.cos(a + 0.05), STAR_CENTRE[1] + 60 * math.sin(a + 0.05))], rays)
    sheet.lay(rays, GOLD_LIGHT, 0.12)
    _star(sheet, STAR_CENTRE, *STAR_R, "bonus-star")
    x0, y0, x1, y1 = BAND
    band = sheet.poly([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    sheet.lay(band, np.asarray(base, np.float32) * 0.55, 0.9)
    _gold(sheet, outline(sheet, band, 0.7), "band-edge")
    _vignette(sheet, 0.3)
    return sheet


def _bonus(px_per_mm: float, colour: str) -> Sheet:
    return _copy(_bonus_cached(float(px_per_mm), colour))


def _star(sheet: Sheet, c: Point, r_out: float, r_in: float, seed: str) -> None:
    lit, shade = faceted_star(sheet, c, r_out, r_in)
    rng = stable_rng("painted", seed)
    sheet.lay(lit, metal(sheet, rng, (60, 170, 220), (150, 240, 255), angle=40))
    sheet.lay(shade, metal(sheet, rng, (10, 80, 140), (40, 150, 200), angle=40))
    sheet.lay(sheet.line(star_points(c, r_out, r_in), max(0.3, r_out * 0.025), closed=True), (15, 45, 80))


def _points_disc(sheet: Sheet, points: int) -> None:
    c = (BAND[2] - 6.5, BAND_Y)
    _gold(sheet, sheet.disc(c, 5.3), "points-disc")
    sheet.lay(sheet.disc(c, 4.3, width_mm=0.3), (20, 60, 100))
    sheet.lay(write(sheet, str(points), c, 5.6, weight=0.16), INK)


def _blue_band(sheet: Sheet, letter: str, number: int, points: int) -> None:
    """What tells the ten blue cards apart: letter pair, points disc and #1/#2 badge."""
    sheet.lay(write(sheet, f"{letter}-{letter}", (W / 2 - 3.5, BAND_Y), 7.0), CREAM)
    sheet.lay(write(sheet, f"#{number}", (BAND[0] + 5.2, BAND_Y), 2.6, weight=0.16), GOLD_LIGHT)
    _points_disc(sheet, points)


def _red_band(sheet: Sheet, name: str) -> None:
    """What tells the five red cards apart: the pair of sight pictograms (all are worth the same)."""
    marks = sheet.blank()
    for dx in (-7.5, 3.5):
        sight(sheet, name, (W / 2 + dx - 2, BAND_Y), 7.5, marks)
    sheet.line([(W / 2 - 4.8, BAND_Y), (W / 2 - 2.2, BAND_Y)], 0.7, marks)
    sheet.lay(marks, CREAM)
    _points_disc(sheet, RED_POINTS)


@lru_cache(maxsize=4)
def _setup_cached(px_per_mm: float) -> Sheet:
    rng = stable_rng("painted", "setup")
    sheet = Sheet(W, H, px_per_mm)
    sheet.img[:] = texture(sheet, rng, STOCK, (200, 215, 225), dabs=120, dab_amount=0.03, mottle=0.03,
                           streaks=0.015)
    body = sheet.poly([(9, 14), (W - 9, 14), (W - 9, 74), (9, 74)])
    parchment = texture(sheet, rng, (150, 200, 228), (110, 165, 205), dabs=200, mottle=0.1, angle=10)
    sheet.lay(body, parchment)
    burn = cv2.GaussianBlur(cv2.subtract(body, cv2.erode(body, np.ones((sheet.px(3.0),) * 2, np.uint8))),
                            (0, 0), sheet.ppm * 0.8)
    sheet.lay(np.minimum(burn, body), (50, 95, 150), 0.6)  # the parchment's darkened edges
    for y0 in (9.5, 71.5):  # the rolled ends of the scroll, shaded like cylinders
        for k, shade in enumerate((0.55, 0.8, 1.0, 0.85, 0.6)):
            strip = sheet.poly([(6, y0 + k * 1.4), (W - 6, y0 + k * 1.4), (W - 6, y0 + (k + 1) * 1.4),
                                (6, y0 + (k + 1) * 1.4)])
            sheet.lay(strip, np.asarray(parchment, np.float32) * shade)
    ring = sheet.disc(RING_CENTRE, RING_R, width_mm=0.5)
    rose = sheet.poly(star_points(RING_CENTRE, 6.0, 1.6, n=4))
    sheet.poly(star_points(RING_CENTRE, 3.5, 1.0, n=4, turn_deg=45), rose)
    sheet.poly([(W / 2 - 1.3, RING_CENTRE[1] - RING_R - DISC_R - 2.2), (W / 2 + 1.3, RING_CENTRE[1] - RING_R - DISC_R - 2.2),
                (W / 2, RING_CENTRE[1] - RING_R - DISC_R - 0.6)], rose)
    sheet.lay(ring, (50, 80, 110))
    sheet.lay(rose, (40, 70, 110))
    return sheet


def _setup_stock(px_per_mm: float) -> Sheet:
    return _copy(_setup_cached(float(px_per_mm)))


def _letter_ring(sheet: Sheet, letters: str) -> None:
    """Ten letter discs clockwise from the top, the first one red: the only difference."""
    dark, red, text = sheet.blank(), sheet.blank(), sheet.blank()
    for i, letter in enumerate(letters):
        a = 2 * math.pi * i / len(letters)
        c = (RING_CENTRE[0] + RING_R * math.sin(a), RING_CENTRE[1] - RING_R * math.cos(a))
        sheet.disc(c, DISC_R, red if i == 0 else dark)
        write(sheet, letter, c, 3.9, weight=0.17, mask=text)
    sheet.lay(dark, (45, 62, 92))
    sheet.lay(red, (40, 40, 190))
    sheet.lay(text, CREAM)


def _back(kind: BackKind, px_per_mm: float) -> Sheet:
    rng = stable_rng("painted", "back", kind.value)
    sheet = Sheet(W, H, px_per_mm)
    if kind is BackKind.TERRAIN:
        sheet.img[:] = texture(sheet, rng, (110, 40, 90), (150, 70, 140), dabs=400, angle=45, spread=45)
        _foliage(sheet, rng, LEAF_PURPLES, 200, 11.0, hex_wreath=False)
        frame = sheet.line([(5, 5), (W - 5, 5), (W - 5, H - 5), (5, H - 5)], 0.8, closed=True)
        sheet.disc((W / 2, H / 2), 15.0, frame, width_mm=1.6)
        _gold(sheet, frame, "back-frame")
        sheet.lay(sheet.disc((W / 2, H / 2), 14.2), (60, 20, 50))
        bird = sheet.blank()
        sight(sheet, "toucan", (W / 2, H / 2 - 1), 20.0, bird)
        _gold(sheet, bird, "back-logo")
        _ribbon(sheet, H / 2 + 16, (40, 40, 170))
    else:
        base, alt = (BLUE_BASE, BLUE_ALT) if kind is BackKind.BLUE else (RED_BASE, RED_ALT)
        sheet.img[:] = texture(sheet, rng, base, alt, dabs=380, angle=30, spread=50, mottle=0.18)
        for x, y, r in ((W / 2, 30, 9), (20, 50, 10), (43, 50, 10), (W / 2, 56, 11), (14, 68, 8),
                        (W / 2, 72, 9), (49, 69, 8), (31, 42, 6)):
            _star(sheet, (x, y), r, r * 0.43, "back-star")
        _ribbon(sheet, 60, CREAM)
    _vignette(sheet, 0.3)
    return sheet


def _ribbon(sheet: Sheet, y: float, colour: Colour) -> None:
    """A banner across the card with folded, notched ends."""
    body = sheet.poly([(12, y - 3.5)] + [(x, y - 3.5 + 1.2 * math.sin((x - 12) / 39 * math.pi))
                                         for x in np.linspace(12, W - 12, 12)] + [(W - 12, y + 3.5)]
                      + [(x, y + 3.5 + 1.2 * math.sin((x - 12) / 39 * math.pi)) for x in np.linspace(W - 12, 12, 12)])
    ends = sheet.poly([(4, y - 1.5), (13, y - 1.5), (13, y + 5.5), (4, y + 5.5), (6.5, y + 2)])
    sheet.poly([(W - 4, y - 1.5), (W - 13, y - 1.5), (W - 13, y + 5.5), (W - 4, y + 5.5), (W - 6.5, y + 2)], ends)
    sheet.lay(ends, np.asarray(colour, np.float32) * 0.7)
    sheet.lay(body, colour)
    _gold(sheet, outline(sheet, body, 0.5), "ribbon-edge")
