"""Opening the hardware rig for `tucana serve`: camera, scanner, controls and speech, once."""

from __future__ import annotations

import random
import time
from typing import Any


def open_rig(settings: Any, services: Any) -> Any:
    """Build and start hardware.rig.Rig over the services' table (the one camera of the process).

    With --camera none the rig still runs the button, LEDs and speech; only the scanner is off.
    Raises ConfigError or HardwareError with a clear message when a part will not open.
    """
    from hardware.rig import build_rig

    rig = build_rig(
        settings.camera,
        str(settings.gpio),
        settings.pins,
        settings.language,
        services.table,
        time.monotonic,
        random.Random(),  # the virtual table's shuffles: any order is a valid game
        speech=settings.speech,
    )
    rig.start()
    return rig
