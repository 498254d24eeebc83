"""The island sheets in the state document: what each sheet seat drew and may draw now.

Every fact here comes from the engine (companion.trails): the page only draws it. Spaces are
[row, column]; a segment is [row, column, row, column] (plus 1 for a bonus segment, else 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.island import MAPS, IslandMap
from companion.sheet import SeatMode
from companion.state import GameState
from companion.trails import drawing, legal_edges, nothing_to_draw, waiting_for
from web.seat_modes import seat_modes


def _sheet(state: GameState, island: IslandMap, player: str) -> dict[str, Any]:
    sheet = drawing(state, player)
    spaces = island.edge_spaces
    return {
        "segments": [[*spaces[s.edge], int(s.bonus)] for s in sheet.segments],
        "legal": [spaces[e] for e in legal_edges(state, player)],
        "drawn": sheet.has_drawn(state.reveals),
        "bonus_due": sheet.bonus_left(state.reveals),
        "nothing_to_draw": nothing_to_draw(state, player),
        "joined_sights": [list(island.space(i)) for i in sorted(sheet.joined)],
    }


def island_json(state: GameState, picks: Mapping[str, SeatMode]) -> dict[str, Any]:
    """seat_modes, waiting_for and island_sheets (one per seat on the sheet, or meaning to be)."""
    if state.setup is None:
        return {"seat_modes": {}, "waiting_for": [], "island_sheets": {}}
    island = MAPS[state.setup.island]
    modes = seat_modes(state, picks)
    on_sheet = [p for p in state.players if modes[p] is SeatMode.SHEET]
    return {
        "seat_modes": {p: m.value for p, m in modes.items()},
        "waiting_for": list(waiting_for(state, planned=on_sheet)),
        "island_sheets": {p: _sheet(state, island, p) for p in on_sheet},
    }
