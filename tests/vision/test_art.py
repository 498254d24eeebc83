"""The simulator's card styles: every card in every style, deterministic, twins only differ where the
published deck's twins differ, painted cards run to the edge and flat ones keep a white border."""

from __future__ import annotations

import importlib
import math

import cv2
import numpy as np
import pytest

from vision.art import STYLE_NAMES, BackKind, card_back, card_face, painted
from vision.art.brush import hexagon
from vision.cards import BLUE_CARDS, CARD_IDS, RED_CARDS, SETUP_CARDS, TERRAINS
from vision.render import CARD_H_MM, CARD_W_MM, STANDARD, render_card

PPM = 3.0  # px per mm: small and fast, but every card still differs
NEW_STYLES = ("painted", "flat", "dusk", "gilded", "inkwash", "lacquer", "chalk", "mosaic", "riso")


@pytest.fixture(scope="module", params=NEW_STYLES)
def deck(request) -> tuple[str, dict[str, np.ndarray]]:
    """Every face and back of one new style at PPM."""
    style = request.param
    faces = {card: card_face(style, card, PPM) for card in CARD_IDS}
    faces.update({f"back-{k.value}": card_back(style, k, PPM) for k in BackKind})
    return style, faces


def test_every_card_and_back_is_drawn_card_shaped_and_distinct(deck) -> None:
    """Each style draws all 33 cards and 3 backs at the card's size, no two alike."""
    style, faces = deck
    shape = (round(CARD_H_MM * PPM), round(CARD_W_MM * PPM), 3)
    assert len(faces) == 36 and all(f.shape == shape and f.dtype == np.uint8 for f in faces.values())
    names = list(faces)
    small = {n: faces[n][::2, ::2].astype(np.int16) for n in names}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            differ = (np.abs(small[a] - small[b]).max(axis=2) > 40).sum()
            assert differ >= 5, (style, a, b, differ)


@pytest.mark.parametrize("style", NEW_STYLES)
def test_rendering_is_deterministic_at_any_scale(style: str) -> None:
    """The same card at the same scale gives the same pixels, even with the caches emptied."""
    first = card_face(style, "blue-D2", 2.7)
    painted._bonus_cached.cache_clear()
    assert np.array_equal(first, card_face(style, "blue-D2", 2.7))
    assert first.shape == (round(CARD_H_MM * 2.7), round(CARD_W_MM * 2.7), 3)
    assert np.array_equal(card_back(style, BackKind.RED, 2.0), card_back(style, BackKind.RED, 2.0))


def test_unknown_style_or_card_is_refused() -> None:
    """An unknown style or card id raises ValueError."""
    with pytest.raises(ValueError):
        card_face("watercolour", "desert")
    with pytest.raises(ValueError):
        card_face("painted", "joker")


def test_the_builtin_styles_are_the_renderer_unchanged() -> None:
    """The registry's standard style is vision.render's STANDARD, pixel for pixel."""
    assert set(STYLE_NAMES) >= {"standard", "woodcut", "painted", "flat", "dusk"}
    assert np.array_equal(card_face("standard", "setup-04", 2.0), render_card("setup-04", STANDARD, 2.0))


def _differ(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.abs(a.astype(int) - b.astype(int)).max(axis=2) > 0


def _region(points_mm: list[tuple[float, float]], grow_mm: float) -> np.ndarray:
    mask = np.zeros((round(CARD_H_MM * PPM), round(CARD_W_MM * PPM)), np.uint8)
    cv2.fillPoly(mask, [np.round(np.array(points_mm) * PPM).astype(np.int32)], 255)
    k = 2 * math.ceil(grow_mm * PPM) + 1
    return cv2.dilate(mask, np.ones((k, k), np.uint8)) > 0


def _terrains_differ_only_in(style: str, inside: np.ndarray, least: int) -> None:
    """Every two terrain cards of a style differ in more than least pixels, all of them inside."""
    faces = {t: card_face(style, t, PPM) for t in TERRAINS}
    for a in TERRAINS:
        for b in TERRAINS:
            if a < b:
                diff = _differ(faces[a], faces[b])
                assert diff.sum() > least and not (diff & ~inside).any(), (style, a, b)


def _twins_differ_only_in(style: str, cards: tuple[str, ...], inside: np.ndarray, least: int = 20) -> None:
    """Each of a style's cards differs from the first in more than least pixels, all of them inside."""
    first = card_face(style, cards[0], PPM)
    for card in cards[1:]:
        diff = _differ(first, card_face(style, card, PPM))
        assert diff.sum() > least and not (diff & ~inside).any(), (style, card)


def test_painted_terrain_cards_differ_only_inside_the_hexagon() -> None:
    """Painted terrain twins share the frame: every differing pixel lies in the central hexagon."""
    inside = _region(hexagon(painted.HEX_CENTRE, painted.HEX_R), 0.5)
    assert inside.mean() < 0.2  # the frame is most of the card
    _terrains_differ_only_in("painted", inside, 100)


def test_painted_bonus_cards_differ_only_in_the_top_band() -> None:
    """Blue and red painted cards share the star: all ten blue and five red differ only in the band."""
    x0, y0, x1, y1 = painted.BAND
    band = _region([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], 0.5)
    assert band.mean() < 0.2
    for cards in (BLUE_CARDS, RED_CARDS):
        _twins_differ_only_in("painted", cards, band)
    blue, red = card_face("painted", "blue-A1", PPM), card_face("painted", "red-yeti", PPM)
    star = _region([(painted.STAR_CENTRE[0] - 3, painted.STAR_CENTRE[1] - 3),
                    (painted.STAR_CENTRE[0] + 3, painted.STAR_CENTRE[1] + 3)], 0)
    assert np.array_equal(blue[star], red[star])  # the same gold star on both colours


def test_painted_setup_cards_differ_only_in_the_letter_ring() -> None:
    """The thirteen painted set-up cards differ only in the ring of letter discs."""
    cx, cy = painted.RING_CENTRE
    outer = painted.RING_R + painted.DISC_R
    ring = _region([(cx - outer, cy - outer), (cx + outer, cy - outer), (cx + outer, cy + outer),
                    (cx - outer, cy + outer)], 0.5)
    _twins_differ_only_in("painted", SETUP_CARDS, ring)


def test_painted_cards_are_full_bleed_and_flat_cards_have_white_borders() -> None:
    """The outer millimetre of a painted card is painting; of a flat card, white."""
    edge = max(1, round(PPM))
    for card in ("desert", "blue-C1", "red-book"):
        for style, white in (("painted", False), ("flat", True)):
            face = card_face(style, card, PPM).astype(int)
            rim = np.concatenate([face[:edge].reshape(-1, 3), face[-edge:].reshape(-1, 3),
                                  face[:, :edge].reshape(-1, 3), face[:, -edge:].reshape(-1, 3)])
            assert (rim.min(axis=1) > 225).mean() > 0.95 if white else (rim.min(axis=1) > 225).mean() < 0.05


def test_painted_setup_ring_starts_with_a_red_disc_at_the_top() -> None:
    """The first letter's disc (top of the ring) is red, the one to its right is not."""
    face = card_face("painted", "setup-01", 4.0).astype(int)
    cx, cy, r = painted.RING_CENTRE[0], painted.RING_CENTRE[1], painted.RING_R
    top = face[round((cy - r + painted.DISC_R * 0.7) * 4), round(cx * 4)]
    second = (cx + r * math.sin(2 * math.pi / 10), cy - r * math.cos(2 * math.pi / 10) + painted.DISC_R * 0.7)
    right = face[round(second[1] * 4), round(second[0] * 4)]
    assert top[2] > top[0] + 80 and not right[2] > right[0] + 80


def test_dusk_terrain_cards_differ_only_in_their_medallion() -> None:
    """Dusk terrain twins share the dark card: every differing pixel lies in the medallion."""
    from vision.art import dusk

    x, y, r = dusk.MEDALLION
    inside = _region([(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)], 0.6)
    _terrains_differ_only_in("dusk", inside, 50)


def _ring(cx: float, cy: float, r: float, half_width: float) -> np.ndarray:
    ys, xs = np.mgrid[0:round(CARD_H_MM * PPM), 0:round(CARD_W_MM * PPM)]
    return np.abs(np.hypot((xs + 0.5) / PPM - cx, (ys + 0.5) / PPM - cy) - r) <= half_width


def test_mosaic_terrain_cards_differ_only_inside_the_emblem() -> None:
    """Mosaic terrain twins share the frame: every differing pixel lies in the set-in emblem."""
    from vision.art import mosaic

    cx, cy, r = mosaic.EMBLEM
    inside = _ring(cx, cy, 0, r + 0.5)
    assert inside.mean() < 0.2
    _terrains_differ_only_in("mosaic", inside, 100)


@pytest.mark.parametrize("style", ("mosaic", "riso"))
def test_session_25_bonus_and_setup_twins_differ_only_where_the_deck_does(style: str) -> None:
    """Within a colour, blue and red cards differ only in the top band; set-up cards only in their
    ring of letters."""
    module = importlib.import_module(f"vision.art.{style}")
    x0, y0, x1, y1 = module.BAND
    band = _region([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], 0.7)
    assert band.mean() < 0.2
    for cards in (BLUE_CARDS, RED_CARDS):
        _twins_differ_only_in(style, cards, band)
    _twins_differ_only_in(style, SETUP_CARDS, _ring(*module.RING[:3], module.RING[3] + 0.7))


def test_mosaic_runs_to_the_edge_and_riso_keeps_a_paper_border() -> None:
    """The outer 2 mm of a riso card is bare paper (ink sits 3 mm in, at most 0.6 mm off); a mosaic
    card has tiles to the edge."""
    edge = round(2 * PPM)
    for card in ("water", "blue-B2", "red-toucan", "setup-07"):
        for style, paper in (("riso", True), ("mosaic", False)):
            face = card_face(style, card, PPM).astype(int)
            rim = np.concatenate([face[:edge].reshape(-1, 3), face[-edge:].reshape(-1, 3),
                                  face[:, :edge].reshape(-1, 3), face[:, -edge:].reshape(-1, 3)])
            light = (rim.min(axis=1) > 170).mean()
            assert light > 0.95 if paper else light < 0.6, (style, card, light)
