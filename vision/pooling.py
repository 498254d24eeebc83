"""Twins' photos pooled over their marks: where twins show the same thing (a set-up card's letter at
one place on its ring, a blue card's "#1" badge), the photos of every card showing it stand for each.

A card has two enrolled photos or so. One blurrier than the other, or a pixel off, makes its card's
mean differ from a twin's over a letter both show, and a card is then told from that twin by its
blur, not by its letters (an inkwash set-up-04 on a clean photo named set-up-11). Pooled, the twins
are the same wherever they show the same thing, and differ only where their letters do.

Which of the things a card shows (cards.shown_marks) a mark is, is learnt from the photos: the
field whose values group the twins' means over the mark best, if it explains POOL_EXPLAINED of how
they vary there. A mark no field explains so (two letters merged into one mark, a pictogram) keeps
each card's own photos.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

POOL_EXPLAINED = 0.8  # share of the variance of the twins' means over a mark that grouping them by one
# field (the letter at one place) must explain for the mark to be pooled by it: a random grouping of 13
# cards into 5 letters explains about a third, photo noise leaves the true field short of 1 (at 0.65 the seen styles'
# 2496 set-up and blue photos, seeds 20261160-51, read the same but one)


@dataclass(frozen=True, eq=False)
class Pooling:
    """For each mark of a family, which cards' photos stand for each card there."""

    marks: np.ndarray  # (glyph,) each glyph pixel's mark (0: on none, each card its own photos)
    groups: np.ndarray  # (marks + 1, cards) each card's group at each mark: cards of one group pool their photos

    @staticmethod
    def plan(means: np.ndarray, marks: np.ndarray, shows: Sequence[tuple[str, ...]]) -> Pooling:
        """Group the twins (rows of means, (cards, glyph)) over each mark by the field of what they
        show (shows: cards.shown_marks of each) that explains their means there best."""
        cards = len(shows)
        groups = np.tile(np.arange(cards), (int(marks.max()) + 1, 1))
        if len({len(s) for s in shows}) != 1:
            return Pooling(marks, groups)
        fields = [np.unique(np.array(field), return_inverse=True)[1] for field in zip(*shows, strict=True)]
        fields = [f for f in fields if f.max() + 1 < cards]  # a field no two twins share pools nothing
        for mark in range(1, len(groups)):
            values = means[:, marks == mark]
            total = float(((values - values.mean(axis=0)) ** 2).sum())
            if total <= 0 or not fields:
                continue
            explained = [1.0 - _within(values, f) / total for f in fields]
            best = int(np.argmax(explained))
            if explained[best] >= POOL_EXPLAINED:
                groups[mark] = fields[best]
        return Pooling(marks, groups)

    def explained(self) -> np.ndarray:
        """(marks + 1,) bool: which marks a field of what the twins show explains (0, off every mark: False)."""
        return np.array([False] + [not (g == np.arange(len(g))).all() for g in self.groups[1:]])

    def printed(self) -> np.ndarray:
        """Each glyph pixel's mark if what the twins show explains it (0 elsewhere), or every mark if
        none is explained (twins that show nothing in common: terrain, red). Where some field explains
        a mark, the twins' printed differences are those fields; a mark none explains is where each
        card's few photos happen to agree (a rim both were taken by a little off alike), not print."""
        explained = self.explained()
        if not explained.any():
            return self.marks
        return np.where(explained[self.marks], self.marks, 0)

    def means(self, photos: np.ndarray, owner: np.ndarray, cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each card's mean of the photos standing for it (cards, glyph), and how many photos that
        is at each pixel (cards, glyph). Rows of photos are glyph layouts, owner their cards."""
        sums = np.stack([photos[owner == c].sum(axis=0) for c in cards])
        counts = np.array([(owner == c).sum() for c in cards], np.float64)
        means = sums / counts[:, None]
        n = np.repeat(counts[:, None], photos.shape[1], axis=1)
        for mark in range(1, len(self.groups)):
            where = np.flatnonzero(self.marks == mark)
            group = self.groups[mark]
            for k in np.unique(group):
                members = np.flatnonzero(group == k)
                if len(members) < 2:
                    continue
                means[np.ix_(members, where)] = sums[np.ix_(members, where)].sum(axis=0) / counts[members].sum()
                n[np.ix_(members, where)] = counts[members].sum()
        return means, n


def _within(values: np.ndarray, group: np.ndarray) -> float:
    """The sum of squares of rows of values about their group's mean."""
    return float(sum(((values[group == k] - values[group == k].mean(axis=0)) ** 2).sum() for k in np.unique(group)))
