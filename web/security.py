"""Security on a shared Wi-Fi: the Mayor's PIN, seat tokens in cookies, CSRF double-submit.

- The Mayor's PIN (6 digits) is made once per data folder and kept in web-secrets.json (mode
  0600), so a power cut does not lock the console out; `tucana serve` prints it on the Pi's
  terminal. A request proves it is the Mayor with the X-Mayor-Pin header or with the HttpOnly
  mayor cookie that POST /api/mayor/login sets after the Mayor typed the PIN once.
- A phone that takes a seat gets a random token in an HttpOnly cookie; only its hash is kept
  (seats.json). A seat already held by another phone is refused until the Mayor frees it.
- Every cookie is SameSite=Strict. A state-changing request that carries any cookie must also
  send the X-CSRF-Token header equal to the tucana_csrf cookie (double submit), and a request
  whose Origin is another site, or that a browser marks cross-site, is refused.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from hardware.errors import ConfigError
from web.errors import ConflictError, PermissionRefused

PIN_DIGITS = 6  # one in a million per guess; with the lockout below, guessing takes months
PIN_FAILURES_MAX = 5  # wrong PINs from one address before it must wait
PIN_LOCKOUT_S = 60.0  # seconds an address waits after too many wrong PINs
TOKEN_BYTES = 32  # 256-bit seat, mayor and CSRF tokens
SEAT_GAMES_KEPT = 10  # seat tables of this many recent games are kept in seats.json

SECRETS_FILE = "web-secrets.json"
SEATS_FILE = "seats.json"
SEAT_COOKIE = "tucana_seat"
MAYOR_COOKIE = "tucana_mayor"
CSRF_COOKIE = "tucana_csrf"
CSRF_HEADER = "X-CSRF-Token"
PIN_HEADER = "X-Mayor-Pin"
SEAT_COOKIE_MAX_AGE_S = 7 * 24 * 3600  # a phone keeps its seat across a browser restart
MAYOR_COOKIE_MAX_AGE_S = 24 * 3600  # the console stays the Mayor's for a long game night

TokenSource = Callable[[int], bytes]


class PinLockout(PermissionRefused):
    """Too many wrong PINs from one address: it must wait before trying again."""


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _write_private(path: Path, doc: object) -> None:
    """Write JSON atomically with owner-only permissions."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(doc, handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def _read_json(path: Path) -> object | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return None  # a damaged file is replaced: seats are re-joined, a new PIN is printed


class SeatBook:
    """Which phone holds which seat of which game: token hashes, optionally kept in a file."""

    def __init__(self, path: Path | None = None, *, token_bytes: TokenSource = secrets.token_bytes):
        self._path = path
        self._token_bytes = token_bytes
        self._lock = threading.Lock()
        loaded = _read_json(path) if path else None
        self._seats: dict[str, dict[str, str]] = {}
        if isinstance(loaded, dict):
            self._seats = {
                str(g): {str(p): str(h) for p, h in seats.items()}
                for g, seats in loaded.items()
                if isinstance(seats, dict)
            }

    def _save(self) -> None:
        if self._path is not None:
            _write_private(self._path, self._seats)

    def join(self, game_id: int, player: str, token: str | None) -> str:
        """Give a phone a seat; returns its token (the same one if it already holds the seat)."""
        with self._lock:
            seats = self._seats.setdefault(str(game_id), {})
            held = seats.get(player)
            if held is not None:
                if token and hmac.compare_digest(held, _hash(token)):
                    return token
                raise ConflictError.of("seat_taken", player=player)
            for other, digest in list(seats.items()):
                if token and hmac.compare_digest(digest, _hash(token)):
                    del seats[other]  # moving to another seat gives up the old one
            token = self._token_bytes(TOKEN_BYTES).hex()
            seats[player] = _hash(token)
            for old in sorted(self._seats, key=int)[:-SEAT_GAMES_KEPT]:
                del self._seats[old]
            self._save()
            return token

    def player_for(self, game_id: int | None, token: str | None) -> str | None:
        """The player whose seat this token holds in this game, or None."""
        if game_id is None or not token:
            return None
        digest = _hash(token)
        with self._lock:
            for player, held in self._seats.get(str(game_id), {}).items():
                if hmac.compare_digest(held, digest):
                    return player
        return None

    def free(self, game_id: int, player: str) -> bool:
        """Free a seat so another phone can take it; False if nobody held it."""
        with self._lock:
            seats = self._seats.get(str(game_id), {})
            if player not in seats:
                return False
            del seats[player]
            self._save()
            return True

    def carry(self, from_game: int, to_game: int, players: tuple[str, ...]) -> set[str]:
        """A new game with the same players: each phone keeps its seat; returns the players kept."""
        with self._lock:
            old = self._seats.get(str(from_game), {})
            seats = self._seats.setdefault(str(to_game), {})
            kept = {p for p in players if p in old and p not in seats}
            seats.update({p: old[p] for p in kept})
            if kept:
                self._save()
            return kept

    def taken(self, game_id: int | None) -> set[str]:
        """The players of this game whose seat a phone holds."""
        with self._lock:
            return set(self._seats.get(str(game_id), {})) if game_id is not None else set()


class Security:
    """The Mayor's PIN with a lockout, the mayor token, CSRF tokens and the seat book."""

    def __init__(
        self,
        pin: str,
        secret: bytes,
        seats: SeatBook,
        *,
        clock: Callable[[], float] = time.monotonic,
        token_bytes: TokenSource = secrets.token_bytes,
    ) -> None:
        if not (pin.isascii() and pin.isdigit() and len(pin) == PIN_DIGITS):
            raise ConfigError(f"the Mayor's PIN is {PIN_DIGITS} digits")
        self.pin = pin
        self._secret = secret
        self.seats = seats
        self._clock = clock
        self._token_bytes = token_bytes
        self._failures: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    @classmethod
    def in_folder(cls, data_dir: Path, *, clock: Callable[[], float] = time.monotonic,
                  token_bytes: TokenSource = secrets.token_bytes) -> Security:
        """Load the PIN and secret of a data folder, making them on first use."""
        path = Path(data_dir) / SECRETS_FILE
        doc = _read_json(path)
        pin = doc.get("pin") if isinstance(doc, dict) else None
        secret = doc.get("secret") if isinstance(doc, dict) else None
        if not (isinstance(pin, str) and pin.isdigit() and len(pin) == PIN_DIGITS
                and isinstance(secret, str) and len(secret) == 2 * TOKEN_BYTES):
            number = int.from_bytes(token_bytes(8), "big") % 10**PIN_DIGITS
            pin, secret = f"{number:0{PIN_DIGITS}d}", token_bytes(TOKEN_BYTES).hex()
            _write_private(path, {"pin": pin, "secret": secret})
        seats = SeatBook(Path(data_dir) / SEATS_FILE, token_bytes=token_bytes)
        return cls(pin, bytes.fromhex(secret), seats, clock=clock, token_bytes=token_bytes)

    def check_pin(self, given: object, address: str) -> None:
        """Accept the right PIN; refuse a wrong one, and every try from an address locked out."""
        now = self._clock()
        with self._lock:
            recent = [t for t in self._failures.get(address, []) if now - t < PIN_LOCKOUT_S]
            if len(recent) >= PIN_FAILURES_MAX:
                wait = int(PIN_LOCKOUT_S - (now - recent[0])) + 1
                raise PinLockout.of("pin_lockout", seconds=wait)
            if isinstance(given, str) and hmac.compare_digest(given.encode(), self.pin.encode()):
                self._failures.pop(address, None)
                return
            recent.append(now)
            self._failures[address] = recent
        raise PermissionRefused.of("wrong_pin")

    def mayor_token(self) -> str:
        """The value of the mayor cookie: bound to this PIN, so a new PIN logs every console out."""
        return hmac.new(self._secret, b"mayor:" + self.pin.encode(), hashlib.sha256).hexdigest()

    def is_mayor_token(self, value: str | None) -> bool:
        """True for the mayor cookie of this PIN."""
        return bool(value) and hmac.compare_digest(value.encode(), self.mayor_token().encode())

    def new_csrf(self) -> str:
        """A fresh CSRF token for the double-submit cookie."""
        return self._token_bytes(TOKEN_BYTES).hex()


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
