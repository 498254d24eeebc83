"""Fixtures private to the vision tests: the built-in reader and rendered card faces."""

from __future__ import annotations

import numpy as np
import pytest

from vision.cards import CARD_IDS
from vision.deck import render_deck
from vision.reader import CardReader
from vision.render import STANDARD, render_card


@pytest.fixture(scope="session")
def reader() -> CardReader:
    """A reader over the built-in deck (describing the deck once per test run)."""
    return CardReader()


@pytest.fixture(scope="session")
def faces() -> dict[str, np.ndarray]:
    """Every card face of the built-in deck, rendered once."""
    return {card: render_card(card, STANDARD) for card in CARD_IDS}


@pytest.fixture(scope="session")
def woodcut_reader() -> CardReader:
    """A reader over the woodcut deck, the second tuning style (its blue cards' panel is a third of the card)."""
    return CardReader(render_deck("woodcut"))
