"""The frame's light learnt from a named card (vision.light), and the Mayor's second card read in it."""

from __future__ import annotations

import numpy as np
import pytest

import vision.reader
from tests.vision.conftest import bench_pair_at_rest, bench_terrain_reader
from vision.light import LIGHT_GAIN, light_of, relit
from vision.reader import CardReader
from vision.render import STANDARD, render_card
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
    return bench_terrain_reader("gilded", 20261151, tmp_path_factory.mktemp("gilded"))


def test_the_mayors_second_card_is_read_in_the_light_the_first_shows(gilded_terrain: CardReader, monkeypatch) -> None:
    """The gilded forest card beside a water card leads the water card by 0.00 among the terrain cards as
    the frame shows it; in the light the water card shows (blue 0.84, red 1.04) it leads by 0.14 and is
    named. Without that light it stays refused."""
    pair, photo = bench_pair_at_rest("gilded", 20261151, TableTop.CHECK_BLUE, 13)  # the benchmark's, replayed
    image = photo.image
    assert pair == ["forest", "water"]
    assert sorted(gilded_terrain.read(image).named) == ["forest", "water"]
    monkeypatch.setattr(vision.reader, "light_of", lambda seen, references: np.ones(3))
    assert gilded_terrain.read(image).named == ("water",)
