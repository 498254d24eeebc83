"""The table: the one place the engine is touched. Checks, stores durably, then tells the listeners."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from companion.errors import ConflictError, TucanaError
from companion.events import Event
from companion.game import Game
from companion.moves import Entry, NewGame
from companion.state import GameState
from companion.store import LogStore


@dataclass(frozen=True)
class Accepted:
    """An entry the rules accepted and the store holds, with what it caused."""

    game_id: int
    seq: int
    entry: Entry
    events: tuple[Event, ...]
    state: GameState


@dataclass(frozen=True)
class Imported:
    """A log stored as a new game: its id, last seq and state; fresh is False for a retry."""

    game_id: int
    seq: int
    state: GameState
    fresh: bool


Listener = Callable[[Accepted], None]
_log = logging.getLogger(__name__)


class Table:
    """The current game over a LogStore; thread-safe; resumes the newest stored game on start."""

    def __init__(self, store: LogStore, game_id: int | None = None) -> None:
        self._store = store
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._game = Game()
        self._seq = 0
        self._game_id = game_id if game_id is not None else store.latest_game()
        if self._game_id is not None:
            try:
                self._load(self._game_id)
            except TucanaError as error:
                # A game stored by an older version that today's rules refuse (a 200 kB name, say):
                # start with no current game rather than not at all; the log stays in the store.
                _log.warning("game %s cannot be resumed (%s): no current game", self._game_id, error)
                self._game, self._seq, self._game_id = Game(), 0, None

    def _load(self, game_id: int) -> None:
        entries = self._store.entries(game_id)
        self._game = Game.replay(entry for _, entry in entries)
        self._seq = entries[-1][0] if entries else 0
        self._game_id = game_id

    @property
    def store(self) -> LogStore:
        """The log store under this table."""
        return self._store

    @property
    def game(self) -> Game:
        """The current game (an immutable snapshot)."""
        return self._game

    @property
    def state(self) -> GameState:
        """The current game's derived state."""
        return self._game.state

    @property
    def game_id(self) -> int | None:
        """The store id of the current game, or None before the first game."""
        return self._game_id

    @property
    def seq(self) -> int:
        """The sequence number of the newest accepted entry (0 before any)."""
        return self._seq

    def snapshot(self) -> tuple[int | None, int, GameState]:
        """Game id, sequence number and state read together under the lock."""
        with self._lock:
            return self._game_id, self._seq, self._game.state

    def submit(self, entry: Entry, *, expect_seq: int | None = None,
               request_id: str | None = None) -> Accepted:
        """Check an entry against the rules, store it durably, notify listeners; raises on refusal.

        expect_seq: the seq the sender last saw; another one is refused (ConflictError), checked
        under the lock so two senders who saw the same seq cannot both get in. request_id: the
        client's id for this request; one already stored answers with the entry it added then,
        adding nothing (a retry whose first answer was lost, even across a restart).
        """
        with self._lock:
            if request_id is not None and (done := self._store.find_request(request_id)):
                return self._earlier(entry, *done)
            if expect_seq is not None and expect_seq != self._seq:
                raise ConflictError(
                    f"the log moved on: you saw entry {expect_seq}, the newest is {self._seq}; reload"
                )
            if isinstance(entry, NewGame):
                game, events = Game().apply(entry)
                game_id = self._store.start_game(entry, request_id=request_id)
                seq = 1
            else:
                game, events = self._game.apply(entry)
                if self._game_id is None:  # apply() refuses everything but new_game on an empty game
                    raise AssertionError("no game to append to")
                game_id = self._game_id
                seq = self._store.append(game_id, entry, request_id=request_id)
            self._game, self._game_id, self._seq = game, game_id, seq
            accepted = Accepted(game_id, seq, entry, tuple(events), game.state)
            # Listeners run under the lock so they see entries in sequence order; they only queue work.
            for listener in list(self._listeners):
                try:
                    listener(accepted)
                except Exception:  # a broken screen must not turn an accepted entry into an error
                    _log.exception("listener failed on entry %s", seq)
            return accepted

    def _earlier(self, entry: Entry, game_id: int, seq: int) -> Accepted:
        """The Accepted a request id's entry got when it was stored, rebuilt from the log."""
        entries = [e for s, e in self._store.entries(game_id) if s <= seq]
        if not entries or entries[-1] != entry:
            raise ConflictError("this request id was used for another entry: send a new one")
        game, events = Game.replay(entries[:-1]).apply(entries[-1])
        return Accepted(game_id, seq, entry, tuple(events), game.state)

    def import_game(self, text: str, *, request_id: str | None = None) -> Imported:
        """Store a checked JSONL log as a new game and make it current.

        A request id already stored answers with that import's game as it was stored, and
        changes nothing (fresh is False then).
        """
        with self._lock:
            done = self._store.find_request(request_id) if request_id is not None else None
            if done is not None:
                game_id, seq = done
                entries = [e for s, e in self._store.entries(game_id) if s <= seq]
                return Imported(game_id, seq, Game.replay(entries).state, fresh=False)
            game_id = self._store.import_jsonl(text, request_id=request_id)
            self._load(game_id)
            return Imported(game_id, self._seq, self._game.state, fresh=True)

    def open_game(self, game_id: int) -> None:
        """Make a stored game (an imported one, say) the current game."""
        with self._lock:
            self._load(game_id)

    def log_since(self, seq: int) -> list[tuple[int, Entry]]:
        """The current game's entries after a sequence number (for a phone catching up)."""
        with self._lock:
            if self._game_id is None:
                return []
            return self._store.entries(self._game_id, after=seq)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call listener after every accepted entry; returns the function that unsubscribes it."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe
