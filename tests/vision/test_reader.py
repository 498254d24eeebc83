"""The reader on rendered camera frames: every card, any rotation, touching pairs, and refusals."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.conftest import TOPS, clear_deck, pair_at_rest
from vision.art import card_face
from vision.cards import CARD_IDS, SETUP_CARDS, TERRAINS, setup_letters
from vision.detect import Candidate, detect
from vision.features import order_corners
from vision.judge import MIN_FINE_MARGIN
from vision.optics import Optics
from vision.photo import PhotoConditions, Thing, take_photo
from vision.props import Background, foreign_card, random_back, render_background
from vision.reader import CardReader, CardReading, FrameReading, disputed
from vision.render import WOODCUT, render_card
from vision.sides import iou
from vision.simulator import Conditions, Placement, Scene, pair_up, random_scene, simulate_frame
from vision.tables import TableTop

EASY = Conditions(glare=0.0, motion_blur=0.0, blur_sigma=(0.0, 0.6))


def _card_at(centre: tuple[float, float], height: float, angle: float) -> np.ndarray:
    """The corners of a card this tall (frame px) at a centre, turned by an angle (degrees)."""
    a = np.radians(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    w = height * 63 / 88
    return np.array([[-w / 2, -height / 2], [w / 2, -height / 2], [w / 2, height / 2], [-w / 2, height / 2]]) @ rot.T + centre


def _frame_at(face: np.ndarray, angle: float, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A clean frame with one card centred at a given rotation; returns (image, true corners)."""
    rng = np.random.default_rng(seed)
    corners = _card_at((640, 360), 300.0, angle)
    scene = Scene(background=render_background(Background.FELT, (1280, 720), rng),
                  placements=(Placement(face, corners, None),), noise_sigma=2.0, jpeg_quality=85)
    return scene.render(rng), corners


@pytest.mark.parametrize("card", CARD_IDS)
def test_every_card_is_named_upright_and_upside_down(reader: CardReader, faces, card: str) -> None:
    """Each card is named confidently either way up, with its letters and its four corners."""
    for angle in (0.0, 180.0):
        image, corners = _frame_at(faces[card], angle)
        reading = reader.read(image)
        assert [r.card for r in reading.cards] == [card], angle
        got = reading.cards[0]
        assert got.confidence >= 0.5
        assert got.letters == setup_letters(card)
        # corners come back clockwise from the card's top-left (or bottom-right: some faces
        # look the same both ways up, see the test below for the ones that do not)
        found = np.array(got.corners)
        assert min(np.abs(found - corners).max(), np.abs(np.roll(found, 2, axis=0) - corners).max()) < 6.0


@pytest.mark.parametrize("card", ["setup-04", "blue-B1", "desert", "any"])
def test_corners_start_at_the_cards_top_left(reader: CardReader, faces, card: str) -> None:
    """The corners returned start at the card's own top-left corner at any rotation."""
    for angle in (0.0, 180.0, 75.0):
        image, corners = _frame_at(faces[card], angle)
        (got,) = reader.read(image).cards
        assert np.abs(np.array(got.corners) - corners).max() < 6.0, angle


def test_set_up_cards_give_their_letters_from_the_red_letter(reader: CardReader, faces) -> None:
    """Each of the 13 set-up cards reads as its own ten letters at different angles."""
    seen = {}
    for i, card in enumerate(SETUP_CARDS):
        image, _ = _frame_at(faces[card], 37.0 * i, seed=i)
        (reading,) = reader.read(image).cards
        seen[card] = reading.letters
    assert seen == {card: setup_letters(card) for card in SETUP_CARDS}
    assert len(set(seen.values())) == 13


def test_any_rotation_on_any_table(reader: CardReader, faces) -> None:
    """Thirty random frames of two cards never misname a card and name nearly all of them."""
    rng = np.random.default_rng(1234)
    counts = {"right": 0, "wrong": 0, "refused": 0}
    for _ in range(30):
        ids = [CARD_IDS[int(i)] for i in rng.integers(0, len(CARD_IDS), 2)]
        frame = simulate_frame([faces[c] for c in ids], rng, labels=ids)
        pairs, extras = pair_up(frame.placements, reader.read(frame.image).cards)
        assert not [r for r in extras if r.card is not None]
        for placement, reading in pairs:
            named = reading.card if reading else None
            counts["right" if named == placement.label else "refused" if named is None else "wrong"] += 1
    assert counts["wrong"] == 0
    assert counts["right"] >= 58  # of 60; the benchmark measures the exact share


@pytest.mark.parametrize("seed", range(8))
def test_touching_cards_are_split(reader: CardReader, faces, seed: int) -> None:
    """Two touching cards are split and both named."""
    rng = np.random.default_rng(500 + seed)
    ids = [CARD_IDS[int(i)] for i in rng.integers(0, len(CARD_IDS), 2)]
    frame = simulate_frame([faces[c] for c in ids], rng, EASY, labels=ids, touching=True)
    reading = reader.read(frame.image)
    assert sorted(ids) == list(reading.named)


def test_two_of_the_same_terrain_are_two_cards(reader: CardReader, faces) -> None:
    """Two cards of the same terrain are read as two cards."""
    frame = simulate_frame([faces["desert"], faces["desert"]], np.random.default_rng(8), EASY,
                           labels=["desert", "desert"], touching=False)
    assert reader.read(frame.image).named == ("desert", "desert")


@pytest.mark.parametrize("kind", ["back", "foreign", "hand", "empty", "other style"])
def test_what_is_not_our_card_is_never_named(reader: CardReader, faces, kind: str) -> None:
    """Card backs, foreign cards, hands, other art and empty tables are never named as cards."""
    rng = np.random.default_rng(77)
    flagged = 0
    for _ in range(6):
        if kind == "back":
            scene = random_scene([random_back(rng), random_back(rng)], rng)
        elif kind == "foreign":
            scene = random_scene([foreign_card(rng)], rng)
        elif kind == "hand":
            scene = random_scene([], rng).with_hand(rng)
        elif kind == "other style":  # our cards in another art: not the built-in deck's cards
            scene = random_scene([render_card("setup-03", WOODCUT)], rng)
        else:
            scene = random_scene([], rng)
        reading = reader.read(scene.render(rng))
        assert reading.named == ()
        if kind in ("hand", "empty"):
            assert reading.cards == ()
        flagged += reading.clutter
    if kind == "hand":  # a pale hand on a pale table can slip by unseen, but is never named
        assert flagged >= 4


def test_a_hand_over_a_card_makes_the_frame_unclean(reader: CardReader, faces) -> None:
    """A hand over a card mostly marks the frame unclean and never yields another card."""
    rng = np.random.default_rng(31)
    unclean = 0
    for _ in range(6):
        scene = random_scene([faces["water"]], rng, labels=["water"]).with_hand(rng)
        reading = reader.read(scene.render(rng))
        assert set(reading.named) <= {"water"}
        unclean += not reading.clean
    assert unclean >= 3  # a hand in view is clutter unless it lies apart from everything


@pytest.mark.parametrize("bad", [
    np.zeros((720, 1280), np.uint8),
    np.zeros((720, 1280, 4), np.uint8),
    np.zeros((720, 1280, 3), np.float32),
    np.zeros((20, 20, 3), np.uint8),
    "not an array",
])
def test_bad_frames_are_refused_with_a_clear_error(reader: CardReader, bad) -> None:
    """Frames of the wrong shape, channels, type or size, or not arrays, raise ValueError."""
    with pytest.raises(ValueError):
        reader.read(bad)


def test_reading_json_is_contract_two(reader: CardReader, faces) -> None:
    """A card reading serialises to contract 2's card, confidence and four corners."""
    image, _ = _frame_at(faces["blue-C2"], 90.0)
    (card,) = reader.read(image).cards
    data = card.to_json()
    assert set(data) == {"card", "confidence", "corners"} and data["card"] == "blue-C2"
    assert 0.0 <= data["confidence"] <= 1.0 and len(data["corners"]) == 4
    assert FrameReading((card,)).clean


_CARD = ((0.0, 0.0), (63.0, 0.0), (63.0, 88.0), (0.0, 88.0))
_NUDGED = ((3.0, 2.0), (64.0, 3.0), (62.0, 90.0), (1.0, 87.0))  # the same card's outline a little off
_TOP_HALF = ((0.0, 0.0), (63.0, 0.0), (63.0, 44.0), (0.0, 44.0))  # a half covers 0.5 of it


@pytest.mark.parametrize(("rival", "is_disputed"), [
    (CardReading("blue-D1", 0.8, _NUDGED), True),  # another card in the same place: trust neither
    (CardReading("blue-D2", 0.8, _NUDGED), False),  # the same card again
    (CardReading("blue-D1", 0.8, _TOP_HALF), False),  # a card's half is another place (two-card reading)
    (CardReading(None, 0.3, _NUDGED), False),  # a refusal names nothing
])
def test_a_card_two_outlines_of_one_place_name_differently_is_disputed(rival, is_disputed) -> None:
    """Two hypotheses of one blob naming different cards where one card lies: neither is trusted."""
    assert disputed(CardReading("blue-D2", 0.6, _CARD), [rival]) is is_disputed


@pytest.fixture(scope="module")
def inkwash_set_ups():
    """The thirteen inkwash set-up cards: one ring of letter discs, told apart by the letters."""
    return clear_deck("inkwash", SETUP_CARDS)


@pytest.mark.parametrize(("seed", "card", "shrink", "shift"), [
    (317, "setup-06", 0.94, (0.0, 0.0)),  # its outline drawn 6% in: leans to setup-12
    (320, "setup-09", 1.0, (3.0, 0.0)),  # 3 px to the right: leans to setup-13
])
def test_a_card_is_not_disputed_by_an_outline_that_only_guesses_among_its_twins(inkwash_set_ups, seed, card,
                                                                                 shrink, shift) -> None:
    """A set-up card named on its true outline stays named when another outline of it, a little off,
    is refused on the twin call: the twin that outline leans to is a guess, not another card there
    (each was refused as disputed before)."""
    reader = CardReader(inkwash_set_ups)
    conditions = PhotoConditions(card_height=(0.25, 0.40), tilt_deg=(0.0, 10.0), tops=TOPS)
    photo = take_photo([Thing(card_face("inkwash", card), card, card)], np.random.default_rng(seed), conditions)
    true = order_corners(photo.seen[0].corners)
    off = true.mean(axis=0) + shrink * (true - true.mean(axis=0)) + np.array(shift)
    guess, match = reader._read_quad(photo.image, off)
    assert guess.card is None and match.card != card and match.fine_margin < MIN_FINE_MARGIN  # the premise
    assert inkwash_set_ups.twins(match.card, card) and not inkwash_set_ups.twins(card, "forest")
    (reading,) = reader.read_candidate(photo.image, Candidate(((off,), (true,))))
    assert reading.card == card


def test_a_card_beside_one_a_stronger_cue_found_alone_is_kept() -> None:
    """Two touching cards on white laminate under a lamp: one is outlined alone, the other only as
    part of the pair's blob; both are found (the blob is kept for what lies beside the first)."""
    pair = ["mountain", "any"]
    photo = take_photo([Thing(card_face("standard", c, 5.0), c, c) for c in pair], np.random.default_rng(136),
                       PhotoConditions(), top=TableTop.LAMINATE, pair=True)
    quads = [q for c in detect(photo.image).candidates for h in c.hypotheses for q in h]
    assert all(max(iou(q, s.corners) for q in quads) >= 0.8 for s in photo.seen)


@pytest.mark.parametrize(("card", "seed"), [("setup-07", 26), ("setup-01", 100)])
def test_a_card_every_live_cue_misses_is_found_by_the_lone_search(reader: CardReader, card, seed, unwiped) -> None:
    """A parchment set-up card on birch hides from every cue of the live read; the frame is searched
    as enrollment searches a photo, and the card found there is named with its corners."""
    photo = take_photo([Thing(card_face("standard", card, 3.0), card, card)], np.random.default_rng(seed),
                       PhotoConditions(card_height=(0.3, 0.45)), top=TableTop.BIRCH)
    assert detect(photo.image).candidates == ()
    (got,) = reader.read(photo.image).cards
    assert got.card == card and iou(np.array(got.corners), photo.seen[0].corners) >= 0.9


@pytest.mark.parametrize(("card", "seed"), [("setup-05", 9), ("red-toucan", 41)])
def test_a_card_the_live_cues_outline_across_is_found_by_the_lone_search(reader: CardReader, card, seed) -> None:
    """A light card on red checks whose rim the cloth swallows: every live outline cuts across it and
    names nothing, so the frame is searched as enrollment searches a photo; the card is named there,
    and no refused outline is left where it lies."""
    photo = take_photo([Thing(card_face("standard", card, 3.0), card, card)], np.random.default_rng(seed),
                       PhotoConditions(card_height=(0.25, 0.45)), top=TableTop.CHECK_RED)
    outlined = [q for c in detect(photo.image).candidates for h in c.hypotheses for q in h]
    assert outlined and max(iou(q, photo.seen[0].corners) for q in outlined) < 0.6
    (got,) = reader.read(photo.image).cards
    assert got.card == card and iou(np.array(got.corners), photo.seen[0].corners) >= 0.7  # or its panel, inside the rim


@pytest.mark.parametrize(("pair", "top", "seed"), [
    (("water", "desert"), TableTop.WOOD_LIGHT, 598),
    (("mountain", "mountain"), TableTop.BIRCH, 837),
    (("mountain", "mountain"), TableTop.BIRCH, 62),  # neither outlined: the first found by the lone search
])
def test_the_mayors_second_card_every_cue_misses_is_found_beside_the_first(reader: CardReader, pair, top, seed,
                                                                           unwiped) -> None:
    """The Mayor's pair, one card (or both) missed by every cue of the live read: the second is found
    beside the first (vision.beside), named, and outlined where it lies."""
    photo = take_photo([Thing(card_face("standard", c, 5.0), c, c) for c in pair], np.random.default_rng(seed),
                       PhotoConditions(), top=top, pair=True)
    outlined = [q for c in detect(photo.image).candidates for h in c.hypotheses for q in h]
    assert min(max((iou(q, s.corners) for q in outlined), default=0.0) for s in photo.seen) < 0.5
    reading = reader.read(photo.image)
    assert reading.named == tuple(sorted(pair))
    assert all(max(iou(np.array(r.corners), s.corners) for r in reading.cards) >= 0.8 for s in photo.seen)


@pytest.mark.parametrize("card", ["setup-04", "blue-C2", "red-yeti"])
def test_a_card_whose_panel_was_outlined_is_read_by_its_rim(reader: CardReader, faces, card: str) -> None:
    """Only the panel inside a card was outlined (a light card on a light table): the outline moved
    out onto its rim is read then, and only then."""
    image, corners = _frame_at(faces[card], 25.0, seed=3)
    panel = corners.mean(axis=0) + 0.7 * (corners - corners.mean(axis=0))
    (panel_only,) = reader.read_candidate(image, Candidate(((panel,),)))
    (by_rim,) = reader.read_candidate(image, Candidate(((panel,),), rims=lambda: ((corners,),)))
    assert panel_only.card is None and by_rim.card == card
    (as_found,) = reader.read_candidate(image, Candidate(((corners,),), rims=lambda: ((panel,),)))
    assert as_found.card == card  # a named outline is not second-guessed by its rim's


def test_a_blob_is_cut_at_its_own_middle_only_when_no_earlier_hypothesis_is_sure(reader: CardReader, faces) -> None:
    """The halved blob (Candidate.halved) is the last hypothesis, made only when the reader gets that far:
    not for a card named surely on its first outline; for one whose outline as found shows half of it."""
    image, corners = _frame_at(faces["desert"], 25.0, seed=3)
    made = []

    def halving() -> tuple[tuple[np.ndarray, ...], ...]:
        made.append(True)
        return ((corners,),)

    (sure,) = reader.read_candidate(image, Candidate(((corners,),), halving=halving))
    assert sure.card == "desert" and not made
    half = np.array([corners[0], (corners[0] + corners[1]) / 2, (corners[2] + corners[3]) / 2, corners[3]])
    (halved,) = reader.read_candidate(image, Candidate(((half,),), halving=halving))
    assert made and halved.card == "desert" and iou(np.array(halved.corners), corners) > 0.9


@pytest.mark.parametrize(("top", "seed"), [
    (TableTop.MAT_SQUARE, 0), (TableTop.MAT_SQUARE, 12), (TableTop.FELT_RED, 17), (TableTop.FELT_RED, 18),
    (TableTop.WOOD_MID, 11),
])
def test_a_water_card_under_glare_close_to_the_blue_cards_is_named(reader: CardReader, top, seed) -> None:
    """Glare washes a water card's colour toward the blue bonus cards' (margin under 0.10): its detail
    is a water card's, theirs is not, so it is named (these were refused)."""
    photo = take_photo([Thing(card_face("standard", "water", 3.0), "water", "water")], np.random.default_rng(seed),
                       PhotoConditions(frames=((640, 480),), card_height=(0.25, 0.45)), top=top)
    assert reader.read(photo.image).named == ("water",)


@pytest.mark.parametrize(("card", "seed"), [("water", 39), ("forest", 16)])
def test_a_card_streaked_by_motion_whose_alignment_runs_off_is_named(woodcut_reader: CardReader, card, seed) -> None:
    """A card streaked 6-8 px: aligning it onto its reference can run off (detail near 0), while the
    outline's own warp agrees with it; detail is the better of the two (these were refused)."""
    cond = PhotoConditions(frames=((768, 432),), card_height=(0.25, 0.45), optics=Optics(motion=1.0, motion_px=(6.0, 8.0)),
                           tops=(TableTop.MAT_SQUARE, TableTop.WOOD_MID, TableTop.FELT_RED, TableTop.LAMINATE))
    photo = take_photo([Thing(card_face("woodcut", card, 3.0), card, card)], np.random.default_rng(seed), cond)
    assert woodcut_reader.read(photo.image).named == (card,)


@pytest.mark.parametrize(("small_height", "small_named"), [(140.0, False), (240.0, True)])
def test_a_card_named_far_smaller_than_another_is_a_piece_and_refused(reader: CardReader, faces, small_height,
                                                                      small_named) -> None:
    """Every card is printed one size: a desert named at a fifth of a forest's area beside it is a piece of
    a card (the "any" card's four-part panel shows a desert quarter when its white rim is lost on checks),
    so it is refused; at 0.64 of the area (a camera tilted 20 degrees) it is a card and named."""
    rng = np.random.default_rng(3)
    scene = Scene(background=render_background(Background.FELT, (1280, 720), rng),
                  placements=(Placement(faces["forest"], _card_at((420, 360), 300, 10), "forest"),
                              Placement(faces["desert"], _card_at((860, 360), small_height, -15), "desert")),
                  noise_sigma=2.0, jpeg_quality=85)
    reading = reader.read(scene.render(rng))
    assert reading.named == (("desert", "forest") if small_named else ("forest",))
    assert len(reading.cards) == 2


@pytest.mark.parametrize("seed", [7, 14, 24, 48])
def test_the_any_card_whose_quarters_the_cues_outline_is_read_whole(reader: CardReader, seed) -> None:
    """The built-in "any" card on blue checks: its blue and grey quarters sink into the cloth, its
    desert and forest quarters stand out and were each named; the outline they tile, doubled
    across the lost half, is the card (these photos were named desert and forest)."""
    photo = take_photo([Thing(card_face("standard", "any", 3.0), "any", "any")], np.random.default_rng(seed),
                       PhotoConditions(frames=((640, 480),)), top=TableTop.CHECK_BLUE)
    assert reader.read(photo.image).named == ("any",)


@pytest.fixture(scope="module")
def inkwash_terrain_reader() -> CardReader:
    """A reader over clear enrollment photos of the inkwash style's five terrain cards (its "any" card
    is four painted quarters)."""
    return CardReader(clear_deck("inkwash", TERRAINS))


def test_a_quarter_of_the_any_card_beside_a_refused_card_is_not_named(inkwash_terrain_reader: CardReader) -> None:
    """An inkwash "any" card beside a water card on blue checks: the cues cut the "any" card into three
    pieces, one its forest quarter, and the water card's outline was refused; the quarter, a third of the
    water card's area beside it, was named forest. It is a piece: nothing is named wrong."""
    photo = pair_at_rest("inkwash", ["any", "water"], 79, TableTop.CHECK_BLUE)
    reading = inkwash_terrain_reader.read(photo.image)
    assert set(reading.named) <= {"any", "water"}
