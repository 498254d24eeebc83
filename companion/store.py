"""The log store: SQLite, one row per accepted entry, durable before append() returns."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.errors import LogFormatError, UnknownGameError
from companion.game import replay_lines
from companion.moves import Entry, NewGame, dump_line, parse_line

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
"""
BUSY_TIMEOUT_S = 10.0  # another process (an import, a backup) may hold the write lock briefly


@dataclass(frozen=True)
class GameInfo:
    """A game held in the store: its id, when it started, its players and how many entries it has."""

    id: int
    created: float
    players: tuple[str, ...]
    entries: int


class LogStore:
    """Games and their logs in one SQLite file (WAL, synchronous FULL); safe to share across threads."""

    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.time, durable: bool = True) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._clock = clock
        self._lock = threading.Lock()
        self._db = sqlite3.connect(
            str(path), timeout=BUSY_TIMEOUT_S, check_same_thread=False, isolation_level=None
        )
        # WAL + FULL: a commit is fsynced to the write-ahead log before it returns, so an
        # acknowledged entry survives a power cut; readers never block the writer. durable=False
        # (tests that never pull the plug) leaves the flushing to the OS: a killed process still
        # loses nothing, a power cut may lose the newest entries.
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'OFF'}")
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

    def start_game(self, entry: NewGame) -> int:
        """Create a game whose first entry is new_game; returns its id."""
        return self._insert_game([entry])

    def append(self, game_id: int, entry: Entry) -> int:
        """Append an entry to a game durably; returns its sequence number (1-based)."""
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
        return seq

    def entries(self, game_id: int, *, after: int = 0) -> list[tuple[int, Entry]]:
        """A game's entries with their sequence numbers, those after `after` only."""
        return [(seq, parse_line(line)) for seq, line in self._lines(game_id, after)]

    def export_jsonl(self, game_id: int) -> str:
        """The game's log as JSONL text, one entry a line."""
        return "".join(line + "\n" for _, line in self._lines(game_id, 0))

    def import_jsonl(self, text: str) -> int:
        """Check a whole JSONL log against the rules, then store it as a new game; returns its id."""
        entries = replay_lines(text.splitlines()).entries  # RefusedLine names the line; nothing written
        if not entries:
            raise LogFormatError.of("empty_log")
        return self._insert_game(entries)

    def _insert_game(self, entries: Sequence[Entry]) -> int:
        """A new game row with its first entries, in one transaction; returns its id."""
        with self._lock, self._transaction():
            cur = self._db.execute("INSERT INTO games (created) VALUES (?)", (self._clock(),))
            game_id = int(cur.lastrowid)
            self._db.executemany(
                "INSERT INTO entries (game_id, seq, line) VALUES (?, ?, ?)",
                [(game_id, seq, dump_line(e)) for seq, e in enumerate(entries, start=1)],
            )
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
            setup = parse_line(first) if first else None
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
            raise UnknownGameError.of("unknown_game", game_id=game_id)

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on error (the stdlib default defers the write lock)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self._db.execute("COMMIT" if exc_type is None else "ROLLBACK")
