"""The SQLite log store and the Table over it: durability, several games, import refusals."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.errors import RefusedLine, RuleError, UnknownGameError
from companion.game import Game
from companion.moves import Claim, EndGame, NewGame, Reveal, Terrain, parse_line
from companion.sim import random_game
from companion.store import LogStore
from companion.table import Table

REPO = Path(__file__).resolve().parents[2]


def test_store_uses_wal_and_full_sync(durable_store):
    """Entries are durable before append() returns: WAL journal, synchronous FULL (2)."""
    assert durable_store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert durable_store._db.execute("PRAGMA synchronous").fetchone()[0] == 2


def test_the_fast_store_of_the_tests_only_skips_the_fsync(store):
    """The tests' fast store is the same WAL store without the fsync per entry (synchronous OFF)."""
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 0


def test_several_games_are_kept_apart(store):
    """Each game has its own log and sequence numbers."""
    first = store.start_game(NewGame(("Mary",)))
    second = store.start_game(NewGame(("David", "Alice")))
    assert store.append(first, Reveal((Terrain.DESERT, Terrain.WATER))) == 2
    assert store.append(second, Reveal((Terrain.ANY, Terrain.ANY))) == 2
    assert [info.players for info in store.games()] == [("David", "Alice"), ("Mary",)]
    assert store.entries(first, after=1) == [(2, Reveal((Terrain.DESERT, Terrain.WATER)))]
    with pytest.raises(UnknownGameError):
        store.entries(99)


def test_import_refuses_a_broken_log_and_writes_nothing(store, log):
    """A log that breaks a rule is refused naming the line; the store is unchanged."""
    text = log(players=["Mary"]).setup().reveal().jsonl()
    text += '{"type": "claim", "player": "Nobody", "village": "A"}\n'
    with pytest.raises(RefusedLine, match="line 4: Nobody is not a player"):
        store.import_jsonl(text)
    assert store.games() == []


def test_table_resumes_the_latest_game_after_a_restart(tmp_path):
    """A new Table over the same file picks the game up exactly where it was."""
    entries = random_game(random.Random(7))[:40]
    with LogStore(tmp_path / "g.sqlite3") as s1:
        table = Table(s1)
        for entry in entries:
            table.submit(entry)
        before = table.snapshot()
    with LogStore(tmp_path / "g.sqlite3") as s2:
        again = Table(s2)
        assert again.snapshot() == before
        assert again.game.entries == tuple(entries)


def test_a_refused_submit_stores_nothing_and_tells_nobody(table):
    """A refused entry raises, keeps the state and sequence number, and notifies no listener."""
    heard = []
    table.subscribe(heard.append)
    table.submit(NewGame(("Mary", "David")))
    table.submit(Reveal((Terrain.DESERT, Terrain.DESERT)))
    seq, state = table.seq, table.state
    with pytest.raises(RuleError):
        table.submit(Claim("Zed", village="A"))
    assert (table.seq, table.state) == (seq, state)
    assert [a.seq for a in heard] == [1, 2]
    assert table.log_since(1) == [(2, Reveal((Terrain.DESERT, Terrain.DESERT)))]


def test_a_new_game_gets_a_new_id_and_listeners_hear_it(table):
    """new_game during a game starts another stored game; the old one stays in the store."""
    heard = []
    unsubscribe = table.subscribe(heard.append)
    first = table.submit(NewGame(("Mary",))).game_id
    second = table.submit(NewGame(("David",)))
    assert second.game_id != first and second.seq == 1 and table.state.players == ("David",)
    unsubscribe()
    table.submit(Reveal((Terrain.WATER, Terrain.WATER)))
    assert len(heard) == 2


def test_a_failing_listener_does_not_lose_the_entry(table):
    """An accepted entry stays accepted even if a screen's listener breaks."""
    table.subscribe(lambda accepted: 1 / 0)
    table.submit(NewGame(("Mary",)))
    assert table.seq == 1


WRITER = r"""
import sys
from companion.store import LogStore
from companion.sim import random_game
import random
entries = random_game(random.Random(int(sys.argv[2])))
store = LogStore(sys.argv[1])
game_id = store.start_game(entries[0])
sys.stdout.write(f"ack {game_id} 1\n")  # one write a line: unbuffered (PYTHONUNBUFFERED), print writes piece by piece
sys.stdout.flush()
while True:  # keep writing the same game's entries again and again until killed
    for entry in entries[1:]:
        seq = store.append(game_id, entry)
        sys.stdout.write(f"ack {game_id} {seq}\n")
        sys.stdout.flush()
"""


def _ack(line: str) -> tuple[int, int] | None:
    """(game, seq) of a whole acknowledgement line; None for anything else, a line cut by the kill included."""
    words = line.split()
    return (int(words[1]), int(words[2])) if line.endswith("\n") and len(words) == 3 and words[0] == "ack" else None


@pytest.mark.parametrize("kill_after_acks", [1, 17, 150])
def test_a_writer_killed_at_any_moment_loses_no_acknowledged_entry(tmp_path, kill_after_acks):
    """SIGKILL a writer process mid-stream: every entry it acknowledged is in the file afterwards."""
    path = tmp_path / "crash.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), "11"], stdout=subprocess.PIPE, text=True, env=env
    )
    acked = []
    deadline = time.monotonic() + 30
    while len(acked) < kill_after_acks and time.monotonic() < deadline:
        ack = _ack(proc.stdout.readline())
        if ack is not None:
            acked.append(ack)
    proc.send_signal(signal.SIGKILL)  # the writer is busy with its next entry right now
    out, _ = proc.communicate(timeout=30)
    acked += [ack for line in out.splitlines(keepends=True) if (ack := _ack(line)) is not None]
    assert len(acked) >= kill_after_acks, "the writer acknowledged too little before it was killed"
    game_id = acked[-1][0]
    db = sqlite3.connect(path)
    stored = {seq for (seq,) in db.execute("SELECT seq FROM entries WHERE game_id = ?", (game_id,))}
    db.close()
    assert {seq for _, seq in acked} <= stored
    with LogStore(path) as store:
        lines = store.export_jsonl(game_id).splitlines()
    assert all(parse_line(line) for line in lines)


def test_end_game_through_the_table_reports_final_standings(table):
    """A whole random game through the Table ends finished with a winner."""
    for entry in random_game(random.Random(3)):
        accepted = table.submit(entry)
    assert isinstance(accepted.entry, EndGame)
    assert accepted.state.standings.finished and accepted.state.standings.winners
    assert Game.replay(e for _, e in table.log_since(0)).state == table.state
