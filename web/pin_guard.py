"""The lockout on wrong Mayor PINs: per address, and overall with growing waits that survive a restart.

A 6-digit PIN is about 20 bits, so guessing must be slow for everybody together, not only per
address (an attacker on the Wi-Fi can take many addresses). After PIN_FREE_FAILURES wrong PINs
in a row from anywhere, each further one makes every PIN try wait, twice as long each time up to
an hour; the right PIN ends the run. Consoles already logged in keep working meanwhile, the Pi's
terminal says what is going on, and the Mayor's console lists the wrong tries at the next login.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path

from companion.errors import PermissionRefused, StorageFull
from web.private_files import read_json, write_private

PIN_FAILURES_MAX = 5  # wrong PINs from one address before it must wait
PIN_LOCKOUT_S = 60.0  # seconds an address waits after too many wrong PINs
PIN_FREE_FAILURES = 10  # wrong PINs in a row (from anywhere) before each one costs a wait: typos
PIN_DELAY_FIRST_S = 2.0  # the first overall wait; it doubles with each further wrong PIN
PIN_DELAY_MAX_S = 3600.0  # at most an hour a try: a million PINs then take over a century
GUARD_FILE = "pin-guard.json"

_log = logging.getLogger(__name__)


class PinLockout(PermissionRefused):
    """Too many wrong PINs: every try must wait (the message says how long)."""


class PinGuard:
    """Counts wrong PINs per address (in memory) and overall (kept in a file across restarts)."""

    def __init__(self, path: Path | None = None, *, clock: Callable[[], float] = time.time,
                 notify: Callable[[str], None] = _log.warning) -> None:
        self._path = path
        self._clock = clock
        self._notify = notify
        self._lock = threading.Lock()
        self._by_address: dict[str, list[float]] = {}
        doc = read_json(path) if path else None
        doc = doc if isinstance(doc, dict) else {}
        self._failures = _count(doc.get("failures"))  # wrong PINs in a row, from anywhere
        self._unreported = _count(doc.get("unreported"))  # wrong PINs the Mayor has not been told of
        self._last_at = _number(doc.get("last_at"))
        self._last_address = str(doc.get("last_address") or "")

    def wait_s(self) -> float:
        """Seconds every PIN try must still wait because of the overall run of wrong PINs."""
        with self._lock:
            return self._overall_wait(self._clock())

    def _overall_wait(self, now: float) -> float:
        if self._failures < PIN_FREE_FAILURES:
            return 0.0
        delay = min(PIN_DELAY_MAX_S, PIN_DELAY_FIRST_S * 2 ** (self._failures - PIN_FREE_FAILURES))
        # min(): the Pi has no clock battery, so after a restart "now" may lie before last_at.
        return max(0.0, min(delay, self._last_at + delay - now))

    def check(self, address: str) -> None:
        """Refuse (PinLockout) while this address, or everybody, must wait."""
        now = self._clock()
        with self._lock:
            recent = [t for t in self._by_address.pop(address, []) if now - t < PIN_LOCKOUT_S]
            if recent:
                self._by_address[address] = recent
            if len(recent) >= PIN_FAILURES_MAX:
                raise PinLockout(f"too many wrong PINs: try again in {int(PIN_LOCKOUT_S - (now - recent[0])) + 1} s")
            wait = self._overall_wait(now)
            if wait > 0:
                raise PinLockout(
                    f"{self._failures} wrong PINs in a row: every PIN waits, try again in {int(wait) + 1} s"
                )

    def failed(self, address: str) -> None:
        """Count a wrong PIN; past the free ones, say so on the Pi's terminal."""
        now = self._clock()
        with self._lock:
            self._by_address.setdefault(address, []).append(now)
            self._failures += 1
            self._unreported += 1
            self._last_at, self._last_address = now, address
            self._save()
            if self._failures >= PIN_FREE_FAILURES:
                self._notify(
                    f"{self._failures} wrong Mayor PINs in a row (the last from {address}): every PIN "
                    f"try now waits {int(self._overall_wait(now))} s. Not you? `tucana pin --new` "
                    "makes a new PIN and logs every console out."
                )

    def succeeded(self, address: str) -> None:
        """The right PIN ends the run of wrong ones."""
        with self._lock:
            self._by_address.pop(address, None)
            if self._failures:
                self._failures = 0
                self._save()

    def report(self) -> dict[str, object] | None:
        """Wrong PINs since the Mayor was last told (count, last address, last time), then forget them."""
        with self._lock:
            if not self._unreported:
                return None
            found = {"count": self._unreported, "last_address": self._last_address, "last_at": self._last_at}
            self._unreported = 0
            self._save()
            return found

    def _save(self) -> None:
        if self._path is None:
            return
        doc = {"failures": self._failures, "unreported": self._unreported,
               "last_at": self._last_at, "last_address": self._last_address}
        try:
            write_private(self._path, doc)
        except (StorageFull, OSError) as error:  # the count in memory still holds the lockout
            _log.error("cannot keep the wrong-PIN count in %s: %s", self._path, error)


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _number(value: object) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0
