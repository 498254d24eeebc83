"""Plain-text renderings of the game for terminals: the standings table."""

from __future__ import annotations

from companion.moves import Island
from companion.state import GameState

_ROMAN = ("I", "II", "III")


def standings_table(state: GameState) -> str:
    """The Final Scoring Box of every player as an aligned text table."""
    assert state.setup is not None
    island = "Isla Grande" if state.setup.island is Island.GRANDE else "Isla Petit"
    standings = state.standings
    if standings.finished:
        status = "finished"
    elif state.round == 0:
        status = "set-up"
    else:
        status = f"round {state.round} of {state.rounds}, turn {state.turn}"
    header = ["Rank", "Player", *_ROMAN[: state.rounds], "Villages", "Bonus", "Total", "Achievement"]
    rows = [header]
    for p in sorted(standings.players, key=lambda p: p.rank):
        rounds = [str(v) for v in p.sights_by_round] + ["-"] * (state.rounds - len(p.sights_by_round))
        feat = p.achievement.value if p.achievement else ""
        rows.append([str(p.rank), p.name, *rounds, str(p.villages), str(p.bonus), str(p.total), feat])
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = [f"{island}: {status}"]
    lines += ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows]
    label = "Winner" if len(standings.winners) == 1 else "Winners"
    lead = label if standings.finished else "Leading"
    lines.append(f"{lead}: {', '.join(standings.winners)}")
    return "\n".join(lines)
