"""The Mayor's second card beside the first: outlines of a card as big as a found one, lying next to it.

The Mayor lays two cards side by side, each the same size, a few millimetres to half a card
apart. Every cue of the live read (vision.detect) may miss one of them (a white card on birch,
a four-colour card on checks) while outlining the other exactly; the outline found then tells
how big the missing card is and about where it lies. So the places beside a found card (off
each of its four sides, a little apart or touching, slid a little along the side) are scored
by how much of their outline is an edge running along it, first at their far side alone, then
all round; the best few are snapped onto their edges, and those still mostly edge are offered
to the reader, which names one only when the deck recognises it.
"""

from __future__ import annotations

import numpy as np

from vision.sides import (
    Gradient,
    along_shares,
    along_support,
    following,
    iou,
    normals_out,
    short_side,
    side_lengths,
    snap,
)

GAPS = np.linspace(0.0, 0.7, 8)  # gap to the neighbour, share of the found card's short side (touching to ~0.6 card widths)
SLIDES = np.linspace(-0.3, 0.3, 5)  # slide along the shared side, share of that side (the Mayor's cards lie roughly level)
SHORTLIST = 12  # places kept after scoring their far side alone, to be scored all round
SNAPPED = 3  # best places snapped onto their edges
SNAP_SHARE = 0.06  # each end of a side may move this share of the short side when snapped (a gap step is 0.1)
MIN_ALONG = 0.6  # share of a neighbour's outline that must be an edge along it (a found card's own is 0.8 and up)
SAME_PLACE = 0.3  # intersection over union above which two outlines are one place
LINES_PER_BATCH = 128  # lines sampled at once: OpenCV's remap takes at most 32767 samples a side


def _places(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every place beside a quad, (k, 4, 2), and the index of each one's side facing away from it."""
    n, lengths = normals_out(quad), side_lengths(quad)
    along = (following(quad) - quad) / np.maximum(lengths, 1e-6)[:, None]
    depth = (np.roll(lengths, -1) + np.roll(lengths, 1)) / 2  # the card's extent across each side
    gap, slide = (g.ravel() for g in np.meshgrid(GAPS, SLIDES, indexing="ij"))
    moves = [(depth[i] + gap[:, None] * short_side(quad)) * n[i] + (slide * lengths[i])[:, None] * along[i] for i in range(4)]
    places = quad[None] + np.concatenate(moves)[:, None, :]
    far = np.repeat((np.arange(4) + 2) % 4, len(gap))
    return places, far


def _shares(grad: Gradient, a: np.ndarray, b: np.ndarray, n: np.ndarray) -> np.ndarray:
    """along_shares over any number of lines, in batches OpenCV can remap."""
    return np.concatenate([along_shares(grad, a[i:i + LINES_PER_BATCH], b[i:i + LINES_PER_BATCH], n[i:i + LINES_PER_BATCH])
                           for i in range(0, len(a), LINES_PER_BATCH)])


def places_beside(quad: np.ndarray, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Every place beside a quad wholly inside a frame of this (h, w) shape, (k, 4, 2) in the quad's
    px, and the index of each one's side facing away from it."""
    h, w = shape
    places, far = _places(quad)
    in_frame = ((places >= 0) & (places <= [w - 1, h - 1])).all(axis=(1, 2))
    return places[in_frame], far[in_frame]


def beside(grad: Gradient, quad: np.ndarray) -> list[np.ndarray]:
    """Outlines (work px, as grad) of a card the size of quad lying beside it, best first; none
    when no place beside it is mostly edge."""
    places, far = places_beside(quad, grad[0].shape)
    if not len(places):
        return []
    n = normals_out(quad)  # a place is the quad moved: its sides face the same ways
    rows = np.arange(len(places))
    # a place's far side is its own; the near side may be the found card's edge, so it cannot rank places
    first = np.argsort(-_shares(grad, places[rows, far], places[rows, (far + 1) % 4], n[far]))[:SHORTLIST]
    short = places[first]
    k = len(short)
    round_ = _shares(grad, short.reshape(-1, 2), np.roll(short, -1, axis=1).reshape(-1, 2),
                     np.repeat(n[None], k, axis=0).reshape(-1, 2)).reshape(k, 4).mean(axis=1)
    found: list[np.ndarray] = []
    for j in np.argsort(-round_)[:SNAPPED]:
        moved = snap(grad, short[j], SNAP_SHARE * short_side(quad))
        if along_support(grad, moved) >= MIN_ALONG and not any(iou(moved, q) > SAME_PLACE for q in found):
            found.append(moved)
    return found
