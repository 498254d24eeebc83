"""Benchmark (not a test): replays per second of a full 8-player Isla Grande game, and durable append latency.

Run: .venv/bin/python tests/benchmarks/bench_engine.py [--runs 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.game import Game  # noqa: E402
from companion.moves import Island, NewGame  # noqa: E402
from companion.sim import NAMES, random_game  # noqa: E402
from companion.store import LogStore  # noqa: E402

SEED = 2019  # the game is fixed so runs compare; any seed gives a full valid game
REPLAY_SECONDS = 2.0  # each run replays for about this long


def full_grande_game() -> list:
    """A finished 8-player Isla Grande game with Special Bonus and many claims."""
    setup = NewGame(players=NAMES[:8], island=Island.GRANDE, special_bonus=True)
    return random_game(random.Random(SEED), setup, claim_rate=0.05)


def replays_per_second(entries: list) -> float:
    """Replay the whole log from scratch repeatedly for REPLAY_SECONDS; replays per second."""
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < REPLAY_SECONDS:
        Game.replay(entries)
        count += 1
    return count / (time.perf_counter() - start)


def append_latencies(entries: list, folder: Path) -> list[float]:
    """Seconds per durable append (WAL, synchronous FULL) of every entry of the game."""
    with LogStore(folder / "bench.sqlite3") as store:
        game_id = store.start_game(entries[0])
        out = []
        for entry in entries[1:]:
            start = time.perf_counter()
            store.append(game_id, entry)
            out.append(time.perf_counter() - start)
    return out


def main() -> None:
    """Print the figures as medians over several runs."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    entries = full_grande_game()
    assert Game.replay(entries).state.standings.finished
    rates, medians, p99s = [], [], []
    for _ in range(args.runs):
        rates.append(replays_per_second(entries))
        with tempfile.TemporaryDirectory() as folder:
            lat = sorted(append_latencies(entries, Path(folder)))
        medians.append(statistics.median(lat))
        p99s.append(lat[min(len(lat) - 1, int(0.99 * len(lat)))])
    print(f"game: 8 players, Isla Grande, Special Bonus, {len(entries)} entries; {args.runs} runs")
    print(f"replays per second (median of runs): {statistics.median(rates):.0f}")
    print(f"append, durable, median (median of runs): {statistics.median(medians) * 1e3:.2f} ms")
    print(f"append, durable, p99 (median of runs): {statistics.median(p99s) * 1e3:.2f} ms")
    print(f"storage folder: {tempfile.gettempdir()} (the figures depend on its disk's fsync)")


if __name__ == "__main__":
    main()
