"""The camera simulator: seeded, truthful about where the cards are, accepts both kinds of rng."""

from __future__ import annotations

import random

import numpy as np

from vision.props import Background
from vision.simulator import Conditions, random_scene, simulate_frame


def test_same_seed_same_frame(faces) -> None:
    """The same seed gives the same 720p frame with its labels."""
    a = simulate_frame([faces["desert"], faces["water"]], np.random.default_rng(4), labels=["desert", "water"])
    b = simulate_frame([faces["desert"], faces["water"]], np.random.default_rng(4), labels=["desert", "water"])
    assert np.array_equal(a.image, b.image)
    assert a.labels == ("desert", "water")
    assert a.image.shape == (720, 1280, 3) and a.image.dtype == np.uint8


def test_random_random_is_accepted_and_cards_lie_inside(faces) -> None:
    """A random.Random is accepted and every placed card lies inside the frame."""
    rng = random.Random(9)
    for _ in range(5):
        frame = simulate_frame([faces["forest"], faces["any"]], rng)
        for p in frame.placements:
            assert (p.corners >= 0).all() and (p.corners[:, 0] <= 1280).all() and (p.corners[:, 1] <= 720).all()


def test_scene_renders_new_noise_on_the_same_table(faces) -> None:
    """Rendering one scene twice changes only noise, not the table or the cards."""
    scene = random_scene([faces["mountain"]], np.random.default_rng(2), background=Background.FELT)
    a, b = scene.render(np.random.default_rng(1)), scene.render(np.random.default_rng(2))
    assert not np.array_equal(a, b)
    assert np.abs(a.astype(int) - b.astype(int)).mean() < 12  # same table, only noise and JPEG differ


def test_card_region_shows_the_card(faces) -> None:
    """The simulator's placement points at where the card's colour shows in the image."""
    cond = Conditions(glare=0.0, blur_sigma=(0.0, 0.0), motion_blur=0.0, noise_sigma=(0.0, 0.0))
    frame = simulate_frame([faces["water"]], np.random.default_rng(3), cond, background=Background.WOOD)
    centre = frame.placements[0].corners.mean(axis=0).round().astype(int)
    b, g, r = frame.image[centre[1], centre[0]].astype(int)
    assert b > r  # the water card is blue where the simulator says it lies, on a brown table
