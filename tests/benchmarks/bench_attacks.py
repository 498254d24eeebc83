"""Benchmark (not a test): issue 11's attacks against a real `tucana serve` on loopback.

1. kill -9 loop: entries are posted with Idempotency-Keys while the server is killed at random
   moments (half of the kills right after a 201); after each restart the request that got no
   answer is sent again with its key, as a page does. Prints the acknowledged entries lost (the
   target is 0) and the entries stored twice (0): the log must be exactly the entries sent.
2. Stream-slot and slow-sender attacks: 100 streams that never read and 300 connections that
   send a byte every 20 s (both reconnecting whenever the server drops them), from attacker
   addresses 127.0.0.2...; meanwhile a new phone from 127.0.0.1 loads its page and opens its
   stream every 2 s. Prints how long both took (target: within 1 s), and the server's RSS.

Everything runs on 127.0.0.0/8 only and is bounded in count and time; the server is stopped at
the end. Run: .venv/bin/python tests/benchmarks/bench_attacks.py [--kills 20] [--runs 3]
     [--streams 100] [--slow 300] [--attacker-addresses 1] [--probes 15]
"""

from __future__ import annotations

import argparse
import http.client
import ipaddress
import json
import os
import random
import resource
import select
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks.bench_web import free_port, stop, wait_healthy  # noqa: E402

HOST = "127.0.0.1"  # the server and the new phone; attackers use 127.0.0.2 and up
PIN = "135790"
REQUEST_S = 5.0  # one API request's timeout
KILL_WAIT_S = (0.0, 0.8)  # a random kill comes this long after the cycle's first request
ACKS_BEFORE_KILL = (1, 25)  # a kill "right after a 201" comes after this many acknowledgements
SLOW_BYTE_S = 20.0  # the slow senders' pace, as found in the issue
PROBE_EVERY_S = 2.0  # a new phone arrives this often during the attack
WARM_UP_S = 3.0  # attackers connect before the first probe
TARGET_S = 1.0  # a new phone must have its page and its stream within this
RECONNECT_PAUSE_S = 1.0  # an attacker dropped by the server connects again after this (no flood)
POLL_S = 0.2  # the attackers' loop: check for dropped sockets and due bytes this often
PLAYERS = ["Mary", "David"]
CLAIM = {"type": "claim", "player": "David", "village": "A"}  # claim and undo alternate forever
UNDO = {"type": "undo"}


def _say(text: str) -> None:
    print(text, flush=True)


def _loopback(address: str) -> str:
    if not ipaddress.ip_address(address).is_loopback:
        raise SystemExit(f"{address} is not a loopback address: this bench stays on 127.0.0.0/8")
    return address


def start_server(port: int, data: Path, camera: str) -> subprocess.Popen[bytes]:
    """`tucana serve` on 127.0.0.1 with a known PIN in data; returned once /healthz answers."""
    data.mkdir(parents=True, exist_ok=True)
    secrets = data / "web-secrets.json"
    if not secrets.exists():
        secrets.write_text(json.dumps({"pin": PIN}))
    env = {k: v for k, v in os.environ.items() if not k.startswith("TUCANA_")}
    env.update(HOME=str(data / "home"), XDG_CONFIG_HOME=str(data / "config"))
    cmd = [sys.executable, "-m", "web.cli", "serve", "--host", _loopback(HOST), "--port", str(port),
           "--data", str(data), "--camera", camera, "--gpio", "mock"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=ROOT)
    return wait_healthy(proc, port)


def post(port: int, entry: dict, key: str) -> tuple[int, dict]:
    """POST one entry as the Mayor with an Idempotency-Key: (status, answer); OSError if cut off."""
    conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_S)
    conn.request("POST", "/api/events", body=json.dumps(entry),
                 headers={"X-Mayor-Pin": PIN, "Idempotency-Key": key, "Content-Type": "application/json"})
    reply = conn.getresponse()
    return reply.status, json.loads(reply.read())


class Poster(threading.Thread):
    """Posts claim/undo alternately until the server stops answering; remembers what it sent."""

    def __init__(self, port: int, sent: list[tuple[str, dict]], acked: dict[str, int], opening: int) -> None:
        super().__init__(daemon=True)
        self.port, self.sent, self.acked, self.opening = port, sent, acked, opening
        self.unanswered: tuple[str, dict] | None = None
        self.count = 0
        self.refused: str | None = None

    def run(self) -> None:
        while True:
            entry = CLAIM if (len(self.sent) - self.opening) % 2 == 0 else UNDO
            key = uuid.uuid4().hex
            self.sent.append((key, entry))
            try:
                status, answer = post(self.port, entry, key)
            except (OSError, http.client.HTTPException, ValueError):
                self.unanswered = (key, entry)  # the kill cut it off: the page sends it again
                return
            if status != 201:
                self.refused = f"{entry} refused: {answer}"
                return
            self.acked[key] = answer["seq"]
            self.count += 1


def kill_loop(kills: int, camera: str, rng: random.Random) -> dict[str, int]:
    """Kill -9 the server `kills` times while it stores entries; count what was lost or doubled."""
    with tempfile.TemporaryDirectory() as tmp:
        data, port = Path(tmp) / "data", free_port()
        proc = start_server(port, data, camera)
        sent: list[tuple[str, dict]] = []
        acked: dict[str, int] = {}
        for entry in ({"type": "new_game", "players": PLAYERS},
                      {"type": "setup_card", "letters": "CEBAEDCDAB"},
                      {"type": "reveal", "cards": ["desert", "water"]}):
            key = uuid.uuid4().hex
            sent.append((key, entry))
            acked[key] = post(port, entry, key)[1]["seq"]
        opening = len(sent)
        retried = stored_before = 0
        try:
            for kill in range(kills):
                poster = Poster(port, sent, acked, opening)
                poster.start()
                if kill % 2:  # right after a 201
                    target = rng.randint(*ACKS_BEFORE_KILL)
                    deadline = time.monotonic() + REQUEST_S * target
                    while poster.count < target and poster.is_alive() and time.monotonic() < deadline:
                        time.sleep(0.0005)
                else:  # at a random moment
                    time.sleep(rng.uniform(*KILL_WAIT_S))
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait(10)
                poster.join(REQUEST_S * 2)
                if poster.refused:
                    raise SystemExit(poster.refused)
                proc = start_server(port, data, camera)
                if poster.unanswered is not None:
                    key, entry = poster.unanswered
                    newest = _newest_seq(port)
                    status, answer = post(port, entry, key)  # the retry a page makes
                    if status != 201:
                        raise SystemExit(f"the retry of {entry} was refused: {answer}")
                    acked[key] = answer["seq"]
                    retried += 1
                    stored_before += answer["seq"] <= newest  # it was in when the server died
            conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_S)
            conn.request("GET", "/api/log.jsonl")
            stored = [json.loads(line) for line in conn.getresponse().read().decode().splitlines()]
        finally:
            stop(proc)
    sent_entries = [entry for _, entry in sent]
    by_key = dict(sent)
    lost = sum(1 for key, seq in acked.items() if seq > len(stored) or not _same(stored[seq - 1], by_key[key]))
    shapes_match = [_same(a, b) for a, b in zip(stored, sent_entries, strict=False)]
    return {
        "kills": kills,
        "acknowledged": len(acked) - opening,
        "lost": lost,
        "doubled": max(0, len(stored) - len(sent_entries)) + shapes_match.count(False),
        "missing": max(0, len(sent_entries) - len(stored)),
        "retried": retried,
        "stored_before": stored_before,
    }


def _newest_seq(port: int) -> int:
    conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_S)
    conn.request("GET", "/healthz")
    return json.loads(conn.getresponse().read())["seq"]


def _same(stored: dict, sent: dict) -> bool:
    """A stored line is the entry sent (new_game's defaults are written out in the log)."""
    return all(stored.get(k) == v for k, v in sent.items())


# ---- the stream-slot and slow-sender attacks ----


def _attacker_socket(source: str, port: int) -> socket.socket | None:
    sock = socket.socket()
    try:
        sock.bind((_loopback(source), 0))
        sock.settimeout(REQUEST_S)
        sock.connect((HOST, port))
        sock.setblocking(False)
        return sock
    except OSError:
        sock.close()
        return None


class Attackers(threading.Thread):
    """Keeps `streams` never-reading streams and `slow` slow senders connected, reconnecting the
    ones the server drops (seen with POLLRDHUP, without reading a byte)."""

    def __init__(self, port: int, streams: int, slow: int, sources: list[str]) -> None:
        super().__init__(daemon=True)
        self.port, self.sources = port, sources
        self.wanted = [("stream", i) for i in range(streams)] + [("slow", i) for i in range(slow)]
        self.socks: dict[tuple[str, int], socket.socket] = {}
        self.next_byte: dict[tuple[str, int], float] = {}
        self.retry_at: dict[tuple[str, int], float] = {}
        self.dropped = {"stream": 0, "slow": 0}
        self.stopping = threading.Event()
        self.poller = select.poll()
        self.by_fd: dict[int, tuple[str, int]] = {}

    def _open(self, slot: tuple[str, int]) -> None:
        kind, i = slot
        if time.monotonic() < self.retry_at.get(slot, 0.0):
            return
        self.retry_at[slot] = time.monotonic() + RECONNECT_PAUSE_S
        sock = _attacker_socket(self.sources[i % len(self.sources)], self.port)
        if sock is None:
            return
        try:
            if kind == "stream":
                sock.send(f"GET /api/stream HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
            else:
                sock.send(f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\n".encode())  # never finished
        except OSError:
            sock.close()
            return
        self.socks[slot] = sock
        self.next_byte[slot] = time.monotonic() + SLOW_BYTE_S
        self.by_fd[sock.fileno()] = slot
        self.poller.register(sock, select.POLLRDHUP | select.POLLHUP | select.POLLERR)

    def _drop(self, slot: tuple[str, int]) -> None:
        sock = self.socks.pop(slot)
        self.poller.unregister(sock)
        self.by_fd.pop(sock.fileno(), None)
        sock.close()
        self.dropped[slot[0]] += 1

    def run(self) -> None:
        while not self.stopping.is_set():
            for slot in self.wanted:
                if slot not in self.socks:
                    self._open(slot)
            for fd, _ in self.poller.poll(POLL_S * 1000):
                if fd in self.by_fd:
                    self._drop(self.by_fd[fd])
            now = time.monotonic()
            for slot, due in list(self.next_byte.items()):
                if slot[0] == "slow" and slot in self.socks and now >= due:
                    try:
                        self.socks[slot].send(b"X")
                    except OSError:
                        self._drop(slot)
                    self.next_byte[slot] = now + SLOW_BYTE_S
        for slot in list(self.socks):
            self._drop(slot)

    def connected(self) -> dict[str, int]:
        """How many of each kind are connected now."""
        kinds = [kind for kind, _ in list(self.socks)]
        return {"stream": kinds.count("stream"), "slow": kinds.count("slow")}


def new_phone(port: int) -> tuple[float, float]:
    """A phone from 127.0.0.1 loads its page, then opens its stream: seconds for each (inf if refused)."""
    started = time.perf_counter()
    try:
        conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_S)
        conn.request("GET", "/play/1")
        reply = conn.getresponse()
        reply.read()
        page = time.perf_counter() - started if reply.status == 200 else float("inf")
        conn.close()
    except OSError:
        page = float("inf")
    started = time.perf_counter()
    stream = float("inf")
    try:
        with socket.create_connection((HOST, port), timeout=REQUEST_S) as sock:
            sock.sendall(f"GET /api/stream HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
            seen = b""
            while b"event: hello" not in seen and not seen.startswith(b"HTTP/1.1 5"):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                seen += chunk
            if b"event: hello" in seen:
                stream = time.perf_counter() - started
    except OSError:
        pass
    return page, stream


def memory_mb(pid: int) -> tuple[float, float]:
    """VmRSS and VmHWM (peak) of a process, in MB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0]) / 1024
    return fields["VmRSS"], fields["VmHWM"]


def attack(streams: int, slow: int, addresses: int, probes: int, camera: str) -> dict[str, float]:
    """One run of both attacks with new phones arriving; their times, the attackers' hold, RSS."""
    sources = [f"127.0.0.{2 + i % 250}" if addresses <= 250 else f"127.0.{1 + i // 250}.{2 + i % 250}"
               for i in range(addresses)]
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start_server(port, Path(tmp) / "data", camera)
        attackers = Attackers(port, streams, slow, sources)
        try:
            for entry in ({"type": "new_game", "players": PLAYERS}, {"type": "setup_card", "letters": "CEBAEDCDAB"}):
                post(port, entry, uuid.uuid4().hex)
            attackers.start()
            time.sleep(WARM_UP_S)
            held = attackers.connected()
            pages, opened = [], []
            for _ in range(probes):
                page, stream = new_phone(port)
                pages.append(page)
                opened.append(stream)
                time.sleep(PROBE_EVERY_S)
            rss, peak = memory_mb(proc.pid)
        finally:
            attackers.stopping.set()
            attackers.join(10)
            stop(proc)
    both = [max(p, s) for p, s in zip(pages, opened, strict=True)]
    return {
        "page_p50_ms": statistics.median(pages) * 1000, "page_max_ms": max(pages) * 1000,
        "stream_p50_ms": statistics.median(opened) * 1000, "stream_max_ms": max(opened) * 1000,
        "served_in_1s": sum(1 for t in both if t <= TARGET_S), "probes": probes,
        "streams_held": held["stream"], "slow_held": held["slow"],
        "streams_dropped": attackers.dropped["stream"], "slow_dropped": attackers.dropped["slow"],
        "rss_mb": rss, "peak_mb": peak,
    }


def main() -> int:
    """Run the kill loop once and the attacks --runs times; print each and the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--streams", type=int, default=100)
    parser.add_argument("--slow", type=int, default=300)
    parser.add_argument("--attacker-addresses", type=int, default=1,
                        help="loopback addresses the attackers spread over (127.0.0.2 and up)")
    parser.add_argument("--probes", type=int, default=15)
    parser.add_argument("--camera", choices=("none", "virtual"), default="none")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--skip-kills", action="store_true")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # 400 attacker sockets and their churn
    if not args.skip_kills:
        k = kill_loop(args.kills, args.camera, random.Random(args.seed))
        _say(f"kill -9 loop: {k['kills']} kills, {k['acknowledged']} entries acknowledged, "
             f"{k['lost']} acknowledged lost (target 0), {k['doubled']} stored twice (target 0), "
             f"{k['missing']} sent but missing; {k['retried']} cut-off requests retried with their key, "
             f"{k['stored_before']} of them already stored when the server died (answered, not stored again)")
    results = []
    for run in range(1, args.runs + 1):
        r = attack(args.streams, args.slow, args.attacker_addresses, args.probes, args.camera)
        results.append(r)
        _say(f"attack run {run}: new phone page p50 {r['page_p50_ms']:.0f} ms (max {r['page_max_ms']:.0f}), "
             f"stream p50 {r['stream_p50_ms']:.0f} ms (max {r['stream_max_ms']:.0f}); "
             f"{r['served_in_1s']}/{r['probes']} served within 1 s; attackers held "
             f"{r['streams_held']} streams and {r['slow_held']} slow senders "
             f"(the server dropped {r['streams_dropped']} and {r['slow_dropped']}); "
             f"server RSS {r['rss_mb']:.1f} MB (peak {r['peak_mb']:.1f})")
    med = {key: statistics.median(r[key] for r in results) for key in results[0]}
    _say(f"median of {args.runs} attack runs ({args.streams} never-reading streams, {args.slow} slow "
         f"senders from {args.attacker_addresses} address(es)): page p50 {med['page_p50_ms']:.0f} ms, "
         f"stream p50 {med['stream_p50_ms']:.0f} ms, worst page {med['page_max_ms']:.0f} ms, worst stream "
         f"{med['stream_max_ms']:.0f} ms, {med['served_in_1s']:.0f}/{args.probes} within 1 s; "
         f"RSS {med['rss_mb']:.1f} MB, peak {med['peak_mb']:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
