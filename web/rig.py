"""Opening the hardware rig for `tucana serve`: camera, scanner, controls and speech, once."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any


def open_rig(settings: Any, services: Any) -> Any:
    """Build and start hardware.rig.Rig over the services' table (the one camera of the process).

    With --camera none the rig still runs the button, LEDs and speech; only the scanner is off.
    The scanner reads against the owner's deck in <data_dir>/deck (enrolled cards by their
    photos, the others by the built-in art); the Mayor console enrolls into that folder.
    Raises ConfigError or HardwareError with a clear message when a part will not open.
    """
    from hardware.enroll import DECK_FOLDER
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
        deck_dir=Path(settings.data_dir) / DECK_FOLDER,
    )
    rig.start()
    return rig
