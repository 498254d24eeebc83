"""A hypothesis read sure needs no rival: the halves of a card named on its whole outline are read
only when neither its coarse score nor its detail made the call sure."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.conftest import clear_deck, pair_at_rest
from vision.blobs import split
from vision.cards import TERRAINS
from vision.detect import Candidate
from vision.features import order_corners
from vision.judge import SURE_DETAIL, SURE_SCORE
from vision.reader import CardReader
from vision.tables import TableTop


@pytest.fixture(scope="module")
def painted_terrain() -> CardReader:
    """A reader over clear photos of the painted terrain cards (full-bleed art: coarse scores run low)."""
    return CardReader(clear_deck("painted", TERRAINS))


@pytest.mark.parametrize(("seed", "top", "card", "sure"), [
    (11, TableTop.WOOD_DARK, "mountain", True),  # coarse score 0.70, detail 0.98
    (13, TableTop.MARBLE, "water", False),  # coarse score 0.70, detail 0.87
])
def test_a_card_named_with_sure_detail_is_not_read_again_as_two_halves(painted_terrain: CardReader, monkeypatch,
                                                                       seed: int, top: TableTop, card: str,
                                                                       sure: bool) -> None:
    """Painted cards at rest score under SURE_SCORE on their true outline; one whose detail reaches
    SURE_DETAIL is named without reading its halves, one whose detail does not has them read too.
    Either way the whole card is what is named."""
    pair = [TERRAINS[seed % 5], TERRAINS[(seed // 5) % 5]]
    photo = pair_at_rest("painted", pair, seed, top)
    whole = order_corners(next(s.corners for s in photo.seen if s.thing.label == card))
    _, match = painted_terrain._read_quad(photo.image, whole)
    assert match.score < SURE_SCORE and (match.detail >= SURE_DETAIL) == sure  # the premise
    reads: list[np.ndarray] = []
    read_quad = painted_terrain._read_quad
    monkeypatch.setattr(painted_terrain, "_read_quad", lambda frame, quad: reads.append(quad) or read_quad(frame, quad))
    readings = painted_terrain.read_candidate(photo.image, Candidate(((whole,), split(whole))))
    assert [r.card for r in readings] == [card]
    assert len(reads) == (1 if sure else 3)
