"""Near-twins decided where they differ: painted blue cards (a badge, a digit) and flat set-up cards (letters)."""

from __future__ import annotations

from itertools import islice

import cv2
import numpy as np
import pytest

from tests.benchmarks.vision_sets import enrollment, exam_photos
from tests.vision.conftest import TOPS, clear_deck
from vision.art import card_face
from vision.cards import RED_CARDS, SETUP_CARDS, TERRAINS
from vision.deck import Deck
from vision.detect import Candidate, detect
from vision.features import (
    ALIGN_SIZE,
    CANON_H,
    CANON_W,
    fine_vector,
    order_corners,
    resolution,
    sharpness,
    warp_card,
)
from vision.judge import CLEAR_FINE_MARGIN, MIN_FINE_MARGIN
from vision.optics import Optics
from vision.photo import Photo, PhotoConditions, Thing, take_photo
from vision.reader import RESCALES, CardReader
from vision.refine import refined
from vision.sides import STEADY_NUDGE, nudged, scaled
from vision.store import enroll, load_deck
from vision.twins import Family

BLUES = tuple(f"blue-{letter}{n}" for letter in "ABCDE" for n in (1, 2))
QUERIES = PhotoConditions(card_height=(0.25, 0.40), tilt_deg=(0.0, 10.0), tops=TOPS)
WIDER = PhotoConditions(card_height=(0.15, 0.45), tilt_deg=(0.0, 20.0))  # every top, the benchmark's card sizes and tilt


def _read_photos(reader: CardReader, style: str, cards: tuple[str, ...], first_seed: int, count: int,
                 conditions: PhotoConditions) -> list[tuple[str, str | None]]:
    """(card, name read) for count simulated photos (seeds from first_seed on), the cards taken in turn."""
    read = []
    for i in range(count):
        card = cards[i % len(cards)]
        photo = take_photo([Thing(card_face(style, card), card, card)], np.random.default_rng(first_seed + i), conditions)
        read.append((card, reader.read_quad(photo.image, photo.seen[0].corners).card))
    return read


@pytest.fixture(scope="module")
def painted_blues() -> Deck:
    """The ten painted blue cards: one star, told apart by a letter pair, a digit and a tiny badge."""
    return clear_deck("painted", BLUES)


@pytest.fixture(scope="module")
def flat_set_ups() -> Deck:
    """The thirteen flat set-up cards: one ring of letter discs, told apart by the letters."""
    return clear_deck("flat", SETUP_CARDS)


@pytest.mark.parametrize(("style", "fixture", "cards"), [
    ("painted", "painted_blues", ("blue-D1", "blue-D2", "blue-C1", "blue-C2")),
    ("flat", "flat_set_ups", SETUP_CARDS),
])
def test_twins_are_named_right_or_refused(request, style: str, fixture: str, cards: tuple[str, ...]) -> None:
    """Photos of near-twins are never named as another twin, and most are named."""
    named = _read_photos(CardReader(request.getfixturevalue(fixture)), style, cards, 300, 16, QUERIES)
    assert [(t, n) for t, n in named if n not in (t, None)] == []
    assert sum(n == t for t, n in named) >= 13


def test_the_region_is_where_the_twins_differ(painted_blues: Deck) -> None:
    """Learnt from the photos alone, D1 and D2's region lies in the card's top band (badge, digit)."""
    family = next(f for i in range(len(painted_blues)) if (f := painted_blues.family(i)) is not None)
    rows = [painted_blues.cards.index(c) for c in ("blue-D1", "blue-D2")]
    i, j = (int(np.flatnonzero(family.cards == r)[0]) for r in rows)
    mask = family.sharp.regions.region(i, j)
    top_band = mask[: mask.shape[0] // 5].sum()
    assert top_band >= 0.8 * mask.sum()  # the top fifth of the card holds nearly all the region (badge, digit)


def _shrunk(corners: np.ndarray, share: float) -> np.ndarray:
    """An outline this share of the card's size about its centre (a light border lost on a light table)."""
    centre = corners.mean(axis=0)
    return centre + share * (corners - centre)


def _corner_moved(corners: np.ndarray, corner: int, toward: int, share: float) -> np.ndarray:
    """An outline with one corner moved this share of the way along a side toward another corner."""
    moved = corners.copy()
    moved[corner] += share * (corners[toward] - corners[corner])
    return moved


def test_twins_are_told_apart_when_a_reference_outline_was_a_little_off() -> None:
    """A reference taken by an outline a little inside the card and one with a corner off (a
    light border on a light table) is aligned onto its family before its letters are learnt."""
    reader = CardReader(clear_deck("flat", SETUP_CARDS, {("setup-01", 1): lambda c: _shrunk(c, 0.90),
                                                         ("setup-01", 2): lambda c: _corner_moved(c, 1, 2, 0.10)}))
    named = [name for _, name in _read_photos(reader, "flat", ("setup-01",), 500, 8, QUERIES)]
    assert set(named) <= {"setup-01", None}
    assert named.count("setup-01") >= 6


@pytest.mark.parametrize(("skew", "kept"), [(0.08, 2), (0.16, 1)])
def test_a_twin_photo_enrolled_by_a_skewed_outline_is_undone_or_not_learnt_from(skew: float, kept: int) -> None:
    """One of blue-C2's two photos was enrolled by an outline with a corner moved down its side (its
    header slants). Learnt from as it lies, its digit and badge are out of place and every photo of
    blue-C2 looks like blue-C1 (session 19's reader named all 12 of these "blue-C1"). A corner 8% off
    the coarse alignment undoes (features.COARSE_ALIGN_BLUR): the photo is kept. One 16% off it cannot:
    that photo agrees with its card's other far less than twins' photos do, and is left out."""
    deck = clear_deck("painted", BLUES, {("blue-C2", 2): lambda c: _corner_moved(c, 0, 3, skew)})
    family = deck.family(deck.labels.index("blue-C2"))
    assert (family.owner == deck.cards.index("blue-C2")).sum() == kept
    assert all((family.owner == deck.cards.index(card)).sum() == 2 for card in BLUES if card != "blue-C2")
    named = [name for _, name in _read_photos(CardReader(deck), "painted", ("blue-C2",), 500, 12, QUERIES)]
    assert set(named) <= {"blue-C2", None}
    assert named.count("blue-C2") >= 9


def test_twins_seen_small_look_like_a_small_photo_of_them(painted_blues: Deck) -> None:
    """A twin's photo seen at 40% resolution fits the family's looks at that resolution better than
    its sharp layouts, for every twin: small cards are compared with their twins as blurred as they."""
    family = next(f for i in range(len(painted_blues)) if (f := painted_blues.family(i)) is not None)
    small = family.seen_at(0.4)
    for image, owner in zip(family.aligned, family.owner, strict=True):
        row = int(np.flatnonzero(family.cards == owner)[0])
        shrunk = cv2.resize(image, None, fx=0.4, fy=0.4, interpolation=cv2.INTER_AREA)  # the frame's own pixels
        seen = fine_vector(cv2.resize(shrunk, image.shape[1::-1], interpolation=cv2.INTER_LINEAR))
        assert seen @ small.fine[row] > seen @ family.sharp.fine[row]
    assert family.seen_at(0.41) is small  # one look per resolution step, made once
    assert family.seen_at(1.3) is family.sharp  # a card seen larger than its canonical image is sharp


def test_a_blurred_twin_is_compared_with_its_twins_as_blurred(painted_blues: Deck) -> None:
    """A twin's photo blurred by focus, seen at full resolution, gets a look at a lower resolution
    (as little detail as it holds) that it fits better than the look its size alone would give."""
    family = next(f for i in range(len(painted_blues)) if (f := painted_blues.family(i)) is not None)
    assert family.seen_like(1.0, sharpness(family.aligned[0])) is family.sharp  # sharp: its size decides
    for image, owner in zip(family.aligned, family.owner, strict=True):
        blurred = cv2.GaussianBlur(image, (0, 0), 2.5)
        look = family.seen_like(1.0, sharpness(blurred))
        assert look is not family.sharp and look.sharpness < family.sharp.sharpness
        row = int(np.flatnonzero(family.cards == owner)[0])
        assert fine_vector(blurred) @ look.fine[row] > fine_vector(blurred) @ family.sharp.fine[row]


@pytest.mark.parametrize(("defocus", "motion"), [
    ((0.8, 1.2), 0.3),
    ((1.2, 1.6), 0.5),  # a known limit until the twins' marks (session 24): the #1/#2 twin's name was taken
])
def test_blurred_photos_of_twins_are_named_right_or_refused(painted_blues: Deck, defocus, motion) -> None:
    """Out of focus or streaked by motion, a painted blue card is named, and never as its #1/#2 twin."""
    blurry = PhotoConditions(card_height=(0.2, 0.35), tilt_deg=(0.0, 10.0), tops=TOPS,
                             optics=Optics(defocus_px=defocus, motion=motion))
    named = _read_photos(CardReader(painted_blues), "painted", BLUES, 700, 40, blurry)
    assert [(t, n) for t, n in named if n not in (t, None)] == []
    assert sum(t == n for t, n in named) >= 36  # compared as sharp, 35 were named and one wrong; with looks at the
    # pixel grid 37 or more of 40, with Gaussian looks 36 on the blurrier photos: on 1435 twin photos of the seen styles the
    # Gaussian looks name more (1084 -> 1108) and fewer wrong (34 -> 26)


def _twin_photos(cards: int, seed: int) -> tuple[list[np.ndarray], np.ndarray]:
    """Two canonical photos of each of some twins: one shared art, a digit box that differs per
    twin, and per photo a few bright spots anywhere (glare, painted texture caught differently)."""
    rng = np.random.default_rng(seed)
    art = cv2.GaussianBlur(rng.uniform(40, 215, (CANON_H, CANON_W)).astype(np.float32), (0, 0), 3)
    images, owner = [], []
    for card in range(cards):
        face = art.copy()
        face[10:30, 20:50] = cv2.resize(rng.uniform(0, 255, (4, 6)).astype(np.float32), (30, 20),
                                        interpolation=cv2.INTER_NEAREST)  # the digit box: the twins' difference
        for _ in range(2):
            photo = face + rng.normal(0, 4, face.shape).astype(np.float32)
            for _ in range(6):
                x, y = int(rng.integers(10, CANON_W - 10)), int(rng.integers(40, CANON_H - 10))
                cv2.circle(photo, (x, y), 3, float(rng.uniform(150, 255)), -1)
            images.append(cv2.cvtColor(np.clip(photo, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR))
            owner.append(card)
    return images, np.array(owner)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_pair_of_twins_differs_where_the_family_does_not_where_photos_chanced_to(seed) -> None:
    """Spots that single photos happen to show differ between two twins' means too; across the whole
    family they vary no more than photos do, so the pair's region keeps to the digit box."""
    images, owner = _twin_photos(8, seed)
    family = Family.learn(np.arange(len(images)), np.zeros(ALIGN_SIZE[::-1], np.float32), np.zeros(1), owner, images)
    regions = family.sharp.regions
    mask = regions.region(0, 1)
    box = np.zeros_like(mask)
    box[:30, 2:54] = True  # the digit box in glyph px (inside the cards' 5% margin), grown by the band-pass's and shifts' reach
    assert (mask & ~box).sum() <= 0.5 * mask.sum()  # before: 80% of the region lay on the spots


def test_sharpness_falls_with_blur_and_not_with_light() -> None:
    """Blur lowers a card's detail; a darker, flatter exposure of the same card does not."""
    face = cv2.resize(card_face("painted", "blue-A1"), (CANON_W, CANON_H), interpolation=cv2.INTER_AREA)
    dim = (face.astype(np.float32) * 0.5 + 40).astype(np.uint8)
    assert sharpness(cv2.GaussianBlur(face, (0, 0), 1.5)) < 0.7 * sharpness(face)
    assert sharpness(dim) == pytest.approx(sharpness(face), rel=0.1)


def test_large_painted_blue_twins_are_named_by_their_digit_and_badge(painted_blues: Deck) -> None:
    """A painted blue card a third of the frame tall shows its points digit and "#1"/"#2" badge plainly:
    compared at the card's own pixels it is named, every one of them, and never as its twin."""
    large = PhotoConditions(card_height=(0.30, 0.45), tilt_deg=(0.0, 10.0), tops=TOPS)
    named = _read_photos(CardReader(painted_blues), "painted", BLUES, 900, 20, large)
    assert [(t, n) for t, n in named if n != t] == []


def test_nudged_outlines_lie_a_fraction_of_a_millimetre_around_the_card() -> None:
    """The outlines a twin call is steadied on: grown, shrunk and moved either way along each side by
    about STEADY_NUDGE of the card's height, every corner within twice that of its own, and balanced
    about the card (their corners' mean is its own), so that averaging over them leans no way."""
    quad = np.array([[100, 50], [226, 52], [224, 228], [98, 226]], np.float32)
    height = float(np.linalg.norm(quad[3] - quad[0]))
    moved = [np.linalg.norm(q - quad, axis=1) for q in nudged(quad)]
    assert len(moved) == 6
    assert all(0.5 * STEADY_NUDGE * height < m.max() <= 2.5 * STEADY_NUDGE * height for m in moved)
    assert len({tuple(np.round(q, 3).ravel()) for q in nudged(quad)}) == 6
    assert np.allclose(np.mean(nudged(quad), axis=0), quad, atol=1e-3)


@pytest.fixture(scope="module")
def gilded_blues() -> Deck:
    """The ten gilded blue cards: one compass rose, told apart by a letter pair, a 2 mm digit and a badge."""
    return clear_deck("gilded", BLUES)


@pytest.mark.parametrize("seed", [10, 55])
# 7, 34, 39, 44 and 54 were such photos until twins were pooled over their marks and an alignment that ran off was
# undone, 65 and 108 until the family's alignment became a homography, 29 until the twins' discriminant
# (vision.discriminant); 16, 26 and 96 (blurred, glared blue-D1s) led their own card short of a call once a twin's
# lead was measured against how badly the card fits (parts.twin_lead); 16 is named since the leads are averaged over
# nudged outlines (test_a_twin_call_its_outline_alone_refuses_is_named_from_its_looks)
def test_a_twin_call_a_nudged_outline_turns_is_refused(gilded_blues: Deck, seed: int) -> None:
    """Gilded blue cards, whose twins differ in a 2 mm digit: on these photos the deck's best match on
    the outline alone is another blue card, short of a clear lead, and outlines nudged a fraction of a
    millimetre name yet others: such a call is a guess, so it is refused (Match.steady)."""
    reader = CardReader(gilded_blues)
    card = BLUES[seed % len(BLUES)]
    photo = take_photo([Thing(card_face("gilded", card), card, card)], np.random.default_rng(700 + seed), QUERIES)
    quad = order_corners(photo.seen[0].corners)
    best = reader.deck.match(warp_card(photo.image, quad), resolution=resolution(quad))
    assert best.card != card and best.fine_margin is not None and best.fine_margin < 0.5
    assert {reader.deck.match(warp_card(photo.image, q), resolution=resolution(q)).card for q in nudged(quad)} != {best.card}
    assert reader.read_quad(photo.image, quad).card is None


@pytest.mark.parametrize("seed", [29, 106, 239])
def test_a_twin_call_its_outline_alone_refuses_is_named_from_its_looks(gilded_blues: Deck, seed: int) -> None:
    """Gilded blue cards whose own outline leads their twins by less than MIN_FINE_MARGIN (blurred, glared):
    the twins' leads averaged over that outline and six nudges of it (Deck.match's nudged) lead clearly
    (CLEAR_FINE_MARGIN), every look alone names the card, and it is named."""
    reader = CardReader(gilded_blues)
    card = BLUES[seed % len(BLUES)]
    photo = take_photo([Thing(card_face("gilded", card), card, card)], np.random.default_rng(700 + seed), QUERIES)
    quad = refined(photo.image, order_corners(photo.seen[0].corners))
    alone = reader.deck.match(warp_card(photo.image, quad), resolution=resolution(quad))
    looks = reader.deck.match(warp_card(photo.image, quad), resolution=resolution(quad),
                              nudged=[warp_card(photo.image, q) for q in nudged(quad)])
    assert alone.fine_margin is not None and alone.fine_margin < MIN_FINE_MARGIN
    assert looks.card == card and looks.fine_margin >= CLEAR_FINE_MARGIN and looks.steady
    assert reader.read_quad(photo.image, photo.seen[0].corners).card == card


@pytest.mark.xfail(strict=True, reason="a known limit: this gilded blue-A1 leads blue-A2 by 0.76 on its true outline and "
                   "on every nudge of it (a wrong name before and after session 35's misfit-measured lead)")
def test_a_gilded_blue_a1_is_never_named_its_twin(gilded_blues: Deck) -> None:
    """Seed 120 of the gilded blue queries: the reader must name it blue-A1 or refuse it."""
    card = BLUES[120 % len(BLUES)]
    photo = take_photo([Thing(card_face("gilded", card), card, card)], np.random.default_rng(700 + 120), QUERIES)
    assert CardReader(gilded_blues).read_quad(photo.image, photo.seen[0].corners).card in (card, None)


def test_a_card_fitting_a_twins_odd_photo_best_is_told_among_the_twins() -> None:
    """A photo of a twin taken by an outline cut short looks like no card of the family (similarity
    0.36-0.46) and is not learnt from; but a card that fits it best is one of the twins, told among
    them, not named past their test (a tiled painted "any" card was named mountain so)."""
    faces = {card: cv2.resize(card_face("painted", card), (CANON_W, CANON_H), interpolation=cv2.INTER_AREA)
             for card in ("any", "mountain", "desert")}
    cut_short = cv2.resize(faces["mountain"][CANON_H // 5:], (CANON_W, CANON_H), interpolation=cv2.INTER_AREA)
    deck = Deck([("any", faces["any"]), ("mountain", faces["mountain"]), ("desert", faces["desert"]),
                 ("mountain", cut_short)])
    assert deck._similarity[3, :3].max() < 0.7
    family = deck.family(1)
    assert family is not None and 3 not in family.members
    assert deck.family(3) is family
    assert deck.match(cut_short).fine_margin is not None


@pytest.mark.parametrize("seed", [39, 104])  # 104, a glared blue-C1: no twin led it until the discriminant pooled
def test_a_twin_whose_alignment_runs_off_is_compared_as_its_outline_warped_it(gilded_blues: Deck, seed: int) -> None:
    """A glared, blurred gilded blue card that the alignment onto its family's template turned and
    skewed away (blue-E2 read as blue-D2, blue-C1 as blue-A2) is compared as its true outline warped it."""
    card = BLUES[seed % len(BLUES)]
    photo = take_photo([Thing(card_face("gilded", card), card, card)], np.random.default_rng(700 + seed), QUERIES)
    quad = order_corners(photo.seen[0].corners)
    image = warp_card(photo.image, quad)
    family = gilded_blues.family(0)
    assert family is not None
    assert any(family.align(im) is im for im in (image, np.ascontiguousarray(image[::-1, ::-1])))
    assert gilded_blues.match(image, resolution=resolution(quad)).card == card


def test_large_inkwash_set_up_cards_are_told_by_their_letters_not_their_photos_sharpness() -> None:
    """Inkwash set-up cards 30-45% of the frame tall, compared card by card, named set-up-04 as
    set-up-11 (18 of 26 right, 1 wrong): two photos per card, one blurrier or a pixel off, differ
    beside letters the twins share. Pooled over the letters they show, none is named wrong."""
    reader = CardReader(clear_deck("inkwash", SETUP_CARDS))
    large = PhotoConditions(card_height=(0.30, 0.45), tilt_deg=(0.0, 10.0), tops=TOPS)
    named = _read_photos(reader, "inkwash", SETUP_CARDS, 700, 26, large)
    assert [(t, n) for t, n in named if n not in (t, None)] == []
    assert sum(n == t for t, n in named) >= 20


def test_only_twins_that_differ_by_a_printed_field_need_aligning_before_a_wide_lead_names_them(
        painted_blues: Deck, flat_set_ups: Deck) -> None:
    """Blue cards (a digit, a badge) and set-up cards (letters) differ where their fields are printed, and
    are always aligned onto their template; painted terrain cards differ in their art at large and are
    named right, as their outline warped them when that leads widely."""
    terrain = clear_deck("painted", TERRAINS)
    families = {d: {f.by_print for f in d.families() if f is not None} for d in (painted_blues, flat_set_ups, terrain)}
    assert families == {painted_blues: {True}, flat_set_ups: {True}, terrain: {False}}
    assert painted_blues.by_print("blue-C2") and flat_set_ups.by_print("setup-07") and not terrain.by_print("desert")
    named = _read_photos(CardReader(terrain), "painted", TERRAINS, 700, 15, QUERIES)
    assert [(t, n) for t, n in named if n not in (t, None)] == []
    assert sum(n == t for t, n in named) >= 14


def _photo(style: str, card: str, seed: int, conditions: PhotoConditions = QUERIES) -> Photo:
    """A photo of one card of a style (the seed picks the rest)."""
    return take_photo([Thing(card_face(style, card), card, card)], np.random.default_rng(seed), conditions)


def test_an_outline_over_a_painted_cards_rim_is_read_again_grown_and_shrunk() -> None:
    """Seed 709, a painted "any" card outlined 12% wide of its rim, onto the table: refused as outlined;
    grown and shrunk by 5% it is named "any" both times (it leaned to "any" too), so it is named."""
    reader = CardReader(clear_deck("painted", TERRAINS))
    photo = _photo("painted", "any", 709)
    quad = order_corners(photo.seen[0].corners)
    wide = scaled(quad, 1.12)
    assert reader.read_quad(photo.image, wide).card is None
    assert [r.card for r in reader.read_candidate(photo.image, Candidate(((wide,),)))] == ["any"]


def test_a_card_only_one_of_the_outlines_grown_and_shrunk_names_is_refused() -> None:
    """Seed 840, a painted red-obelisk 15-45% of the frame tall, tilted up to 20 degrees: refused on its
    outline; grown 5% that outline names it, shrunk it is refused. A call one scale makes alone is a guess."""
    reader = CardReader(clear_deck("painted", RED_CARDS))
    image = _photo("painted", "red-obelisk", 840, WIDER).image
    refused = reader.read_quad(image, detect(image).candidates[0].hypotheses[0][0])
    quad = np.array(refused.corners, np.float32)
    alone = [reader.read_quad(image, scaled(quad, k)).card for k in RESCALES]
    assert refused.card is None and sorted(alone, key=str) == [None, "red-obelisk"]
    assert reader.read(image).named == ()


def test_printed_twins_are_never_named_from_an_outline_grown_and_shrunk(tmp_path) -> None:
    """The benchmark's ink-wash photo 37 at seed 20261149 (its deck enrolled as the benchmark does): a
    blurred, glared blue-A1 22% of the frame tall that leans to blue-A2 on its outline, which grown and
    shrunk by 5% names blue-A2 both times, each with a clear lead. Twins told apart by a printed field
    are not read again so (Deck.by_print): the card is refused, as before."""
    for card, shots in enrollment("inkwash", "held-out", 20261149):
        for shot in shots:
            enroll(tmp_path, card, shot.photo.image)
    reader = CardReader(load_deck(tmp_path))
    shot = next(islice(exam_photos("inkwash", "held-out", 20261149, 80), 37, None))
    image = shot.photo.image
    refused = reader.read_quad(image, detect(image).candidates[0].hypotheses[0][0])
    quad = np.array(refused.corners, np.float32)
    assert shot.labels == ["blue-A1"] and refused.card is None and reader.deck.by_print("blue-A1")
    assert [reader.read_quad(image, scaled(quad, k)).card for k in RESCALES] == ["blue-A2", "blue-A2"]
    assert reader.read(image).named == ()
