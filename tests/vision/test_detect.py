"""The live read's card search (vision.detect) on strongly seamed wood: a full-bleed card whose
outline runs into plank seams is still outlined, and the seams alone are never a card."""

from __future__ import annotations

import numpy as np
import pytest

from vision.art import card_face
from vision.detect import detect
from vision.photo import PhotoConditions, Thing, take_photo
from vision.sides import iou
from vision.tables import TableTop

LIVE = PhotoConditions(frames=((640, 480),), card_height=(0.25, 0.45))  # a live frame, cheap to draw
MIN_IOU = 0.9  # a found outline this close to the true one warps to the same card image


@pytest.mark.parametrize(("top", "seed"), [
    (TableTop.BIRCH, 0), (TableTop.BIRCH, 8), (TableTop.WOOD_LIGHT, 0), (TableTop.WOOD_LIGHT, 8),
])
def test_a_painted_card_across_plank_seams_is_outlined(top, seed) -> None:
    """Seams meet the card's edge and join its blob; cut off, the card's own shape is left."""
    photo = take_photo([Thing(card_face("painted", "any", 3.0), "any", "any")], np.random.default_rng(seed), LIVE, top=top)
    quads = [q for c in detect(photo.image).candidates for h in c.hypotheses for q in h]
    assert max((iou(q, photo.seen[0].corners) for q in quads), default=0.0) >= MIN_IOU


@pytest.mark.parametrize("seed", [0, 4, 8])
def test_the_mayors_two_painted_cards_one_seam_joins_are_both_outlined(seed) -> None:
    """A seam running into both cards of a pair makes one blob of them; cut off, two cards are left."""
    pair = ("forest", "desert")
    photo = take_photo([Thing(card_face("painted", c, 3.0), c, c) for c in pair], np.random.default_rng(seed), LIVE,
                       pair=True, top=TableTop.BIRCH)
    quads = [q for c in detect(photo.image).candidates for h in c.hypotheses for q in h]
    assert all(max((iou(q, s.corners) for q in quads), default=0.0) >= MIN_IOU for s in photo.seen)


@pytest.mark.parametrize("top", [TableTop.BIRCH, TableTop.WOOD_LIGHT, TableTop.WOOD_DARK, TableTop.MAT_SQUARE, TableTop.MAT_HEX])
@pytest.mark.parametrize("seed", [0, 8])
def test_seamed_wood_or_a_grid_alone_shows_no_card(top, seed) -> None:
    """Planks and their seams, or a mat's grid, cut at every spur, still hold no card-shaped piece."""
    photo = take_photo([], np.random.default_rng(seed), LIVE, top=top)
    assert detect(photo.image).candidates == ()


@pytest.mark.parametrize(("top", "seed"), [(TableTop.MARBLE, 0), (TableTop.MARBLE, 4), (TableTop.LAMINATE, 4)])
def test_a_light_card_showing_only_its_panel_keeps_its_rim_as_an_outer_outline(top, seed) -> None:
    """A painted set-up card on a light table: its scroll panel stands out, its light rim hardly;
    the outline moved out onto the rim is kept for the reader (Candidate.outer)."""
    photo = take_photo([Thing(card_face("painted", "setup-04", 3.0), "setup-04", "setup-04")],
                       np.random.default_rng(seed), LIVE, top=top)
    truth = photo.seen[0].corners
    candidates = detect(photo.image).candidates
    assert max(iou(q, truth) for c in candidates for h in c.hypotheses for q in h) < MIN_IOU
    assert max(iou(q, truth) for c in candidates for h in c.outer for q in h) >= MIN_IOU
