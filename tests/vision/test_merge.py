"""Merging the cues' candidates (vision.merge): one candidate per place, and the outlines kept in
reserve for it (a card around its panel, an outline too short for a card lengthened)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.blobs import CARD_ASPECT, Candidate, aspect, stretched
from vision.merge import merge


def _rect(cx: float, cy: float, w: float, h: float) -> np.ndarray:
    return np.array([[cx - w / 2, cy - h / 2], [cx + w / 2, cy - h / 2], [cx + w / 2, cy + h / 2], [cx - w / 2, cy + h / 2]])


def test_an_outline_wrapping_a_kept_one_is_kept_among_its_wraps() -> None:
    """A panel outlined with full support and the card around it with less: the card stays in reserve."""
    panel, card = _rect(100, 100, 36, 50), _rect(100, 100, 63, 88)
    (kept,) = merge([Candidate(((panel,),), 1.0), Candidate(((card,),), 0.9)])
    assert kept.hypotheses == ((panel,),) and len(kept.wraps) == 1 and np.allclose(kept.wraps[0][0], card)


@pytest.mark.parametrize("scale", [1.05, 2.5])
def test_an_outline_too_like_or_too_unlike_the_kept_one_is_no_wrap(scale) -> None:
    """The same card outlined a pixel out, or a blob far bigger than one card around it: no wrap."""
    card = _rect(100, 100, 63, 88)
    (kept,) = merge([Candidate(((card,),), 1.0), Candidate(((_rect(100, 100, 63 * scale, 88 * scale),),), 0.9)])
    assert kept.wraps == ()


def test_a_card_beside_a_kept_one_is_kept_on_its_own() -> None:
    """A blob of two touching cards, one already found: the one beside it is a candidate of its own."""
    left, right = _rect(100, 100, 63, 88), _rect(165, 100, 63, 88)
    kept = merge([Candidate(((left,),), 1.0), Candidate(((left, right),), 0.9)])
    assert len(kept) == 2 and np.allclose(kept[1].hypotheses[0][0], right)


def test_an_outline_too_short_for_a_card_is_lengthened_at_either_end() -> None:
    """A set-up card's body without its dark header: lengthened to a card's aspect, one way or the other."""
    body = _rect(100, 100, 63, 70)
    ends = stretched(body)
    assert len(ends) == 2
    assert all(aspect(q) == pytest.approx(CARD_ASPECT) for q in ends)
    assert ends[0][:, 1].min() == pytest.approx(65) and ends[1][:, 1].max() == pytest.approx(135)


def test_an_outline_of_a_card_s_shape_is_not_lengthened() -> None:
    """A whole card (or one tilted 20 degrees away) keeps its outline."""
    assert stretched(_rect(100, 100, 63, 88)) == [] and stretched(_rect(100, 100, 63, 83)) == []
