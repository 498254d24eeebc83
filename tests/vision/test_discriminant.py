"""The twins' discriminant (vision.discriminant): learnt from degraded photos, it places a card
between each pair of twins, the same on every load. (Its effect on reading: test_twins's nudge test, seed 16.)"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.conftest import LETTER_PLACES, LETTER_PX, clear_deck
from vision.cards import SETUP_CARDS, shown_marks
from vision.discriminant import (
    CARD_SHARES,
    RESOLUTION_SPREAD,
    STEP,
    degraded,
    learn_at,
    resolution_step,
    step_resolution,
    streak,
    warm_resolutions,
)
from vision.features import CANON_H, CANON_W, at_resolution, glyph_shape, glyph_vector, sharpness
from vision.regions import Regions

TWINS = ("blue-A1", "blue-A2")


@pytest.fixture(scope="module")
def painted_twins():
    """The painted blue A1 and A2 (one star, told apart by a digit and a badge): their deck's family."""
    deck = clear_deck("painted", TWINS)
    family = deck.family(0)
    assert family is not None and len(family.cards) == 2
    return deck, family


def test_each_twins_own_photo_leads_toward_it_and_a_blend_toward_neither(painted_twins) -> None:
    """A twin's own enrolled photo lies near its end of the pair (lead about 1), the other's near the
    other end, and the two photos blended lie between (well short of either)."""
    _, family = painted_twins
    disc = family.discriminant_at(1.0)
    rows = {int(c): i for i, c in enumerate(family.cards)}
    a = next(im for im, o in zip(family.aligned, family.owner, strict=True) if rows[int(o)] == 0)
    b = next(im for im, o in zip(family.aligned, family.owner, strict=True) if rows[int(o)] == 1)
    assert disc.beats(glyph_vector(a))[0, 1] > 0.6
    assert disc.beats(glyph_vector(b))[1, 0] > 0.6
    blend = disc.beats(glyph_vector(((a.astype(np.float32) + b) / 2).astype(np.uint8)))[0, 1]
    assert abs(blend) < 0.5
    assert disc.beats(glyph_vector(a))[0, 1] == pytest.approx(-disc.beats(glyph_vector(a))[1, 0])


def test_a_discriminant_is_the_same_on_every_load(painted_twins) -> None:
    """Learnt from fixed draws: two learnt apart from the same photos give the same leads, and a family
    learns each resolution step's once."""
    _, family = painted_twins
    probe = glyph_vector(family.aligned[0])
    learnt = family.discriminant_at(0.5)
    assert learnt.resolution == step_resolution(resolution_step(0.5))
    again = learn_at(family.aligned, family.owner, family.cards, family.sharp.regions.pixels, learnt.resolution,
                     family.sharp.regions.pooling)
    assert np.array_equal(again.beats(probe), learnt.beats(probe))
    assert family.discriminant_at(0.52) is learnt  # within a step: learnt once
    assert family.discriminant_at(0.7) is not learnt


@pytest.mark.parametrize(("length", "angle"), [(1.0, 0.0), (4.0, 0.0), (6.0, np.pi / 2), (5.0, np.pi / 4)])
def test_a_streak_is_a_line_of_its_length_and_angle_summing_to_one(length: float, angle: float) -> None:
    """A motion kernel keeps the light (sums to 1) and spreads it along its angle only."""
    kernel = streak(length, angle)
    assert kernel.sum() == pytest.approx(1.0)
    ys, xs = np.nonzero(kernel)
    spread = np.hypot(np.ptp(xs), np.ptp(ys))
    assert abs(spread - length) <= 1.5
    if angle == 0.0:
        assert np.ptp(ys) == 0
    if angle == np.pi / 2:
        assert np.ptp(xs) == 0


def test_a_photo_degraded_to_a_small_card_holds_less_detail(painted_twins) -> None:
    """Degraded to a card a fifth as sharp, a photo loses detail as a small card does, and keeps its size."""
    _, family = painted_twins
    rng = np.random.default_rng(3)
    grey = family.aligned[0].mean(axis=2).astype(np.float32)
    small = degraded(grey, 0.25, rng)
    assert small.shape == (CANON_H, CANON_W)
    assert sharpness(small) < 0.6 * sharpness(grey)
    assert sharpness(small) == pytest.approx(sharpness(at_resolution(grey, 0.25)), rel=0.5)


@pytest.mark.parametrize("seen", [0.12, 0.2, 0.33, 0.5, 0.8, 0.9, 1.0])
def test_a_card_shares_the_discriminant_learnt_nearest_its_resolution(seen: float) -> None:
    """A card smaller than its template is read with the discriminant learnt within half a step of its
    resolution (a factor of STEP either way at most), so its copies' spread covers it."""
    learnt = step_resolution(resolution_step(seen))
    assert STEP**-0.5 <= seen / learnt <= STEP**0.5
    assert np.exp(RESOLUTION_SPREAD) >= STEP**0.5  # the copies spread at least as far as a step reaches


@pytest.mark.parametrize("seen", [1.0, 1.1, 1.3, 1.9, 2.6])
def test_cards_at_or_above_their_canonical_size_share_the_sharp_discriminant(seen: float) -> None:
    """A card at least as large as its template shows all the template's pixels: one discriminant, learnt at 1."""
    assert step_resolution(resolution_step(seen)) == 1.0


@pytest.mark.parametrize("frame_height", [432, 480, 720])
def test_a_warm_up_covers_every_card_size_a_frame_shows_the_middle_first(frame_height: int) -> None:
    """The warm-up's resolutions hold the step of every card 15-45% of the frame tall, each once,
    and begin with the middle size (the commonest at a table), not the smallest."""
    resolutions = warm_resolutions(frame_height)
    steps = [resolution_step(r) for r in resolutions]
    assert len(set(steps)) == len(steps)
    for share in np.linspace(CARD_SHARES[0], CARD_SHARES[1], 31):
        assert resolution_step(share * frame_height / CANON_H) in steps
    middle = resolution_step(np.mean(CARD_SHARES) * frame_height / CANON_H)
    assert steps[0] == middle
    assert [abs(s - middle) for s in steps] == sorted(abs(s - middle) for s in steps)


def test_a_warmed_deck_has_learnt_what_its_first_cards_would_learn(painted_twins) -> None:
    """Deck.warm learns each family's discriminant at every size a frame this tall shows before a card
    is read, and nothing at sizes it does not show."""
    deck, family = painted_twins
    deck.warm(480)
    assert all(family.discriminant_at(r).learnt for r in warm_resolutions(480))
    assert not family.discriminant_at(0.15).learnt  # a card 26 px tall: smaller than any this table shows


def test_a_warm_up_stops_between_sizes_once_its_deck_is_replaced() -> None:
    """Deck.warm asks until() before each size: true at once, it learns nothing and says it did not finish."""
    deck = clear_deck("painted", TWINS)
    family = deck.family(0)
    assert deck.warm(480, until=lambda: True) is False
    assert not any(family.discriminant_at(r).learnt for r in warm_resolutions(480))
    assert deck.warm(480) is True and all(family.discriminant_at(r).learnt for r in warm_resolutions(480))


FADE = 0.2  # contrast a faded photo shows its letters at


def _set_up_photos(rng: np.random.Generator, faded_card: int, photos_each: int = 2) -> tuple[list[np.ndarray], np.ndarray]:
    """Grey canonical photos of the 13 set-up cards: a shared background, each card's ten letters as
    patches (one pattern per letter) at ten places; the photos of faded_card show their letters faded."""
    gh, gw = glyph_shape()
    my, mx = (CANON_H - gh) // 2, (CANON_W - gw) // 2  # the glyph layout's margins
    background = rng.normal(128, 20, size=(CANON_H, CANON_W))
    letters = {letter: rng.normal(size=(LETTER_PX, LETTER_PX)) * 40 for letter in "ABCDE"}
    photos, owner = [], []
    for c, card in enumerate(SETUP_CARDS):
        for _ in range(photos_each):
            image = background + rng.normal(0, 4, size=background.shape)
            for (y, x), mark in zip(LETTER_PLACES, shown_marks(card), strict=True):
                fade = FADE if c == faded_card else 1.0
                image[my + y:my + y + LETTER_PX, mx + x:mx + x + LETTER_PX] += fade * letters[mark.split(":")[1]]
            photos.append(np.clip(image, 0, 255).astype(np.uint8))
            owner.append(c)
    return photos, np.array(owner)


def _most_alike(card: int) -> int:
    """The set-up card (row) showing the most letters at the same places as this one."""
    shows = [shown_marks(c) for c in SETUP_CARDS]
    return max((k for k in range(len(shows)) if k != card),
               key=lambda k: sum(a == b for a, b in zip(shows[card], shows[k], strict=True)))


@pytest.mark.parametrize(("seed", "faded"), [(1, 3), (3, 3), (5, 3), (2, 7), (4, 7)])
def test_twins_are_told_by_the_letters_they_differ_in_not_by_one_cards_faded_photos(seed: int, faded: int) -> None:
    """A card whose enrolled photos show faded letters: a clear photo of it differs from them at every
    letter, from a twin only where their letters differ. The twins' means pooled where they show the
    same letter (vision.pooling, as regions.Regions pools them), the clear photo leads toward its own card
    over the twin sharing the most letters with it (half its ring): 0.61 and more; each card's own
    photos alone led 0.41 at most."""
    twin = _most_alike(faded)
    photos, owner = _set_up_photos(np.random.default_rng(seed), faded)
    cards = np.arange(len(SETUP_CARDS))
    regions = Regions.learn(np.stack([glyph_vector(p) for p in photos]), owner, cards,
                            [shown_marks(card) for card in SETUP_CARDS])
    disc = learn_at(photos, owner, cards, regions.pixels, 1.0, regions.pooling)
    clear, _ = _set_up_photos(np.random.default_rng(seed), faded_card=-1, photos_each=1)
    assert disc.beats(glyph_vector(clear[faded]))[faded, twin] > 0.5
