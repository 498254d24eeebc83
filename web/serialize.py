"""JSON documents of the API: the table state, accepted entries and their events."""

from __future__ import annotations

import dataclasses
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any

from companion.moves import LETTERS, TYPE_NAMES, Entry, Sight, entry_to_dict
from companion.rules import REVEALS_PER_ROUND, SIGHT_VALUES, VILLAGE_POINTS
from companion.scoring import Standings
from companion.sheet import SeatMode
from companion.state import GameState, NextStep, Phase
from companion.table import Accepted
from web.island_json import island_json

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def jsonable(value: Any) -> Any:
    """Turn engine values (dataclasses, enums, tuples, enum-keyed dicts) into plain JSON values."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Standings):
        return standings_json(value)
    if type(value) in TYPE_NAMES:
        return entry_to_dict(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        # A trailing underscore only dodges a Python keyword (from_): JSON gets the plain word.
        return {f.name.rstrip("_"): jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(jsonable(k)): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value


def event_json(event: Any) -> dict[str, Any]:
    """One engine event as {"type": "revealed", ...fields}; the type is the class name in snake_case."""
    return {"type": _CAMEL.sub("_", type(event).__name__).lower(), **jsonable(event)}


def standings_json(standings: Standings) -> dict[str, Any]:
    """Contract-2 standings plus each player's achievement (its rulebook text, or null)."""
    doc = standings.to_json()
    for row, player in zip(doc["players"], standings.players, strict=True):
        row["achievement"] = player.achievement.name.lower() if player.achievement else None
        row["achievement_text"] = player.achievement.value if player.achievement else None
    return doc


def _sheet_json(sheet: Any) -> dict[str, Any]:
    return {
        "sights": {s.value: sheet.sights.get(s, 0) for s in Sight},
        "villages": list(sheet.villages),
        "reds": [s.value for s in sheet.reds],
        "bonus": sheet.bonus,
        "sights_by_round": list(sheet.sights_by_round),
        "sight_points_now": sheet.sight_points_now,
        "mode": sheet.mode.value,
    }


def _score_pad(state: GameState) -> dict[str, Any] | None:
    """The printed score pad of this island, so a phone can draw it without knowing the rules."""
    if state.setup is None:
        return None
    island = state.setup.island
    return {
        "sights": {s.value: list(SIGHT_VALUES[island][s]) for s in Sight},
        "villages": {letter: VILLAGE_POINTS[island][letter] for letter in LETTERS},
    }


STATE_DOCS_KEPT = 4  # the stream and the POST's answer ask for the same new state: build it once


class _StateDocs:
    """The few newest state documents, by the state object they describe (states are immutable)."""

    def __init__(self) -> None:
        self._docs: OrderedDict[tuple, tuple[GameState, dict[str, Any]]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple, state: GameState, build: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """The cached document for key, or a new one built and kept (the state is kept alive with it).

        Built under the lock: a second caller for the same state waits for the first one's
        document instead of building it again beside it (a build takes about a millisecond).
        """
        with self._lock:
            hit = self._docs.get(key)
            if hit is not None and hit[0] is state:
                return hit[1]
            doc = build()
            self._docs[key] = (state, doc)
            while len(self._docs) > STATE_DOCS_KEPT:
                self._docs.popitem(last=False)
            return doc


_STATE_DOCS = _StateDocs()


def state_json(
    game_id: int | None, seq: int, state: GameState, picks: Mapping[str, SeatMode] | None = None
) -> dict[str, Any]:
    """Everything a page needs to draw the table, the console or a phone (picks: seats' sheet choice).

    The document is shared by whoever asks for the same state and picks: treat it as read-only.
    """
    chosen = tuple(sorted((p, m.value) for p, m in (picks or {}).items()))
    key = (game_id, seq, id(state), chosen)
    return _STATE_DOCS.get(key, state, lambda: _state_doc(game_id, seq, state, picks or {}))


def _state_doc(
    game_id: int | None, seq: int, state: GameState, picks: Mapping[str, SeatMode]
) -> dict[str, Any]:
    setup = state.setup
    standings = state.standings
    step = state.next_step
    return {
        "game_id": game_id,
        "seq": seq,
        "phase": state.phase.value,
        "setup": entry_to_dict(setup) if setup else None,
        "players": list(state.players),
        "mayor": setup.mayor if setup else None,
        "rounds": state.rounds,
        "round": state.round,
        "turn": state.turn,
        "turns_per_round": REVEALS_PER_ROUND,
        "is_last_turn": state.is_last_turn,
        "round_over": state.is_last_turn or state.phase is Phase.FINISHED,
        # Rounds whose sight sums are written (the Final Scoring Box's I, II, III so far).
        "rounds_done": min((len(s.sights_by_round) for s in state.sheets.values()), default=0),
        "needs_solo_keep": state.needs_solo_keep,
        "needs_red_bonus": state.red_bonus_due,
        "next_step": step.value,
        # What an undo would take back now (null: undo is refused), so a page can say it.
        "undo": entry_to_dict(state.undoable) if state.undoable is not None else None,
        # The pairs the deck still holds for the next reveal, while a reveal is what comes next.
        "reveal_pairs": [[a.value, b.value] for a, b in state.possible_reveals] if step is NextStep.REVEAL else [],
        "announcement": [c.value for c in state.last_reveal.cards] if state.last_reveal else None,
        "deck_left": {t.value: n for t, n in state.deck_left.items()},
        "cards_left": state.cards_left,
        "setup_letters": state.setup_letters,
        "village_letters": dict(state.village_letters),
        "blue": {letter: list(values) for letter, values in state.blue.items()},
        "red": {s.value: points for s, points in state.red.items()},
        "red_drawn": None if state.red_drawn is None else [s.value for s in state.red_drawn],
        "bonus_taken": [jsonable(b) for b in state.bonus_taken],
        "sheets": {name: _sheet_json(sheet) for name, sheet in state.sheets.items()},
        "score_pad": _score_pad(state),
        "standings": standings_json(standings),
        **island_json(state, picks),
    }


def entry_json(seq: int, entry: Entry) -> dict[str, Any]:
    """One log line with its sequence number."""
    return {"seq": seq, "entry": entry_to_dict(entry)}


def accepted_json(
    accepted: Accepted, *, with_state: bool = True, picks: Mapping[str, SeatMode] | None = None
) -> dict[str, Any]:
    """An accepted entry: game id, seq, the entry, what it caused and (optionally) the new state."""
    state = state_json(accepted.game_id, accepted.seq, accepted.state, picks) if with_state else None
    return {
        "game_id": accepted.game_id,
        "seq": accepted.seq,
        "entry": entry_to_dict(accepted.entry),
        "events": [event_json(e) for e in accepted.events],
        "state": state,
    }


def dumps(doc: Any) -> str:
    """Compact JSON text (UTF-8 names stay readable)."""
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
