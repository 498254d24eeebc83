"""Server-Sent Events: every accepted entry goes to every open stream, with the log's sequence number.

A stream starts with a reconnect hint and a `hello`, then catches up from Last-Event-ID, then
follows live. Besides the entries (`entry`, `reset`), a `seats` event says which seats phones
hold whenever that changes, and a stream opened with rig=1 (the Mayor console) gets the
hardware's status as a `rig` event at once and on every change: one channel, no polling.
Each accepted entry is serialised once and shared by every stream. A stream whose
phone does not read fast enough is closed rather than allowed to grow memory: its browser
reconnects with Last-Event-ID and catches up from the log, which loses nothing.

Slots are shared fairly: one address holds at most STREAMS_PER_CLIENT streams (its newest; a
phone that reloads keeps working), and when every slot is taken a newcomer takes the oldest
stream of the address holding the most, or, when every address holds about as many, the oldest
stream of all: a new phone always gets its stream, and streams held open by someone who never
reads them are pushed out by phones that do (a phone pushed out reconnects and catches up).
A stream whose phone went away is freed within DISCONNECT_POLL_S when the server can tell
(waitress's client_disconnected), not at the next keep-alive.
"""

from __future__ import annotations

import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Generator, Iterator, Mapping

from companion.errors import TucanaError
from companion.moves import NewGame, entry_to_dict
from companion.sheet import SeatMode
from companion.state import GameState
from companion.table import Accepted, Table
from web.serialize import accepted_json, dumps, state_json

KEEPALIVE_S = 15.0  # comment line this often: below the 30-60 s idle cut of proxies and phones
RETRY_MS = 2000  # browsers reconnect this long after a dropped stream (a phone waking up)
CLIENT_QUEUE_MAX = 256  # frames waiting for one phone; past this it is dropped and catches up
MAX_STREAMS = 100  # open streams at most; each holds a server thread (see web/commands/serve.py)
STREAMS_PER_CLIENT = 6  # from one address: a phone's tabs, or the Pi's screen with table and console
DISCONNECT_POLL_S = 0.5  # a waiting stream asks this often whether its phone went away


Picks = Callable[[int | None], Mapping[str, SeatMode]]  # a game's seats' paper/sheet choice


def _no_picks(game_id: int | None) -> Mapping[str, SeatMode]:
    return {}


class TooManyStreams(TucanaError, RuntimeError):
    """Every stream slot is taken; the caller answers 503 and the browser retries."""


class Frame:
    """One accepted entry (or a seats or rig event), serialised once, by the first stream that sends it.

    Serialising lazily keeps the work out of the table's lock: eight phones drawing at once
    no longer wait in line behind each other's state documents.
    """

    __slots__ = ("game_id", "seq", "is_new_game", "event", "_data", "_build", "_lock")

    def __init__(self, game_id: int | None, seq: int, is_new_game: bool, data: str | Callable[[], str],
                 event: str = "entry") -> None:
        self.game_id, self.seq, self.is_new_game = game_id, seq, is_new_game
        self.event = event  # "seats" and "rig" carry no sequence number and never reset a stream
        self._data = data if isinstance(data, str) else None
        self._build = None if isinstance(data, str) else data
        self._lock = threading.Lock()

    @property
    def data(self) -> str:
        """The SSE data line (single-line JSON)."""
        with self._lock:
            if self._data is None:
                assert self._build is not None
                self._data, self._build = self._build(), None
            return self._data


class _Client:
    """One open stream's bounded queue; overflow marks it for closing instead of growing."""

    def __init__(self, limit: int, address: str, *, rig: bool = False) -> None:
        self.frames: deque[Frame | None] = deque()
        self.limit = limit
        self.address = address
        self.rig = rig  # the Mayor console: wants the hardware's status too
        self.overflowed = False
        self.ready = threading.Condition(threading.Lock())

    def offer(self, frame: Frame | None) -> None:
        """Queue a frame (None = close) without ever blocking the submitter."""
        with self.ready:
            if frame is not None and len(self.frames) >= self.limit:
                self.overflowed = True
                self.frames.clear()
            else:
                self.frames.append(frame)
            self.ready.notify()

    def take(self, timeout: float) -> tuple[bool, Frame | None]:
        """Wait up to timeout for a frame: (False, None) on timeout, (True, None) to close."""
        with self.ready:
            if not self.frames and not self.overflowed:
                self.ready.wait(timeout)
            if self.overflowed:
                return True, None
            if not self.frames:
                return False, None
            return True, self.frames.popleft()


class _Stream:
    """The response body: frees its slot on close() even if the server never started reading it."""

    def __init__(self, frames: Generator[bytes], forget: Callable[[], None]) -> None:
        self._frames = frames
        self._forget = forget

    def __iter__(self) -> _Stream:
        return self

    def __next__(self) -> bytes:
        return next(self._frames)

    def close(self) -> None:
        """Called by the WSGI server when the phone goes away or the response ends."""
        self._frames.close()
        self._forget()


def sse(data: str, *, event: str, id: int | None = None) -> bytes:
    """One SSE message; data is single-line JSON so it needs one data: field."""
    head = f"id: {id}\n" if id is not None else ""
    return f"{head}event: {event}\ndata: {data}\n\n".encode()


class StreamHub:
    """Fans accepted entries out to every open stream; subscribe it to the table once."""

    def __init__(
        self,
        table: Table,
        *,
        keepalive_s: float = KEEPALIVE_S,
        queue_max: int = CLIENT_QUEUE_MAX,
        max_streams: int = MAX_STREAMS,
        per_client: int = STREAMS_PER_CLIENT,
        picks: Picks = _no_picks,
    ) -> None:
        self._table = table
        self._picks = picks
        self._keepalive_s = keepalive_s
        self._queue_max = queue_max
        self._max_streams = max_streams
        self._per_client = per_client
        self._clients: dict[_Client, None] = {}  # an ordered set: the oldest stream first
        self._lock = threading.Lock()
        self._closed = False
        self._rig_now: Callable[[], dict] | None = None
        self._unsubscribe = table.subscribe(self._on_accepted)

    @property
    def client_count(self) -> int:
        """How many streams are open now."""
        with self._lock:
            return len(self._clients)

    def count_for(self, address: str) -> int:
        """How many streams one address holds now."""
        with self._lock:
            return sum(1 for c in self._clients if c.address == address)

    def _on_accepted(self, accepted: Accepted) -> None:
        if not self.client_count:
            return  # nobody listens: skip serialising the state
        picks = self._picks(accepted.game_id)
        frame = Frame(
            accepted.game_id,
            accepted.seq,
            isinstance(accepted.entry, NewGame),
            lambda: dumps(accepted_json(accepted, picks=picks)),
        )
        self._broadcast(frame)

    def _broadcast(self, frame: Frame | None) -> None:
        with self._lock:
            clients = list(self._clients)
        for client in clients:
            if frame is None or frame.event != "rig" or client.rig:
                client.offer(frame)

    def follow_rig(self, now: Callable[[], dict]) -> None:
        """Where a console's new stream gets the hardware's status from (its first `rig` event)."""
        self._rig_now = now

    def rig_changed(self, status: dict) -> None:
        """Send the hardware's new status to every console's stream."""
        with self._lock:
            wanted = any(client.rig for client in self._clients)
        if wanted:
            self._broadcast(Frame(None, 0, False, dumps(status), event="rig"))

    def seats_changed(self, game_id: int | None, taken: set[str]) -> None:
        """Tell every stream which seats of the game phones hold now (a seat was taken or freed)."""
        self._broadcast(Frame(game_id, 0, False, dumps({"game_id": game_id, "taken": sorted(taken)}),
                              event="seats"))

    def reset(self) -> None:
        """Send every stream the state afresh: an imported game was opened, or a seat picked its sheet."""
        game_id, seq, state = self._table.snapshot()
        if game_id is None:
            return
        data = dumps({"game_id": game_id, "seq": seq, "state": self._state(game_id, seq, state)})
        self._broadcast(Frame(game_id, seq, True, data))

    def close(self) -> None:
        """End every stream (server shutdown) and stop listening to the table."""
        self._closed = True
        self._unsubscribe()
        self._broadcast(None)

    def stream(self, *, last_event_id: int | None, game_id: int | None, client: str = "?",
               disconnected: Callable[[], bool] | None = None, rig: bool = False) -> Iterator[bytes]:
        """Open a stream for a client address; raises TooManyStreams when no fair slot is left.

        disconnected: asks the server whether the phone went away (None: only a failed write tells).
        rig: the stream also carries the hardware's status (`rig` events), now and on each change.
        """
        new = _Client(self._queue_max, client, rig=rig and self._rig_now is not None)
        with self._lock:
            evicted = self._make_room(client)
            self._clients[new] = None  # before reading the log, so nothing falls in between
        if evicted is not None:
            evicted.offer(None)  # its phone reconnects and catches up, if it is still there
        body = self._run(new, last_event_id, game_id, disconnected)
        return _Stream(body, lambda: self._forget(new))

    def _make_room(self, address: str) -> _Client | None:
        """Under the lock: the stream that must give its slot to a new one from address, if any."""
        mine = [c for c in self._clients if c.address == address]
        if len(mine) >= self._per_client:
            victim = mine[0]
        elif len(self._clients) >= self._max_streams:
            heaviest, held = (Counter(c.address for c in self._clients).most_common(1) or [("", 0)])[0]
            if held > len(mine) + 1:  # an address holding more than its share gives one up
                victim = next(c for c in self._clients if c.address == heaviest)
            else:  # everyone holds one: the oldest goes (a live phone reconnects and catches up)
                victim = next((c for c in self._clients if c.address != address), None)
            if victim is None:
                raise TooManyStreams(f"{self._max_streams} live streams are open already")
        else:
            return None
        del self._clients[victim]
        return victim

    def _forget(self, client: _Client) -> None:
        with self._lock:
            self._clients.pop(client, None)

    def _wait(self, client: _Client, disconnected: Callable[[], bool] | None) -> tuple[bool, Frame | None]:
        """The next frame, (False, None) when a keep-alive is due, (True, None) to end the stream."""
        if disconnected is None:
            return client.take(self._keepalive_s)
        due = time.monotonic() + self._keepalive_s
        while True:
            got, frame = client.take(min(DISCONNECT_POLL_S, max(0.0, due - time.monotonic())))
            if got:
                return got, frame
            if disconnected():
                return True, None  # the phone went away: free the slot now
            if time.monotonic() >= due:
                return False, None

    def _run(self, client: _Client, last_id: int | None, game_id: int | None,
             disconnected: Callable[[], bool] | None) -> Generator[bytes]:
        try:
            yield f"retry: {RETRY_MS}\n\n".encode()
            cur_game, cur_seq, state = self._table.snapshot()
            yield sse(dumps({"game_id": cur_game, "seq": cur_seq}), event="hello")
            if cur_game is not None and (game_id not in (None, cur_game) or (last_id or 0) > cur_seq):
                data = dumps({"game_id": cur_game, "seq": cur_seq, "state": self._state(cur_game, cur_seq, state)})
                yield sse(data, event="reset", id=cur_seq)
                seen = cur_seq
            elif last_id is not None:
                yield from self._catch_up(last_id, cur_seq)
                seen = max(last_id, cur_seq)
            else:
                seen = cur_seq
            if client.rig and self._rig_now is not None:
                yield sse(dumps(self._rig_now()), event="rig")
            game = cur_game
            while not self._closed:
                got, frame = self._wait(client, disconnected)
                if not got:
                    yield b": keep-alive\n\n"
                    continue
                if frame is None:
                    return  # closing, or this phone fell behind: it reconnects and catches up
                if frame.event != "entry":
                    yield sse(frame.data, event=frame.event)
                    continue
                if frame.game_id != game or frame.is_new_game:
                    game, seen = frame.game_id, frame.seq
                    yield sse(frame.data, event="reset", id=frame.seq)
                    continue
                if frame.seq <= seen:
                    continue  # already sent during catch-up
                if frame.seq > seen + 1:
                    yield from self._catch_up(seen, frame.seq - 1)
                seen = frame.seq
                yield sse(frame.data, event="entry", id=frame.seq)
        finally:
            self._forget(client)

    def _state(self, game_id: int | None, seq: int, state: GameState) -> dict:
        return state_json(game_id, seq, state, self._picks(game_id))

    def _catch_up(self, after: int, upto: int) -> Iterator[bytes]:
        """Entries after `after` up to `upto` from the log; the last one carries the state."""
        game_id, seq, state = self._table.snapshot()
        missed = [(s, e) for s, e in self._table.log_since(after) if s <= upto]
        for i, (s, entry) in enumerate(missed):
            last = i == len(missed) - 1
            doc = {
                "game_id": game_id,
                "seq": s,
                "entry": entry_to_dict(entry),
                "events": [],
                "state": self._state(game_id, seq, state) if last else None,
                "catch_up": True,
            }
            yield sse(dumps(doc), event="entry", id=s)
