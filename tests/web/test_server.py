"""The waitress server of `tucana serve` on loopback: slow senders, many sockets from one address,
big bodies, streams whose phone went away or stopped reading. Every wait is bounded."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from waitress import wasyncore

from tests.web.conftest import PIN
from web import server as table_server
from web.app import MAX_BODY_BYTES, create_app
from web.commands.serve import bind
from web.services import Services, build_services

WAIT_S = 10.0  # the longest a test waits for something that should take a second
LOOP_TICK_S = 0.05  # how soon the test server's loop sees that it should stop


@contextmanager
def running(tmp_path: Path, keepalive_s: float = 0.2, **options: Any) -> Iterator[tuple[int, Any, Services]]:
    """A TableServer over fresh services on 127.0.0.1 in a thread: (port, server, services)."""
    services = build_services(tmp_path / "data", keepalive_s=keepalive_s)
    services.security.pin = PIN
    sock = bind("127.0.0.1", 0)
    server = table_server.create_table_server(
        create_app({"TESTING": True}, services=services), sock, threads=8,
        max_body_bytes=MAX_BODY_BYTES, asyncore_use_poll=True, **options)
    stop = threading.Event()
    loop = threading.Thread(target=serve_until, args=(server, stop), daemon=True)
    loop.start()
    try:
        yield sock.getsockname()[1], server, services
    finally:
        services.hub.close()
        server.task_dispatcher.shutdown(timeout=2)
        stop.set()
        loop.join(WAIT_S)
        services.close()


def serve_until(server: Any, stop: threading.Event) -> None:
    """The server's event loop until stop is set, then every socket closed, all on the loop's thread.

    Stopping through waitress's trigger pipe raced: a CI run once found the pipe already closed
    (EBADF) when the test pulled it. A loop that checks a flag needs no pipe to be woken."""
    while not stop.is_set():
        wasyncore.loop(timeout=LOOP_TICK_S, map=server._map, use_poll=True, count=1)
    for channel in list(server._map.values()):
        channel.close()


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    """A client socket to the server, from a chosen loopback address."""
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(WAIT_S)
    sock.connect(("127.0.0.1", port))
    return sock


def get(port: int, path: str, source: str = "127.0.0.1") -> bytes:
    """A whole GET answer (Connection: close)."""
    with connect(port, source) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".encode())
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """True when the server closes this socket (EOF or reset) within the time given."""
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
    except TimeoutError:
        return False
    except ConnectionError:
        pass
    return True


def test_a_slow_sender_is_closed_and_the_server_keeps_serving(tmp_path: Path, monkeypatch) -> None:
    """A byte now and then never finishes the headers in time: closed; /healthz answers meanwhile."""
    monkeypatch.setattr(table_server, "HEADER_TIMEOUT_S", 1)
    with running(tmp_path) as (port, _, _):
        slow = connect(port)
        slow.sendall(b"GET /healthz HTTP/1.1\r\n")
        started = time.monotonic()
        slow.settimeout(0.3)
        closed = False
        while time.monotonic() - started < WAIT_S and not closed:
            try:
                slow.sendall(b"X")
                closed = slow.recv(1) == b""
            except TimeoutError:
                continue
            except OSError:
                closed = True
        assert closed and time.monotonic() - started < 1 + 2 * table_server.CLEANUP_INTERVAL_S + 1
        assert b" 200 " in get(port, "/healthz").split(b"\r\n")[0] + b" "
        slow.close()


def test_one_address_cannot_take_every_socket(tmp_path: Path, monkeypatch) -> None:
    """Past the per-address cap new sockets are closed at once; another address is served."""
    monkeypatch.setattr(table_server, "CONNECTIONS_PER_ADDRESS", 5)
    with running(tmp_path) as (port, server, _):
        held = [connect(port, "127.0.0.3") for _ in range(5)]
        deadline = time.monotonic() + WAIT_S
        while server.connections_by_address()["127.0.0.3"] < 5 and time.monotonic() < deadline:
            time.sleep(0.02)
        extra = connect(port, "127.0.0.3")
        assert closed_within(extra, 2.0)
        assert get(port, "/healthz", "127.0.0.4").startswith(b"HTTP/1.1 200")
        for sock in (*held, extra):
            sock.close()


def test_a_big_body_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """A 1 GiB Content-Length gets a 413 at once, without the server reading a byte of it."""
    with running(tmp_path) as (port, _, _):
        with connect(port) as sock:
            sock.sendall(b"POST /api/import HTTP/1.1\r\nHost: t\r\nContent-Length: 1073741824\r\n"
                         b"Content-Type: application/x-ndjson\r\n\r\n")
            answer = sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 413")


def test_a_closed_stream_frees_its_slot_at_once(tmp_path: Path) -> None:
    """A phone that closes its stream (or half-closes it) gives the slot back within a second."""
    with running(tmp_path, keepalive_s=30.0) as (port, _, services):  # no keep-alive write tells
        for how in ("close", "half-close"):
            sock = connect(port)
            sock.sendall(b"GET /api/stream HTTP/1.1\r\nHost: t\r\n\r\n")
            seen = b""
            while b"event: hello" not in seen:
                seen += sock.recv(4096)
            assert services.hub.client_count == 1
            if how == "close":
                sock.close()
            else:
                sock.shutdown(socket.SHUT_WR)
            started = time.monotonic()
            while services.hub.client_count and time.monotonic() - started < WAIT_S:
                time.sleep(0.05)
            assert services.hub.client_count == 0 and time.monotonic() - started < 1.5, how
            sock.close()


def test_a_phone_that_stops_reading_is_dropped_after_the_write_timeout(tmp_path: Path, monkeypatch) -> None:
    """Entries pile up for a stream nobody reads: after WRITE_TIMEOUT_S its socket and slot are freed."""
    monkeypatch.setattr(table_server, "WRITE_TIMEOUT_S", 1)
    monkeypatch.setattr(table_server, "SEND_BUFFER_BYTES", 4096)
    with running(tmp_path, outbuf_high_watermark=8192) as (port, server, services):
        from companion.moves import NewGame, Reveal, SetupCard, Terrain, Undo

        table = services.table
        table.submit(NewGame(("Mary", "David")))
        table.submit(SetupCard("CEBAEDCDAB"))
        deaf = socket.socket()
        deaf.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        deaf.settimeout(WAIT_S)
        deaf.connect(("127.0.0.1", port))
        deaf.sendall(b"GET /api/stream HTTP/1.1\r\nHost: t\r\n\r\n")
        deadline = time.monotonic() + WAIT_S
        while services.hub.client_count == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        # The stream has begun (its first bytes wait, unread, in the phone's buffer): every entry
        # from here is sent on its own. Submitted before the stream's thread took its snapshot, they
        # would all be in that one state, which the buffers hold, and nothing would pile up.
        deaf.recv(1, socket.MSG_PEEK)
        for _ in range(40):  # ~6 kB of state each: far more than the deaf phone's buffers
            table.submit(Reveal((Terrain.DESERT, Terrain.WATER)))
            table.submit(Undo())
        started = time.monotonic()
        while services.hub.client_count and time.monotonic() - started < WAIT_S:
            time.sleep(0.05)
        assert services.hub.client_count == 0
        assert server.connections_by_address()["127.0.0.1"] == 0
        deaf.close()
