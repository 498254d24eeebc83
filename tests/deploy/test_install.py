"""deploy/install.sh and deploy/hotspot.sh in dry-run mode on this Debian machine.

The dry run must print what a Raspberry Pi OS install would do (which differs between Bookworm
and Trixie) and change nothing: every command that could change the system is a stand-in here
that records its call, and the tests check that none was called.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import HOTSPOT, INSTALL, Shell, os_release


def dry_install(shell: Shell, tmp_path: Path, codename: str, *flags: str):
    """Run the installer's dry run against a faked /etc/os-release, with its prefix in tmp."""
    prefix = tmp_path / "opt-tucana"
    done = shell.run(
        "bash", str(INSTALL), "--dry-run", "--prefix", str(prefix),
        "--os-release", str(os_release(tmp_path, codename)), *flags,
    )
    assert not prefix.exists(), "a dry run created the install folder"
    assert shell.changes() == [], "a dry run ran a command that changes the system"
    return done


def apt_install_line(out: str) -> list[str]:
    """The packages of the printed apt-get install command."""
    line = next(x for x in out.splitlines() if "apt-get install" in x)
    return line.split("--no-install-recommends", 1)[1].split()


def written_file(out: str, path_end: str) -> str:
    """The content the dry run shows for a file it would write."""
    match = re.search(rf"^\+ write \S*{re.escape(path_end)} .*?\n((?:    \| .*\n?)+)", out, re.M)
    assert match, f"no write of {path_end}"
    return "\n".join(line[6:] for line in match.group(1).splitlines())


def test_bookworm_takes_numpy_and_opencv_from_apt(shell: Shell, tmp_path: Path) -> None:
    """On bookworm numpy and OpenCV come from apt, pinned by a constraint, and Flask from PyPI."""
    done = dry_install(shell, tmp_path, "bookworm")
    assert done.returncode == 0, done.stderr
    packages = apt_install_line(done.stdout)
    for package in ("python3-picamera2", "python3-numpy", "python3-opencv", "python3-venv",
                    "python3-lgpio", "espeak-ng", "avahi-daemon", "network-manager"):
        assert package in packages
    requirements = written_file(done.stdout, "/requirements.txt").split()
    assert "flask>=3.0" in requirements
    assert not [r for r in requirements if r.startswith(("numpy", "opencv"))]
    assert written_file(done.stdout, "/constraints.txt").startswith("numpy==")


def test_trixie_takes_opencv_from_pypi(shell: Shell, tmp_path: Path) -> None:
    """On trixie OpenCV comes from PyPI while numpy stays held to apt's version."""
    done = dry_install(shell, tmp_path, "trixie")
    assert done.returncode == 0, done.stderr
    packages = apt_install_line(done.stdout)
    assert "python3-picamera2" in packages and "python3-numpy" in packages
    assert "python3-opencv" not in packages
    requirements = written_file(done.stdout, "/requirements.txt").split()
    assert any(r.startswith("opencv-python-headless") for r in requirements)
    assert any(r.startswith("numpy") for r in requirements)  # held to apt's by the constraint


@pytest.mark.parametrize("codename", ["bookworm", "trixie"])
def test_dry_run_shows_every_step(shell: Shell, tmp_path: Path, codename: str) -> None:
    """A dry run prints the venv, pip, user, unit, service and config steps."""
    out = dry_install(shell, tmp_path, codename, "--keep-hostname").stdout
    prefix = tmp_path / "opt-tucana"
    venv = f"{prefix}/venv"
    assert f"-m venv --clear --system-site-packages {venv}" in out
    assert f"{venv}/bin/pip install --disable-pip-version-check --no-input -c {prefix}/constraints.txt -r {prefix}/requirements.txt" in out
    assert re.search(rf"{venv}/bin/pip install .*--no-deps --force-reinstall {prefix}/src", out)
    assert "useradd --system --user-group --home-dir /var/lib/tucana" in out
    assert "usermod -a -G video tucana" in out
    unit = written_file(out, "/etc/systemd/system/tucana.service")
    assert f"ExecStart={venv}/bin/tucana serve" in unit
    assert "Restart=on-failure" in unit and "User=tucana" in unit
    assert "+ systemctl enable tucana.service" in out
    config = written_file(out, "/etc/tucana/tucana.toml")
    assert "\nport = 80\n" in f"\n{config}\n"
    assert 'data_dir = "/var/lib/tucana"' in config
    powersave = written_file(out, "tucana-wifi-powersave.conf")
    assert "wifi.powersave = 2" in powersave
    assert "nmcli" not in out  # no hotspot unless asked
    assert "set-hostname" not in out and "do_hostname" not in out  # --keep-hostname


def test_hostname_becomes_tucana(shell: Shell, tmp_path: Path) -> None:
    """The install sets the hostname to tucana and restarts avahi."""
    out = dry_install(shell, tmp_path, "bookworm").stdout
    assert re.search(r"^\+ (hostnamectl set-hostname|raspi-config nonint do_hostname) tucana$", out, re.M)
    assert "+ systemctl restart avahi-daemon.service" in out


def test_hotspot_is_set_up_with_a_hidden_password(shell: Shell, tmp_path: Path) -> None:
    """The hotspot is set up as a WPA access point; its password is printed only in the summary."""
    out = dry_install(shell, tmp_path, "trixie", "--hotspot", "--ssid", "Isla Petit",
                      "--wifi-country", "FR").stdout
    assert "toml_set /etc/tucana/tucana.toml \\[hotspot\\] enabled=true ssid=Isla\\ Petit password=\\*\\*\\*\\*\\*\\*\\*\\*" in out
    assert "+ nmcli connection add type wifi con-name tucana-hotspot ifname wlan0 ssid Isla\\ Petit" in out
    modify = next(x for x in out.splitlines() if x.startswith("+ nmcli connection modify"))
    for setting in ("802-11-wireless.mode ap", "ipv4.method shared", "ipv4.addresses 10.42.0.1/24",
                    "wifi-sec.key-mgmt wpa-psk", "connection.autoconnect yes",
                    "802-11-wireless.powersave 2", "wifi-sec.psk ********"):
        assert setting in modify
    assert re.search(r"^\+ (iw reg set|raspi-config nonint do_wifi_country) FR$", out, re.M)
    password = re.search(r"password (\S{12}) \(kept in", out)
    assert password, "the summary gives the generated password"
    assert out.count(password.group(1)) == 1, "the password appears outside the summary"


@pytest.mark.parametrize(
    ("codename", "message"),
    [("bullseye", "unsupported OS release 'bullseye'"), ("", "unsupported OS release 'unknown'")],
)
def test_other_releases_are_refused(shell: Shell, tmp_path: Path, codename: str, message: str) -> None:
    """Unsupported OS releases are refused before any apt-get step."""
    done = dry_install(shell, tmp_path, codename)
    assert done.returncode == 1
    assert message in done.stderr
    assert "apt-get" not in done.stdout


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (("--port", "0"), "--port wants 1-65535"),
        (("--hostname", "Tucana_Pi"), "--hostname wants letters, digits and dashes"),
        (("--prefix", "relative/dir"), "--prefix wants an absolute folder"),
        (("--colour",), "unknown option: --colour"),
    ],
)
def test_bad_options_are_refused(shell: Shell, tmp_path: Path, flags: tuple, message: str) -> None:
    """Invalid install options are refused with a clear message and change nothing."""
    done = shell.run("bash", str(INSTALL), "--dry-run", *flags)
    assert done.returncode == 1
    assert message in done.stderr
    assert shell.changes() == []


@pytest.fixture
def readable_copy() -> Iterator[Path]:
    """The deploy scripts copied where any user can read them (the clone may sit in a private folder)."""
    folder = Path(tempfile.mkdtemp(prefix="tucana-deploy-"))
    try:
        shutil.copytree(INSTALL.parent, folder / "deploy")
        for path in (folder, *folder.rglob("*")):
            path.chmod(0o755)
        yield folder
    finally:
        shutil.rmtree(folder)


def test_a_real_run_needs_root(shell: Shell, readable_copy: Path) -> None:
    """A real install run without root is refused with a sudo hint and changes nothing."""
    release = os_release(readable_copy, "bookworm")
    release.chmod(0o644)
    done = shell.run("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                     "bash", str(readable_copy / "deploy" / INSTALL.name), "--os-release", str(release))
    if "setpriv:" in done.stderr:
        pytest.skip(f"cannot drop privileges here: {done.stderr.strip()}")
    assert done.returncode == 1, done.stderr
    assert "run it with sudo" in done.stderr
    assert shell.changes() == []


@pytest.mark.parametrize("purge", [False, True])
def test_uninstall_keeps_games_unless_purged(shell: Shell, tmp_path: Path, purge: bool) -> None:
    """Uninstall removes the service and program, and games and user only with --purge."""
    prefix = tmp_path / "opt-tucana"
    flags = ["--purge"] if purge else []
    done = shell.run("bash", str(INSTALL), "--dry-run", "--uninstall", "--prefix", str(prefix), *flags)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "+ systemctl disable --now tucana.service" in out
    assert "+ rm -f /etc/systemd/system/tucana.service" in out
    assert f"+ rm -rf {prefix}" in out
    assert ("+ rm -rf /etc/tucana /var/lib/tucana" in out) is purge
    assert ("+ userdel tucana" in out) is purge
    assert ("kept your games in /var/lib/tucana" in out) is not purge
    assert shell.changes() == []


def test_print_unit_renders_the_prefix(tmp_path: Path, shell: Shell) -> None:
    """The printed systemd unit uses the given prefix, not the default one."""
    done = shell.run("bash", str(INSTALL), "--print-unit", "--prefix", "/srv/tucana")
    assert done.returncode == 0
    assert "ExecStart=/srv/tucana/venv/bin/tucana serve" in done.stdout
    assert "/opt/tucana" not in done.stdout


def test_hotspot_script_reads_the_config_and_masks_the_password(shell: Shell, tmp_path: Path) -> None:
    """The hotspot script reads SSID and password from the config and never prints the password."""
    config = tmp_path / "tucana.toml"
    config.write_text('[hotspot]\nenabled = true\nssid = "Mesa 3"\npassword = "s3cret-passphrase"\n')
    done = shell.run("bash", str(HOTSPOT), "--dry-run", "--config", str(config), "setup")
    assert done.returncode == 0, done.stderr
    assert "ssid Mesa\\ 3" in done.stdout
    assert "s3cret-passphrase" not in done.stdout + done.stderr
    assert "wifi-sec.psk ********" in done.stdout
    assert shell.changes() == []


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        ("on", ["connection.autoconnect yes", "nmcli connection up tucana-hotspot"]),
        ("off", ["connection.autoconnect no", "nmcli connection down tucana-hotspot"]),
    ],
)
def test_hotspot_on_and_off(shell: Shell, action: str, expected: list[str]) -> None:
    """Hotspot on and off set autoconnect and bring the connection up or down."""
    done = shell.run("bash", str(HOTSPOT), "--dry-run", action)
    assert done.returncode == 0, done.stderr
    for text in expected:
        assert text in done.stdout
    assert shell.changes() == []


def test_hotspot_refuses_a_short_password(shell: Shell, tmp_path: Path) -> None:
    """The hotspot script refuses a password shorter than 8 characters."""
    config = tmp_path / "tucana.toml"
    config.write_text('[hotspot]\nssid = "Mesa"\npassword = "short"\n')
    done = shell.run("bash", str(HOTSPOT), "--dry-run", "--config", str(config), "setup")
    assert done.returncode == 1
    assert "password of at least 8 characters" in done.stderr
