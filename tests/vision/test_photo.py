"""The photo camera: seeded, truthful about where cards lie, within issue 9's conditions, and the
exported photo sets in the format score.py reads."""

from __future__ import annotations

import json
from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.benchmarks.make_vision_set import main as make_set
from tests.benchmarks.make_vision_set import write_set
from vision.art import card_face
from vision.optics import Optics
from vision.photo import ENROLL_CONDITIONS, PhotoConditions, Thing, take_photo
from vision.tables import TableTop

FAST = PhotoConditions(frames=((640, 480),), tops=(TableTop.LAMINATE, TableTop.FELT_RED))  # cheap to draw
CLEAN = Optics(exposure=(1.0, 1.0), lamp=0.0, vignette=(0.0, 0.0), warmth=0.0, tint=0.0, cast=0.0, glare=0.0,
               defocus_px=(0.0, 0.0), motion=0.0, read_noise=(0.0, 0.0), shot_noise=(0.0, 0.0), bayer=0.0,
               sharpen=(0.0, 0.0), jpeg=(95, 95))


@pytest.fixture(scope="module")
def things() -> dict[str, Thing]:
    """A few flat-style cards, drawn small."""
    return {c: Thing(card_face("flat", c, 3.0), c, c) for c in ("desert", "water", "blue-C1", "setup-03")}


def test_same_seed_same_photo_and_the_jpeg_is_the_image(things) -> None:
    """One seed gives one photo; its JPEG bytes decode to exactly the image returned."""
    a = take_photo([things["desert"]], np.random.default_rng(5), FAST)
    b = take_photo([things["desert"]], np.random.default_rng(5), FAST)
    assert np.array_equal(a.image, b.image) and a.labels == ["desert"]
    decoded = cv2.imdecode(np.frombuffer(a.jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert np.array_equal(decoded, a.image)
    assert 60 <= a.optics["jpeg"] <= 90


def test_cards_lie_inside_the_frame_at_the_asked_heights_and_tilts(things) -> None:
    """Over many photos: both frame sizes, cards inside, heights 15-45%, tilt up to 20 degrees."""
    rng = np.random.default_rng(7)
    sizes, tilts = set(), []
    cond = replace(FAST, frames=PhotoConditions().frames)
    for _ in range(8):
        photo = take_photo([things["blue-C1"]], rng, cond)
        h, w = photo.image.shape[:2]
        sizes.add((w, h))
        tilts.append(photo.tilt)
        corners = photo.seen[0].corners
        assert corners.min() >= 0 and corners[:, 0].max() <= w and corners[:, 1].max() <= h
        assert 0.15 <= photo.seen[0].height <= 0.45
    assert sizes == {(1280, 720), (640, 480)} and max(tilts) <= 20 and max(tilts) > 5


def test_the_card_shows_where_the_truth_says(things) -> None:
    """Under clean optics the pixel at a water card's centre is the card's blue, not the table."""
    cond = replace(FAST, optics=CLEAN, tops=(TableTop.WOOD_LIGHT,))
    photo = take_photo([things["water"]], np.random.default_rng(3), cond)
    x, y = photo.seen[0].corners.mean(axis=0).round().astype(int)
    b, g, r = photo.image[y - 2:y + 3, x - 2:x + 3].reshape(-1, 3).mean(axis=0)
    assert b > r + 40  # the flat water card's panel is strong blue; light wood is orange


def test_perspective_tilt_foreshortens_the_card(things) -> None:
    """At a 20 degree tilt a card's two long sides differ in length (the near one is longer)."""
    cond = replace(FAST, tilt_deg=(20.0, 20.0), fov_deg=(75.0, 75.0), optics=CLEAN)
    ratios = []
    for seed in range(3):
        c = take_photo([things["desert"]], np.random.default_rng(seed), cond).seen[0].corners
        sides = [np.linalg.norm(c[3] - c[0]), np.linalg.norm(c[2] - c[1]),
                 np.linalg.norm(c[1] - c[0]), np.linalg.norm(c[2] - c[3])]
        ratios.append(max(sides[0] / sides[1], sides[1] / sides[0], sides[2] / sides[3], sides[3] / sides[2]))
    assert max(ratios) > 1.04


@pytest.mark.parametrize(("gap", "touching"), [((0.3, 0.3), 0.0), ((0.1, 0.6), 1.0)])
def test_a_pair_lies_side_by_side_its_gap_apart_or_touching(things, gap, touching) -> None:
    """A pair's cards are a gap of 0.3 card widths apart, or touch."""
    cond = replace(FAST, tilt_deg=(0.0, 0.0), gap=gap, touching=touching, optics=CLEAN)
    for seed in range(3):
        photo = take_photo([things["desert"], things["water"]], np.random.default_rng(seed), cond, pair=True)
        a, b = (s.corners.astype(np.float32) for s in photo.seen)
        width = float(np.linalg.norm(a[1] - a[0]))
        apart = min(-cv2.pointPolygonTest(b, tuple(map(float, p)), True) for p in a)
        apart = min(apart, min(-cv2.pointPolygonTest(a, tuple(map(float, p)), True) for p in b))
        if touching:
            assert apart < 0.03 * width
        else:
            assert 0.2 * width < apart < 0.4 * width


def test_enrollment_photos_are_clear_and_upright(things) -> None:
    """Enrollment photos: one card, large, nearly flat on, upright within a few degrees, no glare."""
    rng = np.random.default_rng(11)
    for _ in range(4):
        photo = take_photo([things["setup-03"]], rng, replace(ENROLL_CONDITIONS, tops=FAST.tops))
        c = photo.seen[0].corners
        top_edge = c[1] - c[0]
        assert abs(np.degrees(np.arctan2(top_edge[1], top_edge[0]))) < 12
        assert photo.seen[0].height >= 0.3 and photo.tilt <= 4 and not photo.optics["glare"]
        assert photo.optics["jpeg"] >= 85 and photo.optics["motion"] == 0


def test_a_hand_reaches_in_and_empty_tables_have_no_cards() -> None:
    """A hand photo has no cards and differs from the same table without a hand near its middle."""
    cond = replace(FAST, optics=CLEAN, tops=(TableTop.FELT_GREEN,))
    bare = take_photo([], np.random.default_rng(2), cond)
    hand = take_photo([], np.random.default_rng(2), cond, hand=True)
    assert bare.seen == () and hand.seen == () and hand.hand
    changed = np.abs(bare.image.astype(int) - hand.image.astype(int)).max(axis=2) > 40
    assert changed.mean() > 0.03


def test_exported_set_has_score_py_format(tmp_path) -> None:
    """The exporter writes enroll/<id>/1.jpg,2.jpg, test/tNNN.jpg, labels.json and truth.json as
    vision-dev does: every test photo labelled, every photo with its truth."""
    out = tmp_path / "set"
    kinds = write_set(out, "standard", "held-out", 101, 6, cards=("desert", "blue-A1"))
    assert kinds["enroll"] == 4 and sum(kinds.values()) == 4 + 6
    assert sorted(p.name for p in (out / "enroll").iterdir()) == ["blue-A1", "desert"]
    assert sorted(p.name for p in (out / "enroll" / "desert").iterdir()) == ["1.jpg", "2.jpg"]
    labels = json.loads((out / "labels.json").read_text())
    truth = json.loads((out / "truth.json").read_text())
    assert sorted(labels) == sorted(p.name for p in (out / "test").iterdir()) == [f"t{i:03d}.jpg" for i in range(1, 7)]
    assert set(truth) == {f"test/{n}" for n in labels} | {f"enroll/{c}/{i}.jpg" for c in ("desert", "blue-A1")
                                                          for i in (1, 2)}
    for name, entry in truth.items():
        assert set(entry) == {"kind", "cards", "frame", "bg", "tilt", "blur", "motion", "glare", "jpeg"}
        assert entry["kind"] in {"single", "pair", "back", "foreign", "hand", "empty", "enroll"}
        image = cv2.imread(str(out / name))
        assert image is not None and [image.shape[1], image.shape[0]] == entry["frame"]
        for card in entry["cards"]:
            assert len(card["corners"]) == 4 and 0.15 <= card["height"] <= 0.45 and card["name"]
        if name.startswith("test/"):
            assert [c["name"] if c["name"] in labels[name[5:]] else None for c in entry["cards"]] == labels[name[5:]]


def test_exporter_refuses_a_folder_that_is_not_empty(tmp_path, capsys) -> None:
    """Writing into a folder with files in it exits 2 with a message, touching nothing."""
    (tmp_path / "keep.txt").write_text("mine")
    assert make_set(["--style", "flat", "--out", str(tmp_path), "--photos", "1"]) == 2
    assert "not empty" in capsys.readouterr().err and (tmp_path / "keep.txt").read_text() == "mine"
