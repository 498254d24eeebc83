"""The card IDs of contract 2 and what the printed cards carry (facts/tucana.md), as plain data."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

TERRAINS = ("desert", "forest", "mountain", "water", "any")
SIGHTS = ("obelisk", "book", "toucan", "yeti", "sea_monster")
LETTERS = ("A", "B", "C", "D", "E")

# What the printed cards carry has one home, companion/cards.json (facts/tucana.md as data): read
# here as a file, since vision imports no code of the project outside itself.
_PRINTED = json.loads((Path(__file__).resolve().parents[1] / "companion" / "cards.json").read_text("utf-8"))

# Blue bonus card points, (#1, #2) per letter.
BLUE_POINTS = {letter: tuple(points) for letter, points in _PRINTED["blue_cards"].items()}

RED_POINTS = _PRINTED["red_points"]  # every red bonus card is worth this many points

# The 13 set-up cards by card ID, letters read clockwise from the red letter.
SETUP_LETTERS = {f"setup-{int(number):02d}": letters for number, letters in _PRINTED["setup_cards"].items()}

BLUE_CARDS = tuple(f"blue-{letter}{n}" for letter in LETTERS for n in (1, 2))
RED_CARDS = tuple(f"red-{sight}" for sight in SIGHTS)
SETUP_CARDS = tuple(SETUP_LETTERS)

# Every card ID of contract 2, in a stable order.
CARD_IDS = TERRAINS + BLUE_CARDS + RED_CARDS + SETUP_CARDS

# Cards of one kind share their art and may differ in a small detail only (near-twins).
KINDS = (TERRAINS, BLUE_CARDS, RED_CARDS, SETUP_CARDS)


def is_card_id(card: str) -> bool:
    """Tell whether a string is one of the card IDs of contract 2."""
    return card in _CARD_ID_SET


def kind_of(card: str) -> tuple[str, ...]:
    """Return every card ID of the same kind as a card (terrain, blue, red or set-up)."""
    return next(kind for kind in KINDS if card in kind)


def setup_letters(card: str) -> str | None:
    """Return the ten letters of a set-up card read clockwise from the red letter, else None."""
    return SETUP_LETTERS.get(card)


def blue_points(card: str) -> int:
    """Return the points printed on a blue bonus card such as 'blue-C2'."""
    face = _FACES[card]
    return BLUE_POINTS[face.letter][face.number - 1]


def shown_marks(card: str) -> tuple[str, ...]:
    """What a card shows at each of its marks that a twin may show too: a set-up card's ten letters
    by place on the ring, a blue bonus card's letter, badge and points; any other card only itself."""
    face = _FACES[card]
    if face.letters is not None:
        return tuple(f"{place}:{letter}" for place, letter in enumerate(face.letters))
    if face.kind is CardKind.BLUE:
        return (f"letter:{face.letter}", f"badge:{face.number}", f"points:{blue_points(card)}")
    return (card,)


class CardKind(Enum):
    """The four kinds of card the companion reads."""

    TERRAIN = "terrain"
    BLUE = "blue"
    RED = "red"
    SETUP = "setup"


@dataclass(frozen=True)
class CardFace:
    """What a card ID names: its kind and what the card shows (the one parser of card IDs)."""

    kind: CardKind
    terrain: str | None = None  # terrain cards: desert .. any
    letter: str | None = None  # blue bonus cards: A .. E
    number: int | None = None  # blue bonus cards: #1 or #2; set-up cards: 1 .. 13
    sight: str | None = None  # red bonus cards: the sight shown twice
    letters: str | None = None  # set-up cards: the ten letters clockwise from the red letter


def card_face(card: str) -> CardFace | None:
    """What a card ID of contract 2 shows, e.g. 'blue-C2' -> blue, C, #2; None for anything else."""
    return _FACES.get(card)


_FACES = {
    **{t: CardFace(CardKind.TERRAIN, terrain=t) for t in TERRAINS},
    **{f"blue-{letter}{n}": CardFace(CardKind.BLUE, letter=letter, number=n) for letter in LETTERS for n in (1, 2)},
    **{f"red-{sight}": CardFace(CardKind.RED, sight=sight) for sight in SIGHTS},
    **{card: CardFace(CardKind.SETUP, number=int(card.split("-")[1]), letters=letters)
       for card, letters in SETUP_LETTERS.items()},
}
_CARD_ID_SET = frozenset(CARD_IDS)
