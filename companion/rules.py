"""The printed components as data: deck, score pads, village pairs, bonus cards, set-up cards, achievements."""

from __future__ import annotations

import json
from enum import Enum
from importlib import resources
from types import MappingProxyType

from companion.moves import VILLAGES, Direction, Island, Sight, Terrain

DECK: MappingProxyType[Terrain, int] = MappingProxyType(
    {Terrain.DESERT: 8, Terrain.FOREST: 7, Terrain.MOUNTAIN: 6, Terrain.WATER: 4, Terrain.ANY: 2}
)
DECK_SIZE = sum(DECK.values())  # 27
REVEALS_PER_ROUND = 13  # two cards a turn until one card is left: 13 turns use 26 of 27
ROUNDS: MappingProxyType[Island, int] = MappingProxyType({Island.PETIT: 2, Island.GRANDE: 3})

# The score pad's sight rows: the values circled left to right as sights are joined to villages.
SIGHT_VALUES: MappingProxyType[Island, MappingProxyType[Sight, tuple[int, ...]]] = MappingProxyType(
    {
        Island.PETIT: MappingProxyType(
            {
                Sight.OBELISK: (1, 2),
                Sight.BOOK: (2, 2),
                Sight.TOUCAN: (2, 3),
                Sight.YETI: (3, 4),
                Sight.SEA_MONSTER: (4, 5),
            }
        ),
        Island.GRANDE: MappingProxyType(
            {
                Sight.OBELISK: (1, 2, 2),
                Sight.BOOK: (2, 2, 3),
                Sight.TOUCAN: (2, 3, 3),
                Sight.YETI: (3, 4, 4),
                Sight.SEA_MONSTER: (4, 5, 5),
            }
        ),
    }
)

VILLAGE_POINTS: MappingProxyType[Island, MappingProxyType[str, int]] = MappingProxyType(
    {
        Island.PETIT: MappingProxyType({"A": 14, "B": 13, "C": 12, "D": 11, "E": 10}),
        Island.GRANDE: MappingProxyType({"A": 20, "B": 19, "C": 18, "D": 17, "E": 16}),
    }
)

# What the printed cards carry (set-up letters, bonus points) has one home, cards.json, which
# vision reads too (it imports nothing of ours); the rules see it as typed, read-only tables.
_PRINTED = json.loads(resources.files("companion").joinpath("cards.json").read_text("utf-8"))

# Blue bonus cards: letter -> (#1 points, #2 points).
BLUE_CARDS: MappingProxyType[str, tuple[int, int]] = MappingProxyType(
    {letter: (first, second) for letter, (first, second) in _PRINTED["blue_cards"].items()}
)
RED_POINTS: int = _PRINTED["red_points"]  # every red bonus card shows two identical sights
LARGE_GAME = 5  # from 5 players on: both blue stacks, and 2 red bonus cards
SOLO_REMAINING_KEPT = 2  # solo: 2 blue cards stay for the last round ...
SOLO_KEEP_ALL_AFTER = 3  # ... unless the player already won this many


def blue_stacks(player_count: int) -> dict[str, tuple[int, ...]]:
    """The blue bonus cards on the table at set-up, per letter, top card first."""
    if player_count == 1:
        return {letter: (second,) for letter, (_, second) in BLUE_CARDS.items()}
    if player_count < LARGE_GAME:
        return {letter: (first,) for letter, (first, _) in BLUE_CARDS.items()}
    return {letter: (first, second) for letter, (first, second) in BLUE_CARDS.items()}


def red_card_count(player_count: int) -> int:
    """How many red bonus cards the Special Bonus variant draws (solo: 1, as the facts page says)."""
    return 2 if player_count >= LARGE_GAME else 1


# The 13 set-up cards by their number, letters read clockwise from the red letter.
SETUP_CARDS: MappingProxyType[int, str] = MappingProxyType(
    {int(number): letters for number, letters in _PRINTED["setup_cards"].items()}
)


def setup_card_number(letters: str) -> int | None:
    """The number of the printed set-up card with these letters, or None for a home-made one."""
    for number, card in SETUP_CARDS.items():
        if card == letters:
            return number
    return None


def village_letters(
    letters: str, seat: int, *, start_village: int, direction: Direction, symmetric: bool
) -> str:
    """The letters one player writes at villages 1..10 (seat 1 is the Mayor)."""
    first = start_village if symmetric else (start_village - 1 + seat - 1) % VILLAGES + 1
    step = 1 if direction is Direction.CLOCKWISE else -1
    return "".join(letters[(step * (village - first)) % VILLAGES] for village in range(1, VILLAGES + 1))


class Achievement(Enum):
    """The rulebook's achievement table, lowest first."""

    YETI = "You're better than a yeti, at least"
    BEACH = "You get a day off on the beach"
    DINNER = "Dinner at the Mayor's house"
    OBELISK = "Your name is engraved on the obelisk"
    SEA_MONSTERS = "Even the sea monsters are shocked"
    TOO_GOOD = "Too good for Tucana"


ACHIEVEMENT_THRESHOLDS: MappingProxyType[Island, tuple[int, ...]] = MappingProxyType(
    {Island.PETIT: (50, 60, 70, 80, 90, 100), Island.GRANDE: (110, 125, 140, 155, 170, 185)}
)


def achievement(island: Island, total: int) -> Achievement | None:
    """The best achievement a total reaches on this island, or None below the first."""
    reached = None
    for level, threshold in zip(Achievement, ACHIEVEMENT_THRESHOLDS[island], strict=True):
        if total >= threshold:
            reached = level
    return reached

