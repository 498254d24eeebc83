"""Idempotent requests: a retry carrying the same Idempotency-Key gets the first answer, changes nothing.

The pages send a fresh random key with every state-changing request (one per user action) and
the same key again when they retry it: a phone whose answer was lost on flaky Wi-Fi, or whose
server restarted, learns what happened instead of doing it twice. The first answer is kept (in
answers.sqlite3 in the data folder) with a fingerprint of its request; the same key with another
request is refused (422). Answers that say "try again later" (429, 5xx) are not kept. Log entries
also carry the key into the log store, in the transaction that stores them, so even a crash
between storing an entry and keeping its answer cannot store it twice (companion/table.py).
A request without the header is served as before (scripts, curl).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import sqlite3
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, Response, g, jsonify, request

IDEMPOTENCY_HEADER = "Idempotency-Key"  # the IETF httpapi draft's name for a client request id
REPLAYED_HEADER = "Idempotent-Replayed"  # "true" on an answer given again
KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{8,128}")  # a UUID or 32 hex digits fits; nothing to escape
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
KEPT_HEADERS = ("Content-Type", "Content-Disposition", "Set-Cookie", "Location")
ANSWERS_KEPT_S = 24 * 3600.0  # a retry comes within minutes; a game night is the longest wait
ANSWERS_MAX = 2000  # answers kept at most (~5 kB each compressed): a few MB of the SD card
LOCK_STRIPES = 64  # a retry waits for its first try to finish; other keys rarely share a stripe
ANSWERS_FILE = "answers.sqlite3"
EXPECT_SEQ_HEADER = "X-Expect-Seq"  # part of a request's meaning, so part of its fingerprint
_log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    key TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    status INTEGER NOT NULL,
    headers TEXT NOT NULL,
    body BLOB NOT NULL,
    created REAL NOT NULL
) WITHOUT ROWID;
"""


@dataclass(frozen=True)
class Answer:
    """A kept answer: the request's fingerprint, status, the headers worth repeating and the body."""

    fingerprint: str
    status: int
    headers: list[tuple[str, str]]
    body: bytes


class AnswerBook:
    """First answers by Idempotency-Key in SQLite; thread-safe; ':memory:' when no folder is given."""

    def __init__(self, path: str | Path = ":memory:", *, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._stripes = [threading.Lock() for _ in range(LOCK_STRIPES)]
        if str(path) != ":memory:":  # it holds the cookies it set (seat tokens): owner-only, like secrets
            os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)

    def stripe(self, key: str) -> threading.Lock:
        """The lock that a key's first try holds while it runs, so its retry waits for the answer."""
        return self._stripes[int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) % LOCK_STRIPES]

    def find(self, key: str) -> Answer | None:
        """The first answer given under this key, if it is kept."""
        with self._lock:
            row = self._db.execute(
                "SELECT fingerprint, status, headers, body FROM answers WHERE key = ? AND created > ?",
                (key, self._clock() - ANSWERS_KEPT_S),
            ).fetchone()
        if row is None:
            return None
        return Answer(row[0], row[1], [tuple(h) for h in json.loads(row[2])], zlib.decompress(row[3]))

    def keep(self, key: str, answer: Answer) -> None:
        """Keep a first answer (and forget the oldest past the limits); a full disk only logs."""
        now = self._clock()
        try:
            with self._lock:
                self._db.execute(
                    "INSERT OR IGNORE INTO answers VALUES (?, ?, ?, ?, ?, ?)",
                    (key, answer.fingerprint, answer.status, json.dumps(answer.headers),
                     zlib.compress(answer.body, 1), now),
                )
                self._db.execute(
                    "DELETE FROM answers WHERE created < ? OR key IN (SELECT key FROM answers "
                    "ORDER BY created DESC LIMIT -1 OFFSET ?)",
                    (now - ANSWERS_KEPT_S, ANSWERS_MAX),
                )
        except sqlite3.Error as error:  # the action is done; only its retry loses the replay
            _log.error("cannot keep the answer to request %s: %s", key, error)

    def close(self) -> None:
        """Close the database file."""
        with self._lock:
            self._db.close()


def fingerprint() -> str:
    """What makes this request the same request: method, path, query, expected seq and body."""
    digest = hashlib.sha256()
    for part in (request.method, request.path, request.query_string.decode("latin-1"),
                 request.headers.get(EXPECT_SEQ_HEADER, "")):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    digest.update(request.get_data(cache=True))
    return digest.hexdigest()


def request_id() -> str | None:
    """This request's Idempotency-Key once checked (None without one): the table stores it too."""
    return getattr(g, "idempotency_key", None)


def install(app: Flask, book: Callable[[], AnswerBook]) -> None:
    """Answer retries from the book: register after the CSRF check, before the views."""

    @app.before_request
    def _replay() -> Response | tuple[Response, int] | None:
        key = request.headers.get(IDEMPOTENCY_HEADER)
        if key is None or request.method not in UNSAFE_METHODS:
            return None
        if not KEY_PATTERN.fullmatch(key):
            return jsonify({"error": f"{IDEMPOTENCY_HEADER} must be 8-128 letters, digits, - or _"}), 400
        lock = book().stripe(key)
        lock.acquire()
        g.idempotency_lock = lock
        g.idempotency_key = key
        g.idempotency_print = fingerprint()
        kept = book().find(key)
        if kept is None:
            return None
        g.idempotency_key = None  # nothing to keep after this answer
        if kept.fingerprint != g.idempotency_print:
            return jsonify({"error": f"this {IDEMPOTENCY_HEADER} was used for another request: "
                                     "make a new one for each action"}), 422
        response = Response(kept.body, status=kept.status)
        for name, value in kept.headers:
            if name == "Content-Type":
                response.headers[name] = value
            else:
                response.headers.add(name, value)
        response.headers[REPLAYED_HEADER] = "true"
        return response

    @app.after_request
    def _keep(response: Response) -> Response:
        key = getattr(g, "idempotency_key", None)
        if key and response.status_code < 500 and response.status_code != 429 and not response.is_streamed:
            headers = [(n, v) for n, v in response.headers.items() if n in KEPT_HEADERS]
            book().keep(key, Answer(g.idempotency_print, response.status_code, headers, response.get_data()))
        return response

    @app.teardown_request
    def _release(error: BaseException | None) -> None:
        lock = g.pop("idempotency_lock", None)
        if lock is not None:
            lock.release()
