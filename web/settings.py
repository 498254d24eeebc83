"""The companion's configuration: one TOML file with documented defaults; command-line flags win.

Search order when no path is given: $TUCANA_CONFIG, /etc/tucana/tucana.toml, then
$XDG_CONFIG_HOME/tucana/tucana.toml (~/.config/tucana/tucana.toml). The first file found is the
whole configuration (files are not merged); no file at all means the built-in defaults.
deploy/tucana.toml documents every key. `python -m web.settings` prints the settings in force.
"""

from __future__ import annotations

import argparse
import os
import sys
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from hardware.config import (
    GpioMode,
    PinMap,
    concrete_gpio_mode,
    default_camera_spec,
    on_raspberry_pi,
)
from hardware.errors import ConfigError
from web.i18n import LANGUAGES

ENV_CONFIG = "TUCANA_CONFIG"
SYSTEM_CONFIG = Path("/etc/tucana/tucana.toml")
USER_CONFIG_NAME = Path("tucana") / "tucana.toml"
AUTO = "auto"  # camera or GPIO: the Pi's own on a Raspberry Pi, the virtual table and mock pins elsewhere
CAMERA_WORDS = (AUTO, "virtual", "none", "picamera")
# BCM numbers on the 40-pin header; 0 and 1 are the HAT ID EEPROM bus, so not offered.
GPIO_MIN, GPIO_MAX = 2, 27
PORT_MIN, PORT_MAX = 1, 65535
# WPA2 passphrase bounds (IEEE 802.11i): 8 to 63 printable ASCII characters.
PSK_MIN_CHARS, PSK_MAX_CHARS = 8, 63
SSID_MAX_BYTES = 32  # 802.11 limit on a network name, in bytes of UTF-8


@dataclass(frozen=True)
class Hotspot:
    """The Pi's own Wi-Fi network; the table display shows it as a join QR code."""

    enabled: bool = False
    ssid: str = "Tucana"
    password: str = ""


def default_data_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """$XDG_DATA_HOME/tucana, or ~/.local/share/tucana when it is unset or relative."""
    xdg = environ.get("XDG_DATA_HOME", "")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "tucana"
    return _home(environ) / ".local" / "share" / "tucana"


@dataclass(frozen=True)
class Settings:
    """Everything `tucana serve` needs to know before it starts; read-only once loaded."""

    host: str = "0.0.0.0"  # every interface, so the phones on the table's Wi-Fi can join
    port: int = 8000
    data_dir: Path = field(default_factory=default_data_dir)
    camera: str = AUTO
    gpio: GpioMode = GpioMode.AUTO
    language: str = "en"
    speech: bool = True
    pins: PinMap = field(default_factory=PinMap)  # hardware's pin map, read from [pins]
    hotspot: Hotspot = field(default_factory=Hotspot)
    source: Path | None = None  # the file these came from; None for the built-in defaults

    def with_overrides(self, **flags: Any) -> Settings:
        """A copy with each flag that was given (not None) in place of the file's value."""
        changes: dict[str, Any] = {}
        for key, value in flags.items():
            if value is None:
                continue
            check = _TOP_LEVEL.get(key)
            if check is None:
                raise ConfigError(f"unknown setting {key!r}; known: {', '.join(_TOP_LEVEL)}")
            if key == "data_dir":
                value = str(value)
            elif key == "port" and isinstance(value, str) and value.strip().isdigit():
                value = int(value)  # a flag parsed without type=int
            changes[key] = check(f"flag {key}", value, Path.cwd(), os.environ)
        return replace(self, **changes)

    def resolved(self, on_pi: bool | None = None) -> Settings:
        """A copy with "auto" camera and GPIO made concrete: the real ones on a Pi."""
        if on_pi is None:
            on_pi = on_raspberry_pi()
        camera = str(default_camera_spec(on_pi)) if self.camera == AUTO else self.camera
        gpio = concrete_gpio_mode(self.gpio, on_pi)
        return replace(self, camera=camera, gpio=gpio)


def config_search_path(environ: Mapping[str, str] = os.environ) -> list[Path]:
    """The files tried in order when no path is given (the environment's first, if set)."""
    paths = []
    if environ.get(ENV_CONFIG):
        paths.append(Path(environ[ENV_CONFIG]))
    paths.append(SYSTEM_CONFIG)
    xdg = environ.get("XDG_CONFIG_HOME", "")
    config_home = Path(xdg) if xdg and Path(xdg).is_absolute() else _home(environ) / ".config"
    paths.append(config_home / USER_CONFIG_NAME)
    return paths


def load_settings(path: Path | None = None, *, environ: Mapping[str, str] = os.environ) -> Settings:
    """Read the configuration file (the given one, or the first found) over the defaults."""
    if path is None and environ.get(ENV_CONFIG):
        path = Path(environ[ENV_CONFIG])  # asked for by name: it must exist
    if path is None:
        path = next((p for p in config_search_path(environ) if p.is_file()), None)
        if path is None:
            return Settings(data_dir=default_data_dir(environ))
    return _read(Path(path), environ)


def _read(path: Path, environ: Mapping[str, str]) -> Settings:
    """Parse and check one file; every problem names the file and the key."""
    try:
        with path.open("rb") as handle:
            table = tomllib.load(handle)
    except FileNotFoundError:
        raise ConfigError(f"{path}: configuration file not found") from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot read configuration file: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not valid TOML: the file is not UTF-8 text") from None
    base = path.parent.absolute()
    values: dict[str, Any] = {"data_dir": default_data_dir(environ), "source": path}
    for key, value in table.items():
        if key in _SECTIONS:
            values[key] = _section(path, key, value)
        elif key in _TOP_LEVEL:
            values[key] = _TOP_LEVEL[key](f"{path}: {key}", value, base, environ)
        else:
            known = ", ".join([*_TOP_LEVEL, *(f"[{name}]" for name in _SECTIONS)])
            raise ConfigError(f"{path}: unknown key {key!r}; known keys: {known}")
    settings = Settings(**values)
    _check_whole(path, settings)
    return settings


def _section(path: Path, name: str, table: Any) -> PinMap | Hotspot:
    """Build [pins] or [hotspot] from its table, defaults for the keys left out."""
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: {name}: expected a [{name}] table, got {table!r}")
    cls, checks = _SECTIONS[name]
    values = {}
    for key, value in table.items():
        if key not in checks:
            known = ", ".join(f"{name}.{k}" for k in checks)
            raise ConfigError(f"{path}: unknown key '{name}.{key}'; known keys: {known}")
        values[key] = checks[key](f"{path}: {name}.{key}", value)
    if cls is PinMap:
        _check_distinct_pins(path, {f.name: values.get(f.name, f.default) for f in fields(PinMap)})
    return cls(**values)


def _check_distinct_pins(path: Path, pins: dict[str, int]) -> None:
    """Each part on its own GPIO; the message names both keys."""
    seen: dict[int, str] = {}
    for name, number in pins.items():
        if number in seen:
            raise ConfigError(
                f"{path}: pins.{name}: GPIO {number} is already used by pins.{seen[number]}"
            )
        seen[number] = name


def _check_whole(path: Path, settings: Settings) -> None:
    """Rules that span keys: a password for an enabled hotspot."""
    if settings.hotspot.enabled and not settings.hotspot.password:
        raise ConfigError(
            f"{path}: hotspot.password: an enabled hotspot needs a password of "
            f"{PSK_MIN_CHARS}-{PSK_MAX_CHARS} characters"
        )


# Checkers: each takes "where: key" for the message and the raw value, returns the typed value.


def _host(where: str, value: Any, base: Path, environ: Mapping[str, str]) -> str:
    """A host name or address to listen on."""
    if not isinstance(value, str) or not value.strip() or any(c.isspace() for c in value):
        raise ConfigError(f"{where}: expected a host name or address, got {value!r}")
    return value


def _port(where: str, value: Any, base: Path, environ: Mapping[str, str]) -> int:
    """A TCP port number."""
    number = _integer(where, value, "a port number")
    if not PORT_MIN <= number <= PORT_MAX:
        raise ConfigError(f"{where}: expected a port number {PORT_MIN}-{PORT_MAX}, got {value!r}")
    return number


def _data_dir(where: str, value: Any, base: Path, environ: Mapping[str, str]) -> Path:
    """A folder; ~ is the home folder, a relative path starts at the config file's folder."""
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where}: expected a folder path, got {value!r}")
    if value == "~" or value.startswith("~/"):
        return _home(environ) / value[2:]
    return base / value


def _camera(where: str, value: Any, base: Path, environ: Mapping[str, str]) -> str:
    """A camera spec: auto, virtual, none, picamera, usb:N or folder:PATH."""
    ok = isinstance(value, str) and (
        value in CAMERA_WORDS
        or (value.startswith("usb:") and value[4:].isdigit() and value[4:].isascii())
        or (value.startswith("folder:") and value[7:].strip() != "")
    )
    if not ok:
        raise ConfigError(
            f"{where}: expected one of auto, virtual, none, picamera, usb:N, folder:PATH; "
            f"got {value!r}"
        )
    return value


def _gpio(where: str, value: Any, base: Path, environ: Mapping[str, str]) -> GpioMode:
    """auto, mock or real."""
    try:
        return GpioMode(value)
    except ValueError:
        raise ConfigError(f"{where}: expected one of auto, mock, real; got {value!r}") from None


def _language(where: str, value: Any, base: Path, environ: Mapping[str, str]) -> str:
    """en, fr or es."""
    if value not in LANGUAGES:
        raise ConfigError(f"{where}: expected one of {', '.join(LANGUAGES)}; got {value!r}")
    return value


def _flag(where: str, value: Any, *_: Any) -> bool:
    """A TOML boolean (true or false, no quotes)."""
    if not isinstance(value, bool):
        raise ConfigError(f"{where}: expected true or false, got {value!r}")
    return value


def _pin(where: str, value: Any) -> int:
    """A BCM GPIO number on the 40-pin header."""
    number = _integer(where, value, "a BCM GPIO number")
    if not GPIO_MIN <= number <= GPIO_MAX:
        raise ConfigError(
            f"{where}: expected a BCM GPIO number {GPIO_MIN}-{GPIO_MAX}, got {value!r}"
        )
    return number


def _ssid(where: str, value: Any) -> str:
    """A Wi-Fi network name, 1 to 32 bytes."""
    if not isinstance(value, str) or not value or len(value.encode()) > SSID_MAX_BYTES:
        raise ConfigError(f"{where}: expected a network name of 1-{SSID_MAX_BYTES} bytes, got {value!r}")
    return value


def _password(where: str, value: Any) -> str:
    """Empty, or a WPA2 passphrase of 8 to 63 printable ASCII characters."""
    ok = isinstance(value, str) and (
        value == ""
        or (
            PSK_MIN_CHARS <= len(value) <= PSK_MAX_CHARS
            and value.isascii()
            and value.isprintable()
        )
    )
    if not ok:
        raise ConfigError(
            f"{where}: expected {PSK_MIN_CHARS}-{PSK_MAX_CHARS} printable ASCII characters"
        )
    return value


def _integer(where: str, value: Any, what: str) -> int:
    """A TOML integer; true and false are not numbers here, nor is a quoted "8000"."""
    if type(value) is not int:
        raise ConfigError(f"{where}: expected {what}, got {value!r}")
    return value


def _home(environ: Mapping[str, str]) -> Path:
    """The home folder named by the given environment."""
    return Path(environ["HOME"]) if environ.get("HOME") else Path.home()


_TOP_LEVEL: dict[str, Callable[[str, Any, Path, Mapping[str, str]], Any]] = {
    "host": _host,
    "port": _port,
    "data_dir": _data_dir,
    "camera": _camera,
    "gpio": _gpio,
    "language": _language,
    "speech": _flag,
}
_SECTIONS: dict[str, tuple[type, dict[str, Callable[[str, Any], Any]]]] = {
    "pins": (PinMap, {f.name: _pin for f in fields(PinMap)}),
    "hotspot": (Hotspot, {"enabled": _flag, "ssid": _ssid, "password": _password}),
}


def dump_toml(settings: Settings) -> str:
    """The settings as a TOML file that load_settings reads back to the same values."""
    lines = [f"# settings from {settings.source or 'built-in defaults'}"]
    for key in _TOP_LEVEL:
        lines.append(f"{key} = {_toml_value(getattr(settings, key))}")
    for name in _SECTIONS:
        lines.append(f"\n[{name}]")
        section = getattr(settings, name)
        lines.extend(f"{f.name} = {_toml_value(getattr(section, f.name))}" for f in fields(section))
    return "\n".join(lines) + "\n"


def _toml_value(value: Any) -> str:
    """One value in TOML syntax."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main(argv: list[str] | None = None) -> int:
    """`python -m web.settings [--config PATH] [--get KEY]`: check and print the settings."""
    parser = argparse.ArgumentParser(prog="python -m web.settings", description=main.__doc__)
    parser.add_argument("--config", type=Path, help="read this file instead of searching")
    parser.add_argument("--get", metavar="KEY", help="print one value, e.g. port or hotspot.ssid")
    args = parser.parse_args(argv)
    try:
        settings = load_settings(args.config)
    except ConfigError as error:
        print(f"tucana: {error}", file=sys.stderr)
        return 2
    if args.get is None:
        sys.stdout.write(dump_toml(settings))
        return 0
    value: Any = settings
    for part in args.get.split("."):
        if not hasattr(value, "__dataclass_fields__") or part not in value.__dataclass_fields__:
            print(f"tucana: unknown setting {args.get!r}", file=sys.stderr)
            return 2
        value = getattr(value, part)
    print(_toml_value(value) if isinstance(value, bool) else value)
    return 0


if __name__ == "__main__":
    sys.exit(main())
