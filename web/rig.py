"""Opening the hardware rig for `tucana serve`: camera, scanner, controls and speech, once."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import TYPE_CHECKING

from web import i18n

if TYPE_CHECKING:
    from hardware.rig import Rig
    from web.services import Services
    from web.settings import Settings


def open_rig(settings: Settings, services: Services) -> Rig:
    """Build and start hardware.rig.Rig over the services' table (the one camera of the process).

    With --camera none the rig still runs the button, LEDs and speech; only the scanner is off.
    The scanner reads against the owner's deck in <data_dir>/deck (enrolled cards by their
    photos, the others by the built-in art); the Mayor console enrolls into that folder. The
    voice says the pages' own words in the companion's language.
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
        phrases=i18n.phrasebook(settings.language),
        deck_dir=Path(settings.data_dir) / DECK_FOLDER,
    )
    rig.start()
    return rig
