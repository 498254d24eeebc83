"""The readings of one frame weighed against each other: a card named far smaller than one beside it is a
piece of a card, one place holds one card, and an outline that looks like no card beside the Mayor's
named pair is the table.

Every card of the game is printed one size, so the outlines of one frame measure each other.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from vision.beside import SAME_PLACE
from vision.cards import TERRAINS
from vision.judge import REFUSED_CONFIDENCE
from vision.sides import covered, iou, quad_area

if TYPE_CHECKING:
    from vision.reader import CardReading

PIECE_AREA = 0.4  # every card of the game is printed one size, and a camera tilted 20 degrees shows one at most
# twice another's area across the frame: a card named at under 0.4 of another's area is a piece of a card
# (a quarter of the "any" card's four-part panel, 0.22, looks like that terrain's own panel)
NEAR_PIECE_AREA = 0.55  # two cards lying side by side are seen at nearly one scale: of 414 pairs at rest named
# right (6 seen styles, 20 degree tilt) the smaller had 0.70+ of the larger's area, a partner outlined short of its
# rim 0.60; a card's half (an "any" card's two top quarters, named "mountain") had 0.46-0.51 of the card beside it,
# and half a card has nearly a card's aspect
NEAR_REACH = 2.0  # centre distance, in square roots of the larger card's area, within which two cards lie side by
# side (a pair 0.6 card widths apart: 1.8 at most; the 414 pairs above 1.78)
PIECE_SMALLEST = 0.2  # share of a card's area the smallest piece of it outlined as a card shows (a quarter of the
# "any" card's panel, 0.22): a refused outline over 1 / 0.2 times a named card's area is no card it is a piece of
LIKE_A_CARD = 0.25  # confidence of a refused outline that looks like some card of the deck, if none surely (a
# glared water card 0.42, half an "any" card 0.27-0.29): a patch of checks or grain outlined beside a pair reads
# 0.00-0.11 and is no card to measure one by
ON_A_CARD = 0.1  # share of a refused outline lying on a named card beyond which it is no patch of the table beside
# the card: outlines of two cards that touch overlap a few percent at most
AROUND_A_CARD = 0.9  # share of a named card inside a refused outline above which that outline is a blob around it
PIECE_COVERED = 0.5  # a refused outline lying this much on a named card shows a piece of it (two cards of a pair
# only touch: one covers a few percent of the other at most)


def _near(quad: np.ndarray, other: np.ndarray) -> bool:
    """Whether two outlines lie side by side: centres within NEAR_REACH square roots of the larger one's area."""
    reach = NEAR_REACH * np.sqrt(max(quad_area(quad), quad_area(other)))
    return bool(np.linalg.norm(quad.mean(axis=0) - other.mean(axis=0)) <= reach)


def alike_in_size(quad: np.ndarray, other: np.ndarray) -> bool:
    """Whether an outline is not a piece beside another card's: at least PIECE_AREA of its area anywhere
    in the frame, and NEAR_PIECE_AREA where the two lie side by side (NEAR_REACH)."""
    return quad_area(quad) >= (NEAR_PIECE_AREA if _near(quad, other) else PIECE_AREA) * quad_area(other)


def side_by_side(quad: np.ndarray, other: np.ndarray) -> bool:
    """Whether two outlines lie side by side (NEAR_REACH) and alike in size each to the other (alike_in_size)."""
    return _near(quad, other) and alike_in_size(quad, other) and alike_in_size(other, quad)


def pieces_refused(cards: list[CardReading]) -> list[CardReading]:
    """The readings with every named card that is a piece beside another outline refused (alike_in_size):
    beside any named card, or beside a refused one that looks like a card (LIKE_A_CARD) and is no bigger
    than a card it could be a piece of (PIECE_SMALLEST): a patch of the table is no card to measure by.
    Nor is a refused outline one to measure a named card by that has a named card of its size beside it:
    two cards named alike in size bear out each other's scale against one outline the deck refused (a
    pair at rest beside a plank's blob that looks a little like a desert card was refused so)."""
    quads = [np.array(r.corners) for r in cards]
    areas = [quad_area(q) for q in quads]
    paired = [any(k != i and r.card is not None and side_by_side(quads[i], quads[k]) for k, r in enumerate(cards))
              for i in range(len(cards))]

    def piece(i: int) -> bool:
        return any(not alike_in_size(quads[i], quads[j]) for j, r in enumerate(cards)
                   if r.card is not None or (not paired[i] and r.confidence >= LIKE_A_CARD
                                             and areas[j] * PIECE_SMALLEST <= areas[i]))

    return [refused(r) if r.card is not None and piece(i) else r for i, r in enumerate(cards)]


def one_per_place(cards: list[CardReading]) -> list[CardReading]:
    """The readings with one card per place: an outline two candidates led to is named once, and a
    refused outline lying mostly on a named card (covered over PIECE_COVERED) is a piece of it, not
    a card the frame waits on (an inkwash "any" card's panel read both as a piece and, wrapped, as
    the card; its pair logged as three "any" cards and an unnamed one)."""
    named = sorted((r for r in cards if r.card is not None), key=lambda r: -r.confidence)
    kept: list[CardReading] = []
    for r in named:
        if all(r.card != k.card or iou(np.array(r.corners), np.array(k.corners)) <= SAME_PLACE for k in kept):
            kept.append(r)
    return [r for r in cards if any(r is k for k in kept) or (r.card is None and all(
        covered(np.array(r.corners), np.array(k.corners)) <= PIECE_COVERED for k in kept))]


def refused(reading: CardReading) -> CardReading:
    """The reading with its card refused."""
    return replace(reading, card=None, confidence=min(reading.confidence, REFUSED_CONFIDENCE), letters=None)


def table_left_out(cards: list[CardReading]) -> list[CardReading]:
    """The readings without the refused outlines that are no card beside the Mayor's pair, once two terrain
    cards are named side by side (side_by_side): an outline that looks like no card (under LIKE_A_CARD),
    wherever it lies, or lies on neither and is not their size (alike_in_size, both ways) is a patch of checks,
    grain or mat, or a blob around them, and a frame holding one is never clean, so the scanner never logged
    the pair (seen styles: 40 of 1680 pairs at rest named right so). A refused outline like a card that lies
    partly on a named card (a piece of it, or a card outlined astray) still holds the frame, as does one like
    a card of their size. One like no card partly on a named card is a patch of checks a cue outlined with a
    corner of the card (seen styles' pairs at rest on blue checks: 4 of 480 named right so, 1659 -> 1661 of
    1680 on every top; held out 810 -> 812 of 840, none named wrong)."""
    named = [np.array(r.corners) for r in cards if r.card in TERRAINS]
    if not any(side_by_side(a, b) for a, b in combinations(named, 2)):
        return cards

    def holds(quad: np.ndarray, confidence: float) -> bool:
        if confidence < LIKE_A_CARD:
            return False
        if any(covered(quad, q) > ON_A_CARD and covered(q, quad) < AROUND_A_CARD for q in named):
            return True
        return all(alike_in_size(quad, q) and alike_in_size(q, quad) for q in named)

    return [r for r in cards if r.card is not None or holds(np.array(r.corners), r.confidence)]
