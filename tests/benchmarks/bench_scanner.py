"""Benchmark (not a test): card-settled-to-log latency and the scanner's CPU use on an empty mat.

Run: .venv/bin/python tests/benchmarks/bench_scanner.py [--runs 5] [--reveals 12] [--idle-s 6]

The rig runs as `tucana serve` runs it off a Pi (real threads, the virtual table at the Pi
camera's 1280x720, vision's reader, mock pins), at the scanner's 15 processed frames/s.
Latency: from the moment the laid cards lie still (the read after which the virtual table shows
them without the Mayor's hand; the camera's next frame sees them) to the table accepting the
reveal. Targets: latency <= 300 ms; CPU with an empty mat <= 25% of one core.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import vision  # noqa: E402, F401  (before numpy: the reader's one BLAS thread, as in the product)
from companion.moves import NewGame, Reveal  # noqa: E402
from companion.store import LogStore  # noqa: E402
from companion.table import Table  # noqa: E402
from hardware.camera import Camera  # noqa: E402
from hardware.config import CameraKind, CameraSpec, PinMap  # noqa: E402
from hardware.eyes import VisionEyes  # noqa: E402
from hardware.rig import build_rig  # noqa: E402
from hardware.speech import FakeSpeaker  # noqa: E402
from hardware.virtual_table import VirtualTable  # noqa: E402

LATENCY_TARGET_MS = 300.0
CPU_TARGET = 0.25  # share of one core
REVEAL_TIMEOUT_S = 5.0


class StopWatchTable(Camera):
    """The virtual table, noting when the laid cards come to rest (the last hand frame was taken)."""

    def __init__(self, table: VirtualTable) -> None:
        self.name = "virtual"
        self.table = table
        self.settled_at: float | None = None

    def read(self):
        """The next frame, noting the time when the hand has just withdrawn from the laid cards."""
        laying = self.table.laying
        frame = self.table.read()
        if laying and not self.table.laying:
            self.settled_at = time.perf_counter()
        return frame


def _rig(seed: int, data: Path, gate: bool = True):
    store = LogStore(data / f"bench-{seed}.sqlite3")
    table = Table(store)
    table.submit(NewGame(players=("Mary", "David")))
    virtual = VirtualTable(random.Random(seed))
    watch = StopWatchTable(virtual)
    rig = build_rig(CameraSpec(CameraKind.VIRTUAL), "mock", PinMap(), "en", table, time.monotonic,
                    random.Random(seed), speaker=FakeSpeaker(), virtual=virtual,
                    eyes=None if gate else VisionEyes(reread_s=0.0))
    rig.scanner._open = lambda: watch  # the same virtual table, seen through the stop-watch
    return rig, table, store, watch


def latency_run(seed: int, reveals: int, data: Path) -> list[float]:
    """Lay `reveals` pairs one after another; ms from cards at rest to the reveal in the log."""
    rig, table, store, watch = _rig(seed, data)
    accepted = threading.Event()
    accepted_at: list[float] = []

    def on_entry(a) -> None:
        """Note the time a reveal was accepted and wake the waiting benchmark."""
        if isinstance(a.entry, Reveal):
            accepted_at.append(time.perf_counter())
            accepted.set()

    table.subscribe(on_entry)
    rig.start()
    times = []
    try:
        rig.lay(["setup-01"])
        time.sleep(1.0)
        for _ in range(reveals):
            accepted.clear()
            watch.settled_at = None
            rig.lay_next()
            if not accepted.wait(REVEAL_TIMEOUT_S) or watch.settled_at is None:
                print("  a reveal was not read in time", file=sys.stderr)
                continue
            times.append((accepted_at[-1] - watch.settled_at) * 1000)
            time.sleep(0.3)  # the Mayor looks at the cards before the next turn
    finally:
        rig.close()
        store.close()
    return times


def idle_cpu_run(seed: int, seconds: float, data: Path, gate: bool = True) -> tuple[float, float, int, int]:
    """CPU share of one core used by the whole process while the scanner watches an empty mat."""
    rig, _table, store, _watch = _rig(seed, data, gate)
    rig.start()
    try:
        time.sleep(1.0)  # the first reads and votes settle
        frames0, reads0 = rig.scanner.status().frames, rig.scanner.eyes.reads
        usage0, wall0 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
        time.sleep(seconds)
        usage1, wall1 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
        status = rig.scanner.status()
        frames, reads = status.frames - frames0, rig.scanner.eyes.reads - reads0
    finally:
        rig.close()
        store.close()
    cpu = (usage1.ru_utime - usage0.ru_utime) + (usage1.ru_stime - usage0.ru_stime)
    return cpu / (wall1 - wall0), frames / (wall1 - wall0), frames, reads


def main() -> int:
    """Run the benchmark and print medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--reveals", type=int, default=12, help="reveals per latency run (at most 13)")
    parser.add_argument("--idle-s", type=float, default=6.0, help="seconds of empty mat per CPU run")
    parser.add_argument("--no-gate", action="store_true",
                        help="also measure the empty mat with the reader on every frame (no change gate)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        run_medians, everything = [], []
        for run in range(args.runs):
            times = latency_run(run, min(args.reveals, 13), data)
            everything += times
            run_medians.append(statistics.median(times))
            print(f"latency run {run + 1}: median {run_medians[-1]:.0f} ms, max {max(times):.0f} ms "
                  f"over {len(times)} reveals")
        cpu_runs = []
        for run in range(args.runs):
            cpu, fps, frames, reads = idle_cpu_run(100 + run, args.idle_s, data)
            cpu_runs.append(cpu)
            print(f"idle run {run + 1}: {cpu:.1%} of one core at {fps:.1f} frames/s "
                  f"({reads} of {frames} frames went to the reader)")
        if args.no_gate:
            ungated = [idle_cpu_run(200 + run, args.idle_s, data, gate=False)[0] for run in range(args.runs)]
            print(f"without the change gate: median {statistics.median(ungated):.1%} of one core")
    latency = statistics.median(run_medians)
    p90 = statistics.quantiles(everything, n=10)[-1] if len(everything) >= 10 else max(everything)
    cpu = statistics.median(cpu_runs)
    print(f"card settled -> log entry: median {latency:.0f} ms (p90 {p90:.0f} ms; target <= "
          f"{LATENCY_TARGET_MS:.0f} ms at 15 frames/s)")
    print(f"scanner CPU, empty mat: median {cpu:.1%} of one core (target <= {CPU_TARGET:.0%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
