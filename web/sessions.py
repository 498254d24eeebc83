"""The Mayor's console sessions: random ids kept server-side (as hashes), revocable and expiring.

Logging in with the PIN opens a session; its id lives in the HttpOnly mayor cookie. Logging out
revokes that session; a new PIN (`tucana pin --new`) revokes them all. The file keeps sessions
across a restart, so a power cut does not log the console out.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path

from web.private_files import read_json, write_private

MAYOR_SESSION_S = 24 * 3600.0  # a console stays the Mayor's for a long game night, no longer
MAYOR_SESSIONS_MAX = 16  # consoles logged in at once; the oldest is logged out past this
TOKEN_BYTES = 32  # 256-bit session ids
SESSIONS_FILE = "mayor-sessions.json"


def token_hash(token: str) -> str:
    """What is kept of a token: a stolen file opens no console and takes no seat."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class MayorSessions:
    """Open, check and revoke the Mayor's sessions; thread-safe; optionally kept in a file."""

    def __init__(self, path: Path | None = None, *, clock: Callable[[], float] = time.time,
                 token_bytes: Callable[[int], bytes] = secrets.token_bytes) -> None:
        self._path = path
        self._clock = clock
        self._token_bytes = token_bytes
        self._lock = threading.Lock()
        doc = read_json(path) if path else None
        self._expires: dict[str, float] = {}
        if isinstance(doc, dict):
            self._expires = {str(h): float(t) for h, t in doc.items() if isinstance(t, int | float)}

    def open(self) -> str:
        """A new session id, valid for MAYOR_SESSION_S."""
        token = self._token_bytes(TOKEN_BYTES).hex()
        now = self._clock()
        with self._lock:
            kept = {h: t for h, t in self._expires.items() if t > now}
            kept[token_hash(token)] = now + MAYOR_SESSION_S
            newest = sorted(kept.items(), key=lambda item: item[1])[-MAYOR_SESSIONS_MAX:]
            self._replace(dict(newest))
        return token

    def valid(self, token: str | None) -> bool:
        """True for the id of an open session that has not expired."""
        if not token:
            return False
        digest = token_hash(token)
        now = self._clock()
        with self._lock:
            return any(hmac.compare_digest(h, digest) and t > now for h, t in self._expires.items())

    def revoke(self, token: str | None) -> None:
        """End one session (logout); an unknown id changes nothing."""
        if not token:
            return
        digest = token_hash(token)
        with self._lock:
            if digest in self._expires:
                self._replace({h: t for h, t in self._expires.items() if h != digest})

    def revoke_all(self) -> None:
        """End every session (the PIN changed)."""
        with self._lock:
            self._replace({})

    @property
    def count(self) -> int:
        """Sessions open now."""
        now = self._clock()
        with self._lock:
            return sum(1 for t in self._expires.values() if t > now)

    def _replace(self, expires: dict[str, float]) -> None:
        """Save first, then swap: a full disk leaves the sessions as they were."""
        if self._path is not None:
            write_private(self._path, expires)
        self._expires = expires
