"""How each seat means to score, as its phone picked it: paper or the digital island sheet.

The pick is a preference of the phone, not a log entry: contract 1 decides a seat's mode by its
first scoring entry (a claim or a trail), and from then on the engine's mode wins. Until then the
pick tells the table and the Mayor whom to wait for, and tells the phone which sheet to show. It
is kept in <data>/seat-modes.json so a restart or a reloaded phone keeps it.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Mapping
from pathlib import Path

from companion.sheet import SeatMode
from companion.state import GameState

SEAT_MODES_FILE = "seat-modes.json"
GAMES_KEPT = 10  # picks of this many recent games are kept, like the seat book
PICKABLE = (SeatMode.PAPER, SeatMode.SHEET)


class SeatModes:
    """Each game's picks, {player: SeatMode}; optionally kept in a JSON file."""

    def __init__(self, path: Path | None = None) -> None:
        self._path = path
        self._lock = threading.Lock()
        self._games: dict[str, dict[str, str]] = {}
        if path is not None:
            self._games = _load(path)

    def pick(self, game_id: int, player: str, mode: SeatMode) -> None:
        """Remember how a seat means to score (paper or sheet)."""
        if mode not in PICKABLE:
            raise ValueError(f"a seat picks paper or sheet, not {mode.value}")
        with self._lock:
            self._games.setdefault(str(game_id), {})[player] = mode.value
            for old in sorted(self._games, key=int)[:-GAMES_KEPT]:
                del self._games[old]
            self._save()

    def picks(self, game_id: int | None) -> dict[str, SeatMode]:
        """The picks of one game (none before a game)."""
        if game_id is None:
            return {}
        with self._lock:
            return {p: SeatMode(m) for p, m in self._games.get(str(game_id), {}).items()}

    def _save(self) -> None:
        if self._path is None:
            return
        tmp = self._path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self._games), encoding="utf-8")
        os.replace(tmp, self._path)


def _load(path: Path) -> dict[str, dict[str, str]]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # missing or damaged: phones pick again; the log is not affected
    if not isinstance(doc, dict):
        return {}
    pickable = {m.value for m in PICKABLE}
    return {
        g: {p: m for p, m in seats.items() if isinstance(p, str) and m in pickable}
        for g, seats in doc.items()
        if isinstance(g, str) and g.isdigit() and isinstance(seats, dict)
    }


def seat_modes(state: GameState, picks: Mapping[str, SeatMode]) -> dict[str, SeatMode]:
    """Each player's mode: the engine's once decided by a scoring entry, else the phone's pick."""
    out = {}
    for name in state.players:
        mode = state.sheets[name].mode
        out[name] = picks.get(name, mode) if mode is SeatMode.UNDECIDED else mode
    return out
