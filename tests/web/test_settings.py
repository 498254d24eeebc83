"""web.settings: the TOML configuration, its search order, its refusals and flag overrides."""

from __future__ import annotations

import argparse
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest

from hardware.config import GpioMode, PinMap
from hardware.errors import ConfigError
from web import settings as settings_module
from web.settings import (
    Hotspot,
    Settings,
    dump_toml,
    load_settings,
    main,
)

REPO = Path(__file__).resolve().parents[2]
DEFAULT_FILE = REPO / "deploy" / "tucana.toml"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake home folder, and no system-wide file, so nothing on this machine leaks in."""
    monkeypatch.setattr(settings_module, "SYSTEM_CONFIG", tmp_path / "etc" / "tucana.toml")
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


def write(path: Path, text: str) -> Path:
    """Write a config file, making its folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_no_file_gives_the_defaults(home: Path) -> None:
    """Without any configuration file every setting takes its built-in default."""
    loaded = load_settings(environ={"HOME": str(home)})
    assert loaded == Settings(data_dir=home / ".local" / "share" / "tucana")
    assert (loaded.host, loaded.port, loaded.camera, loaded.gpio) == ("0.0.0.0", 8000, "auto", "auto")
    assert loaded.pins == PinMap(button=17, led_ready=22, led_seen=23, led_mayor=24, buzzer=25)
    assert loaded.hotspot == Hotspot(enabled=False, ssid="Tucana", password="")
    assert loaded.source is None


def test_xdg_data_home_sets_the_data_folder(home: Path, tmp_path: Path) -> None:
    """The data folder follows an absolute XDG_DATA_HOME."""
    loaded = load_settings(environ={"HOME": str(home), "XDG_DATA_HOME": str(tmp_path / "xdg")})
    assert loaded.data_dir == tmp_path / "xdg" / "tucana"


def test_relative_xdg_data_home_is_ignored(home: Path) -> None:
    """A relative XDG_DATA_HOME is ignored in favour of ~/.local/share."""
    loaded = load_settings(environ={"HOME": str(home), "XDG_DATA_HOME": "relative/dir"})
    assert loaded.data_dir == home / ".local" / "share" / "tucana"


def test_documented_default_file_equals_the_built_in_defaults(home: Path) -> None:
    """The shipped example configuration loads to exactly the built-in defaults."""
    env = {"HOME": str(home)}
    from_file = load_settings(DEFAULT_FILE, environ=env)
    assert from_file == Settings(data_dir=home / ".local/share/tucana", source=DEFAULT_FILE)


def test_documented_default_file_shows_every_key() -> None:
    """The shipped example configuration mentions every setting and every pin and hotspot key."""
    text = DEFAULT_FILE.read_text(encoding="utf-8")
    table = tomllib.loads(text)
    for key in ("host", "port", "camera", "gpio", "language", "speech"):
        assert key in table, key
    assert "# data_dir = " in text  # its default depends on the user, so it is shown commented
    assert set(table["pins"]) == {f.name for f in fields(PinMap)}
    assert set(table["hotspot"]) == {f.name for f in fields(Hotspot)}


def test_search_order_env_then_system_then_user(home: Path, tmp_path: Path) -> None:
    """TUCANA_CONFIG beats the system file, which beats the user's file."""
    user = write(home / ".config" / "tucana" / "tucana.toml", "port = 8003\n")
    env = {"HOME": str(home)}
    assert load_settings(environ=env).port == 8003
    system = write(settings_module.SYSTEM_CONFIG, "port = 8002\n")
    assert load_settings(environ=env).port == 8002
    named = write(tmp_path / "named.toml", "port = 8001\n")
    loaded = load_settings(environ={**env, "TUCANA_CONFIG": str(named)})
    assert (loaded.port, loaded.source) == (8001, named)
    assert user.is_file() and system.is_file()


def test_xdg_config_home_replaces_dot_config(home: Path, tmp_path: Path) -> None:
    """The user's file is looked for under XDG_CONFIG_HOME when it is set."""
    write(tmp_path / "cfg" / "tucana" / "tucana.toml", 'language = "es"\n')
    env = {"HOME": str(home), "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    assert load_settings(environ=env).language == "es"


def test_explicit_path_beats_the_environment(home: Path, tmp_path: Path) -> None:
    """A path given as an argument beats TUCANA_CONFIG."""
    named = write(tmp_path / "a.toml", "port = 8001\n")
    explicit = write(tmp_path / "b.toml", "port = 8009\n")
    env = {"HOME": str(home), "TUCANA_CONFIG": str(named)}
    assert load_settings(explicit, environ=env).port == 8009


@pytest.mark.parametrize("how", ["argument", "environment"])
def test_a_named_file_that_is_missing_is_an_error(home: Path, tmp_path: Path, how: str) -> None:
    """A named configuration file that does not exist raises ConfigError naming it."""
    missing = tmp_path / "nope.toml"
    with pytest.raises(ConfigError, match="nope.toml: configuration file not found"):
        if how == "argument":
            load_settings(missing, environ={"HOME": str(home)})
        else:
            load_settings(environ={"HOME": str(home), "TUCANA_CONFIG": str(missing)})


def test_every_key_is_read(home: Path, tmp_path: Path) -> None:
    """Every top-level, pin and hotspot key in a file is read into the settings."""
    path = write(
        tmp_path / "conf" / "t.toml",
        """
host = "127.0.0.1"
port = 80
data_dir = "games"
camera = "usb:1"
gpio = "real"
language = "fr"
speech = false
[pins]
button = 5
led_ready = 6
led_seen = 12
led_mayor = 13
buzzer = 19
[hotspot]
enabled = true
ssid = "Isla Petit"
password = "correct horse"
""",
    )
    loaded = load_settings(path, environ={"HOME": str(home)})
    assert loaded == Settings(
        host="127.0.0.1",
        port=80,
        data_dir=tmp_path / "conf" / "games",
        camera="usb:1",
        gpio=GpioMode.REAL,
        language="fr",
        speech=False,
        pins=PinMap(button=5, led_ready=6, led_seen=12, led_mayor=13, buzzer=19),
        hotspot=Hotspot(enabled=True, ssid="Isla Petit", password="correct horse"),
        source=path,
    )


def test_partial_section_keeps_the_other_defaults(home: Path, tmp_path: Path) -> None:
    """Setting one key of a section keeps the defaults of its other keys."""
    path = write(tmp_path / "t.toml", "[pins]\nbuzzer = 26\n")
    assert load_settings(path, environ={"HOME": str(home)}).pins == PinMap(buzzer=26)


def test_tilde_data_dir_is_the_home_folder(home: Path, tmp_path: Path) -> None:
    """A data_dir starting with ~ is expanded to the home folder."""
    path = write(tmp_path / "t.toml", 'data_dir = "~/tucana-games"\n')
    assert load_settings(path, environ={"HOME": str(home)}).data_dir == home / "tucana-games"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("prot = 8000\n", "unknown key 'prot'"),
        ("[pins]\nbutton = 17\nled = 5\n", "unknown key 'pins.led'"),
        ("[camera]\nkind = 'usb'\n", "unknown key 'camera'|camera: expected"),
        ("[web]\nport = 1\n", "unknown key 'web'"),
        ("port = 0\n", "port: expected a port number 1-65535, got 0"),
        ("port = 70000\n", "port: expected a port number"),
        ('port = "8000"\n', "port: expected a port number, got '8000'"),
        ("port = true\n", "port: expected a port number, got True"),
        ("port = 80.5\n", "port: expected a port number"),
        ('host = ""\n', "host: expected a host name"),
        ('host = "my host"\n', "host: expected a host name"),
        ("host = 1\n", "host: expected a host name"),
        ('data_dir = ""\n', "data_dir: expected a folder path"),
        ('camera = "webcam"\n', "camera: expected one of auto, virtual, none, picamera"),
        ('camera = "usb:"\n', "camera: expected"),
        ('camera = "usb:x"\n', "camera: expected"),
        ('camera = "folder:"\n', "camera: expected"),
        ('gpio = "pigpio"\n', "gpio: expected one of auto, mock, real; got 'pigpio'"),
        ('language = "de"\n', "language: expected one of en, fr, es; got 'de'"),
        ('speech = "yes"\n', "speech: expected true or false, got 'yes'"),
        ("[pins]\nbutton = 40\n", "pins.button: expected a BCM GPIO number 2-27, got 40"),
        ("[pins]\nbutton = 1\n", "pins.button: expected a BCM GPIO number 2-27"),
        ('[pins]\nbutton = "17"\n', "pins.button: expected a BCM GPIO number, got '17'"),
        ("[pins]\nled_ready = 17\n", "pins.led_ready: GPIO 17 is already used by pins.button"),
        ("[pins]\nbuzzer = 22\n", "pins.buzzer: GPIO 22 is already used by pins.led_ready"),
        ("pins = 3\n", "pins: expected a \\[pins\\] table"),
        ('[hotspot]\nenabled = "on"\n', "hotspot.enabled: expected true or false"),
        ("[hotspot]\nenabled = true\n", "hotspot.password: an enabled hotspot needs a password"),
        ('[hotspot]\npassword = "short"\n', "hotspot.password: expected 8-63 printable ASCII"),
        ('[hotspot]\npassword = "mot de passe été"\n', "hotspot.password: expected 8-63"),
        ('[hotspot]\nssid = ""\n', "hotspot.ssid: expected a network name of 1-32 bytes"),
        (f'[hotspot]\nssid = "{"x" * 33}"\n', "hotspot.ssid: expected a network name"),
        ("port = \n", "not valid TOML"),
        ("[pins]\n[pins]\n", "not valid TOML"),
    ],
)
def test_bad_files_are_refused_naming_the_key(
    home: Path, tmp_path: Path, text: str, message: str
) -> None:
    """Each bad value raises ConfigError starting with the file path and naming the key."""
    path = write(tmp_path / "bad.toml", text)
    with pytest.raises(ConfigError, match=message) as caught:
        load_settings(path, environ={"HOME": str(home)})
    assert str(caught.value).startswith(f"{path}: ")


def test_a_file_that_is_not_utf8_is_refused(home: Path, tmp_path: Path) -> None:
    """A file that is not UTF-8 is refused as invalid TOML."""
    path = tmp_path / "latin1.toml"
    path.write_bytes('language = "fr" # été\n'.encode("latin-1"))
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(path, environ={"HOME": str(home)})


def test_a_folder_given_as_the_file_is_refused(home: Path, tmp_path: Path) -> None:
    """A folder passed as the configuration file is refused as unreadable."""
    with pytest.raises(ConfigError, match="cannot read configuration file"):
        load_settings(tmp_path, environ={"HOME": str(home)})


def test_flags_win_over_the_file(home: Path, tmp_path: Path) -> None:
    """Command-line flags override file values, None keeps them, and the original is unchanged."""
    path = write(tmp_path / "t.toml", 'port = 80\nlanguage = "fr"\ncamera = "none"\n')
    loaded = load_settings(path, environ={"HOME": str(home)})
    flagged = loaded.with_overrides(
        port=9000, language=None, camera="folder:/tmp/frames", data_dir=tmp_path / "d", gpio="mock"
    )
    assert flagged.port == 9000
    assert flagged.language == "fr"  # None means the flag was not given
    assert flagged.camera == "folder:/tmp/frames"
    assert flagged.data_dir == tmp_path / "d"
    assert flagged.gpio is GpioMode.MOCK
    assert loaded.port == 80  # the original is untouched (frozen)


def test_flag_port_given_as_text_is_read() -> None:
    """A port flag given as a string is converted to a number."""
    assert Settings().with_overrides(port="9001").port == 9001


def test_relative_data_flag_starts_at_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A relative data folder flag is resolved against the working folder."""
    monkeypatch.chdir(tmp_path)
    assert Settings().with_overrides(data_dir="games").data_dir == tmp_path / "games"


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        ({"port": 0}, "flag port: expected a port number"),
        ({"port": "http"}, "flag port: expected a port number"),
        ({"camera": "usb:two"}, "flag camera: expected"),
        ({"language": "it"}, "flag language: expected one of en, fr, es"),
        ({"gpio": "pigpio"}, "flag gpio: expected one of auto, mock, real"),
        ({"colour": "red"}, "unknown setting 'colour'"),
    ],
)
def test_bad_flags_are_refused(flags: dict, message: str) -> None:
    """Invalid flag values raise ConfigError with a clear message."""
    with pytest.raises(ConfigError, match=message):
        Settings().with_overrides(**flags)


@pytest.mark.parametrize(
    ("camera", "gpio", "on_pi", "expected"),
    [
        ("auto", "auto", True, ("picamera", GpioMode.REAL)),
        ("auto", "auto", False, ("virtual", GpioMode.MOCK)),
        ("usb:0", "mock", True, ("usb:0", GpioMode.MOCK)),
        ("none", "real", False, ("none", GpioMode.REAL)),
    ],
)
def test_resolved_makes_auto_concrete(camera: str, gpio: str, on_pi: bool, expected: tuple) -> None:
    """Resolving turns auto camera and GPIO into concrete choices, depending on the Pi."""
    resolved = Settings().with_overrides(camera=camera, gpio=gpio).resolved(on_pi=on_pi)
    assert (resolved.camera, resolved.gpio) == expected


def test_dump_reads_back_to_the_same_settings(home: Path, tmp_path: Path) -> None:
    """Settings dumped to TOML load back equal, odd folder names included."""
    original = Settings(
        port=81,
        data_dir=tmp_path / 'odd "name"',
        camera="folder:/srv/frames",
        language="es",
        speech=False,
        pins=PinMap(button=5),
        hotspot=Hotspot(enabled=True, ssid="Mesa", password="abcdefgh"),
    )
    path = write(tmp_path / "dumped.toml", dump_toml(original))
    again = load_settings(path, environ={"HOME": str(home)})
    assert again == Settings(**{**original.__dict__, "source": path})


def test_command_line_check_prints_one_value_or_fails_with_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The settings command prints one value, exits 2 on an unknown key or a bad file."""
    good = write(tmp_path / "good.toml", '[hotspot]\nssid = "Table 4"\n')
    assert main(["--config", str(good), "--get", "hotspot.ssid"]) == 0
    assert capsys.readouterr().out == "Table 4\n"
    assert main(["--config", str(good), "--get", "speech"]) == 0
    assert capsys.readouterr().out == "true\n"
    assert main(["--config", str(good), "--get", "hotspot.colour"]) == 2
    assert "unknown setting 'hotspot.colour'" in capsys.readouterr().err
    bad = write(tmp_path / "bad.toml", "port = -1\n")
    assert main(["--config", str(bad)]) == 2
    assert "port: expected a port number" in capsys.readouterr().err



def serve_args(*argv: str) -> argparse.Namespace:
    """Parse `tucana serve ARGS` with serve's own parser (the other commands are not needed)."""
    from web.commands import serve

    parser = argparse.ArgumentParser(prog="tucana")
    serve.add_parser(parser.add_subparsers())
    return parser.parse_args(["serve", *argv])


def test_serve_reads_the_config_flag_and_its_flags_win(tmp_path: Path) -> None:
    """The serve command reads --config and its own flags override the file."""
    from web.commands import serve

    path = write(tmp_path / "t.toml", 'port = 8123\nlanguage = "es"\ncamera = "none"\n')
    chosen = serve._settings(serve_args("--config", str(path), "--port", "9001"))
    assert (chosen.port, chosen.language, chosen.camera, chosen.source) == (9001, "es", "none", path)


def test_serve_with_a_bad_config_exits_2_naming_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Serve with an invalid configuration exits 2 and names the bad key."""
    path = write(tmp_path / "t.toml", "[pins]\nbuzzer = 40\n")
    args = serve_args("--config", str(path))
    assert args.run(args) == 2
    assert "pins.buzzer: expected a BCM GPIO number 2-27, got 40" in capsys.readouterr().err
