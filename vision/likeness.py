"""The Mayor's second card where no edge outlines it: the places beside a lone terrain card
(vision.beside.places_beside) ranked by how much each looks like a terrain card to the deck.

On a checked cloth every place beside a card is edge all round, and a light card's thin rim is
the weakest edge there, so ranking places by their edges (vision.beside) finds the checks, not
the card. The deck's coarse likeness does not care what the table is: the card's own art ranks
its place first. The places lie on a grid (a tenth of a card's width apart), and a place a few
pixels off its card looks far less like it (an ink-wash water card: 0.95 on its outline, 0.37 on
the nearest place), so the likeliest are moved a step at a time while that makes them more like a
card (climbed). The best of a hundred places, climbed, is also the patch of table most like a card,
so a card named there must show the detail that settles a close call as well (shows_detail).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.beside import SAME_PLACE
from vision.deck import Deck
from vision.features import order_corners, resolution, warp_card
from vision.judge import CLOSE_CALL_DETAIL, MIN_SCORE
from vision.sides import iou, short_side

LIKELY_PLACES = 3  # places read, likeliest first (each a full read, and a card named there a detail measure)
CLIMBED_PLACES = 5  # the likeliest places climbed before they are ranked again (eight climbed six steps: no more
# of the seen styles' pairs at rest found)
CLIMB_STEP = 0.04  # share of a place's short side it moves by in one step (~3-5 px on a card 25-45% of 432 px)
CLIMB_ROUNDS = 4  # steps at most: the grid's places lie 0.1 of a short side apart across and 0.15 of a side along,
# so a card beside the first lies within about two steps of its nearest place


def likeness(deck: Deck, frame: np.ndarray, quad: np.ndarray, among: np.ndarray) -> float:
    """The deck's coarse similarity (0..1) of an ordered outline's card image to its likeliest card
    among these references (no twin call, no detail: the cheap part of a match)."""
    return deck.match(warp_card(frame, quad), fine_above=np.inf, among=among).score


def climbed(deck: Deck, frame: np.ndarray, quad: np.ndarray, among: np.ndarray,
            score: float) -> tuple[float, np.ndarray]:
    """A place (ordered, with its likeness) moved CLIMB_STEP at a time along or across its sides, or
    both, while that makes it more like a card: its likeness and where it ends."""
    across, down = quad[1] - quad[0], quad[3] - quad[0]
    across, down = (v / max(float(np.linalg.norm(v)), 1e-6) for v in (across, down))
    step = CLIMB_STEP * short_side(quad)
    moves = [step * (a * across + d * down) for a in (-1, 0, 1) for d in (-1, 0, 1) if a or d]
    for _ in range(CLIMB_ROUNDS):
        best, moved = max(((likeness(deck, frame, quad + m, among), quad + m) for m in moves), key=lambda t: t[0])
        if best <= score:
            break
        score, quad = best, moved
    return score, quad


def likeliest_places(deck: Deck, frame: np.ndarray, places: Sequence[np.ndarray], among: np.ndarray,
                     named: Sequence[np.ndarray], refused: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Up to LIKELY_PLACES places (frame px, ordered), most like a card among the references first
    (the CLIMBED_PLACES likeliest climbed), none in the same place (beside.SAME_PLACE) as another, as
    a named card's outline, or as a refused outline that looks like a card (MIN_SCORE): that place
    has had its reading, and a card seen a little off and refused must not be named anew by a place
    the likeness chose (a glared painted water card was named forest so)."""
    taken = [order_corners(q) for q in named] + [q for q in map(order_corners, refused)
                                                 if likeness(deck, frame, q, among) >= MIN_SCORE]
    ranked = sorted(((likeness(deck, frame, q, among), q) for q in map(order_corners, places)), key=lambda t: -t[0])
    ranked = sorted((climbed(deck, frame, q, among, s) for s, q in ranked[:CLIMBED_PLACES]),
                    key=lambda t: -t[0]) + ranked[CLIMBED_PLACES:]
    chosen: list[np.ndarray] = []
    for _, quad in ranked:
        if len(chosen) == LIKELY_PLACES:
            break
        if all(iou(quad, other) <= SAME_PLACE for other in chosen + taken):
            chosen.append(quad)
    return chosen


def shows_detail(deck: Deck, frame: np.ndarray, corners: np.ndarray, card: str) -> bool:
    """Whether an outline named card shows the detail that settles a close call for it (CLOSE_CALL_DETAIL),
    measured whatever its margin: what a card named at a place the likeness chose must show. White marble
    beside a lone flat card passes the coarse call as "any" with a clear margin, and climbed it reached
    detail 0.71 (seen styles' pairs at rest, 1680: 1657 right asking MIN_DETAIL, 0.75; 1656 asking this)."""
    quad = order_corners(corners)
    match = deck.match(warp_card(frame, quad), MIN_SCORE, np.inf, resolution(quad))
    return match.card == card and match.detail is not None and match.detail >= CLOSE_CALL_DETAIL
