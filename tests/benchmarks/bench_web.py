"""Benchmark (not a test): 50 phones streaming on loopback; delay from a reveal to every phone, and RSS.

Starts `tucana serve` on 127.0.0.1 (camera none, mock GPIO, a temp data folder), opens N Server-Sent
Events streams from one selector thread, and plays an 8-player Isla Petit game through the API:
for every reveal it measures the time from sending the POST to the moment the LAST stream has the
entry (its `id:` line). It prints per run the p50/p95/max of that delay and the server's memory
(VmRSS now, VmHWM peak), then the medians over the runs. Targets: p95 <= 100 ms, RSS <= 150 MB.

Run: .venv/bin/python tests/benchmarks/bench_web.py [--runs 5] [--clients 50] [--camera none|virtual]
     [--server waitress|cheroot]
Everything is bounded: each wait has a deadline and the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import selectors
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.conftest import ROUND_CARDS  # noqa: E402

HOST = "127.0.0.1"  # loopback only
PIN = "135790"
PLAYERS = ["Mary", "David", "Lena", "Omar", "Ines", "Kai", "Zoe", "Tom"]  # 8: the biggest state
START_S = 30.0  # the longest the server may take to answer /healthz
HEALTH_POLL_S = 0.05  # pause between /healthz tries while the server starts
STOP_S = 10.0  # the longest a server may take to end after SIGTERM, then after SIGKILL
DELIVERY_S = 5.0  # the longest one reveal may take to reach every stream before the run fails
PAUSE_S = 0.05  # between reveals, as a Mayor would pause (and so one reveal is measured at a time)
# With --server cheroot the bench runs the same app on cheroot, for comparison (pip install cheroot).
CHEROOT = """
import sys
from pathlib import Path
from cheroot.wsgi import Server
from web.app import create_app
from web.services import build_services
from web.stream import MAX_STREAMS
services = build_services(Path(sys.argv[2]))
server = Server(("127.0.0.1", int(sys.argv[1])), create_app(services=services),
                numthreads=MAX_STREAMS + 10, max=MAX_STREAMS + 10)
try:
    server.start()
finally:
    services.close()
"""


def free_port() -> int:
    """A TCP port free on the bench host."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def start_server(kind: str, port: int, data: Path, camera: str) -> subprocess.Popen[bytes]:
    """Start the server with a known PIN and a fresh data folder; return it once healthy."""
    data.mkdir(parents=True, exist_ok=True)
    # A known PIN for the bench: the secrets file is what `tucana serve` reads on start.
    (data / "web-secrets.json").write_text(json.dumps({"pin": PIN, "secret": "ab" * 32}))
    env = {k: v for k, v in os.environ.items() if not k.startswith("TUCANA_")}
    env.update(HOME=str(data / "home"), XDG_CONFIG_HOME=str(data / "config"))
    if kind == "cheroot":
        try:
            import cheroot  # noqa: F401
        except ImportError:
            raise SystemExit("--server cheroot needs cheroot: .venv/bin/pip install cheroot") from None
        cmd = [sys.executable, "-c", CHEROOT, str(port), str(data)]
    else:
        cmd = [sys.executable, "-m", "web.cli", "serve", "--host", HOST, "--port", str(port),
               "--data", str(data), "--camera", camera, "--gpio", "mock"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    return wait_healthy(proc, port)


def wait_healthy(proc: subprocess.Popen[bytes], port: int) -> subprocess.Popen[bytes]:
    """Return the server process once its /healthz answers 200; exit if it dies or takes too long."""
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            said = proc.stderr.read().decode()[-2000:] if proc.stderr is not None else ""
            raise SystemExit(f"the server exited with {proc.returncode}: {said}")
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=1)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return proc
        except OSError:
            time.sleep(HEALTH_POLL_S)
    proc.kill()
    raise SystemExit("the server did not become healthy in time")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM, then SIGKILL if it does not end in time."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(STOP_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(STOP_S)


def post(port: int, entry: dict) -> dict:
    """POST one entry with the Mayor PIN and return the reply; exit if it is refused."""
    conn = http.client.HTTPConnection(HOST, port, timeout=DELIVERY_S)
    conn.request("POST", "/api/events", body=json.dumps(entry), headers={"X-Mayor-Pin": PIN})
    reply = conn.getresponse()
    body = json.loads(reply.read())
    if reply.status != 201:
        raise SystemExit(f"{entry} refused: {body}")
    return body


class Phones:
    """N streams read by one selector thread (the caller's): records when each sees each seq."""

    def __init__(self, port: int, count: int) -> None:
        self.selector = selectors.DefaultSelector()
        self.buffers: dict[socket.socket, bytes] = {}
        self.seen: dict[socket.socket, int] = {}
        self.hello: set[socket.socket] = set()
        for n in range(count):
            # Each phone from its own loopback address, as phones on the Wi-Fi each have theirs:
            # the hub keeps at most STREAMS_PER_CLIENT streams per address.
            source = (f"127.0.{n // 250}.{2 + n % 250}", 0)
            sock = socket.create_connection((HOST, port), timeout=START_S, source_address=source)
            sock.sendall(f"GET /api/stream HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
                         "Accept: text/event-stream\r\n\r\n".encode())
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ)
            self.buffers[sock] = b""
            self.seen[sock] = -1
        self.wait_for(lambda: len(self.hello) == count, "every stream's hello")

    def _pump(self, timeout: float) -> None:
        for key, _ in self.selector.select(timeout):
            sock = key.fileobj
            data = sock.recv(65536)
            if not data:
                raise SystemExit("a stream was closed by the server")
            # Parse complete messages only and keep the tail: memory stays flat.
            complete, _, tail = (self.buffers[sock] + data).rpartition(b"\n\n")
            for line in complete.split(b"\n"):
                if line.startswith(b"id: "):
                    self.seen[sock] = max(self.seen[sock], int(line[4:]))
                elif line == b"event: hello":
                    self.hello.add(sock)
            self.buffers[sock] = tail

    def wait_for(self, done, what: str) -> None:
        """Read the streams until done() holds, exiting if DELIVERY_S passes first."""
        deadline = time.monotonic() + DELIVERY_S
        while not done():
            if time.monotonic() > deadline:
                raise SystemExit(f"timed out waiting for {what}")
            self._pump(0.05)

    def wait_seq(self, seq: int) -> float:
        """Block until every stream has seq; returns the moment the last one got it."""
        deadline = time.monotonic() + DELIVERY_S
        while min(self.seen.values()) < seq:
            if time.monotonic() > deadline:
                raise SystemExit(f"seq {seq} did not reach every stream within {DELIVERY_S} s")
            self._pump(0.05)
        return time.perf_counter()

    def close(self) -> None:
        """Close every phone's stream socket."""
        for sock in list(self.seen):
            self.selector.unregister(sock)
            sock.close()


def memory_kb(pid: int) -> tuple[int, int]:
    """VmRSS and VmHWM (peak) of a process, in kB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0])
    return fields["VmRSS"], fields["VmHWM"]


def one_run(kind: str, clients: int, camera: str) -> dict[str, float]:
    """Play a two-round game to the phones and return delivery delays and server memory."""
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = start_server(kind, port, Path(tmp) / "data", camera)
        try:
            post(port, {"type": "new_game", "players": PLAYERS})
            post(port, {"type": "setup_card", "letters": "CEBAEDCDAB"})
            phones = Phones(port, clients)
            delays = []
            for _ in range(2):  # Isla Petit: two rounds of 13 reveals
                for turn in range(13):
                    cards = ROUND_CARDS[2 * turn: 2 * turn + 2]
                    sent = time.perf_counter()
                    seq = post(port, {"type": "reveal", "cards": cards})["seq"]
                    delays.append((phones.wait_seq(seq) - sent) * 1000)
                    time.sleep(PAUSE_S)
            rss, peak = memory_kb(server.pid)
            phones.close()
        finally:
            stop(server)
    delays.sort()
    return {
        "p50_ms": statistics.median(delays),
        "p95_ms": delays[max(0, round(0.95 * len(delays)) - 1)],
        "max_ms": delays[-1],
        "rss_mb": rss / 1024,
        "peak_mb": peak / 1024,
    }


def main() -> int:
    """Run the benchmark several times, print each run and the medians; return the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--server", choices=("waitress", "cheroot"), default="waitress")
    parser.add_argument("--camera", choices=("none", "virtual"), default="virtual",
                        help="virtual (what `tucana serve` runs off a Pi) runs the scanner on the "
                        "virtual table too; none measures the web side alone")
    args = parser.parse_args()
    results = []
    for run in range(1, args.runs + 1):
        r = one_run(args.server, args.clients, args.camera)
        results.append(r)
        print(f"run {run}: reveal -> all {args.clients} streams p50 {r['p50_ms']:.1f} ms, "
              f"p95 {r['p95_ms']:.1f} ms, max {r['max_ms']:.1f} ms; "
              f"server RSS {r['rss_mb']:.1f} MB (peak {r['peak_mb']:.1f} MB)", flush=True)
    med = {k: statistics.median(r[k] for r in results) for k in results[0]}
    print(f"median of {args.runs} runs ({args.server}, camera {args.camera}, {args.clients} clients, "
          "26 reveals each): "
          f"p50 {med['p50_ms']:.1f} ms, p95 {med['p95_ms']:.1f} ms (target <= 100), "
          f"max {med['max_ms']:.1f} ms; RSS {med['rss_mb']:.1f} MB, peak {med['peak_mb']:.1f} MB "
          "(target <= 150)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
