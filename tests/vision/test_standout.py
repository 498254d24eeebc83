"""Whether a piece cut from a blob stands out from the table (vision.standout): a card does, a piece
of the table does not, and the quick measure in double decides as the float32 one does."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.standout import _by_channel, _float32_measure, _regions, stands_out

QUAD = np.array([[60.0, 40.0], [140.0, 44.0], [136.0, 150.0], [56.0, 146.0]])


def _table(seed: int) -> np.ndarray:
    """A noisy wooden-brown table in YCrCb, as detection's work copy holds it."""
    rng = np.random.default_rng(seed)
    bgr = np.clip(rng.normal((60, 90, 130), 12, (200, 220, 3)), 0, 255).astype(np.uint8)
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2YCrCb)


def test_a_card_on_the_table_stands_out_and_a_piece_of_the_table_does_not() -> None:
    """A light card laid on the table differs from the band around it by many spreads; the same
    outline drawn on the bare table by about none."""
    table = _table(1)
    card = table.copy()
    cv2.fillConvexPoly(card, QUAD.astype(np.int32), (200, 128, 128))
    assert stands_out(card, QUAD, 2.0)
    assert not stands_out(table, QUAD, 2.0)


@pytest.mark.parametrize("seed", range(6))
def test_the_quick_measure_decides_as_the_float32_measure(seed) -> None:
    """On both sides of bars near each piece's own measure, stands_out agrees with the float32
    measure it replaced."""
    rng = np.random.default_rng(seed)
    image = _table(seed)
    cv2.fillConvexPoly(image, QUAD.astype(np.int32), tuple(int(v) for v in rng.integers(0, 256, 3)))
    roi, core, band = _regions(image, QUAD)
    measure = _float32_measure(roi, core, band)
    inner, outer, spread = cv2.meanStdDev(roi, mask=core)[0], *cv2.meanStdDev(roi, mask=band)
    channel = _by_channel(inner, outer, spread)
    for bar in (0.5 * measure, 0.995 * measure, 1.005 * measure, 2.0 * measure):
        assert stands_out(image, QUAD, bar) == (max(measure, channel) >= bar)


def test_a_piece_too_small_to_measure_stands_out_only_for_no_bar() -> None:
    """A quad a few pixels across has too few pixels for a mean colour: measured as 0."""
    tiny = np.array([[10.0, 10.0], [12.0, 10.0], [12.0, 12.0], [10.0, 12.0]])
    assert not stands_out(_table(2), tiny, 0.5)
    assert stands_out(_table(2), tiny, 0.0)


def test_a_card_of_another_hue_on_a_veined_table_stands_out() -> None:
    """A pale green card on light marble: as light as the stone, which its dark veins make vary a
    lot, so lightness and colour together differ by under 2 spreads; its hue alone differs by many
    of the stone's own hue spreads. A piece of the same stone does not stand out either way."""
    rng = np.random.default_rng(3)
    bgr = np.clip(rng.normal((190, 190, 188), 2, (200, 220, 3)), 0, 255)
    veins = rng.random((200, 220)) < 0.12
    bgr[veins] -= 45  # dark veins all over: the lightness spread is large, the hue spread small
    table = cv2.cvtColor(bgr.astype(np.uint8), cv2.COLOR_BGR2YCrCb)
    card = table.copy()
    inside = np.zeros(table.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, QUAD.astype(np.int32), 1)
    card[..., 2][inside > 0] -= 10  # bluish-yellow shifted: Cb 10 levels lower, lightness unchanged
    roi, core, band = _regions(card, QUAD)
    assert _float32_measure(roi, core, band) < 2.0
    assert stands_out(card, QUAD, 2.0)
    assert not stands_out(table, QUAD, 2.0)


def test_a_card_is_measured_against_the_table_not_its_partner() -> None:
    """Two red cards touching on a light table, cut from one blob: the band just outside either runs over
    the other red card, whose colour spreads the band far more than the table does, so neither stood
    out by 2 spreads; with its partner left out of its band, each does (a benchmark lacquer pair on birch
    was found by no cue so)."""
    table = cv2.cvtColor(cv2.cvtColor(_table(4), cv2.COLOR_YCrCb2BGR) + np.uint8(100), cv2.COLOR_BGR2YCrCb)
    left, right = QUAD, QUAD + (80.0, 4.0)
    for quad in (left, right):
        cv2.fillConvexPoly(table, quad.astype(np.int32), (80, 190, 110))
    assert not stands_out(table, left, 2.0) and not stands_out(table, right, 2.0)
    assert stands_out(table, left, 2.0, (right,)) and stands_out(table, right, 2.0, (left,))
