"""Outlines placed by the deck's own art (vision.keypoints): painted cards on light wood that no cue outlines."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.conftest import box, clear_deck, pair_at_rest
from vision.cards import TERRAINS
from vision.keypoints import KeypointIndex, distinct
from vision.reader import CardReader
from vision.sides import iou
from vision.tables import TableTop


@pytest.fixture(scope="module")
def painted_terrain() -> CardReader:
    """A reader over the painted terrain cards, two enrollment photos each."""
    return CardReader(clear_deck("painted", TERRAINS))


def _pair_on_light_wood(seed: int) -> tuple[list[str], np.ndarray, list[np.ndarray]]:
    """Two painted terrain cards side by side on light wood: the cards, the frame and their corners."""
    pair = ["forest", "mountain"] if seed % 2 else ["desert", "water"]
    photo = pair_at_rest("painted", pair, seed, TableTop.WOOD_LIGHT)
    return pair, photo.image, [np.asarray(s.corners) for s in photo.seen]


@pytest.mark.parametrize("seed", [2, 3, 12])
def test_a_pair_no_cue_outlines_is_placed_by_its_art(painted_terrain: CardReader, seed: int) -> None:
    """Painted cards whose leafy frames melt into light wood: no cue outlined either card (nothing was
    read), but their art's keypoints place both, and each outline is read like any other."""
    pair, image, _ = _pair_on_light_wood(seed)
    assert sorted(painted_terrain.read(image).named) == sorted(pair)


@pytest.mark.parametrize("seed", [10, 13, 18])
def test_the_partner_of_a_lone_terrain_card_is_looked_for(painted_terrain: CardReader, seed: int) -> None:
    """One card of the Mayor's pair was outlined and named, the other lost in the grain: a terrain
    card comes with another, so the art's keypoints look for it (these photos named one card)."""
    pair, image, _ = _pair_on_light_wood(seed)
    assert sorted(painted_terrain.read(image).named) == sorted(pair)


def test_the_placed_outlines_lie_on_the_cards(painted_terrain: CardReader) -> None:
    """Each card of a pair gets an outline within a few pixels of its true corners."""
    _, image, corners = _pair_on_light_wood(2)
    outlines = painted_terrain.deck.keypoints().outlines(image)
    assert all(max(iou(true, q) for q in outlines) >= 0.9 for true in corners)


def test_an_index_of_no_keypoints_places_nothing() -> None:
    """A deck of blank cards has no keypoint: nothing is placed, and nothing fails."""
    blank = np.full((176, 126, 3), 200, np.uint8)
    index = KeypointIndex.of((blank, blank))
    assert index.outlines(np.full((432, 768, 3), 90, np.uint8)) == []


@pytest.mark.parametrize("placed, expected", [
    ([(40, box(0, 0, 63, 88)), (25, box(0, 0, 31, 44))], 1),  # a card and its quarter: one card
    ([(12, box(0, 0, 31, 44)), (30, box(0, 0, 63, 88))], 1),  # the quarter placed first: still one
    ([(40, box(0, 0, 63, 88)), (35, box(70, 0, 63, 88))], 2),  # the Mayor's pair side by side
    ([(40, box(0, 0, 63, 88)), (35, box(50, 0, 63, 88))], 2),  # overlapping by a fifth: two cards
])
def test_outlines_of_one_card_are_kept_once(placed, expected) -> None:
    """An outline mostly inside a better-placed one (or around it) is the same card."""
    kept = distinct(placed)
    assert len(kept) == expected
    assert kept[0] is max(placed, key=lambda p: p[0])[1]
