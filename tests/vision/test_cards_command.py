"""`tucana cards enroll|classify|render` through the real command line (web.cli.main)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.render import WOODCUT, render_card
from vision.simulator import Conditions, simulate_frame
from web.cli import EXIT_REFUSED, main

CALM = Conditions(glare=0.0, motion_blur=0.0, blur_sigma=(0.0, 0.6))


@pytest.fixture()
def photos(tmp_path: Path) -> dict[str, Path]:
    """Photos of cards drawn in the second style, which the built-in deck does not know."""
    rng = np.random.default_rng(21)
    out = {}
    shots = {"desert-1": ["desert"], "desert-2": ["desert"], "setup-1": ["setup-09"],
             "setup-2": ["setup-09"], "other-setup": ["setup-02"], "pair": ["setup-09", "desert"],
             "terrains": ["water", "forest"]}
    shots |= {terrain: [terrain] for terrain in ("forest", "mountain", "water", "any")}
    for name, cards in shots.items():
        frame = simulate_frame([render_card(c, WOODCUT) for c in cards], rng, CALM, labels=cards)
        out[name] = tmp_path / f"{name}.jpg"
        cv2.imwrite(str(out[name]), frame.image)
    out["broken"] = tmp_path / "broken.jpg"
    out["broken"].write_bytes(b"\xff\xd8 not really a jpeg")
    return out


def _lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_enroll_then_classify_round_trip(tmp_path: Path, photos, capsys) -> None:
    """Photos enrolled with tucana cards are listed in the manifest and named by classify."""
    deck = tmp_path / "deck"
    assert main(["cards", "enroll", "--deck", str(deck), "--card", "desert",
                 str(photos["desert-1"]), str(photos["desert-2"])]) == 0
    for terrain in ("forest", "mountain", "water", "any"):
        assert main(["cards", "enroll", "--deck", str(deck), "--card", terrain, str(photos[terrain])]) == 0
    assert main(["cards", "enroll", "--deck", str(deck), "--card", "setup-09",
                 str(photos["setup-1"]), str(photos["setup-2"])]) == 0
    assert main(["cards", "enroll", "--deck", str(deck), "--card", "setup-02", str(photos["other-setup"])]) == 0
    manifest = json.loads((deck / "manifest.json").read_text())
    assert {k: len(v) for k, v in manifest["cards"].items()} == {
        "desert": 2, "forest": 1, "mountain": 1, "water": 1, "any": 1, "setup-09": 2, "setup-02": 1}
    capsys.readouterr()

    assert main(["cards", "classify", "--deck", str(deck), str(photos["terrains"])]) == 0
    (line,) = _lines(capsys.readouterr().out)
    assert line["image"] == str(photos["terrains"])
    assert sorted(c["card"] for c in line["cards"]) == ["forest", "water"]
    for card in line["cards"]:
        assert set(card) == {"card", "confidence", "corners"}
        assert 0.5 <= card["confidence"] <= 1.0
        assert len(card["corners"]) == 4 and all(len(p) == 2 for p in card["corners"])


def test_a_kind_not_wholly_enrolled_is_never_named(tmp_path: Path, photos, capsys) -> None:
    """With 2 of the 13 set-up cards enrolled, a set-up card is refused: it may be a missing twin."""
    deck = tmp_path / "deck"
    assert main(["cards", "enroll", "--deck", str(deck), "--card", "desert", str(photos["desert-1"])]) == 0
    for terrain in ("forest", "mountain", "water", "any"):
        assert main(["cards", "enroll", "--deck", str(deck), "--card", terrain, str(photos[terrain])]) == 0
    assert main(["cards", "enroll", "--deck", str(deck), "--card", "setup-09", str(photos["setup-1"])]) == 0
    assert main(["cards", "enroll", "--deck", str(deck), "--card", "setup-02", str(photos["other-setup"])]) == 0
    capsys.readouterr()
    assert main(["cards", "classify", "--deck", str(deck), str(photos["pair"]), str(photos["setup-2"])]) == 0
    pair, setup = _lines(capsys.readouterr().out)
    assert sorted(str(c["card"]) for c in pair["cards"]) == ["None", "desert"]
    assert [c["card"] for c in setup["cards"]] == [None]


def test_built_in_deck_refuses_other_art(photos, capsys) -> None:
    """The built-in deck finds the cards in a photo of other art but names none of them."""
    assert main(["cards", "classify", str(photos["pair"])]) == 0
    (line,) = _lines(capsys.readouterr().out)
    assert len(line["cards"]) >= 2 and all(c["card"] is None for c in line["cards"])


def test_unreadable_image_exits_2_but_reads_the_others(photos, capsys) -> None:
    """Classify reports unreadable or missing images, exits 2 and still prints the readable one."""
    code = main(["cards", "classify", str(photos["broken"]), str(photos["desert-1"]), "/no/such.png"])
    out, err = capsys.readouterr()
    assert code == EXIT_REFUSED
    assert [line["image"] for line in _lines(out)] == [str(photos["desert-1"])]
    assert "broken.jpg" in err and "/no/such.png" in err and "Traceback" not in err


def test_enroll_refuses_bad_input_and_keeps_what_it_had(tmp_path: Path, photos, capsys) -> None:
    """Enroll refuses an unknown card or a broken image, exits 2 and keeps the photos it took."""
    deck = tmp_path / "deck"
    assert main(["cards", "enroll", "--deck", str(deck), "--card", "joker", str(photos["desert-1"])]) == EXIT_REFUSED
    assert not (deck / "manifest.json").exists()
    code = main(["cards", "enroll", "--deck", str(deck), "--card", "desert",
                 str(photos["desert-1"]), str(photos["broken"])])
    assert code == EXIT_REFUSED
    assert json.loads((deck / "manifest.json").read_text())["cards"] == {"desert": ["cards/desert-001.png"]}
    assert "broken.jpg" in capsys.readouterr().err


@pytest.mark.parametrize("manifest", ["{not json", '{"format": "other", "cards": {}}',
                                      '{"format": "tucana-deck", "version": 1, "cards": {"joker": []}}'])
def test_broken_deck_folder_exits_2(tmp_path: Path, photos, capsys, manifest: str) -> None:
    """A deck folder with an unreadable or invalid manifest exits 2 naming the manifest."""
    (tmp_path / "manifest.json").write_text(manifest)
    assert main(["cards", "classify", "--deck", str(tmp_path), str(photos["desert-1"])]) == EXIT_REFUSED
    assert "manifest" in capsys.readouterr().err


def test_missing_deck_folder_exits_2(tmp_path: Path, photos, capsys) -> None:
    """A deck folder that does not exist exits 2 saying it is not a deck folder."""
    assert main(["cards", "classify", "--deck", str(tmp_path / "nothing"), str(photos["desert-1"])]) == EXIT_REFUSED
    assert "not a deck folder" in capsys.readouterr().err


def test_render_writes_the_printable_deck(tmp_path: Path, capsys) -> None:
    """Render writes all 33 faces and the back at 63x88 mm and 300 dpi."""
    assert main(["cards", "render", str(tmp_path / "print")]) == 0
    files = sorted(p.name for p in (tmp_path / "print").iterdir())
    assert len(files) == 34 and "setup-13.png" in files and "back.png" in files
    image = cv2.imread(str(tmp_path / "print" / "blue-A1.png"))
    assert image.shape[:2] == (1039, 744)  # 63x88 mm at 300 dpi
