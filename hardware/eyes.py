"""The scanner's eyes: vision's card reader and vision's Voter behind one call, look(frame, now) -> Look.

OpenCV and vision are imported on first use, not with this module: `tucana serve --camera none`
imports the rig (and so this module) but never reads a frame, and OpenCV alone is ~30 MB of RSS.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import numpy as np

if TYPE_CHECKING:
    from vision.deck import Deck
    from vision.reader import CardReader, FrameReading
    from vision.voter import Voter

log = logging.getLogger(__name__)


@dataclass(frozen=True, eq=False)
class CardReading:
    """One card outline found in one frame: its ID (None when unsure), confidence, corners, crop."""

    card: str | None
    confidence: float
    corners: tuple[tuple[float, float], ...]
    crop: np.ndarray | None = field(default=None, repr=False)

    def to_json(self) -> dict:
        """JSON-ready, crop left out."""
        return {
            "card": self.card,
            "confidence": round(float(self.confidence), 3),
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
        }


@dataclass(frozen=True, eq=False)
class Look:
    """What the eyes made of one frame: its raw readings and the voter's stable cards, left to right."""

    readings: tuple[CardReading, ...]
    stable: tuple[str, ...]


class Eyes(Protocol):
    """Reads a frame and votes over the recent ones."""

    def look(self, frame: np.ndarray, now: float) -> Look:
        """Read the cards in frame (taken at time now, seconds) and return the stable set."""
        ...


# --- vision's reader behind a change gate and vision's voter --------------------------------------
GATE_SIZE = (160, 90)  # width, height of the grey thumbnail compared between frames: ~1 ms to make
GATE_PIXEL_DIFF = 12  # grey levels a thumbnail pixel must change by to count (sensor noise is ~1 here)
GATE_CHANGED_SHARE = 0.004  # share of thumbnail pixels that must change: a fingertip, not noise
VOTE_FRAMES = 3  # consecutive clean frames that must agree: 0.2 s at 15 frames/s keeps latency < 0.3 s
REREAD_S = 2.0  # read an unchanged scene again this often, in case the gate missed a slow change


def thumbnail(frame: np.ndarray) -> np.ndarray:
    """A small blurred grey copy of a frame for the change gate."""
    import cv2

    small = cv2.resize(frame, GATE_SIZE, interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (3, 3), 0)


def changed(a: np.ndarray, b: np.ndarray) -> bool:
    """True when two thumbnails differ by more than sensor noise."""
    import cv2

    moved = cv2.absdiff(a, b) > GATE_PIXEL_DIFF
    return float(np.count_nonzero(moved)) > GATE_CHANGED_SHARE * moved.size


def scanner_voter(vote_frames: int = VOTE_FRAMES) -> Voter:
    """vision's Voter over vote_frames frames: cards left to right, and a hand starts the count over.

    The cards must be seen in vote_frames clean frames back to back, so a count is never finished
    by frames from both sides of a hand that may have moved a card; the desk reads two cards laid
    together in the order they lie.
    """
    from vision.voter import Voter

    return Voter(vote_frames)


class VisionEyes:
    """vision.reader.CardReader behind a change gate (an idle mat costs ~1 ms a frame) and vision's Voter.

    The reader runs on every frame until the voter is settled (VOTE_FRAMES clean frames in a row,
    every outline named and no hand in view, showing the stable cards); after that it rests until
    the thumbnail changes (or REREAD_S passes). With warm_up (the rig's), each deck it reads with is
    warmed up in the background from the next frame on (vision.deck.Deck.warm).
    """

    def __init__(self, reader: CardReader | None = None, *, vote_frames: int = VOTE_FRAMES,
                 reread_s: float = REREAD_S, warm_up: bool = False) -> None:
        from vision.reader import CardReader

        self.reader = reader if reader is not None else CardReader()
        self.voter = scanner_voter(vote_frames)
        self.reread_s = reread_s
        self.reads = 0
        self.warm_up = warm_up
        self.warming: threading.Thread | None = None  # the warm-up thread, if one was started (vision.deck.Deck.warm)
        self._warmed: Deck | None = None  # the last deck warmed up whole (or given up on)
        self._reference: np.ndarray | None = None
        self._last_read_at = float("-inf")
        self._look = Look((), ())

    def use_deck(self, deck: Deck) -> None:
        """Read against another reference deck from the next frame on (safe from any thread).

        The new reader is built whole and then assigned in one step, so the scanner's look()
        runs either on the old deck or on the new one, never on half of each.
        """
        from vision.reader import CardReader

        self.reader = CardReader(deck)
        self._last_read_at = float("-inf")  # a settled table is read again against the new deck

    @property
    def settled(self) -> bool:
        """True when the voter is settled: nothing to read until the scene changes."""
        return self.voter.settled

    def look(self, frame: np.ndarray, now: float) -> Look:
        """Read the frame unless the scene is unchanged and settled (then the last look is still true)."""
        self._warm(frame.shape[0])
        thumb = thumbnail(frame)
        moved = self._reference is None or changed(thumb, self._reference)
        self._reference = thumb
        if not moved and self.settled and now - self._last_read_at < self.reread_s:
            return self._look
        self._last_read_at = now
        self.reads += 1
        self._look = self._vote(self.reader.read(frame), frame)
        return self._look

    def _warm(self, frame_height: int) -> None:
        """With warm_up, learn in the background what the deck's first cards at each size would learn
        when laid (0.2-1 s a family and size here, more on a Pi), from its first frame on: the frame's
        height sets the sizes. One thread at a time, which moves on to the newest deck when the deck
        changes under it (an owner enrolling card after card loads a new deck each photo)."""
        if not self.warm_up or self.reader.deck is self._warmed or (self.warming and self.warming.is_alive()):
            return
        self.warming = threading.Thread(target=self._warm_decks, args=(frame_height,), name="tucana-warm-up",
                                        daemon=True)
        self.warming.start()

    def _warm_decks(self, frame_height: int) -> None:
        """Warm the reader's deck up, then any deck that replaced it meanwhile (the warm-up thread's work).

        A failure costs only the time it would have saved (the reads learn the same on first use), and
        that deck is not warmed up again."""
        while (deck := self.reader.deck) is not self._warmed:
            try:
                if deck.warm(frame_height, until=lambda d=deck: self.reader.deck is not d):
                    self._warmed = deck
            except Exception:  # noqa: BLE001  (the reads report their own errors)
                log.exception("warming the deck up failed; its cards will learn on first use")
                self._warmed = deck

    def _vote(self, frame_reading: FrameReading, frame: np.ndarray) -> Look:
        from vision.voter import left_to_right

        self.voter.feed(frame_reading)
        readings = tuple(
            CardReading(r.card, r.confidence, r.corners, _crop(frame, r.corners))
            for r in left_to_right(frame_reading.cards)
        )
        return Look(readings, self.voter.cards)


CROP_HEIGHT = 120  # px: card thumbnails for the web console


def _crop(frame: np.ndarray, corners: tuple[tuple[float, float], ...]) -> np.ndarray:
    """The card warped flat at console-thumbnail size."""
    import cv2

    from vision.render import CARD_H_MM, CARD_W_MM

    height = CROP_HEIGHT
    width = round(height * CARD_W_MM / CARD_H_MM)
    src = np.array(corners, np.float32)
    dst = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    return cv2.warpPerspective(frame, cv2.getPerspectiveTransform(src, dst), (width, height))
