"""Security on a shared Wi-Fi: the Mayor's PIN, seat tokens in cookies, CSRF double-submit.

- The Mayor's PIN (6 digits) is made once per data folder and kept in web-secrets.json (mode
  0600), so a power cut does not lock the console out; `tucana serve` prints it on the Pi's
  terminal and `tucana pin --new` replaces it. Wrong PINs are slowed down per address and
  overall (web/pin_guard.py). A request proves it is the Mayor with the X-Mayor-Pin header or
  with the HttpOnly mayor cookie: a random session id that POST /api/mayor/login opens after the
  Mayor typed the PIN once, kept server-side as a hash (web/sessions.py).
- A phone that takes a seat gets a random token in an HttpOnly cookie; only its hash is kept
  (seats.json). A seat already held by another phone is refused until the Mayor frees it; the
  Mayor's seat tools show which seats are held, since when and from how many addresses.
- Every cookie is SameSite=Strict. A state-changing request that carries any cookie must also
  send the X-CSRF-Token header equal to the tucana_csrf cookie (double submit), and a request
  whose Origin is another site, or that a browser marks cross-site, is refused.
"""

from __future__ import annotations

import hmac
import os
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from companion.errors import ConfigError, ConflictError, PermissionRefused
from web.pin_guard import GUARD_FILE, PinGuard, PinLockout
from web.private_files import read_json, write_private
from web.sessions import SESSIONS_FILE, TOKEN_BYTES, MayorSessions, token_hash

__all__ = ["PinLockout", "SeatBook", "Security", "csrf_refusal", "new_pin", "read_pin"]

PIN_DIGITS = 6  # one in a million per guess; with the lockout (web/pin_guard.py) guessing takes years
SEAT_GAMES_KEPT = 10  # seat tables of this many recent games are kept in seats.json
SEAT_DEVICES_KEPT = 8  # addresses remembered per seat: enough to show "used from 2 devices"

SECRETS_FILE = "web-secrets.json"
SEATS_FILE = "seats.json"
SEAT_COOKIE = "tucana_seat"
MAYOR_COOKIE = "tucana_mayor"
CSRF_COOKIE = "tucana_csrf"
CSRF_HEADER = "X-CSRF-Token"
PIN_HEADER = "X-Mayor-Pin"
SEAT_COOKIE_MAX_AGE_S = 7 * 24 * 3600  # a phone keeps its seat across a browser restart

TokenSource = Callable[[int], bytes]


@dataclass(frozen=True)
class Holder:
    """Who holds a seat, for the Mayor: since when (wall time) and from how many addresses."""

    since: float | None
    devices: int


class SeatBook:
    """Which phone holds which seat of which game: token hashes, optionally kept in a file."""

    def __init__(self, path: Path | None = None, *, token_bytes: TokenSource = secrets.token_bytes,
                 clock: Callable[[], float] = time.time):
        self._path = path
        self._token_bytes = token_bytes
        self._clock = clock
        self._lock = threading.Lock()
        self._devices: dict[tuple[str, str], set[str]] = {}  # addresses each seat was used from
        loaded = read_json(path) if path else None
        self._seats: dict[str, dict[str, dict]] = {}
        if isinstance(loaded, dict):
            self._seats = {
                str(g): {str(p): _seat_record(r) for p, r in seats.items()}
                for g, seats in loaded.items()
                if isinstance(seats, dict)
            }

    def _replace(self, seats: dict[str, dict[str, dict]]) -> None:
        """Save first, then swap: a full disk leaves the seats as they were."""
        if self._path is not None:
            write_private(self._path, seats)
        self._seats = seats

    def join(self, game_id: int, player: str, token: str | None, address: str | None = None) -> str:
        """Give a phone (at address) a seat; returns its token (the same one if it already holds it)."""
        digest = token_hash(token) if token else None
        with self._lock:
            seats = {p: dict(r) for p, r in self._seats.get(str(game_id), {}).items()}
            held = seats.get(player)
            if held is not None:
                if digest and hmac.compare_digest(held["hash"], digest):
                    return token  # type: ignore[return-value]
                raise ConflictError(f"{player}'s seat is taken by another phone; the Mayor can free it")
            for other, record in list(seats.items()):
                if digest and hmac.compare_digest(record["hash"], digest):
                    del seats[other]  # moving to another seat gives up the old one
            token = self._token_bytes(TOKEN_BYTES).hex()
            seats[player] = {"hash": token_hash(token), "since": self._clock()}
            games = {**self._seats, str(game_id): seats}
            for old in sorted(games, key=int)[:-SEAT_GAMES_KEPT]:
                del games[old]
            self._replace(games)
            self._devices[(str(game_id), player)] = {address} if address else set()
            return token

    def player_for(self, game_id: int | None, token: str | None, address: str | None = None) -> str | None:
        """The player whose seat this token holds in this game, or None; notes the address it came from."""
        if game_id is None or not token:
            return None
        digest = token_hash(token)
        with self._lock:
            for player, record in self._seats.get(str(game_id), {}).items():
                if hmac.compare_digest(record["hash"], digest):
                    seen = self._devices.setdefault((str(game_id), player), set())
                    if address and len(seen) < SEAT_DEVICES_KEPT:
                        seen.add(address)
                    return player
        return None

    def free(self, game_id: int, player: str) -> bool:
        """Free a seat (kick the phones holding it) so another phone can take it; False if nobody held it."""
        with self._lock:
            seats = self._seats.get(str(game_id), {})
            if player not in seats:
                return False
            rest = {p: r for p, r in seats.items() if p != player}
            self._replace({**self._seats, str(game_id): rest})
            self._devices.pop((str(game_id), player), None)
            return True

    def taken(self, game_id: int | None) -> set[str]:
        """The players of this game whose seat a phone holds."""
        return set(self.holders(game_id))

    def holders(self, game_id: int | None) -> dict[str, Holder]:
        """Each held seat of this game with when it was taken and how many addresses used it."""
        if game_id is None:
            return {}
        with self._lock:
            return {
                player: Holder(record.get("since"), len(self._devices.get((str(game_id), player), ())))
                for player, record in self._seats.get(str(game_id), {}).items()
            }


def _seat_record(value: object) -> dict:
    """A stored seat: {"hash", "since"}; files written before "since" hold the hash alone."""
    if isinstance(value, dict):
        return {"hash": str(value.get("hash", "")), "since": value.get("since")}
    return {"hash": str(value), "since": None}


def read_pin(path: Path) -> str | None:
    """The PIN kept in a secrets file, or None when it is missing or damaged."""
    doc = read_json(path)
    pin = doc.get("pin") if isinstance(doc, dict) else None
    return pin if isinstance(pin, str) and pin.isascii() and pin.isdigit() and len(pin) == PIN_DIGITS else None


def new_pin(data_dir: Path, *, token_bytes: TokenSource = secrets.token_bytes) -> str:
    """Make and keep a new Mayor PIN for a data folder and log every console out; returns it.

    A running server notices the new file at its next PIN or session check.
    """
    number = int.from_bytes(token_bytes(8), "big") % 10**PIN_DIGITS
    pin = f"{number:0{PIN_DIGITS}d}"
    write_private(Path(data_dir) / SECRETS_FILE, {"pin": pin})
    MayorSessions(Path(data_dir) / SESSIONS_FILE).revoke_all()
    return pin


class Security:
    """The Mayor's PIN with its lockout, the Mayor's sessions, CSRF tokens and the seat book."""

    def __init__(
        self,
        pin: str,
        seats: SeatBook,
        *,
        sessions: MayorSessions | None = None,
        guard: PinGuard | None = None,
        secrets_path: Path | None = None,
        clock: Callable[[], float] = time.time,
        token_bytes: TokenSource = secrets.token_bytes,
    ) -> None:
        if not (pin.isascii() and pin.isdigit() and len(pin) == PIN_DIGITS):
            raise ConfigError(f"the Mayor's PIN is {PIN_DIGITS} digits")
        self.pin = pin
        self.seats = seats
        self.sessions = sessions or MayorSessions(clock=clock, token_bytes=token_bytes)
        self.guard = guard or PinGuard(clock=clock)
        self._secrets_path = secrets_path
        self._secrets_stamp = _stamp(secrets_path)
        self._token_bytes = token_bytes
        self._lock = threading.Lock()

    @classmethod
    def in_folder(cls, data_dir: Path, *, clock: Callable[[], float] = time.time,
                  token_bytes: TokenSource = secrets.token_bytes,
                  notify: Callable[[str], None] | None = None) -> Security:
        """Load the PIN, sessions, seats and wrong-PIN count of a data folder (a PIN is made on first use)."""
        data_dir = Path(data_dir)
        path = data_dir / SECRETS_FILE
        pin = read_pin(path) or new_pin(data_dir, token_bytes=token_bytes)
        guard_options = {"notify": notify} if notify else {}
        return cls(
            pin,
            SeatBook(data_dir / SEATS_FILE, token_bytes=token_bytes, clock=clock),
            sessions=MayorSessions(data_dir / SESSIONS_FILE, clock=clock, token_bytes=token_bytes),
            guard=PinGuard(data_dir / GUARD_FILE, clock=clock, **guard_options),
            secrets_path=path,
            clock=clock,
            token_bytes=token_bytes,
        )

    def _refresh(self) -> None:
        """Pick up a PIN that `tucana pin --new` wrote meanwhile; a new PIN ends every session."""
        if self._secrets_path is None:
            return
        stamp = _stamp(self._secrets_path)
        if stamp == self._secrets_stamp:
            return
        self._secrets_stamp = stamp
        pin = read_pin(self._secrets_path)
        if pin is not None and pin != self.pin:
            self.pin = pin
            self.sessions.revoke_all()

    def check_pin(self, given: object, address: str) -> None:
        """Accept the right PIN; refuse a wrong one, and every try while a lockout lasts."""
        with self._lock:
            self._refresh()
            self.guard.check(address)
            right = isinstance(given, str) and given.isascii() and hmac.compare_digest(given.encode(), self.pin.encode())
            if right:
                self.guard.succeeded(address)
                return
            self.guard.failed(address)
        raise PermissionRefused("wrong Mayor PIN")

    def login(self, given: object, address: str) -> str:
        """Check the PIN and open a Mayor session; returns its id for the cookie."""
        self.check_pin(given, address)
        return self.sessions.open()

    def is_mayor_session(self, value: str | None) -> bool:
        """True for the cookie of an open Mayor session under the current PIN."""
        with self._lock:
            self._refresh()
        return self.sessions.valid(value)

    def new_csrf(self) -> str:
        """A fresh CSRF token for the double-submit cookie."""
        return self._token_bytes(TOKEN_BYTES).hex()


def _stamp(path: Path | None) -> tuple[int, int, int] | None:
    """What tells a rewritten file apart: inode, size and modification time."""
    if path is None:
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def csrf_refusal(method: str, cookies: Mapping[str, str], headers: Mapping[str, str], host: str) -> str | None:
    """Why a request is refused as cross-site forgery, or None; headers must be case-insensitive."""
    if method in ("GET", "HEAD", "OPTIONS"):
        return None
    if headers.get("Sec-Fetch-Site", "").lower() == "cross-site":
        return "cross-site request refused"
    origin = headers.get("Origin")
    if origin and origin != "null":
        netloc = origin.split("://", 1)[-1].rstrip("/")
        if netloc != host:
            return f"request from another origin ({origin}) refused"
    if not cookies:
        return None  # no cookie, no ambient authority to abuse: the PIN header must speak for it
    expected = cookies.get(CSRF_COOKIE, "")
    sent = headers.get(CSRF_HEADER, "")
    if not expected or not sent or not hmac.compare_digest(expected.encode(), sent.encode()):
        return f"missing or wrong {CSRF_HEADER} header (it must equal the {CSRF_COOKIE} cookie)"
    return None
