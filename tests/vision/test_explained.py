"""What the cards already outlined explain (vision.explained): a blob off the table's colours is
explained only by cards it fills; a table that shows nothing off its colours explains nothing."""

from __future__ import annotations

import pytest

from tests.vision.conftest import blob_of, box
from vision.blobs import Candidate
from vision.explained import all_settled

CARD = box(100, 100, 100, 140)
BESIDE = box(200, 100, 100, 140)  # a second card touching CARD along its long side


@pytest.mark.parametrize(("blob", "found", "explained"), [
    (box(110, 120, 60, 80), [(CARD, 1.0)], False),  # a part of what was outlined: that may be a part too (an "any" card's quarter)
    (box(100, 100, 200, 140), [(CARD, 1.0), (BESIDE, 1.0)], True),  # two touching cards: the middle on their seam
    (box(100, 100, 100, 140), [(CARD, 1.0)], True),  # one card, outlined well
    (box(100, 100, 200, 140), [(CARD, 1.0)], False),  # a card and a hand (or a card no cue outlined) beside it
    (box(110, 120, 60, 80), [(CARD, 0.5)], False),  # a card outlined poorly explains nothing yet
    (box(400, 100, 60, 80), [(CARD, 1.0)], False),  # a blob away from every card
])
def test_a_blob_off_the_tables_colours_is_explained_only_by_the_cards_it_lies_in(blob, found, explained) -> None:
    """The edge cues stop once every blob the table's colours show is cards outlined well, and all of them."""
    cands = [Candidate(((quad,),), support) for quad, support in found]
    assert all_settled([blob_of(blob)], cands) is explained


def test_a_table_that_shows_nothing_off_its_colours_explains_nothing() -> None:
    """A table mask blind to a card of the table's colours must not stop the search."""
    assert not all_settled([], [Candidate(((CARD,),), 1.0)])
