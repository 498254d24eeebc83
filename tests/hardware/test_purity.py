"""gpiozero and picamera2 stay inside their adapters: everything else imports on any laptop.

The arrows point one way: web -> hardware -> vision; hardware never imports web.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.imports import REPO, package_imports

PACKAGES = ("companion", "vision", "hardware", "web")
ADAPTERS = {"gpiozero": {"hardware/gpio.py"}, "picamera2": {"hardware/camera_pi.py"},
            "libcamera": {"hardware/camera_pi.py"}}


@pytest.mark.parametrize("package", PACKAGES)
def test_only_the_adapters_import_gpiozero_and_picamera2(package):
    """Only the adapter modules import gpiozero and picamera2."""
    found = package_imports(package)
    assert found, "no imports found: the test looked in the wrong place"
    stray = {(module, name) for module, name in found if name in ADAPTERS and module not in ADAPTERS[name]}
    assert stray == set()


def test_the_adapters_are_where_the_check_looks():
    """The allow-list names real files that do import their device library."""
    found = package_imports("hardware")
    for name, modules in ADAPTERS.items():
        for module in modules:
            assert (module, name) in found


def test_hardware_never_imports_web():
    """No hardware module imports web."""
    assert {(module, name) for module, name in package_imports("hardware") if name == "web"} == set()


def test_building_the_rig_and_the_app_loads_neither():
    """Importing the rig and the web app loads neither gpiozero, picamera2 nor libcamera."""
    code = (
        "import sys, hardware, hardware.rig, hardware.scanner, hardware.desk, hardware.camera;"
        "import web.app, web.api, web.hardware_api, web.pages, web.cli, web.rig;"
        "bad = [m for m in ('gpiozero', 'picamera2', 'libcamera') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=REPO, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
