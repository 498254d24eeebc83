"""The installer's configuration step for real, on a temp folder: written once, kept, re-runnable.

install.sh is sourced (it runs nothing when sourced) and its install_config step is called with
the config path pointed at a temp folder and the settings check run by this venv's Python.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.errors import ConfigError
from web.settings import load_settings

from .conftest import INSTALL, REPO

PASSWORD_CHARS = set("23456789abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ")


def install_config(config_dir: Path, *, hotspot: str = "keep", ssid: str = "", port: str = "") -> subprocess.CompletedProcess:
    """Call install.sh's install_config step with its paths in config_dir."""
    script = f"""
set -euo pipefail
. {INSTALL}
CONFIG_DIR={config_dir}; CONFIG_FILE=$CONFIG_DIR/tucana.toml
CONFIG_OWNER="$(id -u):$(id -g)"; VENV={Path(sys.prefix)}
HOTSPOT={hotspot}; SSID="{ssid}"; PORT="{port}"
install_config
"""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env,
                          timeout=60, check=False)


@pytest.fixture
def config_dir(tmp_path: Path) -> Path:
    """Where the step writes tucana.toml."""
    return tmp_path / "etc-tucana"


def test_first_run_writes_the_pi_config(config_dir: Path) -> None:
    """A first install writes a valid 0640 Pi config on port 80 with its comments kept."""
    done = install_config(config_dir)
    assert done.returncode == 0, done.stderr
    path = config_dir / "tucana.toml"
    settings = load_settings(path)
    assert settings.port == 80
    assert settings.data_dir == Path("/var/lib/tucana")
    assert settings.camera == "auto" and settings.hotspot.enabled is False
    assert stat.S_IMODE(path.stat().st_mode) == 0o640  # holds the hotspot password
    assert "# Where the card pictures come from:" in path.read_text()  # the documentation stays


def test_hotspot_password_is_generated_once_and_kept(config_dir: Path) -> None:
    """The hotspot password is generated once and a re-run leaves the file unchanged."""
    assert install_config(config_dir, hotspot="on", ssid="Table Four").returncode == 0
    path = config_dir / "tucana.toml"
    first = load_settings(path).hotspot
    assert first.enabled and first.ssid == "Table Four"
    assert len(first.password) == 12 and set(first.password) <= PASSWORD_CHARS
    before = path.read_bytes()
    again = install_config(config_dir)  # a re-run (an update) without hotspot flags
    assert again.returncode == 0, again.stderr
    assert path.read_bytes() == before
    assert "unchanged:" in again.stdout


def test_no_hotspot_turns_it_off_and_keeps_the_password(config_dir: Path) -> None:
    """Turning the hotspot off keeps its password for next time."""
    install_config(config_dir, hotspot="on")
    password = load_settings(config_dir / "tucana.toml").hotspot.password
    assert install_config(config_dir, hotspot="off").returncode == 0
    hotspot = load_settings(config_dir / "tucana.toml").hotspot
    assert (hotspot.enabled, hotspot.password) == (False, password)


def test_owner_edits_survive_and_port_flag_applies(config_dir: Path) -> None:
    """A re-run keeps the owner's own edits and applies the port flag."""
    install_config(config_dir)
    path = config_dir / "tucana.toml"
    path.write_text(path.read_text().replace('language = "en"', 'language = "fr"'))
    assert install_config(config_dir, port="8080").returncode == 0
    settings = load_settings(path)
    assert (settings.language, settings.port) == ("fr", 8080)


def test_a_broken_config_stops_the_install_naming_the_key(config_dir: Path) -> None:
    """A config with a bad value stops the install with exit 1, naming the key."""
    install_config(config_dir)
    path = config_dir / "tucana.toml"
    path.write_text(path.read_text().replace('camera = "auto"', 'camera = "webcam"'))
    with pytest.raises(ConfigError):
        load_settings(path)
    done = install_config(config_dir)
    assert done.returncode == 1
    assert "camera: expected one of" in done.stderr
    assert "has a mistake" in done.stderr


def toml_set(path: Path, section: str, *pairs: str) -> None:
    """Run lib.sh's toml_set for real."""
    script = f'. {REPO}/deploy/lib.sh; toml_set "$@"'
    subprocess.run(["bash", "-c", script, "toml_set", str(path), section, *pairs],
                   check=True, capture_output=True, text=True)


def test_toml_set_edits_in_place_and_adds_what_is_missing(tmp_path: Path) -> None:
    """toml_set replaces keys in place, adds missing ones and sections, never duplicates."""
    path = tmp_path / "t.toml"
    path.write_text('# top\nport = 8000  # comment\n# data_dir = "x"\n\n[pins]\nbutton = 17\n')
    toml_set(path, "", "port:int=80", 'data_dir=/srv/a "b"')
    toml_set(path, "hotspot", "enabled=true", "ssid=Mesa", "password=abcdefgh")
    toml_set(path, "hotspot", "enabled=true", "ssid=Mesa", "password=abcdefgh")  # twice: no duplicate keys
    text = path.read_text()
    assert text.startswith('# top\nport = 80\ndata_dir = "/srv/a \\"b\\""\n')
    assert text.count("[hotspot]") == 1 and text.count("ssid =") == 1
    settings = load_settings(path, environ={"HOME": str(tmp_path)})
    assert settings.port == 80 and settings.data_dir == Path('/srv/a "b"')
    assert settings.pins.button == 17 and settings.hotspot.ssid == "Mesa"
