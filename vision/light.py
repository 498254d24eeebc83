"""The frame's light, learnt from a card the deck has named: how the camera's colours of that card stand
to its enrolled photos', and another card in the same frame seen in that light.

Every card in one frame lies under the same lamp and goes through the same white balance. A named card
says how far the frame's light has moved each channel; a refused card beside it (the Mayor's second)
is read again with its channels moved back as far (vision.reader, the partner reading).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

LIGHT_GAIN = 0.25  # most a channel's gain may move (a lamp's warmth and the camera's white balance: up to ~0.2)


def light_of(seen: np.ndarray, references: Sequence[np.ndarray]) -> np.ndarray:
    """Per-channel gains (B, G, R; green's 1) that bring a card's canonical BGR image to its enrolled
    photos' mean colour; only the channels' ratios count (exposure and glare brighten all alike). With no
    photo to compare with, the frame's light as it is (all 1)."""
    if not references:
        return np.ones(3)
    known = np.mean([ref.reshape(-1, 3).astype(np.float64).mean(axis=0) for ref in references], axis=0)
    gains = known / np.maximum(seen.reshape(-1, 3).astype(np.float64).mean(axis=0), 1.0)
    return np.clip(gains / gains[1], 1 - LIGHT_GAIN, 1 + LIGHT_GAIN)


def relit(image: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """A BGR image with each channel times its gain (light_of), saturating at white."""
    return np.clip(image.astype(np.float32) * gains.astype(np.float32), 0, 255).astype(np.uint8)
