"""The virtual table: a camera that looks at a mat where cards are laid as the Mayor would lay them.

Frames are rendered with the vision simulator (our own card art on a play mat under a lamp, with
sensor noise). Laying cards in place of others shows an empty mat for a moment (the old cards
picked up), then the Mayor's hand withdrawing over the new cards, as at a real table; laying
cards that extend what lies there (desert, then desert and water) keeps the old cards in place. lay_next() lays what the
game needs next: the set-up card, the red bonus cards, the solo keep, or the next two terrain
cards of this round's shuffled deck (drawn from the cards the engine says are left).
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Sequence

import numpy as np

from companion.errors import ConfigError
from companion.moves import Terrain
from companion.rules import REVEALS_PER_ROUND, red_card_count
from companion.state import GameState, Phase
from hardware.camera import Camera
from hardware.meaning import deck_for_next_reveal
from vision.cards import CARD_IDS, RED_CARDS, SETUP_CARDS
from vision.props import Background, render_background
from vision.render import CARD_H_MM, CARD_W_MM, render_card
from vision.simulator import Placement, Scene

VIRTUAL_FRAME_SIZE = (1280, 720)  # width, height: the simulator's camera mode, as the Pi camera's
CARD_HEIGHT_SHARE = 0.42  # a card's long side as a share of frame height: the camera ~45 cm above
GAP_SHARE = 0.06  # space between two laid cards, as a share of a card's width
NOISE_SIGMA = 2.0  # grey levels of sensor noise in each frame
FRAME_POOL = 3  # noisy frames rendered per layout and cycled: real noise at no per-frame cost
HAND_READS = 2  # reads the Mayor's hand is over the new cards: fewer than the scanner's vote needs
CLEAR_READS = 5  # reads of an empty mat while old cards are picked up: more than the vote needs
MAX_CARDS = 3  # the most the scanner ever needs at once is two; one more to show a stray card
MAX_TILT_DEG = 4.0  # cards are laid roughly straight, never exactly


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
        self._pool = pool
        self._lock = threading.Lock()
        self._mat = render_background(background, size, self._np)
        self._faces: dict[str, np.ndarray] = {}
        self._cards: tuple[str, ...] = ()
        self._placements: tuple[Placement, ...] = ()
        self._empty = self._render(Scene(background=self._mat, noise_sigma=NOISE_SIGMA), count=1)[0]
        self._frames = [self._empty]
        self._before: list[np.ndarray] = []  # frames shown before the new layout, last first
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
        frames = self._render(scene)
        before = self._render(scene.with_hand(self._np), count=1) * self._hand_reads if cards else []
        if not extends and old:
            before += [self._empty] * self._clear_reads
        with self._lock:
            self._cards = cards
            self._placements = scene.placements
            self._before = before  # popped from the end: empty mat first, then the hand
            self._frames = frames
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
        if state.phase in (Phase.NO_GAME, Phase.FINISHED):
            return ()
        if state.phase is Phase.SETUP and state.setup_letters is None:
            return (rng.choice(SETUP_CARDS),)
        setup = state.setup
        if state.phase is Phase.SETUP and setup is not None and setup.special_bonus and state.red_drawn is None:
            return tuple(rng.sample(RED_CARDS, red_card_count(len(state.players))))
        if state.needs_solo_keep:
            letters = rng.sample(sorted(letter for letter, stack in state.blue.items() if stack), 2)
            return tuple(f"blue-{letter}2" for letter in letters)
        if state.reveals == state.rounds * REVEALS_PER_ROUND:
            return ()
        deck = [t for t, n in deck_for_next_reveal(state).items() for _ in range(n)]
        rng.shuffle(deck)
        pair: list[Terrain] = deck[:2]
        return tuple(t.value for t in pair)

    def read(self) -> np.ndarray:
        """The next frame of the mat (the hand while cards are being laid)."""
        with self._lock:
            if self._before:
                return self._before.pop()
            self._next = (self._next + 1) % len(self._frames)
            return self._frames[self._next]

    def _face(self, card: str) -> np.ndarray:
        if card not in self._faces:
            self._faces[card] = render_card(card)
        return self._faces[card]

    def _scene(self, cards: tuple[str, ...], keep: tuple[Placement, ...] = ()) -> Scene:
        """The cards side by side in the middle of the mat, each slightly turned and shifted."""
        width, height = self.size
        card_h = CARD_HEIGHT_SHARE * height
        card_w = card_h * CARD_W_MM / CARD_H_MM
        step = card_w * (1 + GAP_SHARE)
        first_x = width / 2 - step / 2  # fixed slots, two centred: a card laid later keeps its place
        placements = list(keep)
        for i, card in enumerate(cards[len(keep):], start=len(keep)):
            jitter = self._np.uniform(-0.04, 0.04, 2) * card_h
            centre = (first_x + i * step + jitter[0], height / 2 + jitter[1])
            angle = float(self._np.uniform(-MAX_TILT_DEG, MAX_TILT_DEG))
            placements.append(Placement(self._face(card), _corners(centre, card_h, angle), card))
        return Scene(background=self._mat, placements=tuple(placements), noise_sigma=NOISE_SIGMA)

    def _render(self, scene: Scene, count: int | None = None) -> list[np.ndarray]:
        return [scene.render(self._np) for _ in range(count or self._pool)]
