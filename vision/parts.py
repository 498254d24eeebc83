"""Where two twins differ, glyph by glyph: each pair's region cut into parts (a letter, a digit, a
badge: the family's marks, or else the region's connected parts), each part compared with the card
at the shift where it fits best.

A card aligned onto its family's template as a whole may still lie a millimetre off in one corner
(a lens, a bent card, an outline a little skewed): one shift for the whole region then fits the
letters at the top and misses the digit at the right, and the badge alone decides. Each part at
its own shift sees every glyph where it lies. Parts are shared: the pairs of a family differ at
the same few glyph places, so each distinct part is compared with the card once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.features import glyph_shape

REGION_REACH = 3  # px (1.5 mm): how far a card's glyphs may lie off the family template after alignment


@dataclass(frozen=True, eq=False)
class Parts:
    """Every distinct glyph part of a family's pair regions, and which pair each part belongs to."""

    pixels: np.ndarray  # (T,) glyph-layout indices of all parts' pixels, part after part
    starts: np.ndarray  # (parts,) where each part begins in pixels
    units: np.ndarray  # (cards, T) each card's layout over each part: zero mean, unit norm there
    shifted: np.ndarray  # (T, shifts) indices into the layout padded by REGION_REACH: each pixel at each shift
    pair: np.ndarray  # (entries,) the pair (row of Regions.pairs) an entry of a part in a pair belongs to
    part: np.ndarray  # (entries,) the part of each entry
    rho: np.ndarray  # (entries,) correlation of the pair's twins over the part
    weight: np.ndarray  # (entries,) how much the part tells the pair apart: (1 - rho) * its pixels
    twins: np.ndarray  # (pairs, 2) the card rows of each pair

    @staticmethod
    def cut(glyphs: np.ndarray, regions: np.ndarray, pairs: tuple[tuple[int, int], ...],
            marks: np.ndarray | None = None) -> Parts:
        """The parts of each pair's region (regions: (pairs, glyph) bool), with each card's layout
        (glyphs: (cards, glyph)) over every part. marks (per glyph pixel: the family's mark, 0 off
        every mark; regions._marks): a region's pixels on a mark are compared over the whole mark, grown
        by REGION_REACH, one part per mark that every pair differing there shares; the rest of it
        (or all of it, without marks) by its own connected parts. Thirteen set-up cards' 78 pairs
        cut into connected parts had 397 distinct ones of 173k pixels in all; along their ten letters
        a few thousand pixels."""
        shape = glyph_shape()
        marks = np.zeros(regions.shape[1], np.int32) if marks is None else marks
        grown = _grown_marks(marks.reshape(shape))
        index: dict[bytes, int] = {}
        found: list[np.ndarray] = []
        entries: list[tuple[int, int]] = []

        def part(where: np.ndarray) -> int:
            key = where.tobytes()
            if key not in index:
                index[key] = len(found)
                found.append(where)
            return index[key]

        for k, region in enumerate(regions):
            rest = region.copy()
            for m in np.unique(marks[region & (marks > 0)]):
                entries.append((k, part(grown[m])))
                rest[grown[m]] = False
            count, labels = cv2.connectedComponents(rest.reshape(shape).astype(np.uint8))
            for label in range(1, count):
                entries.append((k, part(np.flatnonzero(labels.ravel() == label))))
        sizes = np.array([len(p) for p in found], np.int64)
        pixels = np.concatenate(found) if found else np.zeros(0, np.int64)
        starts = (np.cumsum(sizes) - sizes).astype(np.int64)
        entry = np.array(entries, np.int64).reshape(-1, 2)
        empty = np.zeros((len(glyphs), 0), np.float32)
        return Parts(pixels, starts, empty, shifted(pixels), entry[:, 0], entry[:, 1], np.zeros(0, np.float32),
                     np.zeros(0, np.float32), np.array(pairs, np.int64).reshape(-1, 2)).seen_through(glyphs)

    def seen_through(self, glyphs: np.ndarray) -> Parts:
        """The same parts with each card seen through other (cards, glyph) layouts (a coarser look)."""
        ends = self._ends()
        units = np.zeros((len(glyphs), len(self.pixels)), np.float32)
        for s, e in zip(self.starts, ends, strict=True):
            units[:, s:e] = _unit_over(glyphs[:, self.pixels[s:e]])
        a, b = self.twins[self.pair].T
        rho = np.array([units[i, s:e] @ units[j, s:e] for i, j, s, e in
                        zip(a, b, self.starts[self.part], ends[self.part], strict=True)], np.float32)
        weight = ((1.0 - rho) * (ends - self.starts)[self.part]).astype(np.float32)
        return replace(self, units=units, rho=rho.reshape(-1), weight=weight)

    def _ends(self) -> np.ndarray:
        """(parts,) where each part ends in pixels."""
        return np.append(self.starts[1:], len(self.pixels))

    def leads(self, glyph: np.ndarray) -> np.ndarray:
        """(pairs,) how far a card's glyph layout lies toward each pair's twin a from twin b, each part
        at its own best shift, the parts weighted by how much they tell the pair apart."""
        if not len(self.pair):
            return np.zeros(len(self.twins), np.float32)
        seen = padded(glyph)[self.shifted]
        squares = seen * seen
        ends = self._ends()
        like = np.empty((self.units.shape[0], len(self.starts)), np.float32)
        for p, (s, e) in enumerate(zip(self.starts, ends, strict=True)):
            # the units are zero-mean over their part: the window need not be centred, only its norm is
            sums = seen[s:e].sum(axis=0)
            norm = np.sqrt(np.maximum(squares[s:e].sum(axis=0) - sums * sums / (e - s), 1e-12))
            like[:, p] = ((self.units[:, s:e] @ seen[s:e]) / norm).max(axis=1)
        a, b = self.twins[self.pair].T
        lead = twin_lead(like[a, self.part], like[b, self.part], self.rho)
        total = np.bincount(self.pair, self.weight, minlength=len(self.twins))
        return (np.bincount(self.pair, self.weight * lead, minlength=len(self.twins)) /
                np.maximum(total, 1e-12)).astype(np.float32)


def twin_lead(like_a: np.ndarray, like_b: np.ndarray, rho: np.ndarray) -> np.ndarray:
    """How far a card lies toward twin a from twin b (1 at a, -1 at b), from its correlations with each
    where they differ (like_a, like_b) and theirs with each other there (rho).

    The gap is measured against how much the twins differ (1 - rho), or against how badly the card
    fits the nearer twin when that is more: a card streaked or blurred past what either twin's photos
    show fits neither, and two twins nearly alike at its blur would blow a chance gap up into a lead
    (a gilded blue-B1 fitting either 0.54 was named blue-B2 by a region lead of 2.2). Seen styles'
    blue and set-up cards on their true outlines (1280): 1131 right, 8 wrong -> 1121, 4; read whole
    1136, 8 -> 1118, 5; painted and flat read the same (637 of 640)."""
    misfit = 1.0 - np.maximum(like_a, like_b)
    return (like_a - like_b) / np.maximum(np.maximum(1.0 - rho, misfit), 1e-6)


def _grown_marks(marks: np.ndarray) -> dict[int, np.ndarray]:
    """Each mark's glyph-layout pixels (flat indices), grown by REGION_REACH px: where its glyph may lie."""
    reach = np.ones((2 * REGION_REACH + 1, 2 * REGION_REACH + 1), np.uint8)
    return {int(m): np.flatnonzero(cv2.dilate((marks == m).astype(np.uint8), reach).ravel())
            for m in np.unique(marks) if m > 0}


def _unit_over(values: np.ndarray) -> np.ndarray:
    """Rows of values (cards, pixels) at zero mean and unit norm."""
    centred = values - values.mean(axis=1, keepdims=True)
    return centred / np.maximum(np.linalg.norm(centred, axis=1, keepdims=True), 1e-6)


def padded(glyph: np.ndarray) -> np.ndarray:
    """A glyph layout padded by REGION_REACH px with its edges' values, flat: what shifted() indexes."""
    r = REGION_REACH
    return cv2.copyMakeBorder(glyph.reshape(glyph_shape()), r, r, r, r, cv2.BORDER_REPLICATE).ravel()


def shifted(pixels: np.ndarray) -> np.ndarray:
    """(pixels, shifts) indices into a glyph layout padded by REGION_REACH px: each pixel moved by up
    to REGION_REACH px each way."""
    r = REGION_REACH
    w = glyph_shape()[1]
    y, x = np.divmod(pixels, w)
    dy, dx = np.divmod(np.arange((2 * r + 1) ** 2), 2 * r + 1)
    return (y[:, None] + dy[None, :]) * (w + 2 * r) + (x[:, None] + dx[None, :])
