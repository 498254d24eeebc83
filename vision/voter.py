"""Turn per-frame readings into stable events: a card appeared, a card was removed.

One frame is never enough: the table must show the same cards for several clean frames in a
row before anything changes. A frame is clean when every outline in it was named and nothing
else (a hand, a sleeve, glare) is in view; other frames are skipped (they neither count nor
reset the count), so a hand passing over the mat, or a frame where one card is refused, never
triggers anything. Cards form a multiset: two desert cards are two cards.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from vision.reader import FrameReading

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


class Voter:
    """Debounces FrameReadings: feed(reading) -> events; `cards` is the stable table."""

    def __init__(self, stable_frames: int = STABLE_FRAMES) -> None:
        if stable_frames < 1:
            raise ValueError("stable_frames must be at least 1")
        self.stable_frames = stable_frames
        self._stable: tuple[str, ...] = ()
        self._candidate: tuple[str, ...] | None = None
        self._streak = 0
        self._frame = -1

    @property
    def cards(self) -> tuple[str, ...]:
        """The stable cards on the table, sorted (a multiset)."""
        return self._stable

    def reset(self) -> None:
        """Forget the table: the next stable reading is reported as new cards."""
        self._stable, self._candidate, self._streak = (), None, 0

    def feed(self, reading: FrameReading) -> list[VoterEvent]:
        """Take one frame's reading; return the events it completes (usually none)."""
        self._frame += 1
        if not reading.clean:
            return []
        seen = reading.named
        if seen == self._stable:
            self._candidate, self._streak = None, 0
            return []
        if seen == self._candidate:
            self._streak += 1
        else:
            self._candidate, self._streak = seen, 1
        if self._streak < self.stable_frames:
            return []
        return self._commit(seen)

    def _commit(self, seen: tuple[str, ...]) -> list[VoterEvent]:
        old, new = Counter(self._stable), Counter(seen)
        events: list[VoterEvent] = [CardRemoved(c, self._frame) for c in sorted((old - new).elements())]
        events += [CardAppeared(c, self._frame) for c in sorted((new - old).elements())]
        self._stable, self._candidate, self._streak = seen, None, 0
        return events
