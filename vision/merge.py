"""One candidate per place: the cues' card candidates merged, best edge support first.

Several cues outline the same card, each a little differently; two touching cards may be found
alone by one cue and as one blob by another. Merging keeps each place's best-supported
candidate, reads a later blob holding a known card for what lies beside it, and keeps a later
outline that wraps a kept one (a card around its art's panel) in reserve among the kept
candidate's wraps, which the reader reads when nothing else names a card. An outline too short
for a card (a set-up card's dark header lost in the table) is kept lengthened at either end there too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from vision.blobs import Candidate, stretched
from vision.sides import Gradient, intersection_area, quad_area, short_side, snap

MIN_SUPPORT = 0.55  # share of the outline that must be a real step for a quad to count as a card
SAME_CARD_OVERLAP = 0.5  # intersection / smaller area above which two quads are one card
WRAP_OVERLAP = 0.9  # share of a kept outline inside a later, bigger one that wraps it (its card around its panel)
WRAP_GROWTH = (1.25, 4.0)  # area of the wrapping outline over the kept one's: the same card outlined again,
# a pixel out, is under 1.1x; a card over its art's panel 1.3-3.5x (a woodcut blue card's panel is a third of it)
STRETCH_SNAP = 0.1  # share of its short side each side of a lengthened outline may move onto an edge
APART_OVERLAP = 0.1  # intersection / smaller area below which two quads are two cards (rounded corners may touch)


def overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection of two convex quads over the smaller one's area."""
    return intersection_area(a, b) / max(min(quad_area(a), quad_area(b)), 1e-6)


def merge(candidates: list[Candidate]) -> list[Candidate]:
    """One candidate per place, best-supported first; a later one keeps only what the earlier leave.

    A blob holding a card found already and a card beside it (two cards touching) is read for the
    card beside it: its hypotheses that cut it where the known card ends. A later outline that
    wraps a kept one-card outline is kept among that candidate's wraps: the kept one may be its
    art's panel, outlined as cleanly as the card itself (the reader reads wraps when nothing else names a card).
    """
    kept: list[Candidate] = []
    for cand in sorted(candidates, key=lambda c: -c.support):
        if cand.support < MIN_SUPPORT:
            continue
        kept = [_wrapped(k, cand) for k in kept]
        rest = _beside(cand, [k for other in kept for k in other.hypotheses[0]])
        if rest is not None:
            kept.append(rest)
    return kept


def _wrapped(kept: Candidate, later: Candidate) -> Candidate:
    """A kept one-card candidate with the later candidate's first outline among its wraps, when that
    outline wraps the kept one and is clearly bigger (else the kept candidate as it is)."""
    inner, (outer, *more) = kept.hypotheses[0], later.hypotheses[0]
    if len(inner) != 1 or more or overlap(inner[0], outer) < WRAP_OVERLAP:
        return kept
    if not WRAP_GROWTH[0] <= quad_area(outer) / max(quad_area(inner[0]), 1e-6) <= WRAP_GROWTH[1]:
        return kept
    if any(len(h) == 1 and overlap(h[0], outer) > SAME_CARD_OVERLAP and quad_area(h[0]) >= quad_area(outer) / WRAP_GROWTH[0]
           for h in kept.hypotheses + kept.wraps):
        return kept  # it has an outline about this big here already
    return replace(kept, wraps=kept.wraps + ((outer,),))


def _beside(cand: Candidate, known: list[np.ndarray]) -> Candidate | None:
    """A candidate's hypotheses less the known cards: those whose every quad is a known card again
    or clear of them all, each without its known cards; None when nothing new is left."""
    if not known:
        return cand
    hyps = _less_known(cand.hypotheses, known)
    halving = cand.halving and (lambda: _less_known(cand.halved, known))  # made on demand, as the candidate's own
    return Candidate(hyps, cand.support, halving=halving) if hyps else None


def _less_known(hyps: tuple[tuple[np.ndarray, ...], ...], known: list[np.ndarray]) -> tuple[tuple[np.ndarray, ...], ...]:
    """Hypotheses less the known cards: those whose every quad is a known card again or clear of them all,
    each without its known cards."""
    kept = []
    for hyp in hyps:
        overlaps = [max(overlap(q, k) for k in known) for q in hyp]
        if any(APART_OVERLAP < o <= SAME_CARD_OVERLAP for o in overlaps):
            continue  # cuts across a known card: not a reading of what lies beside it
        new = tuple(q for q, o in zip(hyp, overlaps, strict=True) if o <= APART_OVERLAP)
        if new:
            kept.append(new)
    return tuple(kept)


def with_stretches(cand: Candidate, gradient: Callable[[], Gradient]) -> Candidate:
    """A candidate with its one-card first outline, if too short for a card, lengthened at either
    end and snapped onto the edges there, among its wraps (gradient: makes the frame's gradient,
    which only a short outline needs)."""
    first = cand.hypotheses[0]
    if len(first) != 1:
        return cand
    more = tuple((snap(gradient(), q, STRETCH_SNAP * short_side(q)),) for q in stretched(first[0]))
    return replace(cand, wraps=cand.wraps + more) if more else cand
