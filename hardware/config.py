"""Hardware configuration: the camera spec, the GPIO mode, the pin map and the spoken language."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum
from pathlib import Path

from hardware.errors import ConfigError

PI_MODEL_FILE = Path("/proc/device-tree/model")  # the kernel names the board here on every Pi


class CameraKind(Enum):
    """Where frames come from."""

    VIRTUAL = "virtual"  # the built-in virtual table (rendered cards): the default off a Pi
    NONE = "none"  # no camera: the Mayor taps the cards on the console
    PICAMERA = "picamera"  # the Raspberry Pi camera through picamera2
    USB = "usb"  # an OpenCV webcam, usb:N
    FOLDER = "folder"  # replay a folder of images or a video file, folder:PATH


@dataclass(frozen=True)
class CameraSpec:
    """A parsed --camera value: the kind, plus the device index or the replay path."""

    kind: CameraKind
    index: int = 0
    path: Path | None = None

    def __str__(self) -> str:
        if self.kind is CameraKind.USB:
            return f"usb:{self.index}"
        if self.kind is CameraKind.FOLDER:
            return f"folder:{self.path}"
        return self.kind.value


CAMERA_SPEC_HELP = "virtual|none|picamera|usb:N|folder:PATH"


def parse_camera_spec(text: str) -> CameraSpec:
    """Parse 'virtual', 'none', 'picamera', 'usb:N' or 'folder:PATH'; ConfigError otherwise."""
    raw = (text or "").strip()
    kind_name, sep, arg = raw.partition(":")
    try:
        kind = CameraKind(kind_name.lower())
    except ValueError:
        raise ConfigError(f"--camera must be one of {CAMERA_SPEC_HELP}, not {text!r}") from None
    if kind is CameraKind.USB:
        if not sep or not arg.isdigit():
            raise ConfigError(f"--camera usb needs a device number, e.g. usb:0, not {text!r}")
        return CameraSpec(kind, index=int(arg))
    if kind is CameraKind.FOLDER:
        if not arg:
            raise ConfigError(f"--camera folder needs a path, e.g. folder:/home/pi/frames, not {text!r}")
        path = Path(arg).expanduser()
        if not path.exists():
            raise ConfigError(f"--camera {text!r}: {path} does not exist")
        return CameraSpec(kind, path=path)
    if sep:
        raise ConfigError(f"--camera {kind.value} takes no ':' argument, not {text!r}")
    return CameraSpec(kind)


class GpioMode(StrEnum):
    """Whether the button, LEDs and buzzer are real pins or gpiozero's mock pins (str() is the TOML word)."""

    AUTO = "auto"  # settings only: real pins on a Raspberry Pi, mock pins elsewhere (see concrete_gpio_mode)
    MOCK = "mock"
    REAL = "real"


def parse_gpio_mode(text: str) -> GpioMode:
    """Parse 'auto', 'mock' or 'real' into MOCK or REAL ('auto' decided by the board); ConfigError otherwise."""
    try:
        mode = GpioMode((text or "").strip().lower())
    except ValueError:
        raise ConfigError(f"--gpio must be auto, mock or real, not {text!r}") from None
    return concrete_gpio_mode(mode)


@dataclass(frozen=True)
class PinMap:
    """BCM pin numbers of the Mayor's button, the three LEDs and the buzzer."""

    button: int = 17
    led_ready: int = 22  # green: the scanner is running and the camera answers
    led_seen: int = 23  # yellow: a card is under the camera
    led_mayor: int = 24  # red: the Mayor must confirm or correct a reading
    buzzer: int = 25

    def __post_init__(self) -> None:
        pins = [self.button, self.led_ready, self.led_seen, self.led_mayor, self.buzzer]
        for pin in pins:
            if isinstance(pin, bool) or not isinstance(pin, int) or not 0 <= pin <= 27:
                raise ConfigError(f"GPIO pins are BCM numbers 0-27, not {pin!r}")
        if len(set(pins)) != len(pins):
            raise ConfigError(f"each part needs its own GPIO pin, not {pins}")


class Language(Enum):
    """The language of spoken announcements."""

    EN = "en"
    FR = "fr"
    ES = "es"


def parse_language(value: str | Language) -> Language:
    """A Language from 'en', 'fr', 'es' (or a Language); ConfigError otherwise."""
    if isinstance(value, Language):
        return value
    try:
        return Language((value or "").strip().lower())
    except ValueError:
        raise ConfigError(f"--language must be en, fr or es, not {value!r}") from None


def on_raspberry_pi(model_file: Path = PI_MODEL_FILE) -> bool:
    """True when the kernel says this board is a Raspberry Pi."""
    try:
        return "raspberry pi" in model_file.read_text(errors="replace").lower()
    except OSError:
        return False


def default_camera_spec(on_pi: bool | None = None) -> CameraSpec:
    """The Pi camera on a Pi, the virtual table anywhere else."""
    pi = on_raspberry_pi() if on_pi is None else on_pi
    return CameraSpec(CameraKind.PICAMERA if pi else CameraKind.VIRTUAL)


def default_gpio_mode(on_pi: bool | None = None) -> GpioMode:
    """Real pins on a Pi, mock pins anywhere else."""
    pi = on_raspberry_pi() if on_pi is None else on_pi
    return GpioMode.REAL if pi else GpioMode.MOCK


def concrete_gpio_mode(mode: GpioMode, on_pi: bool | None = None) -> GpioMode:
    """MOCK or REAL: AUTO becomes the board's default (real pins on a Pi), the others stay."""
    return default_gpio_mode(on_pi) if mode is GpioMode.AUTO else mode
