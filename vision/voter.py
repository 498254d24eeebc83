"""Turn per-frame readings into stable events: a card appeared, a card was removed.

One frame is never enough: the table must show the same cards for several clean frames in a
row before anything changes. A frame is clean when every outline in it was named and nothing
else (a hand, a sleeve, glare) is in view; an unclean frame starts the count over, so a hand
passing over the mat, or a frame where one card is refused, never triggers anything. Cards form
a multiset (two desert cards are two cards): frames agree when they show the same multiset, and
the stable cards are listed left to right, as they lie (a reveal's first card is the left one).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from vision.reader import CardReading, FrameReading

STABLE_FRAMES = 4  # clean frames in a row that must agree: ~0.3 s at 15 frames/s


@dataclass(frozen=True)
class CardAppeared:
    """A card is now stably on the table."""

    card: str
    frame: int  # index of the frame that made it stable (counting every frame fed in)


@dataclass(frozen=True)
class CardRemoved:
    """A card that was stably on the table is gone."""

    card: str
    frame: int


VoterEvent = CardAppeared | CardRemoved


def _centre_x(reading: CardReading) -> float:
    return sum(x for x, _ in reading.corners) / len(reading.corners)


def left_to_right(cards: tuple[CardReading, ...]) -> tuple[CardReading, ...]:
    """The card readings ordered by the centre of their outlines, leftmost first."""
    return tuple(sorted(cards, key=_centre_x))


class Voter:
    """Debounces FrameReadings: feed(reading) -> events; `cards` is the stable table."""

    def __init__(self, stable_frames: int = STABLE_FRAMES) -> None:
        if stable_frames < 1:
            raise ValueError("stable_frames must be at least 1")
        self.stable_frames = stable_frames
        self._stable: tuple[str, ...] = ()
        self._stable_key: tuple[str, ...] = ()  # the stable cards sorted, to compare with a frame's
        self._candidate: tuple[str, ...] | None = None  # sorted: frames agree as multisets
        self._streak = 0
        self._agreeing = 0  # clean frames in a row (no unclean one between) showing the stable cards
        self._frame = -1

    @property
    def cards(self) -> tuple[str, ...]:
        """The stable cards on the table (a multiset), left to right as they lay when they settled."""
        return self._stable

    @property
    def settled(self) -> bool:
        """True when the last stable_frames frames were all clean and showed the stable cards.

        Nothing can change until the view does: a caller may rest until it sees the frame move.
        """
        return self._agreeing >= self.stable_frames

    def reset(self) -> None:
        """Forget the table: the next stable reading is reported as new cards."""
        self._stable, self._stable_key, self._candidate, self._streak, self._agreeing = (), (), None, 0, 0

    def feed(self, reading: FrameReading) -> list[VoterEvent]:
        """Take one frame's reading; return the events it completes (usually none)."""
        self._frame += 1
        if not reading.clean:
            self._agreeing = 0
            self._candidate, self._streak = None, 0  # the cards must be seen in clean frames back to back
            return []
        seen = reading.named
        if seen == self._stable_key:
            self._candidate, self._streak = None, 0
            self._agreeing += 1
            return []
        self._agreeing = 0
        if seen == self._candidate:
            self._streak += 1
        else:
            self._candidate, self._streak = seen, 1
        if self._streak < self.stable_frames:
            return []
        return self._commit(reading)

    def _listed(self, reading: FrameReading) -> tuple[str, ...]:
        return tuple(r.card for r in left_to_right(reading.cards) if r.card is not None)

    def _commit(self, reading: FrameReading) -> list[VoterEvent]:
        old, new = Counter(self._stable), Counter(reading.named)
        events: list[VoterEvent] = [CardRemoved(c, self._frame) for c in sorted((old - new).elements())]
        events += [CardAppeared(c, self._frame) for c in sorted((new - old).elements())]
        self._stable, self._stable_key = self._listed(reading), reading.named
        self._candidate, self._streak = None, 0
        self._agreeing = self.stable_frames  # the frames that made it stable all showed it
        return events
