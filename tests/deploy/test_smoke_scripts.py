"""The Pi smoke scripts, run off a Pi against the virtual table and gpiozero's mock pins.

On a Pi they open the real camera and pins; here the same code paths run on the virtual camera
and MockFactory, so an API change in hardware/ or vision/ that would break them on the Pi fails
here first.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from .conftest import DEPLOY, REPO

SMOKE = DEPLOY / "smoke"


def smoke(tmp_path: Path, script: str, *args: str, config: Path | None = None) -> subprocess.CompletedProcess:
    """Run one smoke script with this venv's Python from a temp folder, as an owner would."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "HOME": str(tmp_path)}
    env.pop("TUCANA_CONFIG", None)
    if config is not None:
        env["TUCANA_CONFIG"] = str(config)
    return subprocess.run([sys.executable, str(SMOKE / script), *args], capture_output=True,
                          text=True, cwd=tmp_path, env=env, timeout=180, check=False)


def test_camera_saves_a_still_and_prints_its_size(tmp_path: Path) -> None:
    """The camera smoke script saves a 720p still of cards and prints the frame size."""
    done = smoke(tmp_path, "camera.py", "--camera", "virtual", "--seconds", "0.3", "--out", "s.png")
    assert done.returncode == 0, done.stderr
    assert "frames: 1280x720 BGR" in done.stdout
    still = cv2.imread(str(tmp_path / "s.png"))
    assert still is not None and still.shape == (720, 1280, 3)
    assert still.std() > 10  # cards on a mat, not a blank frame


def test_camera_reads_a_folder_of_frames(tmp_path: Path) -> None:
    """The camera smoke script reads a folder of frames and saves a still."""
    frames = tmp_path / "frames"
    frames.mkdir()
    for i in range(3):
        cv2.imwrite(str(frames / f"{i}.png"), np.full((120, 160, 3), 40 * i, np.uint8))
    done = smoke(tmp_path, "camera.py", "--camera", f"folder:{frames}", "--seconds", "0.3")
    assert done.returncode == 0, done.stderr
    assert "frames: 160x120 BGR" in done.stdout
    assert (tmp_path / "tucana-still.jpg").is_file()


def test_camera_refuses_a_bad_spec_with_exit_2(tmp_path: Path) -> None:
    """The camera smoke script exits 2 with a clear error for a bad camera spec."""
    done = smoke(tmp_path, "camera.py", "--camera", "webcam")
    assert done.returncode == 2
    assert "error:" in done.stderr and "webcam" in done.stderr
    assert "Traceback" not in done.stderr


def test_controls_use_the_configured_pins(tmp_path: Path) -> None:
    """The controls smoke script drives the pins from the config and reports press and hold."""
    config = tmp_path / "tucana.toml"
    config.write_text("[pins]\nbutton = 5\nled_ready = 6\nled_seen = 12\nled_mayor = 13\nbuzzer = 19\n")
    done = smoke(tmp_path, "controls.py", "--gpio", "mock", "--led-seconds", "0.05",
                 "--seconds", "10", config=config)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    for line in ("LED ready  GPIO6", "LED seen   GPIO12", "LED mayor  GPIO13", "buzzer GPIO19",
                 "button GPIO5", "button: press", "button: hold", "all good"):
        assert line in out
    assert out.count("-> pin high") == 3


def test_controls_refuse_a_bad_config(tmp_path: Path) -> None:
    """The controls smoke script exits 2 naming a bad pin in the config."""
    config = tmp_path / "tucana.toml"
    config.write_text("[pins]\nbutton = 99\n")
    done = smoke(tmp_path, "controls.py", "--gpio", "mock", config=config)
    assert done.returncode == 2
    assert "pins.button: expected a BCM GPIO number 2-27, got 99" in done.stderr


def test_scan_names_the_cards_laid(tmp_path: Path) -> None:
    """The scan smoke script names the cards the virtual camera shows."""
    done = smoke(tmp_path, "scan.py", "--camera", "virtual", "--seconds", "1.5", "--fps", "10")
    assert done.returncode == 0, done.stderr
    assert "desert(" in done.stdout and "water(" in done.stdout
    summary = done.stdout.split("summary:", 1)[1]
    assert "desert" in summary and "water" in summary


def test_scan_reads_against_an_enrolled_deck_as_serve_does(tmp_path: Path) -> None:
    """The scan smoke script reads with an enrolled deck; a folder with no manifest exits 2."""
    import random

    from hardware.virtual_table import VirtualTable
    from vision.store import enroll

    table = VirtualTable(random.Random(3), size=(640, 360), hand_reads=0, clear_reads=0)
    for terrain in ("desert", "desert", "forest", "mountain", "water", "any"):  # a kind is read once whole
        table.lay([terrain])
        enroll(tmp_path / "deck", terrain, table.read())
    done = smoke(tmp_path, "scan.py", "--camera", "virtual", "--deck", str(tmp_path / "deck"),
                 "--seconds", "1.0", "--fps", "10")
    assert done.returncode == 0, done.stderr
    assert "enrolled: 5 cards, 6 photos" in done.stdout
    summary = done.stdout.split("summary:", 1)[1]
    assert "desert" in summary and "water" in summary
    empty = smoke(tmp_path, "scan.py", "--camera", "virtual", "--deck", str(tmp_path), "--seconds", "0.2")
    assert empty.returncode == 2 and "no manifest.json" in empty.stderr
