"""Fixtures for the hardware tests: a hand-moved clock, small virtual tables, one shared reader."""

from __future__ import annotations

import random
import time

import pytest

from hardware.virtual_table import VirtualTable

SMALL_FRAME = (640, 360)  # a quarter of the Pi camera's pixels: four times faster, still read well


class FakeClock:
    """A clock the test moves; sleep() moves it instead of waiting."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        """Record the wait and move the clock on by it instead of sleeping."""
        self.slept.append(seconds)
        self.now += seconds


@pytest.fixture(scope="session")
def phrases():
    """The pages' words in English, as `tucana serve` hands them to the speaker."""
    from web.i18n import phrasebook

    return phrasebook("en")


@pytest.fixture
def clock() -> FakeClock:
    """A hand-moved clock."""
    return FakeClock()


@pytest.fixture(scope="session")
def reader():
    """vision's card reader over the built-in deck, built once (describing the deck takes a while)."""
    from vision.reader import CardReader

    return CardReader()


@pytest.fixture
def small_table() -> VirtualTable:
    """A seeded virtual table at a small frame size."""
    return VirtualTable(random.Random(4), size=SMALL_FRAME)


class WoodcutTable(VirtualTable):
    """The virtual table laying cards drawn in vision's WOODCUT style: an owner's deck the built-in art does not know."""

    def _face(self, card: str):
        from vision.render import WOODCUT, render_card

        return render_card(card, WOODCUT)


@pytest.fixture
def woodcut_table() -> WoodcutTable:
    """A seeded woodcut table at a small frame size whose cards show at once (no hand, no empty mat)."""
    return WoodcutTable(random.Random(6), size=SMALL_FRAME, hand_reads=0, clear_reads=0)


WAIT_S = 30.0  # longest real-time wait of a threaded test: generous for a busy 2-core CI machine


def wait_for(predicate, timeout_s: float = WAIT_S, poll_s: float = 0.01) -> bool:
    """Poll a condition in real time (threaded tests only); False when it never came true."""
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(poll_s)
    return True
