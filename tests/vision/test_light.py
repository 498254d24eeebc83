"""The frame's light learnt from a named card (vision.light), and the Mayor's second card read in it."""

from __future__ import annotations

import numpy as np
import pytest

import vision.reader
from tests.benchmarks.bench_vision import PAIRS_PER_TOP, SCANNER_SIZE, mayors_pair
from tests.benchmarks.vision_sets import HELD_OUT_TOPS, enrollment, generator
from vision.cards import TERRAINS
from vision.light import LIGHT_GAIN, light_of, relit
from vision.reader import CardReader
from vision.render import STANDARD, render_card
from vision.store import enroll, load_deck
from vision.tables import TableTop

WARM_LAMP = np.array([0.78, 0.9, 1.0], np.float32)  # B, G, R gains of a tungsten lamp the white balance missed
# (no gain over 1: a white border saturated would hide how far the red moved)


def _cast(image: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """An image under other light: each channel times its gain."""
    return np.clip(image.astype(np.float32) * gains, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("card", ["desert", "water", "forest"])
def test_a_named_cards_colours_give_the_frames_light(card: str) -> None:
    """A card seen under a warm lamp gives back the gains that undo the lamp (green's 1), and its image
    relit by them is its enrolled photo again, but for exposure (only the channels' ratios are learnt)."""
    photo = render_card(card, STANDARD, px_per_mm=2.0)
    seen = _cast(photo, WARM_LAMP)
    gains = light_of(seen, [photo])
    assert gains == pytest.approx(WARM_LAMP[1] / WARM_LAMP, rel=0.04)
    assert np.abs(relit(seen, gains).astype(np.float32) - WARM_LAMP[1] * photo).mean() < 2.0  # green's exposure kept


def test_the_light_moves_no_channel_past_its_bound() -> None:
    """A card taken for another (a water card's colours against a desert's photos) asks far more than a
    lamp moves a channel: the gains stop at LIGHT_GAIN."""
    gains = light_of(render_card("water", STANDARD, px_per_mm=2.0), [render_card("desert", STANDARD, px_per_mm=2.0)])
    assert gains.min() >= 1 - LIGHT_GAIN - 1e-9 and gains.max() <= 1 + LIGHT_GAIN + 1e-9
    assert gains.min() == pytest.approx(1 - LIGHT_GAIN) or gains.max() == pytest.approx(1 + LIGHT_GAIN)


def test_a_card_with_no_photo_leaves_the_light_as_it_is() -> None:
    """No enrolled photo to compare a card with: every gain 1, no warning of an empty mean."""
    assert light_of(render_card("water", STANDARD, px_per_mm=2.0), []).tolist() == [1.0, 1.0, 1.0]


@pytest.fixture(scope="module")
def gilded_terrain(tmp_path_factory) -> CardReader:
    """A reader over the gilded terrain cards, enrolled from the benchmark's own photos (seed 20261151)."""
    deck = tmp_path_factory.mktemp("gilded")
    for card, shots in enrollment("gilded", "held-out", 20261151, TERRAINS):
        for shot in shots:
            enroll(deck, card, shot.photo.image)
    return CardReader(load_deck(deck))


def _pair_on_blue_checks() -> tuple[list[str], np.ndarray]:
    """The benchmark's gilded pair at rest 13 on blue checks (seed 20261151): a water card and a forest card."""
    g = generator("gilded", "held-out", 20261151, "pairs")
    for top in HELD_OUT_TOPS:
        for i in range(PAIRS_PER_TOP):
            pair, photo = mayors_pair("gilded", SCANNER_SIZE, g, top)
            if top is TableTop.CHECK_BLUE and i == 13:
                return pair, photo.image
    raise AssertionError("the benchmark no longer lays blue checks")


def test_the_mayors_second_card_is_read_in_the_light_the_first_shows(gilded_terrain: CardReader, monkeypatch) -> None:
    """The gilded forest card beside a water card leads the water card by 0.00 among the terrain cards as
    the frame shows it; in the light the water card shows (blue 0.84, red 1.04) it leads by 0.14 and is
    named. Without that light it stays refused."""
    pair, image = _pair_on_blue_checks()
    assert pair == ["forest", "water"]
    assert sorted(gilded_terrain.read(image).named) == ["forest", "water"]
    monkeypatch.setattr(vision.reader, "light_of", lambda seen, references: np.ones(3))
    assert gilded_terrain.read(image).named == ("water",)
