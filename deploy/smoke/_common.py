"""Shared by the smoke scripts: find the package, read the settings, open the camera."""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
try:  # installed in the venv (/opt/tucana/venv/bin/python); else run from a checkout
    import web.settings  # noqa: F401
except ImportError:
    sys.path.insert(0, str(REPO))

from hardware.errors import ConfigError, HardwareError  # noqa: E402
from web.settings import Settings, load_settings  # noqa: E402

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2
VIRTUAL_SEED = 7  # the virtual table's shuffle: fixed so a smoke run off a Pi is repeatable
VIRTUAL_CARDS = ("desert", "water")  # what the virtual table lays for the camera and scan checks


def base_parser(description: str) -> argparse.ArgumentParser:
    """A parser with --config, as every smoke script reads the companion's settings."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--config", type=Path, help="the settings file (default: as tucana serve)")
    return parser


def settings(args: argparse.Namespace, **flags: Any) -> Settings:
    """The companion's settings with these flags on top, auto made concrete for this board."""
    return load_settings(args.config).with_overrides(**flags).resolved()


def service_running() -> bool:
    """True when the tucana service holds the camera and the pins right now."""
    try:
        done = subprocess.run(
            ["systemctl", "is-active", "--quiet", "tucana.service"], check=False, timeout=5
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def hint_if_busy() -> None:
    """Tell the owner to stop the service first: a camera or a pin can be opened only once."""
    if service_running():
        print("  the tucana service is running and holds the camera and pins:", file=sys.stderr)
        print("  sudo systemctl stop tucana   (and start it again afterwards)", file=sys.stderr)


def open_camera(spec_text: str) -> Any:
    """Open the camera a spec names; the virtual one gets a table with two cards laid."""
    from hardware.camera import open_camera as open_source
    from hardware.config import CameraKind, parse_camera_spec

    spec = parse_camera_spec(spec_text)
    if spec.kind is CameraKind.NONE:
        raise ConfigError("camera 'none' has nothing to check: pick picamera, usb:N or folder:PATH")
    table = None
    if spec.kind is CameraKind.VIRTUAL:
        from hardware.virtual_table import VirtualTable

        table = VirtualTable(random.Random(VIRTUAL_SEED), hand_reads=0)
        table.lay(VIRTUAL_CARDS)
    return open_source(spec, virtual_table=table)


def fail(error: Exception) -> int:
    """Print an error the way the companion does and return the exit code it deserves."""
    print(f"error: {error}", file=sys.stderr)
    if isinstance(error, HardwareError):
        hint_if_busy()
        return EXIT_FAILED
    return EXIT_BAD_INPUT
