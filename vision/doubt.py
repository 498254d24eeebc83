"""Doubtful enrolled photos: a photo whose outline was found wrong looks unlike its own card and its kind.

Enrollment sometimes takes a card by a wrong outline (a set-up card's scroll panel on a light
table, a blue card cut at its header): the stored image is then a zoom or a slice of the card.
Such a reference is worse than none, because it is far from every real photo of its card but
may be close to a twin's photos, and pulls them to a wrong name. The cards of one kind (the 13
set-up cards, the 10 blue, the 5 red, the 5 terrain) share most of their design, so a good
photo is about as close to the kind's other cards as any other good photo of the kind is; a
wrongly outlined one is far less close, and far from its own card's other photo too.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.cards import kind_of

DOUBT_GAP = 0.30  # coarse similarity (-1..1): a photo this far below its kind's typical closeness is doubted
MIN_KIN_CARDS = 3  # other cards of the kind with photos before a photo is judged against them: fewer is no norm


def doubtful(labels: Sequence[str], similarity: np.ndarray, twins_above: float) -> np.ndarray:
    """Which references (rows of the symmetric similarity matrix) look unlike their card and kind.

    Only kinds whose cards are near-twins (typically more alike than twins_above) are judged: a
    wrong reference steals photos from its twins, and only there is the kind's design a norm. A
    reference is doubted when its median similarity to the other cards of its kind falls more
    than DOUBT_GAP below the kind's typical value, and, if its card has other photos, its best
    similarity to them also falls DOUBT_GAP below how alike two photos of one card of the kind are.
    """
    labels = np.asarray(labels)
    doubted = np.zeros(len(labels), bool)
    for kind in {kind_of(str(card)) for card in labels}:
        members = np.flatnonzero(np.isin(labels, kind))
        kin, own = _closeness(labels[members], similarity[np.ix_(members, members)])
        judged = ~np.isnan(kin)
        if not judged.any() or np.nanmedian(kin) < twins_above:
            continue
        far_from_kin = judged & (kin < np.nanmedian(kin) - DOUBT_GAP)
        known = ~np.isnan(own)
        far_from_own = ~known | (own < (np.nanmedian(own) if known.any() else np.inf) - DOUBT_GAP)
        doubted[members] = far_from_kin & far_from_own
    return doubted


def _closeness(labels: np.ndarray, similarity: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per reference: median similarity to other cards of the kind (NaN when too few) and best
    similarity to its own card's other photos (NaN when it has none)."""
    kin = np.full(len(labels), np.nan)
    own = np.full(len(labels), np.nan)
    for i, card in enumerate(labels):
        others = labels != card
        if len(set(labels[others])) >= MIN_KIN_CARDS:
            kin[i] = np.median(similarity[i, others])
        mine = ~others
        mine[i] = False
        if mine.any():
            own[i] = similarity[i, mine].max()
    return kin, own
