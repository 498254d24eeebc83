"""Server-Sent Events: live entries with id = seq, catch-up from Last-Event-ID, keep-alives, resets,
bounded queues. Streams are read incrementally in a thread, every wait bounded."""

from __future__ import annotations

import json
import queue
import threading
import time
from dataclasses import dataclass
from typing import Any

import pytest

from companion.moves import Reveal, Terrain
from tests.conftest import ROUND_CARDS
from tests.web.conftest import ApiClient, start_game
from web.stream import RETRY_MS, StreamHub, TooManyStreams

WAIT_S = 20.0  # the longest any test waits for a message that should come at once (a busy CI machine)
REVEAL = {"type": "reveal", "cards": ["desert", "water"]}


@dataclass
class Message:
    """One parsed SSE message (or a comment)."""

    event: str | None
    id: int | None
    data: Any
    comment: str | None = None


def parse(block: str) -> Message:
    """Parse one server-sent-event block into its event, id, data and comment."""
    event = id_ = data = comment = None
    for line in block.split("\n"):
        if line.startswith(":"):
            comment = line[1:].strip()
        elif line.startswith("event: "):
            event = line[7:]
        elif line.startswith("id: "):
            id_ = int(line[4:])
        elif line.startswith("data: "):
            data = json.loads(line[6:])
        elif line.startswith("retry: "):
            event, data = "retry", int(line[7:])
    return Message(event, id_, data, comment)


class Reader:
    """Reads a streamed response in a daemon thread; next() waits at most WAIT_S for a message."""

    def __init__(self, chunks: Any) -> None:
        self.messages: queue.Queue[Message | None] = queue.Queue()
        self._thread = threading.Thread(target=self._read, args=(chunks,), daemon=True)
        self._thread.start()

    def _read(self, chunks: Any) -> None:
        buffer = ""
        for chunk in chunks:
            buffer += chunk.decode()
            while "\n\n" in buffer:
                block, buffer = buffer.split("\n\n", 1)
                self.messages.put(parse(block))
        self.messages.put(None)  # the stream ended

    def next(self, *, skip_comments: bool = True) -> Message | None:
        """The next message within WAIT_S, skipping keep-alives unless asked; None at the end."""
        deadline = time.monotonic() + WAIT_S
        while True:
            message = self.messages.get(timeout=max(0.01, deadline - time.monotonic()))
            if message is None or not (skip_comments and message.comment is not None):
                return message

    def until(self, event: str) -> Message:
        """Read messages until one of the given event type, failing if the stream ends first."""
        while True:
            message = self.next()
            assert message is not None, f"the stream ended before a {event} message"
            if message.event == event:
                return message

    def ended(self) -> bool:
        """Whether the reading thread has finished, waiting at most WAIT_S."""
        self._thread.join(WAIT_S)
        return not self._thread.is_alive()


def open_stream(client: ApiClient, url: str = "/api/stream", **kwargs: Any) -> tuple[Any, Reader]:
    """Open the event stream unbuffered and return the response and a reader over it."""
    response = client.get(url, buffered=False, **kwargs)
    assert response.status_code == 200, response.data
    return response, Reader(response.response)


def test_headers_retry_and_hello(api: ApiClient) -> None:
    """The stream has SSE headers, starts with a retry delay, then a hello with game and seq."""
    start_game(api)
    response, reader = open_stream(api)
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.headers["X-Accel-Buffering"] == "no"
    assert reader.next().data == RETRY_MS
    hello = reader.next()
    assert hello.event == "hello" and hello.id is None and hello.data == {"game_id": 1, "seq": 2}


def test_an_accepted_entry_reaches_the_stream_with_its_seq(api: ApiClient, phone: ApiClient) -> None:
    """An accepted entry is streamed with its seq as id, its events and the new state."""
    start_game(api)
    _, reader = open_stream(phone, "/api/stream?game_id=1")
    reader.until("hello")
    api.entry(REVEAL, mayor=True)
    message = reader.until("entry")
    assert message.id == 3
    assert message.data["game_id"] == 1 and message.data["seq"] == 3
    assert message.data["entry"] == REVEAL
    assert message.data["events"][0]["type"] == "revealed"
    assert message.data["state"]["announcement"] == ["desert", "water"]


def test_keepalive_comments_flow_while_nothing_happens(api: ApiClient) -> None:
    """A quiet stream sends keep-alive comments."""
    _, reader = open_stream(api)
    reader.until("hello")
    comment = reader.next(skip_comments=False)
    assert comment is not None and comment.comment == "keep-alive"


@pytest.mark.parametrize("how", ["header", "query"])
def test_catch_up_after_last_event_id(api: ApiClient, phone: ApiClient, how: str) -> None:
    """Reconnecting with a last event id replays the missed entries, then the stream goes live."""
    start_game(api)
    api.entry(REVEAL, mayor=True)
    api.entry({"type": "claim", "player": "Mary", "village": "D"}, mayor=True)
    if how == "header":
        _, reader = open_stream(phone, "/api/stream?game_id=1", headers={"Last-Event-ID": "2"})
    else:
        _, reader = open_stream(phone, "/api/stream?game_id=1&last_event_id=2")
    reader.until("hello")
    first, second = reader.next(), reader.next()
    assert (first.event, first.id, second.event, second.id) == ("entry", 3, "entry", 4)
    assert first.data["catch_up"] and first.data["state"] is None
    assert second.data["entry"] == {"type": "claim", "player": "Mary", "village": "D"}
    assert second.data["state"]["seq"] == 4 and second.data["state"]["sheets"]["Mary"]["villages"] == ["D"]
    api.entry({"type": "undo"}, mayor=True)  # then live, without repeating what was caught up
    live = reader.until("entry")
    assert live.id == 5 and "catch_up" not in live.data


def test_a_stream_from_another_game_is_reset(api: ApiClient, phone: ApiClient) -> None:
    """A reconnect naming an older game gets a reset to the current game instead of entries."""
    start_game(api)
    start_game(api, ["Ana", "Bo"])  # game 2
    _, reader = open_stream(phone, "/api/stream?game_id=1", headers={"Last-Event-ID": "9"})
    reader.until("hello")
    reset = reader.next()
    assert reset.event == "reset" and reset.id == 2
    assert reset.data["game_id"] == 2 and reset.data["state"]["players"] == ["Ana", "Bo"]


def test_a_new_game_resets_open_streams(api: ApiClient, phone: ApiClient) -> None:
    """A new game sends a reset to open streams, then entries of the new game follow."""
    start_game(api)
    _, reader = open_stream(phone, "/api/stream?game_id=1")
    reader.until("hello")
    api.entry({"type": "new_game", "players": ["Ana", "Bo"]}, mayor=True)
    reset = reader.until("reset")
    assert reset.id == 1 and reset.data["game_id"] == 2
    assert reset.data["state"]["players"] == ["Ana", "Bo"]
    api.entry({"type": "setup_card", "letters": "CEBAEDCDAB"}, mayor=True)
    following = reader.until("entry")
    assert (following.id, following.data["game_id"]) == (2, 2)


def test_an_import_resets_open_streams(api: ApiClient, phone: ApiClient) -> None:
    """Importing a log sends a reset naming the imported game to open streams."""
    start_game(api)
    text = api.get("/api/log.jsonl").data.decode()
    _, reader = open_stream(phone, "/api/stream?game_id=1")
    reader.until("hello")
    assert api.post("/api/import", data=text, mayor=True).status_code == 201
    reset = reader.until("reset")
    assert reset.data["game_id"] == 2 and reset.data["seq"] == 2


def test_a_slow_phone_is_cut_off_and_catches_up_on_reconnect(web_services) -> None:
    """A phone whose queue overflows has its stream ended rather than its queue grown."""
    table = web_services.table
    hub = StreamHub(table, keepalive_s=0.2, queue_max=4)
    from companion.moves import NewGame, SetupCard

    table.submit(NewGame(players=("A", "B")))
    table.submit(SetupCard("CEBAEDCDAB"))
    stream = hub.stream(last_event_id=None, game_id=table.game_id)
    assert next(stream).startswith(b"retry:") and b"hello" in next(stream)
    for turn in range(10):  # 10 reveals while this phone reads nothing: its queue would pass 4
        a, b = ROUND_CARDS[2 * turn: 2 * turn + 2]
        table.submit(Reveal((Terrain(a), Terrain(b))))
    client = next(iter(hub._clients))
    assert len(client.frames) <= 4 and client.overflowed
    assert list(stream) == []  # the stream ends at once instead of growing
    assert hub.client_count == 0
    again = hub.stream(last_event_id=2, game_id=table.game_id)
    ids = []
    for chunk in again:
        if chunk.startswith(b"id: "):
            ids.append(int(chunk.split(b"\n")[0][4:]))
        if len(ids) == 10:
            break
    assert ids == list(range(3, 13))
    again.close()
    hub.close()


def test_streams_are_limited(web_services) -> None:
    """The hub refuses streams beyond its maximum and accepts again once one closes."""
    hub = StreamHub(web_services.table, keepalive_s=0.2, max_streams=2)
    streams = [hub.stream(last_event_id=None, game_id=None) for _ in range(2)]
    with pytest.raises(TooManyStreams):
        hub.stream(last_event_id=None, game_id=None)
    streams[0].close()
    hub.stream(last_event_id=None, game_id=None).close()
    hub.close()


def test_too_many_streams_is_a_503(api: ApiClient, web_services, monkeypatch) -> None:
    """When no stream slot is free the API answers 503 naming the streams."""
    monkeypatch.setattr(web_services.hub, "_max_streams", 0)
    reply = api.get("/api/stream")
    assert reply.status_code == 503 and "streams" in reply.json["error"]


def test_closing_the_hub_ends_every_stream(api: ApiClient, web_services) -> None:
    """Closing the hub ends the open streams."""
    _, reader = open_stream(api)
    reader.until("hello")
    web_services.hub.close()
    assert reader.ended()


def test_one_address_keeps_only_its_newest_streams(web_services) -> None:
    """Past the per-address cap a new stream ends that address's oldest; other addresses keep theirs."""
    hub = StreamHub(web_services.table, keepalive_s=0.2, max_streams=10, per_client=2)
    phone = hub.stream(last_event_id=None, game_id=None, client="10.0.0.2")
    first, second = (hub.stream(last_event_id=None, game_id=None, client="10.0.0.9") for _ in range(2))
    third = hub.stream(last_event_id=None, game_id=None, client="10.0.0.9")
    assert hub.count_for("10.0.0.9") == 2 and hub.count_for("10.0.0.2") == 1
    assert list(first)[-1].startswith(b"event: hello")  # opens, then ends at once: it was evicted
    for stream in (phone, second, third):
        stream.close()
    hub.close()


def test_a_full_hub_gives_a_new_phone_a_slot_from_the_heaviest_address(web_services) -> None:
    """A newcomer takes a slot from the address holding the most, else the oldest stream."""
    hub = StreamHub(web_services.table, keepalive_s=0.2, max_streams=4, per_client=4)
    hog = [hub.stream(last_event_id=None, game_id=None, client="10.0.0.66") for _ in range(3)]
    mary = hub.stream(last_event_id=None, game_id=None, client="10.0.0.2")
    david = hub.stream(last_event_id=None, game_id=None, client="10.0.0.3")
    assert hub.count_for("10.0.0.66") == 2 and hub.client_count == 4
    ann = hub.stream(last_event_id=None, game_id=None, client="10.0.0.4")
    assert hub.count_for("10.0.0.66") == 1 and hub.count_for("10.0.0.3") == 1
    bob = hub.stream(last_event_id=None, game_id=None, client="10.0.0.5")  # everyone holds one
    assert hub.count_for("10.0.0.66") == 0 and hub.count_for("10.0.0.5") == 1  # the oldest went
    assert hub.client_count == 4
    for stream in (*hog, mary, david, ann, bob):
        stream.close()
    assert hub.client_count == 0
    hub.close()


def test_a_stream_whose_phone_went_away_is_freed_within_the_poll(web_services) -> None:
    """With the server's disconnect check the slot is free within DISCONNECT_POLL_S, not a keep-alive."""
    from web.stream import DISCONNECT_POLL_S

    hub = StreamHub(web_services.table, keepalive_s=60.0)
    gone = threading.Event()
    stream = hub.stream(last_event_id=None, game_id=None, client="10.0.0.2", disconnected=gone.is_set)
    chunks: list[bytes] = []
    reader = threading.Thread(target=lambda: chunks.extend(stream), daemon=True)
    reader.start()
    time.sleep(0.1)
    assert hub.client_count == 1
    gone.set()
    started = time.monotonic()
    reader.join(WAIT_S)
    stream.close()
    assert not reader.is_alive() and time.monotonic() - started < DISCONNECT_POLL_S + 1.0
    assert hub.client_count == 0
    hub.close()
