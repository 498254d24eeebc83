"""A digital island sheet: the segments a player drew and which spaces they join (frozen data)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from companion.island import Edge, IslandMap


class SeatMode(Enum):
    """How a seat scores: not known yet, paper (claims tapped by hand) or the digital island sheet.

    A player's first scoring entry decides it for the whole game: a claim makes a paper seat,
    a trail a sheet seat (contract 1).
    """

    UNDECIDED = "undecided"
    PAPER = "paper"
    SHEET = "sheet"


@dataclass(frozen=True)
class Segment:
    """One drawn trail segment: its edge, whether it was a bonus segment, and the reveal it belongs to."""

    edge: Edge
    bonus: bool
    reveal: int  # the game's reveal count when it was drawn (its turn)


@dataclass(frozen=True)
class IslandSheet:
    """The drawn segments and the connected pieces they make; replaced, never edited.

    labels[i] names the connected piece of space i (the smallest space index in it), so two
    spaces are joined exactly when their labels are equal. Joining two pieces relabels the
    smaller one: at most 104 entries, which keeps a segment well under a millisecond.
    """

    segments: tuple[Segment, ...]
    drawn: frozenset[Edge]
    labels: tuple[int, ...]
    joined: frozenset[int]  # sight spaces already joined to a village (their values are circled)
    drawn_at: int = 0  # reveal count of the latest turn segment (0: none yet)
    bonus_at: int = 0  # reveal count of the turn in which bonus_due was earned
    bonus_due: int = 0  # bonus segments earned and not drawn yet in turn bonus_at

    @classmethod
    def blank(cls, island: IslandMap) -> IslandSheet:
        """An island sheet with no trail drawn."""
        return cls(segments=(), drawn=frozenset(), labels=tuple(range(len(island.hexes))), joined=frozenset())

    def has_drawn(self, reveals: int) -> bool:
        """True once this turn's (non-bonus) segment is drawn."""
        return self.drawn_at == reveals

    def bonus_left(self, reveals: int) -> int:
        """Bonus segments earned and not yet drawn in this turn (an unspent one expires at the next reveal)."""
        return self.bonus_due if self.bonus_at == reveals else 0

    def piece(self, space: int) -> tuple[int, ...]:
        """Every space joined to this one by trails (itself included)."""
        label = self.labels[space]
        return tuple(i for i, other in enumerate(self.labels) if other == label)

    def joins(self, a: int, b: int) -> bool:
        """True when trails join the two spaces."""
        return self.labels[a] == self.labels[b]

    def with_segment(self, edge: Edge, *, bonus: bool, reveals: int) -> IslandSheet:
        """The sheet with one more segment drawn in this turn (a bonus one spends a bonus due)."""
        a, b = edge
        la, lb = self.labels[a], self.labels[b]
        labels = self.labels
        if la != lb:
            keep, drop = min(la, lb), max(la, lb)
            labels = tuple(keep if label == drop else label for label in labels)
        due = self.bonus_left(reveals) - (1 if bonus else 0)
        return IslandSheet(
            segments=(*self.segments, Segment(edge, bonus, reveals)),
            drawn=self.drawn | {edge},
            labels=labels,
            joined=self.joined,
            drawn_at=self.drawn_at if bonus else reveals,
            bonus_at=reveals,
            bonus_due=due,
        )

    def with_joined(self, sights: frozenset[int], *, earned: int) -> IslandSheet:
        """The sheet with more sights joined to villages and more bonus segments due this turn."""
        return IslandSheet(
            segments=self.segments,
            drawn=self.drawn,
            labels=self.labels,
            joined=self.joined | sights,
            drawn_at=self.drawn_at,
            bonus_at=self.bonus_at,
            bonus_due=self.bonus_due + earned,
        )
