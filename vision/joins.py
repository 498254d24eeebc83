"""Outlines that tile one card: pieces of a card the cues cut apart, joined again.

A card whose art is split into panels (the built-in "any" card's four terrain quarters) may lose
its rim to the table; the cues then outline its panels, and a quarter of a card has a card's own
shape, so each may be named as the terrain it shows. Two outlines sharing a whole side make one
outline around both; four make one around two such pairs. Whatever the deck names there with
more confidence than every piece is the card, and its pieces are not cards.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from vision.blobs import card_shaped
from vision.features import order_corners
from vision.sides import short_side, side_lengths

JOIN_REACH = 0.2  # share of the smaller outline's short side a shared side's ends may lie apart: pieces cut
                  # from one blob share their cut to a px or two, outlines fitted to each a few px more


def joined(a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """The outline around two quads that share a whole side, if it has a card's shape; else None."""
    reach = JOIN_REACH * min(short_side(a), short_side(b))
    # every corner of a against every corner of b at once: the same distances as np.linalg.norm's
    d = a[:, None, :] - b[None, :, :]
    near = np.sqrt(np.add.reduce(d * d, axis=2)) <= reach
    for i in range(4):
        for j in range(4):
            # a shared side runs one way round one quad and the other way round the other
            for b0, b1 in (((j + 1) % 4, j), (j, (j + 1) % 4)):
                if near[i, b0] and near[(i + 1) % 4, b1]:
                    outer = order_corners(np.array([a[(i + 2) % 4], a[(i + 3) % 4], b[(j + 2) % 4], b[(j + 3) % 4]]))
                    return outer if card_shaped(outer) else None
    return None


def tilings(quads: list[np.ndarray]) -> list[tuple[tuple[int, ...], np.ndarray]]:
    """Every card-shaped outline the quads tile, largest first: (the quads' indices, the outline).

    Two quads sharing a side make half a card or a card; four, a card. Two may also be the half
    of a card that stands out from the table, the other half lost in it (blue and grey quarters
    on blue checks): the card is then that half doubled across its long side, one way or the other.
    """
    pairs = [((i, j), out) for i, j in combinations(range(len(quads)), 2)
             if (out := joined(quads[i], quads[j])) is not None]
    fours = [(p + q, out) for (p, a), (q, b) in combinations(pairs, 2)
             if not set(p) & set(q) and (out := joined(a, b)) is not None]
    doubled = [(p, whole) for p, half in pairs for whole in _doubled(half)]
    return fours + doubled + pairs


def _doubled(half: np.ndarray) -> list[np.ndarray]:
    """A quad doubled across each of its long sides: the card it is half of, either way."""
    out = []
    sides = side_lengths(half)  # the lengths np.linalg.norm gives each side
    for i in range(4):
        a, b, c, d = half[i], half[(i + 1) % 4], half[(i + 2) % 4], half[(i + 3) % 4]
        if sides[i] >= sides[(i + 1) % 4]:  # a-b is a long side: double away from it
            out.append(order_corners(np.array([a, b, 2 * c - b, 2 * d - a])))
    return [q for q in out if card_shaped(q)]

