"""The Mayor's second card where no edge outlines it: the places beside a lone terrain card
(vision.beside.places_beside) ranked by how much each looks like a terrain card to the deck.

On a checked cloth every place beside a card is edge all round, and a light card's thin rim is
the weakest edge there, so ranking places by their edges (vision.beside) finds the checks, not
the card. The deck's coarse likeness does not care what the table is: the card's own art ranks
its place first. The best of a hundred places is also the patch of table most like a card,
so a card named there must show its detail as well (shows_detail).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.beside import SAME_PLACE
from vision.deck import Deck
from vision.features import order_corners, resolution, warp_card
from vision.judge import MIN_DETAIL, MIN_SCORE
from vision.sides import iou

LIKELY_PLACES = 3  # places read, likeliest first: the true place is first or second in the seen styles' pairs at rest


def likeness(deck: Deck, frame: np.ndarray, quad: np.ndarray, among: np.ndarray) -> float:
    """The deck's coarse similarity (0..1) of an ordered outline's card image to its likeliest card
    among these references (no twin call, no detail: the cheap part of a match)."""
    return deck.match(warp_card(frame, quad), fine_above=np.inf, among=among).score


def likeliest_places(deck: Deck, frame: np.ndarray, places: Sequence[np.ndarray], among: np.ndarray,
                     named: Sequence[np.ndarray], refused: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Up to LIKELY_PLACES places (frame px, ordered), most like a card among the references first,
    none in the same place (beside.SAME_PLACE) as another, as a named card's outline, or as a refused
    outline that looks like a card (MIN_SCORE): that place has had its reading, and a card seen a
    little off and refused must not be named anew by a place the likeness chose (a glared painted
    water card was named forest so)."""
    taken = [order_corners(q) for q in named] + [q for q in map(order_corners, refused)
                                                 if likeness(deck, frame, q, among) >= MIN_SCORE]
    ranked = sorted(((likeness(deck, frame, q, among), q) for q in map(order_corners, places)), key=lambda t: -t[0])
    chosen: list[np.ndarray] = []
    for _, quad in ranked:
        if len(chosen) == LIKELY_PLACES:
            break
        if all(iou(quad, other) <= SAME_PLACE for other in chosen + taken):
            chosen.append(quad)
    return chosen


def shows_detail(deck: Deck, frame: np.ndarray, corners: np.ndarray, card: str) -> bool:
    """Whether an outline named card shows that card's detail (MIN_DETAIL, a close call's), measured
    whatever its margin: what a card named at a place the likeness chose must show."""
    quad = order_corners(corners)
    match = deck.match(warp_card(frame, quad), MIN_SCORE, np.inf, resolution(quad))
    return match.card == card and match.detail is not None and match.detail >= MIN_DETAIL
