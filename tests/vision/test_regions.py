"""Where near twins differ and how far a card leads one twin over another there (vision.regions),
on synthetic glyph layouts whose difference is known."""

from __future__ import annotations

import numpy as np
import pytest

from vision import regions as regions_module
from vision.features import glyph_shape
from vision.parts import REGION_REACH
from vision.regions import UNSEEN_LEAD, Regions


def test_regions_of_identical_layouts_score_a_photo_halfway() -> None:
    """A layout exactly between two twins leads neither; each twin leads the other by one."""
    rng = np.random.default_rng(1)
    h, w = glyph_shape()
    a = rng.normal(size=h * w).astype(np.float32)
    b = a.copy()
    b[:3 * w] = rng.normal(size=3 * w)  # the twins differ in the first rows only
    a, b = a / np.linalg.norm(a), b / np.linalg.norm(b)
    regions = Regions.learn(np.stack([a, b]), np.array([0, 1]), np.array([0, 1]))  # one photo each
    assert regions.beats(a)[0, 1] == pytest.approx(1.0, abs=1e-3)
    assert regions.beats(b)[1, 0] == pytest.approx(1.0, abs=1e-3)
    assert abs(regions.beats((a + b) / 2)[0, 1]) < 0.05


@pytest.mark.parametrize(("difference", "seen"), [(0.0, False), (0.02, False), (3.0, True)])
def test_twins_whose_photos_never_showed_where_they_differ_lead_neither(difference: float, seen: bool) -> None:
    """Two photos per twin, each with its own noise: a pair whose means differ no more than photos of one card
    do has no region, only noise, and neither twin is named over the other there; a clear patch is a region."""
    rng = np.random.default_rng(7)
    h, w = glyph_shape()
    common = rng.normal(size=(h, w))
    twin_b = common.copy()
    twin_b[20:30, 40:60] += difference * rng.normal(size=(10, 20))  # a digit box of 5 x 10 mm
    photos = [(t + 0.3 * rng.normal(size=(h, w))).ravel() for t in (common, common, twin_b, twin_b)]
    photos = [(p / np.linalg.norm(p)).astype(np.float32) for p in photos]
    regions = Regions.learn(np.stack(photos), np.array([0, 0, 1, 1]), np.array([0, 1]))
    assert bool(regions.seen[0]) is seen
    beats = regions.beats(photos[0])
    if seen:
        assert beats[0, 1] > 0.5 and beats[1, 0] < -0.5
    else:
        assert beats[0, 1] == beats[1, 0] == UNSEEN_LEAD


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_a_digit_too_faint_at_any_pixel_sets_twins_apart_over_the_familys_mark(seed: int) -> None:
    """Eight twins, two photos each, differ only in a faint 3 x 7 mm digit box: no 2.5 mm patch of it
    stands out from the photos' noise, but over the box, where the family varies, every pair differs;
    so the pair is seen there, and a fresh photo of one twin leads the other."""
    rng = np.random.default_rng(seed)
    h, w = glyph_shape()
    common, noise = rng.normal(size=(h, w)), 0.45
    digits = rng.choice([-noise, noise], size=(8, 6, 14))  # each twin's own faint digit
    twins = [common.copy() for _ in digits]
    for twin, digit in zip(twins, digits, strict=True):
        twin[12:18, 80:94] += digit

    def photo(twin: np.ndarray) -> np.ndarray:
        p = (twin + noise * rng.normal(size=(h, w))).ravel()
        return ((p - p.mean()) / np.linalg.norm(p - p.mean())).astype(np.float32)

    photos = np.stack([photo(t) for t in twins for _ in range(2)])
    owner = np.repeat(np.arange(8), 2)
    means = photos.reshape(8, 2, -1).mean(axis=1)
    error = regions_module._photo_noise(photos, owner, np.arange(8), means)
    assert not regions_module._region(means[0], means[1], error, np.zeros(h * w, np.int32))[1]  # no patch alone
    regions = Regions.learn(photos, owner, np.arange(8))
    assert bool(regions.seen[0])
    box = np.zeros((h, w), bool)
    box[12 - REGION_REACH:18 + REGION_REACH, 80 - REGION_REACH:94 + REGION_REACH] = True
    assert (regions.region(0, 1) & ~box).sum() <= 0.2 * regions.region(0, 1).sum()
    assert regions.beats(photo(twins[0]))[0, 1] > 0


def _twin_layouts(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Glyph layouts of three twins, two photos each: a shared pattern with an 8 x 8 px mark that each
    twin shows a little differently (as a "2" and a "3" blurred alike)."""
    h, w = glyph_shape()
    shared = rng.normal(size=(h, w))
    common = rng.normal(size=(8, 8)) * 3.0
    marks = [common + rng.normal(size=(8, 8)) for _ in range(3)]
    photos, owner = [], []
    for card, mark in enumerate(marks):
        for _ in range(2):
            image = shared + 0.2 * rng.normal(size=(h, w))
            image[20:28, 30:38] += mark
            v = image.ravel() - image.mean()
            photos.append((v / np.linalg.norm(v)).astype(np.float32))
            owner.append(card)
    return np.stack(photos), np.array(owner), np.arange(3)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_card_fitting_its_twins_badly_leads_them_only_as_far_as_it_fits(seed: int) -> None:
    """A twin's photo drowned in noise (streaked past what any photo showed) fits neither twin well
    where they differ; the twins' small difference there is no yardstick for its lead, which is
    measured against how badly it fits. A clear photo leads its twin by about 1, a drowned one by
    under 0.7 (measured against the twins' difference alone: a median of 0.8-1.0, up to 1.4)."""
    rng = np.random.default_rng(seed)
    photos, owner, cards = _twin_layouts(rng)
    regions = Regions.learn(photos, owner, cards)
    clear = photos[0]
    assert regions.beats(clear)[0, 1] > 0.9
    drowned = []
    for _ in range(20):
        noisy = clear + 1.5 * np.abs(clear).mean() * rng.normal(size=clear.shape).astype(np.float32)
        drowned.append(abs(float(regions.beats(noisy / np.linalg.norm(noisy))[0, 1])))
    assert max(drowned) < 0.7
