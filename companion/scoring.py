"""Standings: sight sums per round, village pairs, bonus, tie-break on bonus, shared ranks, achievements."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.moves import NewGame
from companion.rules import VILLAGE_POINTS, Achievement, achievement

if TYPE_CHECKING:
    from companion.state import PlayerSheet


@dataclass(frozen=True)
class PlayerStanding:
    """One player's line of the Final Scoring Box, with rank and achievement."""

    name: str
    sights_by_round: tuple[int, ...]
    villages: int
    bonus: int
    total: int
    rank: int
    achievement: Achievement | None

    def to_json(self) -> dict[str, Any]:
        """The contract-2 player object of `tucana replay --json`."""
        return {
            "name": self.name,
            "sights_by_round": list(self.sights_by_round),
            "villages": self.villages,
            "bonus": self.bonus,
            "total": self.total,
            "rank": self.rank,
        }


@dataclass(frozen=True)
class Standings:
    """Every player's standing in seat order, and who is ranked first."""

    finished: bool
    players: tuple[PlayerStanding, ...]
    winners: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The contract-2 document of `tucana replay --json`."""
        return {
            "finished": self.finished,
            "players": [p.to_json() for p in self.players],
            "winners": list(self.winners),
        }


def rank(scores: list[tuple[int, int]]) -> list[int]:
    """Competition ranks (1, 1, 3) for (total, bonus) pairs: more total, then more bonus, is better."""
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]


def standings(setup: NewGame, sheets: Mapping[str, PlayerSheet], *, finished: bool) -> Standings:
    """Score every sheet; total counts what is scored so far (completed rounds' sights only)."""
    points = VILLAGE_POINTS[setup.island]
    rows = []
    for name in setup.players:
        sheet = sheets[name]
        villages = sum(points[letter] for letter in sheet.villages)
        total = sum(sheet.sights_by_round) + villages + sheet.bonus
        rows.append((name, sheet, villages, total))
    ranks = rank([(total, sheet.bonus) for _, sheet, _, total in rows])
    players = tuple(
        PlayerStanding(
            name=name,
            sights_by_round=sheet.sights_by_round,
            villages=villages,
            bonus=sheet.bonus,
            total=total,
            rank=r,
            achievement=achievement(setup.island, total),
        )
        for (name, sheet, villages, total), r in zip(rows, ranks, strict=True)
    )
    winners = tuple(p.name for p in players if p.rank == 1)
    return Standings(finished=finished, players=players, winners=winners)
