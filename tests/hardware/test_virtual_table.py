"""The virtual table: lays what the game needs next, draws reveals from the cards really left."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.game import Game
from companion.moves import Terrain
from companion.rules import SETUP_CARDS
from hardware.errors import ConfigError
from hardware.virtual_table import VirtualTable
from tests.hardware.conftest import SMALL_FRAME


@pytest.fixture(scope="module")
def virtual() -> VirtualTable:
    """A seeded virtual table at the small test frame size."""
    return VirtualTable(random.Random(9), size=SMALL_FRAME)


def test_next_cards_follow_the_game(log, virtual):
    """The next cards follow the phase: set-up card, red bonus per player count, then terrains."""
    assert virtual.next_cards(Game().state) == ()
    game = log(players=list("ABCDE"), special_bonus=True)
    (setup,) = virtual.next_cards(game.state)
    assert setup.startswith("setup-") and int(setup[-2:]) in SETUP_CARDS
    game.setup()
    reds = virtual.next_cards(game.state)
    assert len(reds) == 2 and all(c.startswith("red-") for c in reds)  # 5 players draw 2
    game.add({"type": "red_bonus", "sights": ["yeti", "book"]})
    pair = virtual.next_cards(game.state)
    assert len(pair) == 2 and all(c in {t.value for t in Terrain} for c in pair)


def test_reveals_come_from_the_cards_left_in_this_round(log, virtual):
    """A round of virtual reveals uses only cards left in the deck and ends on the last turn."""
    game = log(players=["Mary"]).setup()
    drawn: Counter[str] = Counter()
    for _ in range(13):
        a, b = virtual.next_cards(game.state)
        drawn.update((a, b))
        game.reveal(a, b)  # the engine refuses anything the deck cannot hold
    assert sum(drawn.values()) == 26
    assert game.state.is_last_turn


def test_solo_keep_and_game_over(log, virtual):
    """At a solo round end two different blue cards come; after the last round nothing."""
    game = log(players=["Solo"]).setup().to_round_end()
    blues = virtual.next_cards(game.state)
    assert len(blues) == 2 and len(set(blues)) == 2 and all(c.startswith("blue-") for c in blues)
    game.add({"type": "solo_keep", "letters": [c[5] for c in blues]}).to_round_end()
    assert virtual.next_cards(game.state) == ()  # 13 reveals of the last round: only end_game is left


def test_laying_frames(virtual):
    """Laying shows the hand for some frames; adding keeps cards, replacing picks them up first."""
    virtual.lay(["desert"])
    assert virtual.laying
    frames = [virtual.read() for _ in range(5)]
    assert not virtual.laying
    assert frames[0].shape == (SMALL_FRAME[1], SMALL_FRAME[0], 3)
    desert = virtual._placements[0]
    virtual.lay(["desert", "water"])  # extends: the desert stays where it lay, no empty mat between
    assert virtual.cards == ("desert", "water") and virtual._placements[0] is desert
    assert _reads_until_laid(virtual) == 2  # just the hand withdrawing
    virtual.lay(["forest", "water"])  # replaces: the old cards are picked up first
    assert _reads_until_laid(virtual) == 2 + 5


def _reads_until_laid(virtual) -> int:
    reads = 0
    while virtual.laying:
        virtual.read()
        reads += 1
    return reads


@pytest.mark.parametrize("cards", [["lava"], ["desert"] * 4])
def test_bad_lays_are_refused(virtual, cards):
    """Unknown card ids or too many cards raise ConfigError."""
    with pytest.raises(ConfigError):
        virtual.lay(cards)
