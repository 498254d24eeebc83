"""Twins' photos pooled over the marks where they show the same thing (vision.pooling)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.conftest import LETTER_PLACES, LETTER_PX
from vision.cards import SETUP_CARDS, shown_marks
from vision.features import glyph_shape
from vision.pooling import Pooling
from vision.regions import Regions


def _ring_photos(rng: np.random.Generator, blur_card: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two glyph-layout photos per set-up card: a shared background, each card's ten letters as
    patches (one pattern per letter) at ten places; the photos of blur_card have their letters faded."""
    h, w = glyph_shape()
    background = rng.normal(size=(h, w))
    letters = {letter: rng.normal(size=(LETTER_PX, LETTER_PX)) * 2.0 for letter in "ABCDE"}
    photos, owner = [], []
    for c, card in enumerate(SETUP_CARDS):
        for _ in range(2):
            image = background + 0.3 * rng.normal(size=(h, w))
            for (y, x), mark in zip(LETTER_PLACES, shown_marks(card), strict=True):
                fade = 0.5 if c == blur_card else 1.0
                image[y:y + LETTER_PX, x:x + LETTER_PX] += fade * letters[mark.split(":")[1]]
            v = image.ravel() - image.mean()
            photos.append((v / np.linalg.norm(v)).astype(np.float32))
            owner.append(c)
    return np.stack(photos), np.array(owner), np.arange(len(SETUP_CARDS))


def _marks() -> np.ndarray:
    """The glyph pixels of each of the ten places, as marks 1..10."""
    h, w = glyph_shape()
    marks = np.zeros((h, w), np.int32)
    for k, (y, x) in enumerate(LETTER_PLACES, start=1):
        marks[y:y + LETTER_PX, x:x + LETTER_PX] = k
    return marks.ravel()


def test_each_place_on_the_ring_is_pooled_by_the_letter_shown_there() -> None:
    """The ten letter places are learnt from the photos: each mark is grouped by the letter at its own place."""
    photos, owner, cards = _ring_photos(np.random.default_rng(2))
    means = np.stack([photos[owner == c].mean(axis=0) for c in cards])
    shows = [shown_marks(card) for card in SETUP_CARDS]
    pooling = Pooling.plan(means, _marks(), shows)
    for place in range(10):
        letters = [s[place] for s in shows]
        same = np.array([[a == b for b in letters] for a in letters])
        grouped = pooling.groups[place + 1][:, None] == pooling.groups[place + 1][None, :]
        assert (grouped == same).all()


def test_a_mark_no_field_explains_keeps_each_cards_own_photos() -> None:
    """Marks whose cards vary at random (no field of what they show) pool nothing."""
    rng = np.random.default_rng(3)
    means = rng.normal(size=(13, glyph_shape()[0] * glyph_shape()[1]))
    pooling = Pooling.plan(means, _marks(), [shown_marks(card) for card in SETUP_CARDS])
    assert (pooling.groups == np.arange(13)).all()


def test_pooled_means_hold_every_photo_showing_the_letter_and_each_cards_own_elsewhere() -> None:
    """Over a mark, a card's mean is the mean of every photo of the cards in its group; off marks, its own."""
    photos, owner, cards = _ring_photos(np.random.default_rng(4))
    means = np.stack([photos[owner == c].mean(axis=0) for c in cards])
    pooling = Pooling.plan(means, _marks(), [shown_marks(card) for card in SETUP_CARDS])
    pooled, counts = pooling.means(photos, owner, cards)
    first = _marks() == 1
    group = pooling.groups[1] == pooling.groups[1][0]
    assert np.allclose(pooled[0, first], photos[np.isin(owner, cards[group])][:, first].mean(axis=0))
    assert (counts[0, first] == 2 * group.sum()).all()
    assert np.allclose(pooled[0, ~(_marks() > 0)], means[0, ~(_marks() > 0)])


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_twins_are_set_apart_where_their_letters_differ_not_where_one_cards_photos_are_faded(seed: int) -> None:
    """A card whose two photos show their letters faded (blurred) differs from a twin at every place
    compared card by card; pooled by letter, only at the places whose letters differ."""
    photos, owner, cards = _ring_photos(np.random.default_rng(seed), blur_card=3)
    shows = [shown_marks(card) for card in SETUP_CARDS]
    regions = Regions.learn(photos, owner, cards, shows)
    differ = {p for p, (a, b) in enumerate(zip(shows[3], shows[10], strict=True)) if a != b}
    region = regions.region(3, 10)
    for place, (y, x) in enumerate(LETTER_PLACES):
        inside = region[y + LETTER_PX // 2, x + LETTER_PX // 2]
        assert inside == (place in differ), place


@pytest.mark.parametrize("seed", [8, 9, 10])
def test_twins_are_told_apart_by_their_letters_not_by_a_strip_where_each_cards_photos_happen_to_agree(seed: int) -> None:
    """A strip at the card's rim where each card's photos share a chance look of their own (both taken by
    an outline a little off alike) varies from card to card like a mark, but no field of what the twins
    show explains it: it is left out of every pair's region, the letters that differ are kept."""
    rng = np.random.default_rng(seed)
    photos, owner, cards = _ring_photos(rng)
    h, w = glyph_shape()
    strip = np.zeros((h, w), bool)
    strip[0:4, 85:110] = True
    looks = rng.normal(size=(len(cards), int(strip.sum()))) * 0.02
    photos[:, strip.ravel()] += looks[owner]
    shows = [shown_marks(card) for card in SETUP_CARDS]
    pooling = Pooling.plan(np.stack([photos[owner == c].mean(axis=0) for c in cards]), _marks_with(strip), shows)
    assert (pooling.printed()[strip.ravel()] == 0).all()
    regions = Regions.learn(photos, owner, cards, shows)
    for a, b in ((3, 10), (0, 1)):
        region = regions.region(a, b)
        assert not region[strip].any()
        differ = [p for p, (x, y) in enumerate(zip(shows[a], shows[b], strict=True)) if x != y]
        assert all(region[y + LETTER_PX // 2, x + LETTER_PX // 2] for y, x in (LETTER_PLACES[p] for p in differ))


def _marks_with(strip: np.ndarray) -> np.ndarray:
    """The ten places' marks and the strip as mark 11."""
    marks = _marks().copy()
    marks[strip.ravel()] = 11
    return marks
