"""Plank seams beside the Mayor's pair at rest are never taken for a hand: the scanner's voter gets
clean frames and logs the pair (a frame with a hand in view logs nothing)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.conftest import AT_REST, pair_at_rest
from vision.art import card_face
from vision.cards import TERRAINS
from vision.detect import Detection, detect
from vision.photo import Thing, take_photo
from vision.reader import CardReader
from vision.tables import TableTop


def _pair_at_rest(top: TableTop, seed: int) -> tuple[list[str], np.ndarray]:
    """Two built-in terrain cards at rest on a table top."""
    pair = [TERRAINS[seed % 5], TERRAINS[(seed // 5) % 5]]
    return pair, pair_at_rest("standard", pair, seed, top).image


@pytest.mark.parametrize("seed", [100, 181, 280])
def test_a_plank_seam_is_never_a_hand(seed: int) -> None:
    """A seam across a light table is off the table's colours and as ragged as fingers, but no wider
    than a line along all its length: session 20's search flagged each of these frames as having a
    hand in view."""
    _, image = _pair_at_rest(TableTop.BIRCH, seed)
    assert not detect(image).clutter


@pytest.mark.parametrize(("top", "seed"), [(TableTop.BIRCH, 241),
                                           (TableTop.WOOD_LIGHT, 78), (TableTop.WOOD_LIGHT, 85)])
def test_a_seam_run_into_a_card_is_no_hand(top: TableTop, seed: int, unwiped) -> None:
    """Seams joined to one of the pair meet the frame's side as thin as seams: no arm crosses it there
    (hands.ARM_WIDTH_PX). Session 20's reader flagged each frame as having a hand in view; until session
    40 the search still did, and only the card found later beside the first cleared it."""
    pair, image = _pair_at_rest(top, seed)
    assert not detect(image).clutter
    reading = CardReader().read(image)
    assert sorted(reading.named) == sorted(pair)
    assert reading.clean


def test_a_stray_the_cards_found_later_cover_is_no_hand() -> None:
    """A stray blob the search's own outlines left uncovered is no longer clutter once a card the
    reader found later covers most of it (Detection.clutter_beside), and still is beside it."""
    stray = np.array([[[0, 100]], [[120, 100]], [[120, 160]], [[0, 160]]], np.int32)
    gradient = np.zeros((360, 640), np.float32)
    found = Detection((), True, lambda: (gradient, gradient), np.array([2.0, 2.0]), strays=(stray,))
    over_it = np.array([[0, 190], [250, 190], [250, 330], [0, 330]], np.float64)  # frame px: twice the work px
    beside_it = over_it + [300, 0]
    assert not found.clutter_beside([over_it])
    assert found.clutter_beside([beside_it])


def test_a_hand_the_search_saw_beside_the_mayors_pair_stays_in_view() -> None:
    """A hand reaching in beside two cards at rest: wherever the search took it for a hand, the cards
    the reader finds after it do not cover it, and the frame stays unclean."""
    g = np.random.default_rng(11)
    tops = (TableTop.FELT_RED, TableTop.WOOD_MID, TableTop.LAMINATE, TableTop.MAT_SQUARE)
    seen = 0
    for i in range(12):
        pair = [TERRAINS[i % 5], TERRAINS[(i + 2) % 5]]
        photo = take_photo([Thing(card_face("standard", c), c, c) for c in pair], g, AT_REST, pair=True,
                           top=tops[i % 4], hand=True)
        if detect(photo.image).clutter:
            seen += 1
            assert CardReader().read(photo.image).clutter
    assert seen >= 4


@pytest.mark.parametrize(("style", "top", "seed"), [("standard", TableTop.WOOD_DARK, 14),
                                                    ("woodcut", TableTop.MARBLE, 17),
                                                    ("woodcut", TableTop.WOOD_DARK, 14),
                                                    ("standard", TableTop.BIRCH, 9),  # a plank across the frame
                                                    ("woodcut", TableTop.BIRCH, 22),
                                                    ("standard", TableTop.BIRCH, 2)])  # once a seam the reader cleared
def test_a_ragged_patch_of_the_table_inside_the_frame_is_no_hand(style: str, top: TableTop, seed: int,
                                                                 reader: CardReader, woodcut_reader: CardReader) -> None:
    """A patch of grain or a marble vein off the table's colours, ragged as spread fingers but
    nowhere near the frame's side, or a plank of another tone running from side to side, is the
    table: a hand comes in over one side on its arm and ends in view. Each frame was flagged as
    having a hand in view, and a frame at rest stays so: nothing was logged."""
    pair = [TERRAINS[seed % 5], TERRAINS[(seed // 5) % 5]]
    image = pair_at_rest(style, pair, seed, top).image
    assert not detect(image).clutter
    reading = (reader if style == "standard" else woodcut_reader).read(image)
    assert sorted(reading.named) == sorted(pair)
    assert reading.clean
