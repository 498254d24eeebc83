"""A photo enrolled by a wrong outline (a panel inside the card, the card cut short) is set aside."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.art import card_face
from vision.cards import TERRAINS
from vision.deck import Deck
from vision.features import order_corners, warp_card
from vision.photo import ENROLL_CONDITIONS, PhotoConditions, Thing, take_photo
from vision.store import add_reference, enroll, read_manifest
from vision.tables import TableTop

BLUES = tuple(f"blue-{letter}{n}" for letter in "ABCDE" for n in (1, 2))
ENROLL = PhotoConditions(**{**ENROLL_CONDITIONS.__dict__, "tops": (TableTop.FELT_RED, TableTop.WOOD_MID)})


def _shot(style: str, card: str, seed: int):
    """A clear enrollment photo of one card and its true corners (top-left first, clockwise)."""
    photo = take_photo([Thing(card_face(style, card), card, card)], np.random.default_rng(seed), ENROLL)
    return photo.image, order_corners(photo.seen[0].corners)


def _panel(corners: np.ndarray, share: float = 0.6) -> np.ndarray:
    """An outline drawn around the card's middle share, as if its art panel were taken for the card."""
    centre = corners.mean(axis=0)
    return centre + share * (corners - centre)


def _cut_short(corners: np.ndarray, share: float = 0.3) -> np.ndarray:
    """An outline that loses the card's top share (its header band)."""
    tl, tr, br, bl = corners
    return np.array([tl + share * (bl - tl), tr + share * (br - tr), br, bl])


@pytest.fixture(scope="module")
def blue_photos() -> dict[str, list[tuple[np.ndarray, np.ndarray]]]:
    """Two clear photos of each painted blue card (full-bleed twins), with true corners."""
    return {card: [_shot("painted", card, 40 + 10 * i + k) for k in (0, 1)] for i, card in enumerate(BLUES)}


def _refs(photos: dict) -> list[tuple[str, np.ndarray]]:
    """Each photo warped by its true outline."""
    return [(card, warp_card(image, corners)) for card, shots in photos.items() for image, corners in shots]


@pytest.mark.parametrize("wrong", [_panel, _cut_short])
def test_a_wrongly_outlined_twin_photo_is_set_aside(blue_photos, wrong) -> None:
    """The deck keeps every good photo and sets aside the one taken by a wrong outline."""
    refs = _refs(blue_photos)
    image, corners = blue_photos["blue-C2"][1]
    bad = len(refs)
    deck = Deck([*refs, ("blue-C2", warp_card(image, wrong(corners)))])
    assert deck.doubted == (bad,)
    assert len(deck) == len(refs)
    assert deck.doubts("blue-C2", warp_card(image, wrong(corners)))
    assert not deck.doubts("blue-C2", warp_card(image, corners))


def test_a_cards_only_photo_is_kept_even_when_doubted(blue_photos) -> None:
    """With no better photo of the card, its doubtful one stays: the card must remain nameable."""
    refs = [(c, im) for c, im in _refs(blue_photos) if c != "blue-C2"]
    image, corners = blue_photos["blue-C2"][0]
    deck = Deck([*refs, ("blue-C2", warp_card(image, _panel(corners)))])
    assert deck.doubted == ()
    assert "blue-C2" in deck.cards


def test_cards_of_a_kind_that_are_not_twins_are_not_judged() -> None:
    """Terrain cards of the flat style differ in colour and layout: no norm, nothing set aside."""
    refs = []
    for i, card in enumerate(TERRAINS):
        image, corners = _shot("flat", card, 90 + i)
        refs.append((card, warp_card(image, corners)))
    image, corners = _shot("flat", "desert", 99)
    deck = Deck([*refs, ("desert", warp_card(image, _panel(corners)))])
    assert deck.doubted == ()


def test_enroll_refuses_a_doubtful_photo_and_keeps_the_deck(blue_photos, tmp_path: Path) -> None:
    """store.enroll says why a photo is refused, and the deck folder is left as it was."""
    folder = tmp_path / "deck"
    for card, image in _refs(blue_photos):
        if card != "blue-C2":
            add_reference(folder, card, image)
    before = json.loads((folder / "manifest.json").read_text())
    face = card_face("painted", "blue-C2")
    h, w = face.shape[:2]
    panel = cv2.resize(face[h // 5: h - h // 5, w // 5: w - w // 5], (w, h))  # what a panel outline warps to
    photo = take_photo([Thing(panel, "blue-C2", "blue-C2")], np.random.default_rng(7), ENROLL)
    with pytest.raises(ValueError, match="looks unlike blue-C2's other photos"):
        enroll(folder, "blue-C2", photo.image)
    assert json.loads((folder / "manifest.json").read_text()) == before
    enroll(folder, "blue-C2", blue_photos["blue-C2"][0][0])
    assert len(read_manifest(folder)["blue-C2"]) == 1
