"""shellcheck on every shell script of the repository; systemd-analyze on the service unit."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import DEPLOY, INSTALL, REPO

SKIPPED_DIRS = {".git", ".venv", "node_modules", "__pycache__", ".pytest_cache", ".ruff_cache"}
SHELL_SHEBANG = re.compile(rb"^#!\s*(/usr)?/bin/(env\s+)?(ba|da)?sh\b")
# systemd-analyze security rates exposure from 0 (locked down) to 10 (unsafe); under 4 is "OK".
MAX_EXPOSURE = 4.0
UNIT = DEPLOY / "tucana.service"


def shell_scripts() -> list[Path]:
    """Every *.sh file and every file that starts with a sh/bash shebang."""
    found = []
    for path in sorted(REPO.rglob("*")):
        if SKIPPED_DIRS & set(path.relative_to(REPO).parts) or not path.is_file():
            continue
        if path.suffix == ".sh":
            found.append(path)
            continue
        with path.open("rb") as handle:
            if SHELL_SHEBANG.match(handle.readline(200)):
                found.append(path)
    return found


def need(tool: str) -> str:
    """The tool's path, or skip saying why (CI installs both through .ci/run)."""
    path = shutil.which(tool)
    if path is None:
        pytest.skip(f"{tool} is not installed (apt-get install {'systemd' if 'systemd' in tool else tool})")
    return path


def test_the_scripts_are_found() -> None:
    """The shell scripts found for checking include the install, hotspot, lib and CI scripts."""
    names = {str(p.relative_to(REPO)) for p in shell_scripts()}
    assert {"deploy/install.sh", "deploy/hotspot.sh", "deploy/lib.sh", ".ci/run"} <= names


@pytest.mark.parametrize("script", shell_scripts(), ids=lambda p: str(p.relative_to(REPO)))
def test_shellcheck(script: Path) -> None:
    """Each shell script passes shellcheck."""
    tool = need("shellcheck")
    done = subprocess.run(
        [tool, "--external-sources", "--source-path=SCRIPTDIR", "--source-path", str(REPO),
         str(script)],
        capture_output=True, text=True, cwd=REPO, check=False, timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_shellcheck_catches_a_mistake(tmp_path: Path) -> None:
    """shellcheck flags an unquoted variable, so a clean result means something."""
    tool = need("shellcheck")
    bad = tmp_path / "bad.sh"
    bad.write_text('#!/usr/bin/env bash\nrm -rf $1/*\n')
    done = subprocess.run([tool, str(bad)], capture_output=True, text=True, check=False)
    assert done.returncode != 0 and "SC2086" in done.stdout


def rendered_unit(tmp_path: Path) -> Path:
    """The unit as install.sh writes it, its prefix a temp folder with a tucana to execute."""
    prefix = tmp_path / "prefix"
    executable = prefix / "venv" / "bin" / "tucana"
    executable.parent.mkdir(parents=True)
    executable.write_text("#!/bin/sh\nexit 0\n")
    executable.chmod(0o755)
    unit = tmp_path / "tucana.service"  # verify wants the unit's own name
    done = subprocess.run(["bash", str(INSTALL), "--print-unit", "--prefix", str(prefix)],
                          capture_output=True, text=True, check=True)
    unit.write_text(done.stdout)
    return unit


def analyze(*args: str) -> subprocess.CompletedProcess:
    """Run systemd-analyze with the given arguments."""
    tool = need("systemd-analyze")
    return subprocess.run([tool, *args], capture_output=True, text=True, check=False, timeout=120)


def test_unit_verifies_cleanly(tmp_path: Path) -> None:
    """systemd-analyze verify reports nothing about the rendered unit."""
    unit = rendered_unit(tmp_path)
    done = analyze("verify", str(unit))
    assert done.returncode == 0, done.stderr
    # verify only warns about unknown keys and bad values: any word about our unit is a defect.
    about_us = [line for line in done.stderr.splitlines() if "tucana" in line]
    assert about_us == []


def test_verify_would_catch_a_broken_unit(tmp_path: Path) -> None:
    """verify would report a misspelt key in the unit."""
    unit = rendered_unit(tmp_path)
    unit.write_text(unit.read_text().replace("Restart=on-failure", "Restart=on-failure\nRestrat=always"))
    done = analyze("verify", str(unit))
    assert "Unknown key" in done.stderr and "Restrat" in done.stderr


def test_the_installed_path_is_what_verify_misses_on_ci() -> None:
    """The shipped unit fails verify only because its program is not installed here."""
    done = analyze("verify", str(UNIT))
    assert done.returncode != 0
    problems = [line for line in done.stderr.splitlines() if "tucana" in line]
    assert problems == [
        "tucana.service: Command /opt/tucana/venv/bin/tucana is not executable: No such file or directory"
    ]


def test_unit_is_locked_down(tmp_path: Path) -> None:
    """systemd-analyze security rates the unit's exposure at or below the agreed maximum."""
    done = analyze("security", "--offline=yes", str(rendered_unit(tmp_path)))
    assert done.returncode == 0, done.stderr
    level = re.search(r"Overall exposure level for tucana\.service: ([0-9.]+)", done.stdout)
    assert level, done.stdout[-500:]
    assert float(level.group(1)) <= MAX_EXPOSURE


def unit_settings() -> dict[str, list[str]]:
    """Key -> values of the unit file (keys may repeat, like Environment=)."""
    settings: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    return settings


def test_unit_runs_unprivileged_and_keeps_camera_and_pins() -> None:
    """The unit runs as tucana with one capability and keeps camera, pins and netlink."""
    unit = unit_settings()
    assert unit["User"] == ["tucana"] and unit["Restart"] == ["on-failure"]
    assert unit["CapabilityBoundingSet"] == ["CAP_NET_BIND_SERVICE"]
    assert "TUCANA_CONFIG=/etc/tucana/tucana.toml" in unit["Environment"]
    assert unit["WorkingDirectory"] == ["/var/lib/tucana"]  # lgpio writes its pipes there
    assert unit["StateDirectory"] == ["tucana"]
    # These would hide /dev/video*, /dev/gpiochip* or /proc/device-tree from the companion.
    for breaker in ("PrivateDevices", "DevicePolicy", "ProcSubset", "SupplementaryGroups"):
        assert breaker not in unit
    assert "AF_NETLINK" in unit["RestrictAddressFamilies"][0]  # libcamera's udev monitor
    assert unit["RestartPreventExitStatus"] == ["2"]  # contract 2's exit for bad settings
