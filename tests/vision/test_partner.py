"""The Mayor's second card under glare: a lone named terrain card's partner read among the terrain cards."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.conftest import AT_REST, pair_at_rest
from vision.art import BackKind, card_back, card_face
from vision.art.others import other_card
from vision.cards import TERRAINS
from vision.deck import Match
from vision.judge import partner_named
from vision.optics import Optics
from vision.photo import PhotoConditions, Thing, take_photo
from vision.reader import CardReader
from vision.tables import TableTop

GLARE = PhotoConditions(frames=((768, 432),), card_height=(0.25, 0.45), optics=Optics(glare=1.0))


def _glared_pair(seed: int) -> tuple[list[str], np.ndarray]:
    """Two built-in terrain cards at rest under a lamp's reflection, on laminate or red checks."""
    pair = [TERRAINS[seed % 5], TERRAINS[(seed // 5) % 5]]
    top = (TableTop.LAMINATE, TableTop.CHECK_RED)[seed % 2]
    return pair, pair_at_rest("standard", pair, seed, top, GLARE).image


@pytest.mark.parametrize("seed", [18, 43, 192, 194])
def test_the_glared_partner_of_a_named_terrain_card_is_named(seed: int) -> None:
    """Glare on one card of the Mayor's pair left too little of its art for the whole deck's gates
    (session 19's reader named only the other card in each of these photos); read among the five
    terrain cards, with its detail, it is named."""
    pair, image = _glared_pair(seed)
    reading = CardReader().read(image)
    assert sorted(reading.named) == sorted(pair)
    assert reading.clean


def _beside_a_terrain_card(seed: int) -> tuple[str, np.ndarray]:
    """A built-in terrain card at rest with a card back or another game's card laid beside it."""
    g = np.random.default_rng(seed)
    terrain = TERRAINS[seed % 5]
    if seed % 2:
        other = Thing(card_back("standard", list(BackKind)[seed % 3], 5.0), None, "back")
    else:
        face, name = other_card(g, 5.0)
        other = Thing(face, None, name)
    top = (TableTop.LAMINATE, TableTop.FELT_RED, TableTop.WOOD_MID)[seed % 3]
    photo = take_photo([Thing(card_face("standard", terrain), terrain, terrain), other], g, AT_REST, pair=True, top=top)
    return terrain, photo.image


@pytest.mark.parametrize("seed", range(20))
def test_a_back_or_another_games_card_is_never_a_terrain_cards_partner(seed: int) -> None:
    """The partner reading asks less likeness than the deck's gates, never less detail: a card back or
    another game's card beside a terrain card stays refused (without the detail gate 10 of 40 such
    photos were named a terrain card)."""
    terrain, image = _beside_a_terrain_card(seed)
    assert CardReader().read(image).named == (terrain,)


def _match(score: float, margin: float, detail: float | None, fine: float | None = None, whole: bool = True) -> Match:
    return Match("water", score, margin, fine, False, detail, kind_complete=whole)


@pytest.mark.parametrize(("match", "named"), [
    (_match(0.52, 0.28, 0.68), True),  # a glared water card: weak likeness, its detail
    (_match(0.45, 0.09, 0.76), True),
    (_match(0.39, 0.30, 0.95), False),  # too unlike any terrain card
    (_match(0.60, 0.04, 0.95), False),  # two terrain cards about as likely
    (_match(0.50, 0.25, 0.50), False),  # a card back's detail
    (_match(0.80, 0.40, None), False),  # detail not measured: never named on likeness alone
    (_match(0.60, 0.20, 0.90, fine=0.10), False),  # twins (painted terrains) not told apart
    (_match(0.60, 0.20, 0.90, fine=0.40), True),
    (_match(0.60, 0.20, 0.90, whole=False), False),  # a terrain card of the deck has no photo
])
def test_partner_gates(match: Match, named: bool) -> None:
    """What a lone terrain card's partner needs among the terrain cards (judge.PARTNER_*)."""
    assert partner_named(match) is named


@pytest.mark.parametrize("seed", [18, 43])
def test_a_partner_is_read_on_the_outline_as_it_was_settled(seed: int) -> None:
    """A lone terrain card's partner is read on the outline its refused reading settled on the card's
    edge (vision.refine), not settled a second time: settling is not idempotent (a second pass moved
    outlines up to 2.6 px), and the outline read is the one reported."""
    _, image = _glared_pair(seed)
    reader = CardReader()
    cards = reader.read(image).cards
    corners = np.array(cards[0].corners)
    assert cards[1].card is not None  # the first card, named
    partner = reader._partner(image, corners, cards[1])
    assert partner is not None
    assert sorted(map(tuple, np.round(partner.corners, 3))) == sorted(map(tuple, np.round(corners, 3)))
