"""Fixtures for the deploy checks: the repository's scripts and a PATH that catches system changes."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
INSTALL = DEPLOY / "install.sh"
HOTSPOT = DEPLOY / "hotspot.sh"

# Commands that change a system. In a dry run none may actually run: each is replaced by a
# stand-in that records its arguments and fails, so a read-only query answers "not there".
SYSTEM_CHANGERS = (
    "apt-get", "useradd", "usermod", "userdel", "systemctl", "hostnamectl", "raspi-config",
    "nmcli", "iw", "rfkill", "install", "tar", "cp", "rm", "mv", "chown", "chmod", "pip",
)
# What the scripts may ask (and never change) during a dry run.
READ_ONLY_CALLS = (
    "nmcli -t -f NAME connection show",
    "systemctl is-active",
)


@dataclass
class Shell:
    """Runs the deploy scripts with stand-ins for every command that changes the system."""

    bin_dir: Path
    log: Path

    def run(self, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        """Run a command with the stand-ins first on PATH."""
        full_env = {**os.environ, "PATH": f"{self.bin_dir}:{os.environ['PATH']}", **(env or {})}
        return subprocess.run(
            list(args), capture_output=True, text=True, env=full_env, timeout=60, check=False
        )

    def calls(self) -> list[str]:
        """Every stand-in call so far, as 'name args'."""
        return self.log.read_text().splitlines() if self.log.exists() else []

    def changes(self) -> list[str]:
        """The calls that are not read-only queries: these would have changed the system."""
        return [c for c in self.calls() if not c.startswith(READ_ONLY_CALLS)]


@pytest.fixture
def shell(tmp_path: Path) -> Shell:
    """A PATH whose system-changing commands only record that they were called."""
    bin_dir = tmp_path / "stand-ins"
    bin_dir.mkdir()
    log = tmp_path / "calls.log"
    for name in SYSTEM_CHANGERS:
        stand_in = bin_dir / name
        stand_in.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\nexit 1\n')
        stand_in.chmod(0o755)
    return Shell(bin_dir, log)


def os_release(tmp_path: Path, codename: str) -> Path:
    """An /etc/os-release as Raspberry Pi OS writes it, for the given Debian codename."""
    number = {"bullseye": 11, "bookworm": 12, "trixie": 13}.get(codename, 0)
    path = tmp_path / f"os-release-{codename}"
    path.write_text(
        f'PRETTY_NAME="Debian GNU/Linux {number} ({codename})"\nNAME="Debian GNU/Linux"\n'
        f'VERSION_ID="{number}"\nVERSION="{number} ({codename})"\n'
        f"VERSION_CODENAME={codename}\nID=debian\n"
    )
    return path
