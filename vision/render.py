"""The project's own card art: a deterministic renderer for every card ID, in two styles.

STANDARD is the built-in deck (printable with `tucana cards render`). WOODCUT is a second,
deliberately different style (other fonts, colours and layout) that stands in for a real deck
in tests and benchmarks: it is learned by enrolment, never by the built-in references.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards import BLUE_POINTS, CARD_IDS, RED_POINTS, SETUP_LETTERS, TERRAINS
from vision.glyphs import SIGHT_GLYPHS, TERRAIN_GLYPHS, Canvas, Colour

CARD_W_MM, CARD_H_MM = 63.0, 88.0  # a standard card, as the game's cards
PRINT_PX_PER_MM = 300 / 25.4  # `cards render` writes 300 dpi images, the usual print resolution

WHITE: Colour = (255, 255, 255)
BLACK: Colour = (20, 20, 20)
RED: Colour = (40, 30, 215)


@dataclass(frozen=True)
class CardStyle:
    """Colours, font and layout of one rendering of the deck."""

    name: str
    font: int
    border: Colour
    border_mm: float
    terrain_fill: dict[str, Colour]
    terrain_ink: dict[str, Colour]
    blue_fill: tuple[Colour, Colour]  # #1, #2
    red_fill: Colour
    setup_fill: Colour
    letter_discs: dict[str, Colour] | None  # None: plain black letters, no discs
    glyph_centre_y: float  # mm from the top where the big glyph sits
    labels: bool  # terrain and sight names written on the card
    back_fill: Colour


STANDARD = CardStyle(
    name="standard", font=cv2.FONT_HERSHEY_DUPLEX, border=WHITE, border_mm=3.5,
    terrain_fill={"desert": (70, 190, 245), "forest": (60, 140, 40), "mountain": (120, 120, 130),
                  "water": (200, 110, 20)},
    terrain_ink={"desert": (20, 90, 200), "forest": (210, 245, 200), "mountain": (45, 45, 60),
                 "water": (255, 235, 190)},
    blue_fill=((235, 170, 60), (120, 50, 20)), red_fill=(45, 40, 200), setup_fill=(215, 240, 250),
    letter_discs={"A": (200, 120, 0), "B": (40, 150, 20), "C": (150, 40, 140), "D": (0, 130, 240),
                  "E": (100, 100, 100)},
    glyph_centre_y=44.0, labels=True, back_fill=(50, 90, 30),
)

WOODCUT = CardStyle(
    name="woodcut", font=cv2.FONT_HERSHEY_TRIPLEX, border=(190, 215, 230), border_mm=2.0,
    terrain_fill={"desert": (150, 215, 235), "forest": (110, 160, 120), "mountain": (170, 165, 160),
                  "water": (190, 160, 120)},
    terrain_ink={"desert": (40, 70, 110), "forest": (30, 60, 30), "mountain": (60, 50, 50),
                 "water": (90, 50, 20)},
    blue_fill=((200, 150, 110), (170, 110, 70)), red_fill=(80, 80, 170), setup_fill=(190, 215, 230),
    letter_discs=None, glyph_centre_y=38.0, labels=False, back_fill=(60, 60, 120),
)

STYLES = {STANDARD.name: STANDARD, WOODCUT.name: WOODCUT}


def render_card(card: str, style: CardStyle = STANDARD, px_per_mm: float = 4.0) -> np.ndarray:
    """Draw one card face as a BGR image, 63x88 mm at px_per_mm; the same inputs give the same pixels."""
    if card not in CARD_IDS:
        raise ValueError(f"unknown card ID {card!r}")
    cv = Canvas(CARD_W_MM, CARD_H_MM, px_per_mm, style.border)
    if card in TERRAINS:
        _terrain(cv, card, style)
    elif card.startswith("blue-"):
        _blue(cv, card, style)
    elif card.startswith("red-"):
        _red(cv, card[len("red-"):], style)
    else:
        _setup(cv, SETUP_LETTERS[card], style)
    return cv.image


def render_back(style: CardStyle = STANDARD, px_per_mm: float = 4.0) -> np.ndarray:
    """Draw the back of a card: a lattice of diamonds and a toucan, the same for every card."""
    cv = Canvas(CARD_W_MM, CARD_H_MM, px_per_mm, style.border)
    _inner(cv, style, style.back_fill)
    ink = tuple(min(255, v + 60) for v in style.back_fill)
    for row in range(9):
        for col in range(7 - row % 2):
            x, y = 8 + col * 8 + (4 if row % 2 else 0), 8 + row * 9
            cv.poly([(x, y - 3), (x + 2.5, y), (x, y + 3), (x - 2.5, y)], ink)
    cv.circle((31.5, 44), 15, style.border)
    SIGHT_GLYPHS["toucan"](cv, (31.5, 44), 22, style.back_fill)
    return cv.image


def _inner(cv: Canvas, style: CardStyle, fill: Colour) -> tuple[float, float, float, float]:
    b = style.border_mm
    cv.rect((b, b), (CARD_W_MM - b, CARD_H_MM - b), fill)
    return b, b, CARD_W_MM - b, CARD_H_MM - b


def _label(cv: Canvas, text: str, style: CardStyle, colour: Colour, size: float = 5.0) -> None:
    b = style.border_mm
    cv.text(text, (CARD_W_MM / 2, b + 5.5), size, colour, style.font)
    cv.text(text, (CARD_W_MM / 2, CARD_H_MM - b - 5.5), size, colour, style.font, upside_down=True)


def _terrain(cv: Canvas, terrain: str, style: CardStyle) -> None:
    centre = (CARD_W_MM / 2, style.glyph_centre_y)
    if terrain == "any":
        _any_terrain(cv, style)
        return
    _inner(cv, style, style.terrain_fill[terrain])
    ink = style.terrain_ink[terrain]
    TERRAIN_GLYPHS[terrain](cv, centre, 40.0, ink)
    if style.labels:
        _label(cv, terrain.upper(), style, ink)
    else:
        TERRAIN_GLYPHS[terrain](cv, (CARD_W_MM / 2, 72.0), 16.0, ink)


def _any_terrain(cv: Canvas, style: CardStyle) -> None:
    x0, y0, x1, y1 = _inner(cv, style, style.border)
    xm, ym = (x0 + x1) / 2, (y0 + y1) / 2
    quads = (("desert", x0, y0, xm, ym), ("forest", xm, y0, x1, ym),
             ("water", x0, ym, xm, y1), ("mountain", xm, ym, x1, y1))
    for terrain, a, b, c, d in quads:
        cv.rect((a, b), (c, d), style.terrain_fill[terrain])
        TERRAIN_GLYPHS[terrain](cv, ((a + c) / 2, (b + d) / 2), 18.0, style.terrain_ink[terrain])
    star = [(xm + (9 if i % 2 == 0 else 4) * math.sin(i * math.pi / 5),
             ym - (9 if i % 2 == 0 else 4) * math.cos(i * math.pi / 5)) for i in range(10)]
    cv.circle((xm, ym), 11, style.border)
    cv.poly(star, RED if style.labels else BLACK)


def _blue(cv: Canvas, card: str, style: CardStyle) -> None:
    letter, number = card[len("blue-")], int(card[-1])
    points = BLUE_POINTS[letter][number - 1]
    fill = style.blue_fill[number - 1]
    x0, y0, x1, y1 = _inner(cv, style, fill)
    cy = style.glyph_centre_y
    if style.labels:
        cv.circle((CARD_W_MM / 2, cy), 17, WHITE)
        cv.text(letter, (CARD_W_MM / 2, cy), 20, fill, style.font, weight=0.16)
        for i in range(number):  # one or two bars tell #1 from #2 at a glance
            y = y0 + 4 + i * 5
            cv.rect((x0 + 4, y), (x1 - 4, y + 3), WHITE)
        cv.text(f"#{number}", (x0 + 8, y1 - 8), 5, WHITE, style.font)
        cv.text(str(points), (x1 - 10, y1 - 11), 12, WHITE, style.font, weight=0.16)
    else:
        cv.rect((x0 + 6, cy - 16), (x1 - 6, cy + 16), style.border)
        cv.text(letter, (CARD_W_MM / 2 - 9, cy), 22, BLACK, style.font)
        cv.text(str(points), (CARD_W_MM / 2 + 13, cy + 6), 11, BLACK, style.font)
        cv.text("I" * number, (CARD_W_MM / 2, y1 - 12), 9, style.border, style.font)


def _red(cv: Canvas, sight: str, style: CardStyle) -> None:
    x0, y0, x1, y1 = _inner(cv, style, style.red_fill)
    ink = WHITE if style.labels else style.border
    draw = SIGHT_GLYPHS[sight]
    if style.labels:
        draw(cv, (CARD_W_MM / 2, 22), 22, ink)
        draw(cv, (CARD_W_MM / 2, CARD_H_MM - 22), 22, ink, flip=True)
        cv.circle((CARD_W_MM / 2, CARD_H_MM / 2), 7, ink)
        cv.text(str(RED_POINTS), (CARD_W_MM / 2, CARD_H_MM / 2), 8, style.red_fill, style.font)
    else:
        draw(cv, (x0 + 16, y0 + 22), 22, ink)
        draw(cv, (x1 - 16, y0 + 22), 22, ink)
        cv.text(str(RED_POINTS), (CARD_W_MM / 2, y1 - 20), 20, ink, style.font)


def _setup(cv: Canvas, letters: str, style: CardStyle) -> None:
    _inner(cv, style, style.setup_fill)
    cx, cy, ring = CARD_W_MM / 2, style.glyph_centre_y, 21.0
    cv.circle((cx, cy), ring, BLACK if style.labels else (90, 90, 90), 0.8)
    for i, letter in enumerate(letters):  # clockwise from the top, as the card is read
        a = 2 * math.pi * i / len(letters)
        p = (cx + ring * math.sin(a), cy - ring * math.cos(a))
        colour = RED if i == 0 else BLACK
        if style.letter_discs is not None:
            cv.circle(p, 5.6, RED if i == 0 else style.letter_discs[letter])
            cv.text(letter, p, 5.6, WHITE, style.font, weight=0.18)
        else:
            cv.circle(p, 5.0, style.setup_fill)
            cv.text(letter, p, 6.5, colour, style.font, weight=0.14)
    if style.letter_discs is not None:
        cv.poly([(cx - 3, cy - ring - 10), (cx + 3, cy - ring - 10), (cx, cy - ring - 6.5)], RED)
        cv.circle((cx, cy), 6, BLACK, 1.2)
        cv.poly([(cx, cy - 5), (cx + 1.8, cy), (cx, cy + 5), (cx - 1.8, cy)], BLACK)
        b = style.border_mm  # a dark banner at the bottom tells which way up the ring is read
        cv.rect((b, CARD_H_MM - b - 13), (CARD_W_MM - b, CARD_H_MM - b), BLACK)
        cv.text("SET-UP", (cx, CARD_H_MM - b - 6.5), 5, WHITE, style.font)
    else:
        cv.rect((cx - 12, cy + ring + 9), (cx + 12, cy + ring + 13), (90, 90, 90))
