"""`tucana replay LOG.jsonl [--json]` exactly as contract 2."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.moves import dump_line
from companion.sim import random_game
from web.cli import main

REPO = Path(__file__).resolve().parents[2]


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "game.jsonl"
    path.write_text(text, encoding="utf-8")
    return path


def test_json_standings_of_a_finished_game(tmp_path, log, capsys):
    """--json prints finished, each player's sights per round, villages, bonus, total, rank, winners."""
    game = log(players=["Mary", "David"]).setup().reveal().claim("Mary", village="A")
    game.claim("David", sight="book").to_round_end().to_round_end().end()
    assert main(["replay", str(_write(tmp_path, game.jsonl())), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {
        "finished": True,
        "players": [
            {"name": "Mary", "sights_by_round": [0, 0], "villages": 14, "bonus": 3, "total": 17, "rank": 1},
            {"name": "David", "sights_by_round": [2, 2], "villages": 0, "bonus": 0, "total": 4, "rank": 2},
        ],
        "winners": ["Mary"],
    }


def test_an_unfinished_game_counts_completed_rounds_only(tmp_path, log, capsys):
    """sights_by_round holds completed rounds; total counts what is scored so far."""
    game = log(players=["Mary", "David"]).setup().reveal().claim("Mary", sight="yeti")
    game.to_round_end().reveal().claim("Mary", sight="yeti")
    assert main(["replay", str(_write(tmp_path, game.jsonl())), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["finished"] is False
    assert out["players"][0]["sights_by_round"] == [3] and out["players"][0]["total"] == 3


def test_readable_table(tmp_path, capsys):
    """Without --json: a table with a row per player and the winner."""
    entries = random_game(random.Random(5))
    path = _write(tmp_path, "".join(dump_line(e) + "\n" for e in entries))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "finished" in out and "Winner" in out and "Villages" in out
    assert all(name in out for name in entries[0].players)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"type": "new_game", "players": ["Mary"]}\n{"type": "claim", "player": "Mary", "village": "A"}\n',
         "line 2: a claim belongs to a turn"),
        ('{"type": "new_game", "players": ["Mary"]}\n\n{"type": "reveal", "cards": ["desert"]}\n',
         "line 3: a reveal shows exactly two cards"),
        ('{"type": "new_game", "players": ["Mary"], "colour": "red"}\n', "line 1: new_game has unknown field(s) colour"),
        ('{"type": "new_game", "players": ["Mary"]}\n{"type": "setup_card", "letters": "ABCDEEDCBA"}\n'
         '{"type": "reveal", "cards": ["water", "water"]}\n{"type": "trail", "player": "Mary", "from": [3, 1], "to": [3, 3]}\n',
         "line 4: this turn's segment joins water and water: [3, 1] is desert, [3, 3] is forest"),
        ('{"type": "new_game", "players": ["Mary"]}\n{"type": "trail", "player": "Mary", "from": [3, 1], "to": "3,3"}\n',
         "line 2: to must be a space as [row, column]"),
        ("", "holds no game"),
        ("\xff\xfe", "cannot read"),
    ],
)
def test_a_refused_log_exits_2_naming_the_line_and_the_rule(tmp_path, capsys, text, words):
    """Exit 2 with the message; no traceback."""
    path = tmp_path / "bad.jsonl"
    path.write_bytes(text.encode("latin-1"))
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_missing_file_exits_2(tmp_path, capsys):
    """A log that is not there is a clear message, exit 2."""
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_the_installed_console_script_runs_replay(tmp_path, log):
    """`python -m web.cli replay` as a real process: exit code and JSON on stdout."""
    path = _write(tmp_path, log(players=["Ann"]).setup().jsonl())
    done = subprocess.run(
        [sys.executable, "-m", "web.cli", "replay", str(path), "--json"],
        capture_output=True, text=True, cwd=REPO, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["players"][0]["name"] == "Ann"


DATA = REPO / "tests" / "data"


@pytest.mark.parametrize(
    ("log_name", "player", "expected"),
    [
        ("alice-78.jsonl", "Alice", {"sights_by_round": [10, 22], "villages": 38, "bonus": 8, "total": 78, "rank": 1}),
        ("mary-grande-8-24-33.jsonl", "Mary", {"sights_by_round": [8, 24, 33], "villages": 0, "bonus": 0, "total": 65, "rank": 1}),
        ("d-bonus-tie.jsonl", "David", {"sights_by_round": [], "villages": 11, "bonus": 6, "total": 17, "rank": 1}),
        ("d-bonus-tie.jsonl", "Alice", {"sights_by_round": [], "villages": 11, "bonus": 4, "total": 15, "rank": 3}),
        ("mary-grande-sheet.jsonl", "Mary", {"sights_by_round": [8, 24, 33], "villages": 0, "bonus": 0, "total": 65, "rank": 1}),
        ("e-tie-sheet-and-paper.jsonl", "Mary", {"villages": 10, "bonus": 7, "total": 17, "rank": 1}),
        ("e-tie-sheet-and-paper.jsonl", "David", {"villages": 10, "bonus": 7, "total": 17, "rank": 1}),
        ("e-tie-sheet-and-paper.jsonl", "Alice", {"villages": 10, "bonus": 0, "total": 10, "rank": 3}),
    ],
)
def test_rulebook_example_logs_give_the_rulebook_numbers(capsys, log_name, player, expected):
    """The shipped example logs replay to the rulebook's figures through the command line."""
    assert main(["replay", str(DATA / log_name), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    row = next(p for p in out["players"] if p["name"] == player)
    assert {k: row[k] for k in expected} == expected
