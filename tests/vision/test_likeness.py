"""The Mayor's second card where no edge outlines it: the place beside the first that looks most like
a terrain card to the deck, named only with the card's detail."""

from __future__ import annotations

import numpy as np
import pytest

import vision.reader
from tests.vision.conftest import AT_REST, clear_deck, pair_at_rest
from vision.art import card_face
from vision.beside import places_beside
from vision.cards import TERRAINS
from vision.detect import detect, from_frame, to_frame
from vision.features import order_corners
from vision.likeness import CLIMB_STEP, LIKELY_PLACES, climbed, likeliest_places, likeness
from vision.photo import Thing, take_photo
from vision.reader import CardReader
from vision.sides import iou, short_side
from vision.tables import TableTop


@pytest.fixture(scope="module")
def inkwash_terrain() -> CardReader:
    """A reader over clear photos of the ink-wash terrain cards (light cards, thin grey rims)."""
    return CardReader(clear_deck("inkwash", TERRAINS))


@pytest.fixture(scope="module")
def flat_terrain() -> CardReader:
    """A reader over clear photos of the flat-colour terrain cards ("any" is mostly white)."""
    return CardReader(clear_deck("flat", TERRAINS))


def _pair(seed: int) -> tuple[list[str], np.ndarray, list[np.ndarray]]:
    """An ink-wash pair at rest on blue checks: the cards, the frame, their true outlines."""
    pair = [TERRAINS[seed % 5], TERRAINS[(seed // 5) % 5]]
    photo = pair_at_rest("inkwash", pair, seed, TableTop.CHECK_BLUE)
    return pair, photo.image, [order_corners(s.corners) for s in photo.seen]


@pytest.mark.parametrize("seed", [4, 17, 41])
def test_a_light_card_on_checks_beside_the_first_is_found_by_likeness(inkwash_terrain: CardReader, monkeypatch,
                                                                      seed: int) -> None:
    """Every edge cue and every place beside the first card ranked by its edges missed the second (the
    checks outshine its rim); the place most like a terrain card is it."""
    pair, image, _ = _pair(seed)
    assert sorted(inkwash_terrain.read(image).named) == sorted(pair)
    monkeypatch.setattr(CardReader, "_with_likeliest", lambda self, frame, detection, cards, found: cards)
    assert len(inkwash_terrain.read(image).named) == 1  # the premise: found by likeness alone


def test_the_likeliest_places_are_the_cards_place_first_and_never_a_place_read_already(
        inkwash_terrain: CardReader) -> None:
    """Beside the first card's true outline, the likeliest place is the second card's; with the second
    card's outline read already (refused, looking like a card), no place lies on it, nor on the first."""
    _, image, (first, second) = _pair(4)
    detection = detect(image)
    places = [to_frame(p, detection.per_px) for p in
              places_beside(from_frame(first, detection.per_px), detection.grad[0].shape)[0]]
    terrain = inkwash_terrain._terrain_refs
    best = likeliest_places(inkwash_terrain.deck, image, places, terrain, [first], [])
    assert 1 <= len(best) <= LIKELY_PLACES and iou(best[0], second) >= 0.7
    assert all(iou(q, first) <= 0.3 for q in best)
    again = likeliest_places(inkwash_terrain.deck, image, places, terrain, [first], [second])
    assert all(iou(q, second) <= 0.3 and iou(q, first) <= 0.3 for q in again)


def test_a_place_a_few_pixels_off_its_card_climbs_onto_it(inkwash_terrain: CardReader) -> None:
    """Outlined two and a half steps off along and across, a card looks far less like itself; moved a
    step at a time while it looks more like a card, the place ends on the card."""
    _, image, (_, second) = _pair(4)
    across = (second[1] - second[0]) / np.linalg.norm(second[1] - second[0])
    down = (second[3] - second[0]) / np.linalg.norm(second[3] - second[0])
    off = second + 2.5 * CLIMB_STEP * short_side(second) * (across + down)
    terrain = inkwash_terrain._terrain_refs
    before = likeness(inkwash_terrain.deck, image, off, terrain)
    after, moved = climbed(inkwash_terrain.deck, image, off, terrain, before)
    assert after >= before + 0.2 and iou(moved, second) >= 0.9 > iou(off, second)


@pytest.mark.parametrize("seed", [3, 17, 35])
def test_a_patch_of_marble_beside_a_lone_flat_card_is_never_named(flat_terrain: CardReader, monkeypatch,
                                                                 seed: int) -> None:
    """Beside a lone flat card on marble the place most like a card is a patch of white marble, which
    passes the coarse call as "any" with a clear margin; it lacks the card's detail and is not named."""
    card = TERRAINS[seed % 5]
    image = take_photo([Thing(card_face("flat", card), card, card)], np.random.default_rng(seed), AT_REST,
                       top=TableTop.MARBLE).image
    assert flat_terrain.read(image).named == (card,)
    monkeypatch.setattr(vision.reader, "shows_detail", lambda deck, frame, corners, card: True)
    assert "any" in flat_terrain.read(image).named and len(flat_terrain.read(image).named) == 2  # the premise
