"""The table under pressure: expected seqs checked under its lock, request ids, a full disk."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from companion.errors import ConflictError, StorageFull
from companion.moves import Claim, NewGame, Reveal, SetupCard, Terrain, Undo
from companion.store import LogStore
from companion.table import Table

RACE_TRIES = 1000  # the bar: no double entry in a thousand tries
RACERS = (
    Reveal((Terrain.DESERT, Terrain.WATER)),
    Reveal((Terrain.DESERT, Terrain.WATER)),  # a second console sending the same reveal
    Undo(),
    Claim("David", village="A"),
)


def _playing(store: LogStore) -> Table:
    table = Table(store)
    for entry in (NewGame(("Mary", "David")), SetupCard("CEBAEDCDAB"), Reveal((Terrain.FOREST, Terrain.ANY))):
        table.submit(entry)
    return table


def _fill_disk(store: LogStore) -> None:
    """Make SQLite's file unable to grow, as a full SD card does (SQLITE_FULL)."""
    (pages,) = store._db.execute("PRAGMA page_count").fetchone()
    store._db.execute(f"PRAGMA max_page_count = {pages}")


def test_racing_senders_with_the_same_expected_seq_add_one_entry() -> None:
    """Reveals, an undo and a claim that all saw seq 3, sent at once: exactly one gets in, every try."""
    doubles = []
    with ThreadPoolExecutor(len(RACERS)) as pool:
        for attempt in range(RACE_TRIES):
            with LogStore(":memory:") as store:
                table = _playing(store)
                start = threading.Barrier(len(RACERS))

                def send(entry, table=table, start=start):
                    start.wait()
                    try:
                        return table.submit(entry, expect_seq=3)
                    except ConflictError:
                        return None

                accepted = [a for a in pool.map(send, RACERS) if a is not None]
                if len(accepted) != 1 or table.seq != 4 or len(store.entries(table.game_id)) != 4:
                    doubles.append(attempt)
    assert doubles == []


def test_a_stale_expected_seq_is_refused_and_changes_nothing(table: Table) -> None:
    """An undo meant for the reveal, arriving after a claim, is refused instead of undoing the claim."""
    table.submit(NewGame(("Mary", "David")))
    table.submit(SetupCard("CEBAEDCDAB"))
    reveal = table.submit(Reveal((Terrain.DESERT, Terrain.WATER)))
    table.submit(Claim("David", village="A"))
    before = table.snapshot()
    with pytest.raises(ConflictError, match="you saw entry 3, the newest is 4"):
        table.submit(Undo(), expect_seq=reveal.seq)
    assert table.snapshot() == before


def test_a_request_id_adds_its_entry_once_and_answers_the_same(table: Table) -> None:
    """A retried request id returns the first Accepted, adds nothing and tells no listener."""
    heard = []
    table.subscribe(heard.append)
    table.submit(NewGame(("Mary", "David")), request_id="n1")
    table.submit(SetupCard("CEBAEDCDAB"))
    first = table.submit(Reveal((Terrain.DESERT, Terrain.WATER)), request_id="r1")
    table.submit(Claim("Mary", village="A"))
    again = table.submit(Reveal((Terrain.DESERT, Terrain.WATER)), request_id="r1")
    assert again == first
    assert table.seq == 4 and len(heard) == 4
    assert table.submit(NewGame(("Mary", "David")), request_id="n1").seq == 1
    assert len(table.store.games()) == 1


def test_a_request_id_is_remembered_across_a_restart(tmp_path: Path) -> None:
    """A request committed just before a crash is not committed again by its retry."""
    path = tmp_path / "games.sqlite3"
    with LogStore(path) as store:
        first = _playing(store).submit(Claim("David", village="A"), request_id="c1")
    with LogStore(path) as store:
        table = Table(store)
        again = table.submit(Claim("David", village="A"), request_id="c1", expect_seq=3)
        assert again == first and table.seq == 4


def test_a_request_id_reused_for_another_entry_is_refused(table: Table) -> None:
    """The same id with a different entry is a client bug: refused, nothing added."""
    table.submit(NewGame(("Mary", "David")), request_id="x")
    with pytest.raises(ConflictError, match="another entry"):
        table.submit(NewGame(("Ann",)), request_id="x")
    assert table.state.players == ("Mary", "David")


def test_a_full_disk_refuses_the_entry_and_changes_nothing(store: LogStore) -> None:
    """SQLITE_FULL is StorageFull (an OSError): the table's state and the file stay as they were."""
    table = _playing(store)
    heard = []
    table.subscribe(heard.append)
    before = table.snapshot()
    _fill_disk(store)
    with pytest.raises(StorageFull, match="storage is full") as info:
        for _ in range(200):  # fill the last free page, then one more entry
            table.submit(Claim("David", village="A"), request_id="c" * 4000 + str(_))
            table.submit(Undo())
    assert isinstance(info.value, OSError)
    assert table.snapshot()[1] == len(store.entries(table.game_id))
    assert all(a.seq <= table.seq for a in heard)
    assert before[0] == table.game_id


def test_an_import_with_a_request_id_is_stored_once(table: Table, log) -> None:
    """Importing the same log twice under one request id stores one game and answers the same."""
    text = log(players=["Mary"]).setup().reveal().jsonl()
    first = table.import_game(text, request_id="imp")
    table.submit(NewGame(("Ann",)))
    again = table.import_game(text, request_id="imp")
    assert (again.game_id, again.seq, again.state) == (first.game_id, first.seq, first.state)
    assert first.fresh and not again.fresh
    assert len(table.store.games()) == 2 and table.state.players == ("Ann",)


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085"])
def test_line_separators_in_a_stored_name_are_exported_escaped(store: LogStore, separator: str) -> None:
    """An old log line holding U+2028/2029/0085 raw is exported escaped: one entry, one line."""
    game_id = store.start_game(NewGame(("Mary",)))
    raw = '{"type": "new_game", "players": ["Ma' + separator + 'ry"]}'
    store._db.execute("UPDATE entries SET line = ? WHERE game_id = ? AND seq = 1", (raw, game_id))
    text = store.export_jsonl(game_id)
    assert separator not in text
    assert text.splitlines() == [text.rstrip("\n")]
    again = store.import_jsonl(text.replace("\n", "\r\n"))
    assert store.entries(again) == [(1, NewGame(("Ma ry",)))]


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085"])
def test_import_ends_lines_at_newlines_only(store: LogStore, separator: str) -> None:
    """A raw separator inside a JSON string does not cut the line in two."""
    text = ('{"type": "new_game", "players": ["Ma' + separator + 'ry", "David"]}\n'
            '{"type": "setup_card", "letters": "CEBAEDCDAB"}\n')
    game_id = store.import_jsonl(text)
    assert [e for _, e in store.entries(game_id)] == [NewGame(("Ma ry", "David")), SetupCard("CEBAEDCDAB")]


def test_a_stored_game_refused_by_todays_rules_does_not_stop_the_table(store: LogStore) -> None:
    """A game whose name an older version allowed (200 kB) is kept in the store; the table starts empty."""
    game_id = store.start_game(NewGame(("Mary",)))
    store._db.execute("UPDATE entries SET line = ? WHERE game_id = ?",
                      ('{"type": "new_game", "players": ["' + "x" * 200_000 + '"]}', game_id))
    table = Table(store)
    assert table.game_id is None and table.seq == 0
    assert [g.id for g in store.games()] == [game_id] and store.games()[0].players == ()
    assert table.submit(NewGame(("Ann",))).game_id != game_id
