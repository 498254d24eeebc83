"""The virtual table: a camera that looks at a mat where cards are laid as the Mayor would lay them.

Frames are rendered with the vision simulator (our own card art on a play mat under a lamp, with
sensor noise). Each layout is rendered once, clean; every read adds sensor noise from a bank
drawn at start (one saturating OpenCV call, ~0.5 ms), so a laid table holds one frame in memory,
not a pool of noisy copies, and each read is a new frame, as from a real camera. Laying cards in
place of others shows an empty mat for a moment (the old cards picked up), then the Mayor's hand
withdrawing over the new cards, as at a real table; laying cards that extend what lies there
(desert, then desert and water) keeps the old cards in place. lay_next() lays what the game needs
next: the set-up card, the red bonus cards, the solo keep, or the next two terrain cards of this
round's shuffled deck (drawn from the cards the engine says are left).
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Sequence

import cv2
import numpy as np

from companion.moves import Terrain
from companion.rules import SOLO_REMAINING_KEPT, red_card_count
from companion.state import GameState, NextStep
from hardware.camera import Camera
from hardware.errors import ConfigError
from vision.cards import CARD_IDS, RED_CARDS, SETUP_CARDS
from vision.props import BAND_ROWS, Background, render_background
from vision.render import CARD_H_MM, CARD_W_MM, render_card
from vision.simulator import Placement, Scene

VIRTUAL_FRAME_SIZE = (1280, 720)  # width, height: the simulator's camera mode, as the Pi camera's
CARD_HEIGHT_SHARE = 0.42  # a card's long side as a share of frame height: the camera ~45 cm above
GAP_SHARE = 0.06  # space between two laid cards, as a share of a card's width
NOISE_SIGMA = 2.0  # grey levels of sensor noise in each frame
NOISE_OFFSET = 128  # grey levels: noise stored as uint8 around this, so -128..127 fits
FRAME_POOL = 3  # noise patterns cycled from read to read (rows of one bank): frames differ as a sensor's do
HAND_READS = 2  # reads the Mayor's hand is over the new cards: fewer than the scanner's vote needs
CLEAR_READS = 5  # reads of an empty mat while old cards are picked up: more than the vote needs
MAX_CARDS = 3  # the most the scanner ever needs at once is two; one more to show a stray card
MAX_TILT_DEG = 4.0  # cards are laid roughly straight, never exactly
MAX_SHIFT_SHARE = 0.04  # nor exactly in their slot: up to this share of a card's height off


def _corners(centre: tuple[float, float], height: float, angle_deg: float) -> np.ndarray:
    """Frame corners of a portrait card: top-left, top-right, bottom-right, bottom-left."""
    width = height * CARD_W_MM / CARD_H_MM
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    local = np.array([[-width / 2, -height / 2], [width / 2, -height / 2], [width / 2, height / 2], [-width / 2, height / 2]])
    return local @ rot.T + np.asarray(centre, np.float64)


class VirtualTable(Camera):
    """A camera over a virtual mat; lay() and lay_next() change what lies on it (thread-safe)."""

    def __init__(self, rng: random.Random, *, size: tuple[int, int] = VIRTUAL_FRAME_SIZE,
                 background: Background = Background.MAT, hand_reads: int = HAND_READS,
                 clear_reads: int = CLEAR_READS, pool: int = FRAME_POOL) -> None:
        self.name = "virtual"
        self.size = size
        self._rng = rng
        self._np = np.random.default_rng(rng.getrandbits(64))
        self._hand_reads = hand_reads
        self._clear_reads = clear_reads
        self._pool = max(1, pool)
        self._lock = threading.Lock()
        self._mat = render_background(background, size, self._np)
        self._noise = _NoiseBank(size, self._pool, NOISE_SIGMA, self._np)
        self._cards: tuple[str, ...] = ()
        self._placements: tuple[Placement, ...] = ()
        self._table = self._mat  # the clean view of what lies on the mat now
        self._before: list[np.ndarray] = []  # clean views shown before the new layout, last first
        self._next = 0

    @property
    def cards(self) -> tuple[str, ...]:
        """The cards on the mat, left to right."""
        return self._cards

    def lay(self, cards: Sequence[str]) -> tuple[str, ...]:
        """Lay exactly these cards, left to right (see module doc); ConfigError on an unknown ID."""
        cards = tuple(cards)
        unknown = [c for c in cards if c not in CARD_IDS]
        if unknown:
            raise ConfigError(f"not card IDs: {', '.join(map(repr, unknown))}")
        if len(cards) > MAX_CARDS:
            raise ConfigError(f"the virtual mat holds at most {MAX_CARDS} cards at once")
        old = self._cards
        extends = len(cards) > len(old) and cards[: len(old)] == old
        scene = self._scene(cards, keep=self._placements if extends else ())
        table = scene.render()  # clean: the noise is added by read()
        before = [scene.with_hand(self._np).render()] * self._hand_reads if cards and self._hand_reads else []
        if not extends and old:
            before += [self._mat] * self._clear_reads
        with self._lock:
            self._cards = cards
            self._placements = scene.placements
            self._before = before  # popped from the end: empty mat first, then the hand
            self._table = table
        return cards

    @property
    def laying(self) -> bool:
        """True while the Mayor's hand or an empty mat still comes before the laid cards."""
        with self._lock:
            return bool(self._before)

    def lay_next(self, state: GameState) -> tuple[str, ...]:
        """Lay what the game needs next (see module doc); an empty mat when it needs no card."""
        return self.lay(self.next_cards(state))

    def next_cards(self, state: GameState) -> tuple[str, ...]:
        """The cards the Mayor would lay next in this state."""
        rng = self._rng
        step = state.next_step
        if step is NextStep.SETUP_CARD:
            return (rng.choice(SETUP_CARDS),)
        if step is NextStep.RED_BONUS:
            return tuple(rng.sample(RED_CARDS, red_card_count(len(state.players))))
        if step is NextStep.SOLO_KEEP:
            letters = rng.sample(sorted(letter for letter, stack in state.blue.items() if stack), SOLO_REMAINING_KEPT)
            return tuple(f"blue-{letter}2" for letter in letters)
        if step is not NextStep.REVEAL:
            return ()
        deck = [t for t, n in state.deck_for_next_reveal.items() for _ in range(n)]
        rng.shuffle(deck)
        pair: list[Terrain] = deck[:2]
        return tuple(t.value for t in pair)

    def read(self) -> np.ndarray:
        """The next frame of the mat (the hand while cards are being laid): a new array each time."""
        with self._lock:
            clean = self._before.pop() if self._before else self._table
            self._next = (self._next + 1) % self._pool
            pattern = self._next
        return self._noise.add(clean, pattern)

    def _face(self, card: str) -> np.ndarray:
        """The card's face (~1.5 ms to draw: drawn per lay, not cached; subclasses draw other art)."""
        return render_card(card)

    def _scene(self, cards: tuple[str, ...], keep: tuple[Placement, ...] = ()) -> Scene:
        """The cards side by side in the middle of the mat, each slightly turned and shifted."""
        width, height = self.size
        card_h = CARD_HEIGHT_SHARE * height
        card_w = card_h * CARD_W_MM / CARD_H_MM
        step = card_w * (1 + GAP_SHARE)
        first_x = width / 2 - step / 2  # fixed slots, two centred: a card laid later keeps its place
        placements = list(keep)
        for i, card in enumerate(cards[len(keep):], start=len(keep)):
            jitter = self._np.uniform(-MAX_SHIFT_SHARE, MAX_SHIFT_SHARE, 2) * card_h
            centre = (first_x + i * step + jitter[0], height / 2 + jitter[1])
            angle = float(self._np.uniform(-MAX_TILT_DEG, MAX_TILT_DEG))
            placements.append(Placement(self._face(card), _corners(centre, card_h, angle), card))
        return Scene(background=self._mat, placements=tuple(placements))


class _NoiseBank:
    """Sensor noise for one frame size, drawn once: `patterns` frames of it are row-shifted views.

    The noise is kept as uint8 with NOISE_OFFSET added, so one OpenCV call adds it to a clean frame
    exactly as clip(clean + noise), with no wider temporaries.
    """

    def __init__(self, size: tuple[int, int], patterns: int, sigma: float, rng: np.random.Generator) -> None:
        width, height = size
        rows = height + max(1, patterns) - 1
        self._bank = np.empty((rows, width, 3), np.uint8)
        for top in range(0, rows, BAND_ROWS):  # a band at a time: no frame-sized float64 noise
            noise = np.rint(rng.normal(0, sigma, (min(BAND_ROWS, rows - top), width, 3)))
            self._bank[top:top + BAND_ROWS] = np.clip(noise + NOISE_OFFSET, 0, 255)

    def add(self, clean: np.ndarray, pattern: int) -> np.ndarray:
        """A new frame: clean plus noise pattern number `pattern`."""
        noise = self._bank[pattern:pattern + clean.shape[0]]
        return cv2.addWeighted(clean, 1.0, noise, 1.0, -NOISE_OFFSET)
