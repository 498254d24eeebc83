"""The long-lived parts one server process shares: log store, table, stream hub, security, hardware."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from companion.store import LogStore
from companion.table import Table
from web.i18n import DEFAULT_LANGUAGE
from web.idempotency import ANSWERS_FILE, AnswerBook
from web.seat_modes import SEAT_MODES_FILE, SeatModes
from web.security import Security
from web.stream import StreamHub

if TYPE_CHECKING:  # the rig pulls in numpy; a companion without hardware never imports it
    from hardware.rig import Rig
    from web.settings import Settings

DB_FILE = "tucana.sqlite3"


@dataclass
class Services:
    """Everything the views use; built once by `tucana serve` (or by a test) and closed at exit."""

    store: LogStore
    table: Table
    hub: StreamHub
    security: Security
    answers: AnswerBook = field(default_factory=AnswerBook)  # first answers by Idempotency-Key
    seat_modes: SeatModes = field(default_factory=SeatModes)  # each seat's paper/sheet pick
    rig: Rig | None = None  # camera, scanner, controls and speech; None = manual entry only
    settings: Settings | None = None  # when served; None in tests
    clock: Callable[[], float] = time.monotonic
    stopping: threading.Event = field(default_factory=threading.Event)  # set once close() begins

    @property
    def language(self) -> str:
        """The companion's default language (the pages' own comes from the browser or its cookie)."""
        return self.settings.language if self.settings is not None else DEFAULT_LANGUAGE

    def use_rig(self, rig: Rig) -> None:
        """Attach the hardware: the console follows its status over the stream (`rig` events)."""
        self.rig = rig
        self.hub.follow_rig(lambda: rig.status().to_json())
        rig.subscribe(lambda status: self.hub.rig_changed(status.to_json()))

    def close(self) -> None:
        """Stop the streams, release the hardware, close the database; each step runs once."""
        self.stopping.set()
        self.hub.close()
        if self.rig is not None:
            self.rig.close()
            self.rig = None
        self.store.close()
        self.answers.close()


def build_services(data_dir: Path, *, rig: Rig | None = None, settings: Settings | None = None,
                   keepalive_s: float | None = None, notify: Callable[[str], None] | None = None,
                   durable: bool = True) -> Services:
    """Open the SQLite log in data_dir, resume the newest game, and wire the hub and security.

    notify: where a warning for the Pi's terminal goes (wrong PINs), logging's by default.
    durable=False skips the fsync of every entry (tests that do not pull the plug): a power cut
    could then lose the newest entries, never corrupt the log.
    """
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    store = LogStore(data_dir / DB_FILE, durable=durable)
    table = Table(store)
    seat_modes = SeatModes(data_dir / SEAT_MODES_FILE)
    extra = {} if keepalive_s is None else {"keepalive_s": keepalive_s}
    hub = StreamHub(table, picks=seat_modes.picks, **extra)
    security = Security.in_folder(data_dir, notify=notify)
    services = Services(store=store, table=table, hub=hub, security=security,
                        answers=AnswerBook(data_dir / ANSWERS_FILE), seat_modes=seat_modes, settings=settings)
    if rig is not None:
        services.use_rig(rig)
    return services
