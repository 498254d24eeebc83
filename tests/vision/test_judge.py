"""Judging a match (vision.judge): named only when sure, and as sure as its evidence."""

from __future__ import annotations

import pytest

from vision.deck import Match
from vision.judge import judge


@pytest.mark.parametrize(("detail", "named"), [
    (0.36, False),  # a 3 of spades matched "mountain" (live-table simulator, seed 20261124)
    (0.46, False),  # a king of clubs, likewise
    (0.50, False),  # a seven of spades matched "mountain" by 0.24 (live-table simulator, seed 20261127)
    (0.54, False),  # the same card in another frame of that run
    (0.563, False),  # a playing card's spade on the hexagon mat matched "mountain" by 0.22 (bench_vision, 20261146)
    (0.62, True),  # the least detail of a true card read with such a margin on the tuning sets (glare)
    (None, False),  # a margin short of clear must be backed by detail, so it is measured
])
def test_a_card_without_twins_matched_short_of_a_clear_margin_needs_some_detail(detail, named) -> None:
    """Another game's card can look like a plain terrain card by a fair margin; its detail tells."""
    match = Match("mountain", score=0.595, margin=0.20, fine_margin=None, turned=False, detail=detail)
    assert judge(match)[0] is named


@pytest.mark.parametrize(("match", "named"), [
    # a water card under a lamp on wood, matched to the blue family (standard, tuning seed 103)
    (Match("blue-C1", score=0.64, margin=0.24, fine_margin=0.46, turned=False, detail=0.49), False),
    # set-up card 6 read as its twin 7 on a warp that missed its letters (woodcut, tuning seed 103)
    (Match("setup-07", score=0.95, margin=0.74, fine_margin=0.61, turned=False, detail=0.19), False),
    (Match("setup-07", score=0.95, margin=0.74, fine_margin=0.61, turned=False, detail=0.66), True),
    (Match("blue-C1", score=0.60, margin=0.24, fine_margin=0.46, turned=False, detail=0.66), True),
])
def test_a_twin_named_needs_detail_however_far_it_leads_its_twins(match, named) -> None:
    """A lead over the other twins does not excuse a card whose detail is not the named twin's at all
    (true twins show 0.66 and more on the tuning sets)."""
    assert judge(match)[0] is named


@pytest.mark.parametrize(("fine_margin", "low", "high"), [
    (0.27, 0.5, 0.6),  # a flat blue-A2 read as A1 barely past the twins' gate (held out, seed 20261122): was 1.0
    (0.375, 0.7, 0.8),
    (0.50, 1.0, 1.0),
    (0.85, 1.0, 1.0),
])
def test_a_twin_is_named_with_the_confidence_its_lead_over_the_next_twin_earns(fine_margin, low, high) -> None:
    """Among twins the call is only as sure as its lead: a card whose kind is beyond doubt (score 0.89,
    margin 0.71 over every other kind) but that barely clears the next twin is named, not with confidence 1."""
    match = Match("blue-A1", score=0.89, margin=0.71, fine_margin=fine_margin, turned=False, detail=0.96)
    named, confidence = judge(match)
    assert named and low <= confidence <= high


@pytest.mark.parametrize(("detail", "rival_detail", "named"), [
    (0.95, 0.46, True),  # water under glare, blue bonus cards close behind (standard, mat-square)
    (0.99, 0.43, True),
    (0.95, 0.70, False),  # the runner-up's detail is a card's too: a close call stays one
    (0.85, 0.30, False),  # the named card's detail is not a sure card's
    (0.95, None, False),  # the runner-up was not looked at: no evidence
])
def test_a_close_call_is_settled_only_by_detail_far_above_the_runner_ups(detail, rival_detail, named) -> None:
    """A margin under MIN_MARGIN is too close to choose on the coarse score; detail settles it only
    when the named card's is a sure card's and the runner-up's lies far below."""
    match = Match("water", score=0.60, margin=0.04, fine_margin=None, turned=False, detail=detail,
                  rival_detail=rival_detail)
    assert judge(match)[0] is named


@pytest.mark.parametrize(("fine_margin", "steady", "named"), [
    (0.40, True, True),
    (0.40, False, False),  # a look at it alone (a nudged outline) calls another twin: a guess
    (0.55, False, True),  # a clear lead over every twin needs no look to agree
    (0.20, True, False),
])
def test_a_twin_short_of_a_clear_lead_is_named_only_if_every_look_names_it(fine_margin, steady, named) -> None:
    """Among twins, a call short of CLEAR_FINE_MARGIN stands only when every look at the card alone
    (Match.steady) names the same twin."""
    match = Match("blue-C1", score=0.95, margin=0.74, fine_margin=fine_margin, turned=False, detail=0.97, steady=steady)
    assert judge(match)[0] is named
