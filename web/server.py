"""The HTTP server of `tucana serve`: waitress with limits that keep one phone or prankster from
starving the table.

waitress parses requests in one event loop and runs each complete request on a thread; a stream
holds its thread for as long as the phone listens. What it adds to waitress's own limits:
- a request must arrive whole in time (headers HEADER_TIMEOUT_S after its first byte, or after the
  connection opened; the body BODY_TIMEOUT_S): a sender dribbling a byte every 20 s is closed;
- one address holds at most CONNECTIONS_PER_ADDRESS sockets: more are closed at accept;
- a response whose phone stops reading (unsent output, no progress for WRITE_TIMEOUT_S) is
  dropped, which frees its thread;
- the body limit is waitress's too, so a big upload is refused before it is read or spooled.
"""

from __future__ import annotations

import contextlib
import resource
import socket
import time
from collections import Counter
from typing import Any

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

HEADER_TIMEOUT_S = 10  # a phone sends its headers in one packet; a slow sender gets 10 s
BODY_TIMEOUT_S = 60  # a whole body (2 MiB at most) over weak Wi-Fi
IDLE_TIMEOUT_S = 30  # a kept-alive connection between requests; browsers open a new one when needed
WRITE_TIMEOUT_S = 30  # a phone that reads nothing of what is waiting for it this long is gone
CONNECTIONS_PER_ADDRESS = 64  # a phone uses 6-10; the Pi's own screen a few more
CONNECTION_LIMIT = 1000  # sockets at once: every phone at a table, and many pranksters besides
MAX_HEADER_BYTES = 16 * 1024  # a request's line and headers (cookies included) take under 2 kB
CLEANUP_INTERVAL_S = 1  # how often the deadlines above are checked (waitress counts whole seconds)
# Kernel send buffer per socket (Linux would grow it to 4 MiB for a phone that stops reading):
# 64 KiB carries a whole state message many times over at Wi-Fi speeds.
SEND_BUFFER_BYTES = 64 * 1024
FILE_SLACK = 64  # descriptors beyond the sockets: the database, the camera, logs


class TableChannel(HTTPChannel):
    """A waitress connection that remembers when its current request began."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request_began: float | None = self.creation_time  # waiting for a first request

    def received(self, data: bytes) -> bool:
        """Note when a request's first byte came; forget it once the request is complete."""
        if self.request is None and self.request_began is None:
            self.request_began = time.time()
        done = super().received(data)
        if self.request is None:
            self.request_began = None
        return done

    def overdue(self, now: float) -> bool:
        """True when this connection breaks a deadline: a request too slow, or a reader that stopped."""
        began = self.request_began
        if began is not None and not self.requests:
            headers_in = self.request is not None and self.request.headers_finished
            if now - began > (BODY_TIMEOUT_S if headers_in else HEADER_TIMEOUT_S):
                return True
        return bool(self.requests) and self.total_outbufs_len > 0 and now - self.last_activity > WRITE_TIMEOUT_S


class TableServer(TcpWSGIServer):
    """waitress's TCP server with per-address connection caps and request and write deadlines."""

    channel_class = TableChannel

    def handle_accept(self) -> None:
        """Accept a connection, closing it at once when its address holds too many already."""
        try:
            accepted = self.accept()
        except OSError:
            return
        if accepted is None:
            return
        conn, addr = accepted
        held = sum(1 for c in self.active_channels.values() if c.addr and c.addr[0] == addr[0])
        if held >= CONNECTIONS_PER_ADDRESS:
            conn.close()
            return
        try:
            self.set_socket_options(conn)
        except OSError:
            conn.close()
            return
        self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)

    def set_socket_options(self, conn: socket.socket) -> None:
        """waitress's options, and a bounded send buffer."""
        super().set_socket_options(conn)
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)

    def maintenance(self, now: float) -> None:
        """waitress's idle cut, then close the connections that broke a deadline."""
        super().maintenance(now)
        for channel in list(self.active_channels.values()):
            if isinstance(channel, TableChannel) and channel.overdue(now):
                channel.will_close = True
                if channel.requests:  # a thread waits on this channel's output: wake it to give up
                    channel.handle_close()

    def connections_by_address(self) -> Counter[str]:
        """Open connections per client address (for the benchmark and tests)."""
        return Counter(c.addr[0] for c in self.active_channels.values() if c.addr)


def raise_file_limit(wanted: int = CONNECTION_LIMIT + FILE_SLACK) -> int:
    """Raise this process's open-file limit toward wanted (up to the hard limit); returns it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    return soft


def create_table_server(app: Any, sock: socket.socket, *, threads: int, max_body_bytes: int,
                        **options: Any) -> TableServer:
    """The server on an already bound and listening socket, with the table's limits."""
    files = raise_file_limit()
    adj = Adjustments(
        sockets=[sock],
        threads=threads,
        connection_limit=min(CONNECTION_LIMIT, files - FILE_SLACK),
        channel_timeout=IDLE_TIMEOUT_S,
        cleanup_interval=CLEANUP_INTERVAL_S,
        max_request_header_size=MAX_HEADER_BYTES,
        # waitress refuses a body of exactly its limit; Flask's MAX_CONTENT_LENGTH allows it.
        max_request_body_size=max_body_bytes + 1,
        channel_request_lookahead=1,  # keep reading while a stream runs: a closed phone shows at once
        **options,
    )
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    return TableServer(app, map={}, _sock=sock, dispatcher=dispatcher, adj=adj, bind_socket=False,
                       sockinfo=(sock.family, sock.type, sock.proto, sock.getsockname()))
