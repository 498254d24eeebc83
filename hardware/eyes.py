"""The scanner's eyes: vision's card reader and voter behind one call, look(frame, now) -> Look."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np


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
