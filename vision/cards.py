"""The card IDs of contract 2 and what the printed cards carry (facts/tucana.md), as plain data."""

from __future__ import annotations

TERRAINS = ("desert", "forest", "mountain", "water", "any")
SIGHTS = ("obelisk", "book", "toucan", "yeti", "sea_monster")
LETTERS = ("A", "B", "C", "D", "E")

# Blue bonus card points, (#1, #2) per letter (facts/tucana.md).
BLUE_POINTS = {"A": (3, 2), "B": (4, 2), "C": (5, 3), "D": (6, 4), "E": (7, 5)}

RED_POINTS = 6  # every red bonus card is worth 6 points

# The 13 set-up cards, letters read clockwise from the red letter (facts/tucana.md numbering).
SETUP_LETTERS = {
    "setup-01": "CEBAEDCDAB",
    "setup-02": "ECAEBDABDC",
    "setup-03": "ADCBDACEBE",
    "setup-04": "EBDBACAECD",
    "setup-05": "BEDCBADECA",
    "setup-06": "ACBDCDEBAE",
    "setup-07": "BDCAEBEDCA",
    "setup-08": "CAECBADEBD",
    "setup-09": "EADBCEBDAC",
    "setup-10": "DBACECDAEB",
    "setup-11": "DADBAECECB",
    "setup-12": "DCEADCBAEB",
    "setup-13": "BACBDCEAED",
}

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
    letter, number = card[len("blue-")], int(card[-1])
    return BLUE_POINTS[letter][number - 1]


_CARD_ID_SET = frozenset(CARD_IDS)
