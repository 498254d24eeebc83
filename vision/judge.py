"""Judge a match (vision.deck.Match): whether it is sure enough to name its card, and how sure.

A card is named only when it looks like a card of the deck (MIN_SCORE), clearly more like it than any
card outside its family (MIN_MARGIN, or a close call its detail settles), clearly more like it than any
of its twins (MIN_FINE_MARGIN), and, unless the margin is wide, with the detail of that card. Anything
less is refused: the console offers the cards by hand, and a refused card costs a tap where a wrong
one costs the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # annotations only: vision.deck imports MIN_DETAIL from here
    from vision.deck import Match

MIN_SCORE = 0.55  # coarse similarity below which the card is not in the deck (back, other game)
MIN_MARGIN = 0.10  # best minus runner-up card: below it two cards are too alike to choose
MIN_FINE_MARGIN = 0.25  # among near-twins: the card must sit a quarter of the way from the named twin toward the next (or nearer); a confused warp sits near 0
MIN_DETAIL = 0.75  # detail correlation once aligned, for a close call: true cards 0.95+, other games' cards < 0.45
DETAIL_FLOOR = 0.60  # detail any card needs whenever it is measured: true cards 0.62+ even under glare (twins 0.66+,
                     # bar one read on a warp a quarter off), another game's card 0.36-0.56 (a seven of spades
                     # matched "mountain": 0.50, 0.54; a spade on the hexagon mat 0.563, named at 0.56), a water
                     # card named blue 0.46-0.49; at 0.60 the seen styles' 5760 photos read exactly as at 0.56
CLOSE_CALL_DETAIL = 0.90  # detail that settles a close call: true cards 0.95+ on a good outline, a rival 0.6 at most
CLOSE_CALL_LEAD = 0.35  # ... over the runner-up's detail (water over a blue bonus card under glare: 0.5+)
CLEAR_MARGIN = 0.30  # a margin this wide (over every other card) needs no detail: glare and blur wipe detail out
CLEAR_FINE_MARGIN = 0.50  # the same among near-twins: the twin-vs-twin projection already is a detail test (confidence 1 from here)
SURE_SCORE = 0.80  # a hypothesis whose cards all score this high is not worth challenging
SURE_DETAIL = 0.95  # ... nor one whose cards' detail, once aligned, is this high: only a true card on its whole
# outline matches so (CLOSE_CALL_DETAIL); a painted card's coarse score stays under SURE_SCORE at 0.69-0.75
CONFIDENT_SCORE = 0.85  # similarity at which a card reads as a sure match (confidence 1)
CONFIDENT_MARGIN = 0.30  # margin at which a card reads as a sure match
REFUSED_CONFIDENCE = 0.49  # the highest confidence of a refused card (named ones have 0.5 or more)
PARTNER_SCORE = 0.40  # coarse similarity a lone terrain card's partner needs among the terrain cards: glare on a
# card with little art (a flat colour, one pictogram) takes a true one to 0.45-0.55 (tuning photos 0.52+)
PARTNER_MARGIN = 0.05  # ... over the next terrain card (tuning photos' true partners 0.09+)
PARTNER_DETAIL = 0.65  # ... and the detail it always needs: true partners under glare 0.68+ (tuning photos), a card
# back, another game's card, a bonus or set-up card laid beside a terrain card 0.50 at most (4 styles, 400 frames)


def _ramp(value: float, low: float, high: float) -> float:
    return float(np.clip((value - low) / (high - low), 0.0, 1.0))


def required_detail(match: Match) -> float:
    """The detail correlation a match needs: MIN_DETAIL for a close call, less as the margin clears.

    A glare spot, blur or a painted texture lowers detail on a true card; a wide margin over every
    other card (or, among twins, over every twin) is evidence enough that detail need not add more
    than DETAIL_FLOOR, below which the card is not the one named (or not even of the deck).
    """
    if match.fine_margin is None:
        evidence = _ramp(match.margin, MIN_MARGIN, CLEAR_MARGIN)
        if evidence >= 1.0:
            return 0.0  # a clear margin: detail is not even measured
    else:
        # Among twins a lead over the other twins excuses poor detail only on a card that looks like
        # the family at all: a piece of another card (half a blue card's panel) may lead its twins.
        evidence = min(_ramp(match.fine_margin, MIN_FINE_MARGIN, CLEAR_FINE_MARGIN),
                       _ramp(match.score, MIN_SCORE, SURE_SCORE))
    return max(MIN_DETAIL * (1.0 - evidence), DETAIL_FLOOR)


def _told_by_detail(match: Match) -> bool:
    """Whether a close call (a margin under MIN_MARGIN) is settled by detail: the named card's is a
    sure card's and the runner-up's is far below it (a water card beside blue bonus cards under glare)."""
    return (match.detail is not None and match.rival_detail is not None and match.detail >= CLOSE_CALL_DETAIL
            and match.detail - match.rival_detail >= CLOSE_CALL_LEAD)


def judge(match: Match) -> tuple[bool, float]:
    """Decide whether a match is sure enough to name, and its confidence in 0..1.

    A card whose kind is not wholly in the deck is never named: the photo may show the missing
    twin, and a deck without it cannot tell (enroll every card of a kind, or none of it). Nor is a
    twin named without a clear lead (CLEAR_FINE_MARGIN) that some look at it alone (Match.steady: its
    outline nudged a fraction of a millimetre) would call another: such a call is a guess.
    """
    accept = match.kind_complete and match.score >= MIN_SCORE and (match.margin >= MIN_MARGIN or _told_by_detail(match))
    accept = accept and (match.fine_margin is None or match.fine_margin >= MIN_FINE_MARGIN)
    accept = accept and (match.steady or match.fine_margin is None or match.fine_margin >= CLEAR_FINE_MARGIN)
    required = required_detail(match)
    accept = accept and (required <= 0 or (match.detail is not None and match.detail >= required))
    margin = match.margin if match.fine_margin is None else min(match.margin, 3 * match.fine_margin)
    if accept:
        sure = min(_ramp(match.score, MIN_SCORE, CONFIDENT_SCORE), _ramp(margin, MIN_MARGIN, CONFIDENT_MARGIN))
        if match.fine_margin is not None:  # among twins the call is as sure as its lead over the next twin
            sure = min(sure, _ramp(match.fine_margin, MIN_FINE_MARGIN, CLEAR_FINE_MARGIN))
        return True, 0.5 + 0.5 * sure
    unsure = min(_ramp(match.score, 0.0, MIN_SCORE), _ramp(margin, 0.0, MIN_MARGIN))
    return False, min(REFUSED_CONFIDENCE, 0.5 * unsure)


def partner_named(match: Match) -> bool:
    """Whether a match among the terrain cards alone names a lone terrain card's partner: a weaker
    likeness than judge asks of any card, but always its detail (PARTNER_DETAIL), which no card back,
    other game's or bonus card laid beside it reaches."""
    return (match.kind_complete and match.score >= PARTNER_SCORE and match.margin >= PARTNER_MARGIN
            and (match.fine_margin is None or match.fine_margin >= MIN_FINE_MARGIN)
            and match.detail is not None and match.detail >= PARTNER_DETAIL)
