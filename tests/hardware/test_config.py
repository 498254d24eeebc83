"""Camera spec, GPIO mode and language parsing: clear errors for bad values."""

from __future__ import annotations

import pytest

from hardware.config import (
    CameraKind,
    CameraSpec,
    GpioMode,
    Language,
    concrete_gpio_mode,
    default_camera_spec,
    default_gpio_mode,
    on_raspberry_pi,
    parse_camera_spec,
    parse_gpio_mode,
    parse_language,
)
from hardware.errors import ConfigError


@pytest.mark.parametrize(
    ("text", "spec"),
    [
        ("virtual", CameraSpec(CameraKind.VIRTUAL)),
        ("none", CameraSpec(CameraKind.NONE)),
        ("picamera", CameraSpec(CameraKind.PICAMERA)),
        ("usb:0", CameraSpec(CameraKind.USB, index=0)),
        ("USB:2", CameraSpec(CameraKind.USB, index=2)),
    ],
)
def test_camera_specs(text, spec):
    """Each camera spec text parses to its kind and argument."""
    assert parse_camera_spec(text) == spec


def test_folder_spec(tmp_path):
    """A folder spec keeps its path and prints back as it was written."""
    spec = parse_camera_spec(f"folder:{tmp_path}")
    assert spec.kind is CameraKind.FOLDER and spec.path == tmp_path
    assert str(spec) == f"folder:{tmp_path}"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("webcam", "must be one of"),
        ("", "must be one of"),
        ("usb", "needs a device number"),
        ("usb:x", "needs a device number"),
        ("folder:", "needs a path"),
        ("folder:/no/such/place", "does not exist"),
        ("virtual:3", "takes no"),
    ],
)
def test_bad_camera_specs(text, message):
    """Malformed camera specs raise ConfigError with a clear message."""
    with pytest.raises(ConfigError, match=message):
        parse_camera_spec(text)


def test_gpio_and_language():
    """GPIO modes and languages parse case-insensitively; unknown ones raise ConfigError."""
    assert parse_gpio_mode("real") is GpioMode.REAL
    assert parse_language("FR") is Language.FR
    assert parse_language(Language.ES) is Language.ES
    with pytest.raises(ConfigError):
        parse_gpio_mode("fake")
    with pytest.raises(ConfigError):
        parse_language("de")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"Raspberry Pi 5 Model B Rev 1.0\x00", True),
        (b"Raspberry Pi 4 Model B Rev 1.4\x00", True),
        (b"Raspberry Pi Zero 2 W Rev 1.0\x00", True),
        (b"Radxa ROCK 5B\x00", False),
        (b"", False),
        (None, False),  # no device tree at all: a laptop
    ],
)
def test_pi_detection_reads_the_device_tree_model(tmp_path, content, expected):
    """The Pi is detected from the device-tree model file; a missing or other model is not a Pi."""
    model = tmp_path / "model"
    if content is not None:
        model.write_bytes(content)
    assert on_raspberry_pi(model) is expected


def test_the_defaults_follow_the_board():
    """The default camera and GPIO mode depend on whether this is a Pi."""
    assert default_camera_spec(on_pi=True).kind is CameraKind.PICAMERA
    assert default_camera_spec(on_pi=False).kind is CameraKind.VIRTUAL
    assert default_gpio_mode(on_pi=False) is GpioMode.MOCK


@pytest.mark.parametrize(
    ("mode", "on_pi", "expected"),
    [
        (GpioMode.AUTO, True, GpioMode.REAL),
        (GpioMode.AUTO, False, GpioMode.MOCK),
        (GpioMode.MOCK, True, GpioMode.MOCK),
        (GpioMode.REAL, False, GpioMode.REAL),
    ],
)
def test_auto_gpio_becomes_the_boards_pins_and_the_others_stay(mode, on_pi, expected):
    """Auto GPIO becomes real pins on a Pi and mock elsewhere; explicit modes are kept."""
    assert concrete_gpio_mode(mode, on_pi=on_pi) is expected


def test_parsed_gpio_mode_is_never_auto_and_prints_as_its_word():
    """Parsing auto yields a concrete mode, and each mode prints as its TOML word."""
    assert parse_gpio_mode(" AUTO ") in (GpioMode.MOCK, GpioMode.REAL)  # decided by this machine's board
    assert [str(mode) for mode in GpioMode] == ["auto", "mock", "real"]  # the TOML file's words
