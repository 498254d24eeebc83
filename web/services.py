"""The long-lived parts one server process shares: log store, table, stream hub, security, hardware."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.store import LogStore
from companion.table import Table
from web.idempotency import ANSWERS_FILE, AnswerBook
from web.seat_modes import SEAT_MODES_FILE, SeatModes
from web.security import Security
from web.stream import StreamHub

DB_FILE = "tucana.sqlite3"
_log = logging.getLogger(__name__)


@dataclass
class Services:
    """Everything the views use; built once by `tucana serve` (or by a test) and closed at exit."""

    store: LogStore
    table: Table
    hub: StreamHub
    security: Security
    answers: AnswerBook = field(default_factory=AnswerBook)  # first answers by Idempotency-Key
    seat_modes: SeatModes = field(default_factory=SeatModes)  # each seat's paper/sheet pick
    rig: Any = None  # the hardware rig (camera, scanner, controls); None = manual entry only
    settings: Any = None  # web.settings.Settings when served; None in tests
    clock: Callable[[], float] = time.monotonic
    closers: list[Callable[[], None]] = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)  # set once close() begins

    def close(self) -> None:
        """Stop the streams, release the hardware, close the database; each step runs once."""
        self.stopping.set()
        self.hub.close()
        for closer in reversed(self.closers):
            try:
                closer()
            except Exception:  # shutting down: report and go on releasing the rest
                _log.exception("closing %r failed", closer)
        self.closers.clear()
        if self.rig is not None and hasattr(self.rig, "close"):
            self.rig.close()
            self.rig = None
        self.store.close()
        self.answers.close()


def build_services(data_dir: Path, *, rig: Any = None, settings: Any = None,
                   keepalive_s: float | None = None,
                   notify: Callable[[str], None] | None = None) -> Services:
    """Open the SQLite log in data_dir, resume the newest game, and wire the hub and security.

    notify: where a warning for the Pi's terminal goes (wrong PINs), logging's by default.
    """
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    store = LogStore(data_dir / DB_FILE)
    table = Table(store)
    seat_modes = SeatModes(data_dir / SEAT_MODES_FILE)
    extra = {} if keepalive_s is None else {"keepalive_s": keepalive_s}
    hub = StreamHub(table, picks=seat_modes.picks, **extra)
    security = Security.in_folder(data_dir, notify=notify)
    return Services(store=store, table=table, hub=hub, security=security,
                    answers=AnswerBook(data_dir / ANSWERS_FILE), seat_modes=seat_modes,
                    rig=rig, settings=settings)
