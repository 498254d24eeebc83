"""gpiozero and picamera2 stay inside their adapters: everything else imports on any laptop."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
ADAPTERS = {"gpiozero": {"gpio.py"}, "picamera2": {"camera_pi.py"}, "libcamera": {"camera_pi.py"}}


def test_only_the_adapters_import_gpiozero_and_picamera2():
    for module in sorted(HARDWARE.glob("*.py")):
        text = module.read_text()
        for package, allowed in ADAPTERS.items():
            if re.search(rf"^\s*(from|import) {package}\b", text, re.MULTILINE):
                assert module.name in allowed, f"{module.name} imports {package}"


def test_building_the_rig_module_loads_neither():
    code = (
        "import sys, hardware, hardware.rig, hardware.scanner, hardware.desk, hardware.camera;"
        "bad = [m for m in ('gpiozero', 'picamera2', 'libcamera') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=HARDWARE.parent, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
