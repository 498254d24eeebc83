"""What breaks a checked cloth's repeat (vision.repeat): the lattice read from a frame, a card in the
cloth's own colours marked, and cards the other cues missed on blue checks outlined by detect."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.art import card_face
from vision.blobs import MIN_CARD_SHARE
from vision.detect import detect
from vision.photo import PhotoConditions, Thing, take_photo
from vision.repeat import lattice_steps, repeat_breaks
from vision.sides import iou
from vision.tables import TableTop

WHITE, HALF, FULL = (245, 240, 235), (200, 150, 110), (170, 90, 30)  # BGR: a blue gingham's three tones
LIVE = PhotoConditions(frames=((640, 480),), card_height=(0.15, 0.3))
MIN_IOU = 0.9  # as test_lattice: an outline this close warps to the same card image


def _gingham(shape: tuple[int, int], period: float, turn_deg: float) -> np.ndarray:
    """A BGR gingham of this period (px) turned by turn_deg, drawn 4x finer and shrunk (smooth edges)."""
    h, w = shape
    y, x = np.mgrid[0:4 * h, 0:4 * w] / 4.0
    t = np.deg2rad(turn_deg)
    u, v = x * np.cos(t) + y * np.sin(t), -x * np.sin(t) + y * np.cos(t)
    a, b = (np.floor(u / (period / 2)) % 2).astype(int), (np.floor(v / (period / 2)) % 2).astype(int)
    tones = np.array([WHITE, HALF, HALF, FULL], np.uint8)
    return cv2.resize(tones[a + 2 * b], (w, h), interpolation=cv2.INTER_AREA)


def _cloth_coloured_card(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A BGR patch in the gingham's own three tones laid out in blobs that never repeat (an ink-wash
    card's waves on blue checks)."""
    noise = cv2.GaussianBlur(rng.normal(size=shape).astype(np.float32), (0, 0), 3.0)
    levels = np.digitize(noise, np.quantile(noise, [0.33, 0.66]))
    return np.array([WHITE, HALF, FULL], np.uint8)[levels]


@pytest.mark.parametrize(("period", "turn"), [(20.0, 17.0), (14.0, 40.0), (31.0, 3.0)])
def test_the_lattice_is_read_from_the_checks(period, turn) -> None:
    """The nearest steps are one period long, to a fraction of a pixel, and run two ways."""
    cloth = cv2.cvtColor(_gingham((360, 480), period, turn), cv2.COLOR_BGR2YCrCb)
    steps = lattice_steps(cloth[..., 0].astype(np.float32), period)
    first = np.array(steps[:4])
    assert np.allclose(np.hypot(first[:, 0], first[:, 1]), period, atol=0.5)
    angles = np.degrees(np.arctan2(first[:, 1], first[:, 0])) % 180
    assert np.ptp(angles) > 60  # two runs, about square to each other


def test_a_card_in_the_cloths_own_colours_breaks_the_repeat() -> None:
    """A patch of the checks' tones that does not repeat is marked, the cloth around it is not."""
    image = _gingham((360, 480), 22.0, 12.0)
    image[120:240, 200:290] = _cloth_coloured_card((120, 90), np.random.default_rng(5))
    mask = repeat_breaks(cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb), 22.0, []) > 0
    card = np.zeros(mask.shape, bool)
    card[130:230, 210:280] = True  # its inside, clear of the blur at its edge
    away = np.ones(mask.shape, bool)
    away[90:270, 170:320] = False
    assert mask[card].mean() > 0.9
    assert mask[away].mean() < 0.01


def test_a_card_found_already_is_left_out() -> None:
    """A known outline and the fill's halo around it are not marked again: nothing card-sized is left."""
    image = _gingham((360, 480), 22.0, 12.0)
    image[120:240, 200:290] = _cloth_coloured_card((120, 90), np.random.default_rng(5))
    known = np.array([[200, 120], [289, 120], [289, 239], [200, 239]], np.float32)
    mask = repeat_breaks(cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb), 22.0, [known])
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    assert max((cv2.contourArea(c) for c in contours), default=0.0) < MIN_CARD_SHARE * mask.size


@pytest.mark.parametrize("seed", [2, 4, 10, 26, 44])
def test_an_inkwash_water_card_on_blue_checks_is_outlined(seed) -> None:
    """An ink-wash water card (blue waves on pale stock) on blue gingham: the blurred cloth took it
    for more cloth and no edge cue closed around it; it breaks the checks' repeat (no outline came
    within 0.9 of the truth for any of these before)."""
    photo = take_photo([Thing(card_face("inkwash", "water", 3.0), "water", "water")],
                       np.random.default_rng(seed), LIVE, top=TableTop.CHECK_BLUE)
    quads = [q for c in detect(photo.image).candidates for h in c.hypotheses for q in h]
    assert max((iou(q, photo.seen[0].corners) for q in quads), default=0.0) >= MIN_IOU


@pytest.mark.parametrize("seed", [1, 5, 28, 33, 36])
def test_a_card_on_checks_seen_at_a_slant_is_outlined(seed) -> None:
    """A camera tilted over the cloth shows its far checks finer than its near ones: each part of the
    frame is compared along its own steps (with the frame's steps alone, none of these was found)."""
    photo = take_photo([Thing(card_face("inkwash", "water", 3.0), "water", "water")],
                       np.random.default_rng(seed), LIVE, top=TableTop.CHECK_BLUE)
    quads = [q for c in detect(photo.image).candidates for h in c.hypotheses for q in h]
    assert max((iou(q, photo.seen[0].corners) for q in quads), default=0.0) >= MIN_IOU
