"""The renderer: every card ID, deterministic, distinct, and the contract-2 card data."""

from __future__ import annotations

import numpy as np
import pytest

from vision.cards import CARD_IDS, SETUP_CARDS, blue_points, is_card_id, setup_letters
from vision.render import CARD_H_MM, CARD_W_MM, STANDARD, WOODCUT, render_back, render_card


def test_card_ids_are_contract_two() -> None:
    """The card ids are contract 2's 33 unique ids and nothing else is a card id."""
    assert len(CARD_IDS) == 5 + 10 + 5 + 13 == len(set(CARD_IDS))
    assert CARD_IDS[:5] == ("desert", "forest", "mountain", "water", "any")
    assert {"blue-A1", "blue-E2", "red-sea_monster", "setup-01", "setup-13"} <= set(CARD_IDS)
    assert not is_card_id("setup-14") and not is_card_id("blue-F1")


def test_setup_letters_follow_the_facts_table() -> None:
    """Set-up cards give the facts table's letters, two of each village letter."""
    assert setup_letters("setup-01") == "CEBAEDCDAB"
    assert setup_letters("setup-13") == "BACBDCEAED"
    assert setup_letters("desert") is None
    for card in SETUP_CARDS:
        letters = setup_letters(card)
        assert sorted(letters) == sorted("AABBCCDDEE")


@pytest.mark.parametrize(("card", "points"), [("blue-A1", 3), ("blue-A2", 2), ("blue-E1", 7), ("blue-C2", 3)])
def test_blue_points(card: str, points: int) -> None:
    """Each blue bonus card is worth its printed points."""
    assert blue_points(card) == points


@pytest.mark.parametrize("style", [STANDARD, WOODCUT])
def test_render_is_deterministic_and_card_shaped(style) -> None:
    """Rendering is deterministic and gives a uint8 image of the card's size at the scale."""
    a, b = render_card("setup-07", style, 3.0), render_card("setup-07", style, 3.0)
    assert np.array_equal(a, b)
    assert a.shape == (round(CARD_H_MM * 3), round(CARD_W_MM * 3), 3) and a.dtype == np.uint8


def test_every_card_looks_different(faces) -> None:
    """Every two card faces differ clearly in enough pixels."""
    small = {c: faces[c][::8, ::8].astype(int) for c in CARD_IDS}
    for i, a in enumerate(CARD_IDS):
        for b in CARD_IDS[i + 1:]:
            assert (np.abs(small[a] - small[b]).max(axis=2) > 60).sum() >= 10, (a, b)


def test_unknown_card_is_refused() -> None:
    """Rendering an unknown card id raises ValueError."""
    with pytest.raises(ValueError):
        render_card("joker")


def test_back_differs_from_every_face(faces) -> None:
    """The card back differs clearly from every face."""
    back = render_back(STANDARD)
    assert all(np.abs(back.astype(int) - f.astype(int)).mean() > 20 for f in faces.values())
