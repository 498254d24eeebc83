"""The log store: SQLite, one row per accepted entry, durable before append() returns."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.errors import LogFormatError, StorageFull, UnknownGameError
from companion.game import replay_lines
from companion.moves import Entry, NewGame, dump_line, escape_line_breaks, parse_line

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS entries (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS requests (
    request_id TEXT PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    created REAL NOT NULL
) WITHOUT ROWID;
"""
BUSY_TIMEOUT_S = 10.0  # another process (an import, a backup) may hold the write lock briefly
# A client's request id is remembered this long: a phone retries within seconds, a server that
# was restarted answers the retry within minutes; a day covers a game night with room to spare.
REQUEST_IDS_KEPT_S = 24 * 3600.0


@dataclass(frozen=True)
class GameInfo:
    """A game held in the store: its id, when it started, its players and how many entries it has."""

    id: int
    created: float
    players: tuple[str, ...]
    entries: int


class LogStore:
    """Games and their logs in one SQLite file (WAL, synchronous FULL); safe to share across threads."""

    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._clock = clock
        self._lock = threading.Lock()
        self._db = sqlite3.connect(
            str(path), timeout=BUSY_TIMEOUT_S, check_same_thread=False, isolation_level=None
        )
        # WAL + FULL: a commit is fsynced to the write-ahead log before it returns, so an
        # acknowledged entry survives a power cut; readers never block the writer.
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the database file."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> LogStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start_game(self, entry: NewGame, *, request_id: str | None = None) -> int:
        """Create a game whose first entry is new_game; returns its id."""
        return self._insert_game([entry], request_id)

    def append(self, game_id: int, entry: Entry, *, request_id: str | None = None) -> int:
        """Append an entry to a game durably (with the client's request id); returns its seq (1-based)."""
        with self._lock, self._transaction():
            self._require(game_id)
            (last,) = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM entries WHERE game_id = ?", (game_id,)
            ).fetchone()
            seq = last + 1
            self._db.execute(
                "INSERT INTO entries (game_id, seq, line) VALUES (?, ?, ?)",
                (game_id, seq, dump_line(entry)),
            )
            self._remember(request_id, game_id, seq)
        return seq

    def find_request(self, request_id: str) -> tuple[int, int] | None:
        """The (game id, seq) a client's request id added, if it is remembered; else None."""
        with self._lock:
            row = self._db.execute(
                "SELECT game_id, seq FROM requests WHERE request_id = ?", (request_id,)
            ).fetchone()
        return (row[0], row[1]) if row else None

    def _remember(self, request_id: str | None, game_id: int, seq: int) -> None:
        """Record a request id in the transaction that stores its entry: both survive, or neither."""
        if request_id is None:
            return
        now = self._clock()
        self._db.execute("DELETE FROM requests WHERE created < ?", (now - REQUEST_IDS_KEPT_S,))
        self._db.execute(
            "INSERT INTO requests (request_id, game_id, seq, created) VALUES (?, ?, ?, ?)",
            (request_id, game_id, seq, now),
        )

    def entries(self, game_id: int, *, after: int = 0) -> list[tuple[int, Entry]]:
        """A game's entries with their sequence numbers, those after `after` only."""
        return [(seq, parse_line(line)) for seq, line in self._lines(game_id, after)]

    def export_jsonl(self, game_id: int) -> str:
        """The game's log as JSONL text, one entry a line (lines stored before escaping included)."""
        return "".join(escape_line_breaks(line) + "\n" for _, line in self._lines(game_id, 0))

    def import_jsonl(self, text: str, *, request_id: str | None = None) -> int:
        """Check a whole JSONL log against the rules, then store it as a new game; returns its id.

        Lines end at \n only (a \r before it is JSON whitespace): U+2028 and friends are not
        line ends. A request id already remembered returns that import's game, storing nothing.
        """
        if request_id is not None and (found := self.find_request(request_id)) is not None:
            return found[0]
        entries = replay_lines(text.split("\n")).entries  # RefusedLine names the line; nothing written
        if not entries:
            raise LogFormatError("the log holds no game: it starts with new_game")
        return self._insert_game(entries, request_id)

    def _insert_game(self, entries: Sequence[Entry], request_id: str | None) -> int:
        """A new game row with its first entries, in one transaction; returns its id."""
        with self._lock, self._transaction():
            cur = self._db.execute("INSERT INTO games (created) VALUES (?)", (self._clock(),))
            game_id = int(cur.lastrowid)
            self._db.executemany(
                "INSERT INTO entries (game_id, seq, line) VALUES (?, ?, ?)",
                [(game_id, seq, dump_line(e)) for seq, e in enumerate(entries, start=1)],
            )
            self._remember(request_id, game_id, len(entries))
        return game_id

    def games(self) -> list[GameInfo]:
        """Every game in the store, newest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.created, "
                "(SELECT line FROM entries WHERE game_id = g.id AND seq = 1), "
                "(SELECT COUNT(*) FROM entries WHERE game_id = g.id) "
                "FROM games g ORDER BY g.id DESC"
            ).fetchall()
        out = []
        for game_id, created, first, count in rows:
            try:
                setup = parse_line(first) if first else None
            except LogFormatError:  # stored by an older version under rules refused today
                setup = None
            players = setup.players if isinstance(setup, NewGame) else ()
            out.append(GameInfo(game_id, created, players, count))
        return out

    def latest_game(self) -> int | None:
        """The id of the newest game, or None for an empty store."""
        with self._lock:
            row = self._db.execute("SELECT MAX(id) FROM games").fetchone()
        return row[0]

    def _lines(self, game_id: int, after: int) -> list[tuple[int, str]]:
        with self._lock:
            self._require(game_id)
            return self._db.execute(
                "SELECT seq, line FROM entries WHERE game_id = ? AND seq > ? ORDER BY seq",
                (game_id, after),
            ).fetchall()

    def _require(self, game_id: int) -> None:
        if self._db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
            raise UnknownGameError(f"no game {game_id} in the store")

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


def _storage_full(error: sqlite3.Error) -> bool:
    """True when SQLite refused because the disk (or the database's page limit) is full."""
    return (getattr(error, "sqlite_errorcode", 0) & 0xFF) == sqlite3.SQLITE_FULL


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on error (the stdlib default defers the write lock).

    A full disk becomes StorageFull, after the rollback: the database is as it was before.
    """

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if _storage_full(error):
                raise StorageFull() from error
            raise

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        try:
            if exc_type is None:
                self._db.execute("COMMIT")
                return
        except sqlite3.Error as error:
            exc = error
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error) and _storage_full(exc):
            raise StorageFull() from exc
        if exc_type is None:
            raise exc  # the COMMIT failed for another reason
