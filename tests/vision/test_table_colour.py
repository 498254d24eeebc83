"""The table's own colours (vision.table_colour): what is far from them is not table."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.table_colour import TABLE_DISTANCE, table_mask, table_masks
from vision.tables import TableTop, render_top


@pytest.mark.parametrize("top", [TableTop.WOOD_LIGHT, TableTop.WOOD_MID, TableTop.BIRCH])
def test_a_card_lying_in_the_border_band_is_not_taken_for_the_table(top) -> None:
    """The table's colours are learnt from the frame's border: a green card reaching into it holds
    a small share there, and is still told from the grain (it was once learnt as a table colour)."""
    table = render_top(top, (360, 640), 1.0, np.random.default_rng(3))
    table[10:110, 300:440] = (40, 120, 50)  # a green card from above the band's inner edge (6% = 22 px) inward
    mask = table_mask(cv2.cvtColor(table, cv2.COLOR_BGR2YCrCb))
    assert (mask[30:100, 310:430] > 0).mean() >= 0.95


@pytest.mark.parametrize("top", [TableTop.CHECK_BLUE, TableTop.WOOD_DARK, TableTop.FELT_GREEN])
def test_nearer_distances_take_less_for_table_and_the_live_distance_is_the_live_mask(top) -> None:
    """Masks at several distances learn the table's colours once: the live read's distance gives the
    live mask exactly, and a nearer distance leaves at least as much off the table."""
    table = render_top(top, (360, 640), 1.0, np.random.default_rng(5))
    table[120:260, 250:350] = (90, 60, 30)  # a dark blue card, near a blue check's colour
    colour = cv2.cvtColor(table, cv2.COLOR_BGR2YCrCb)
    live, near = table_masks(colour, 0.05, (TABLE_DISTANCE, 1.5))
    assert np.array_equal(live, table_mask(colour))
    assert ((near > 0) >= (live > 0)).mean() > 0.99
