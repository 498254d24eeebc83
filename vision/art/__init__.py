"""Card art in several independent styles, for the simulator: every card ID and the three backs.

A style is drawn by its own code path (own shapes, colours, fonts and layout), so a reader tuned
on one style can be measured on another it has never seen:

    STANDARD, WOODCUT   vision.render: the built-in deck and its second style (backs all alike)
    PAINTED             vision.art.painted: full-bleed painted cards modelled on the published
                        deck's structure: one leafy frame on all terrain cards (only a central
                        hexagon differs), one gold star on all bonus cards (only a small top band
                        differs), set-up scrolls that differ only in their ten letters
    FLAT                vision.art.flat: flat colours inside white borders, block letters
    DUSK                vision.art.dusk: dark, low-contrast cards, silver line art, no light edge
    GILDED              vision.art.gilded: full-bleed teal cards with gold filigree, the published
                        deck's twin structure drawn anew by a separate hand (session 23), never tuned on
    INKWASH             vision.art.inkwash: ink and watercolour scenes inside a thin paper margin, by
                        another separate hand (session 23), never tuned on
    LACQUER             vision.art.lacquer: full-bleed red, navy and vermilion lacquer with gold vine
                        work and a gold lantern, the published deck's twin structure, drawn in
                        session 24 by a separate hand, never tuned on
    CHALK               vision.art.chalk: grainy chalk and pastel on dark slate, a rough chalk line
                        2 mm in, no white border; drawn in session 24 by a separate hand, never tuned on
    MOSAIC              vision.art.mosaic: full-bleed Roman floor mosaic of irregular tiles in dark grout,
                        the published deck's twin structure; drawn in session 25 by a separate hand,
                        never tuned on
    RISO                vision.art.riso: risograph print in pink, teal and yellow halftone inks off
                        register on speckled paper inside a 3 mm paper border; drawn in session 25 by a
                        separate hand, never tuned on

    face = card_face("painted", "blue-C2", px_per_mm=4.0)   # BGR uint8, 63x88 mm, deterministic
    back = card_back("flat", BackKind.RED)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from functools import cache, partial

import numpy as np

from vision.cards import CARD_IDS, CardKind, blue_points
from vision.cards import card_face as card_face_of
from vision.render import STANDARD, WOODCUT, render_back, render_card


class BackKind(Enum):
    """The three card backs of the game: the terrain deck's, the blue and the red bonus cards'."""

    TERRAIN = "terrain"
    BLUE = "blue"
    RED = "red"


@dataclass(frozen=True)
class ArtStyle:
    """One drawing of the whole deck: face(card, px_per_mm) and back(kind, px_per_mm)."""

    name: str
    face: Callable[[str, float], np.ndarray]
    back: Callable[[BackKind, float], np.ndarray]


def face_by_kind(card: str, px_per_mm: float, terrain: Callable, blue: Callable, red: Callable,
                 setup: Callable) -> np.ndarray:
    """A card face drawn by its style's painter for its kind: terrain(terrain, ppm), blue(letter, number,
    points, ppm), red(sight, ppm), setup(letters, ppm); ValueError for an unknown card."""
    face = card_face_of(card)
    if face is None:
        raise ValueError(f"unknown card ID {card!r}")
    if face.kind is CardKind.TERRAIN:
        return terrain(face.terrain, px_per_mm)
    if face.kind is CardKind.BLUE:
        return blue(face.letter, face.number, blue_points(card), px_per_mm)
    if face.kind is CardKind.RED:
        return red(face.sight, px_per_mm)
    return setup(face.letters, px_per_mm)


def _builtin(style) -> ArtStyle:
    """The renderer's styles have one back for every card."""
    return ArtStyle(style.name, lambda card, ppm: render_card(card, style, ppm),
                    lambda kind, ppm: render_back(style, ppm))


def _own_module(name: str) -> ArtStyle:
    """A style drawn by its own module, vision.art.<name> (render_face, render_back), imported on first use."""
    module = importlib.import_module(f"vision.art.{name}")
    return ArtStyle(name, module.render_face, module.render_back)


_STYLES: dict[str, Callable[[], ArtStyle]] = {
    "standard": lambda: _builtin(STANDARD),
    "woodcut": lambda: _builtin(WOODCUT),
    **{name: partial(_own_module, name)
       for name in ("painted", "flat", "dusk", "gilded", "inkwash", "lacquer", "chalk", "mosaic", "riso")},
}
STYLE_NAMES = tuple(_STYLES)


@cache
def art_style(name: str) -> ArtStyle:
    """The style of that name; ValueError for an unknown one."""
    if name not in _STYLES:
        raise ValueError(f"unknown card style {name!r} (known: {', '.join(STYLE_NAMES)})")
    return _STYLES[name]()


def card_face(style: str, card: str, px_per_mm: float = 4.0) -> np.ndarray:
    """One card face in a style, BGR uint8, portrait 63x88 mm; ValueError for an unknown card."""
    if card not in CARD_IDS:
        raise ValueError(f"unknown card ID {card!r}")
    return art_style(style).face(card, px_per_mm)


def card_back(style: str, kind: BackKind, px_per_mm: float = 4.0) -> np.ndarray:
    """One card back in a style, BGR uint8, portrait 63x88 mm."""
    return art_style(style).back(kind, px_per_mm)
