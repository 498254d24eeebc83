"""Fixtures private to the vision tests: the built-in reader and rendered card faces; and decks of
clear enrollment photos, built by the helpers below (test modules import them)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.benchmarks.bench_vision import PAIRS_PER_TOP, SCANNER_SIZE, mayors_pair
from tests.benchmarks.vision_sets import HELD_OUT_TOPS, enrollment, generator
from vision.art import card_face
from vision.cards import CARD_IDS, TERRAINS
from vision.deck import Deck, render_deck
from vision.features import order_corners, warp_card
from vision.photo import ENROLL_CONDITIONS, Photo, PhotoConditions, Thing, take_photo
from vision.reader import CardReader
from vision.render import STANDARD, render_card
from vision.store import enroll, load_deck
from vision.tables import TableTop

TOPS = (TableTop.FELT_RED, TableTop.WOOD_MID, TableTop.LAMINATE)  # tuning tops
# Synthetic set-up cards' ring (test_pooling, test_discriminant): ten letter places, (y, x) glyph-layout px
LETTER_PLACES = ((10, 10), (10, 60), (60, 10), (60, 60), (110, 10), (110, 60), (140, 30), (30, 35), (85, 35), (130, 60))
LETTER_PX = 8  # a letter drawn as an 8 x 8 px patch of its own pattern
CLEAR = PhotoConditions(**{**ENROLL_CONDITIONS.__dict__, "tops": TOPS})  # clear enrollment photos on them
AT_REST = PhotoConditions(frames=((768, 432),), card_height=(0.25, 0.45))  # the scanner's stream, the Mayor's pair at rest


def box(x: float, y: float, w: float, h: float) -> np.ndarray:
    """The corners of an upright rectangle, clockwise from its top-left (px)."""
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float64)


def blob_of(*boxes: np.ndarray) -> tuple[np.ndarray, float]:
    """The outer contour of these quads filled together (work px), as a mask's blob comes, and its area."""
    mask = np.zeros((400, 600), np.uint8)
    for quad in boxes:
        cv2.fillPoly(mask, [np.round(quad).astype(np.int32)], 255)
    contour = max(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0], key=cv2.contourArea)
    return contour, cv2.contourArea(contour)


Outline = Callable[[np.ndarray], np.ndarray]  # a photo's true corners (ordered) to the outline it is warped by


def photo_of(style: str, card: str, seed: int, conditions: PhotoConditions, outline: Outline | None = None) -> np.ndarray:
    """The canonical image of one card, warped from a simulated photo's true corners (or the outline
    made of them: an enrollment outline found a little wrong)."""
    photo = take_photo([Thing(card_face(style, card), card, card)], np.random.default_rng(seed), conditions)
    corners = order_corners(photo.seen[0].corners)
    return warp_card(photo.image, outline(corners) if outline else corners)


def pair_at_rest(style: str, pair: list[str], seed: int, top: TableTop, conditions: PhotoConditions = AT_REST) -> Photo:
    """One photo of two cards of a style side by side on a table top (the Mayor's pair at rest)."""
    return take_photo([Thing(card_face(style, c), c, c) for c in pair], np.random.default_rng(seed), conditions,
                      pair=True, top=top)


def bench_pair_at_rest(style: str, seed: int, top: TableTop, index: int) -> tuple[list[str], Photo]:
    """The benchmark's own Mayor's pair at rest (bench_vision.mayors_pairs): the index-th on this held-out top
    of a style and seed, replayed (the pairs before it are drawn again: the generator is one stream)."""
    g = generator(style, "held-out", seed, "pairs")
    for held_out in HELD_OUT_TOPS:
        for i in range(PAIRS_PER_TOP):
            pair, photo = mayors_pair(style, SCANNER_SIZE, g, held_out)
            if (held_out, i) == (top, index):
                return pair, photo
    raise AssertionError(f"the benchmark lays no pair {index} on {top.value}")


def bench_terrain_reader(style: str, seed: int, folder: Path) -> CardReader:
    """A reader over a style's terrain cards, enrolled into folder from the benchmark's own photos of a seed."""
    for card, shots in enrollment(style, "held-out", seed, TERRAINS):
        for shot in shots:
            enroll(folder, card, shot.photo.image)
    return CardReader(load_deck(folder))


def clear_deck(style: str, cards: tuple[str, ...], outlines: dict[tuple[str, int], Outline] | None = None) -> Deck:
    """A deck of two clear enrollment photos per card (photos 1 and 2), on tuning tops; outlines:
    the (card, photo) taken by a wrong outline, and how it is made of the true corners."""
    bent = outlines or {}
    return Deck((card, photo_of(style, card, seed * 100 + i, CLEAR, bent.get((card, seed))))
                for i, card in enumerate(cards) for seed in (1, 2))


@pytest.fixture(scope="session")
def reader() -> CardReader:
    """A reader over the built-in deck (describing the deck once per test run)."""
    return CardReader()


@pytest.fixture(scope="session")
def faces() -> dict[str, np.ndarray]:
    """Every card face of the built-in deck, rendered once."""
    return {card: render_card(card, STANDARD) for card in CARD_IDS}


@pytest.fixture(scope="session")
def woodcut_reader() -> CardReader:
    """A reader over the woodcut deck, the second tuning style (its blue cards' panel is a third of the card)."""
    return CardReader(render_deck("woodcut"))


@pytest.fixture
def unwiped(monkeypatch):
    """The live read without its wiped-lines cue (detect.without_lines as the identity): frames chosen
    because every other cue missed a card, which the wipe now outlines, keep testing the fallbacks
    (the lone search, the card beside the first, a seam that is no hand)."""
    import vision.detect

    monkeypatch.setattr(vision.detect, "without_lines", lambda colour: colour)
