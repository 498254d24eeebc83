"""The readings of one frame weighed against each other (vision.pieces): pieces of cards refused, one card
per place, and patches of the table beside the Mayor's named pair left out."""

from __future__ import annotations

import pytest

from tests.vision.conftest import bench_pair_at_rest, bench_terrain_reader
from vision.pieces import one_per_place, pieces_refused, table_left_out
from vision.reader import CardReading
from vision.tables import TableTop


def _read_at(x: float, card: str | None, confidence: float = 0.9, size: float = 1.0, y: float = 10.0) -> CardReading:
    """A reading of a card 100x140 px (times size, each side) with its top-left at (x, y)."""
    w, h = 100.0 * size, 140.0 * size
    return CardReading(card, confidence, ((x, y), (x + w, y), (x + w, y + h), (x, y + h)))


@pytest.mark.parametrize(("cards", "kept"), [
    ([_read_at(0, "forest"), _read_at(110, "desert", size=0.5)], ["forest", None]),  # a quarter of a card's area
    ([_read_at(0, "forest"), _read_at(110, "desert", size=0.72)], ["forest", None]),  # a half beside a card
    ([_read_at(0, "forest"), _read_at(110, "desert", size=0.84)], ["forest", "desert"]),  # 0.7: a tilted pair
    ([_read_at(0, "forest"), _read_at(900, "desert", size=0.72)], ["forest", "desert"]),  # far off: perspective
    ([_read_at(0, "forest"), _read_at(900, "desert", size=0.6)], ["forest", None]),  # too small anywhere
    ([_read_at(0, None, 0.3), _read_at(110, "forest", size=0.6)], [None, None]),  # a piece of a refused card
    ([_read_at(0, None, 0.3), _read_at(110, "forest", size=0.84)], [None, "forest"]),  # a card beside a refused one
    ([_read_at(0, None, 0.3, size=4.0), _read_at(110, "forest", y=600)], [None, "forest"]),  # a blob is no card
    ([_read_at(0, None, 0.05, size=1.6), _read_at(170, "forest")], [None, "forest"]),  # a patch of the table
    ([_read_at(0, None, 0.3, size=0.5), _read_at(110, "forest")], [None, "forest"]),  # a refused piece
    ([_read_at(0, None, 0.41, size=1.6), _read_at(170, "desert"), _read_at(275, "mountain")],
     [None, "desert", "mountain"]),  # a pair beside a refused blob: they bear out each other's scale
    ([_read_at(0, "any", size=1.6), _read_at(170, "desert"), _read_at(275, "mountain")],
     ["any", None, None]),  # beside a named card they are pieces still
    ([_read_at(0, None, 0.3), _read_at(110, "forest", size=0.6), _read_at(300, "desert", size=0.6)],
     [None, None, None]),  # two pieces far apart bear out nothing
])
def test_a_named_card_far_smaller_than_a_card_beside_it_is_a_piece(cards: list[CardReading],
                                                                  kept: list[str | None]) -> None:
    """Every card is printed one size and two cards side by side are seen at nearly one scale: a card
    named at under 0.6 of the area of one beside it, named or refused, is a piece of a card (half of an
    inkwash "any" card named "mountain" beside a desert, a quarter of it named "forest" beside a refused
    water card); across the frame a tilted camera may halve a card; a refused blob over five times a card's
    area, or an outline of the table that looks like no card at all, is no card to measure by."""
    judged = pieces_refused(cards)
    assert [r.card for r in judged] == kept
    assert all(r.confidence < 0.5 for r in judged if r.card is None)


@pytest.mark.parametrize(("cards", "kept"), [
    ([_read_at(0, "any"), _read_at(0, "any"), _read_at(102, "any")], ["any", "any"]),  # one outline found twice
    ([_read_at(0, "any", 0.7), _read_at(3, "any", 1.0), _read_at(102, "desert")], ["any", "desert"]),
    ([_read_at(0, "water"), _read_at(102, "water")], ["water", "water"]),  # two of a kind, touching
    ([_read_at(20, None, 0.4, 0.5), _read_at(0, "forest")], ["forest"]),  # a refused piece of a named card
    ([_read_at(0, None, 0.4), _read_at(102, "forest")], [None, "forest"]),  # a refused card beside a named one
    ([_read_at(0, None, 0.4), _read_at(0, None, 0.3)], [None, None]),  # refusals are never merged
])
def test_each_place_holds_one_card(cards: list[CardReading], kept: list[str | None]) -> None:
    """A card two candidates led to is named once, the surer reading kept; a refused outline lying on a
    named card is a piece of it; cards side by side, named or not, all stay."""
    assert [r.card for r in one_per_place(cards)] == kept


def test_of_one_card_found_twice_the_surer_reading_is_kept() -> None:
    """Two outlines of one place naming one card: the one named with more confidence stays."""
    unsure, sure = _read_at(0, "any", 0.7), _read_at(3, "any", 1.0)
    assert one_per_place([unsure, sure]) == [sure]


@pytest.mark.parametrize(("cards", "kept"), [
    ([_read_at(0, "desert"), _read_at(105, "water"), _read_at(400, None, 0.0)], ["desert", "water"]),  # checks
    ([_read_at(0, "desert"), _read_at(105, "water"), _read_at(400, None, 0.3)], ["desert", "water", None]),  # a card?
    ([_read_at(0, "desert"), _read_at(105, None, 0.0)], ["desert", None]),  # the Mayor's second card, refused
    ([_read_at(0, "desert"), _read_at(400, "water"), _read_at(105, None, 0.0)], ["desert", "water", None]),  # apart
    ([_read_at(0, "desert"), _read_at(105, "water"), _read_at(40, None, 0.3)], ["desert", "water", None]),  # on one
    ([_read_at(0, "desert"), _read_at(105, "water"), _read_at(150, None, 0.3, size=0.5, y=-30)],
     ["desert", "water", None]),  # like a card, partly on one: a piece of it
    ([_read_at(0, "desert"), _read_at(105, "water"), _read_at(150, None, 0.0, size=0.5, y=-30)],
     ["desert", "water"]),  # like no card, partly on one: checks outlined with its corner
    ([_read_at(0, "desert"), _read_at(105, "water"), _read_at(40, None, 0.0)], ["desert", "water"]),  # no card
    ([_read_at(0, "desert"), _read_at(105, "water"), _read_at(-10, None, 0.0, size=2.2, y=0)],
     ["desert", "water"]),  # the blob around the pair
    ([_read_at(0, "desert"), _read_at(105, "water"), _read_at(215, None, 0.41, size=1.4)],
     ["desert", "water"]),  # like a card, but twice their area beside them: a plank's blob
    ([_read_at(0, "desert"), _read_at(105, "water"), _read_at(215, None, 0.41, size=1.1)],
     ["desert", "water", None]),  # like a card, and their size
    ([_read_at(0, "blue-A1"), _read_at(105, "blue-B1"), _read_at(400, None, 0.0)], ["blue-A1", "blue-B1", None]),
])
def test_an_outline_like_no_card_beside_the_mayors_named_pair_is_the_table(cards: list[CardReading],
                                                                          kept: list[str | None]) -> None:
    """Two terrain cards named side by side: a refused outline that looks like no card, or lies away from them
    and is not their size, is a patch of the table and is left out, so the frame is clean; one like a card of
    their size, one like a card lying partly on a named card, or any beside a lone card or two bonus cards,
    still holds the frame."""
    assert [r.card for r in table_left_out(cards)] == kept


@pytest.mark.parametrize(("style", "index"), [("inkwash", 1), ("chalk", 11)])
def test_the_benchmarks_pair_on_checks_beside_an_outline_like_no_card_is_logged(style: str, index: int,
                                                                               tmp_path) -> None:
    """The benchmark's pairs at rest on blue checks (seed 20261151): both cards named, and beside them an
    outline of checks and a corner of one card that looks like no card (confidence 0.10-0.12); the frame
    was never clean, so the scanner never logged the pair. Left out, it is."""
    pair, photo = bench_pair_at_rest(style, 20261151, TableTop.CHECK_BLUE, index)
    reading = bench_terrain_reader(style, 20261151, tmp_path).read(photo.image)
    assert sorted(reading.named) == sorted(pair) and reading.clean
