"""Where near twins differ, and how far a card lies toward one twin from another there.

A family's twins (vision.twins) share most of what they show; photos of one card differ all over
(blur, glare, a slightly-off outline) while twins differ only in a small region: a badge, a points
digit, a set-up card's letters. Here each pair of twins learns that region from the enrolled photos
(pixel by pixel, or over the family's marks where a digit is too faint at any one pixel), and a card
is compared with both twins over it alone (Regions.beats).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from vision.features import glyph_shape
from vision.parts import REGION_REACH, Parts, padded, shifted, twin_lead
from vision.pooling import Pooling

REGION_T = 2.5  # a pixel where two twins' mean photos differ by this many standard errors (root mean
                # square over REGION_POOL px) sets them apart: photo noise alone pools to about 1
REGION_POOL = 5  # px (2.5 mm): a glyph's stroke difference is this wide; a lone noisy pixel is not
REGION_MIN_SHARE = 0.01  # a pair whose photos never showed where they differ keeps this share of the card's
# pixels where they differ most (a digit is ~1%): a region to see them by at all, though it leads neither (UNSEEN_LEAD)
NOISE_FLOOR = 0.05  # per-pixel variance (in units of a layout's own, per pixel) two photos of one card differ by
                    # at least (JPEG, resampling): the noise assumed when no card has two photos
UNSEEN_LEAD = -1.0  # the lead either twin of a pair gets over the other when their photos never showed where they
# differ (no pixel at REGION_T, no mark at MARK_T): the region kept is the photos' noise, a lead over it a guess (a large,
# sharp gilded blue-D1 was named blue-D2 with confidence 1.0 on its true outline)
VARY_T = 1.5  # a pixel where a family's card means vary this many times (root, pooled over REGION_POOL px) what
# photo noise alone would make them vary lies on one of its marks (letters, a digit, a pictogram): noise alone gives
# about 1, so connected such pixels are the marks the twins are told apart by
MARK_T = 1.5  # mean squared standard error over a mark by which two twins' means differ for the mark to set them
# apart: noise alone gives about 1 (one glyph of two photos per card gives 0.2-1.1); a digit's 50 px pooled this way
# shows where a 5 px pooled test alone does not (gilded blue #1/#2: digit 2-13, the best 5 px pool 1.8-4.8)


@dataclass(frozen=True, eq=False)
class Regions:
    """For every pair of twins (a, b), the pixels where they differ, and both twins seen only there.

    Photos of one card differ all over (blur, glare, painted texture, a slightly-off outline),
    twins only in a small region (a "#1"/"#2" badge, a points digit, ten letters). Compared over
    the whole card, a blurrier reference photo can outweigh the digit that sets two twins apart;
    compared over the region alone, only the digit counts. The region is learnt at the card's own
    pixels (features.glyph_vector; a 1 mm grid blurs a 5 mm digit inside a disc into a blob): the
    pixels where the twins' mean photos differ by REGION_T standard errors, the error being how
    much photos of one card differ there (pooled over the family's cards); failing that, the
    family's marks (where its cards vary: letters, digits) over which the twins differ by MARK_T
    on average, for a 2 mm digit is too small to stand out at any one pixel. Only the pixels some
    pair's region holds are kept (`pixels`), so a card is compared over a few thousand at most.

    A card is compared with each twin over the region at the shift (up to REGION_REACH px) where
    it fits that twin best: a card aligned to the family's template may lie a pixel or two off. It
    is compared glyph by glyph too, each at its own shift (vision.parts), and a twin's lead over
    another is the mean of both comparisons'.
    """

    a: np.ndarray  # (pairs, kept) twin a over the pair's region: zero mean, unit norm there, 0 elsewhere
    b: np.ndarray  # (pairs, kept) twin b likewise
    mask: np.ndarray  # (pairs, kept) float32 1 inside the pair's region
    size: np.ndarray  # (pairs,) pixels in each region
    rho: np.ndarray  # (pairs,) correlation of the twins with each other over their region
    pairs: tuple[tuple[int, int], ...]  # the (a, b) card rows of each pair, a < b
    cards: int  # twins in the family
    pixels: np.ndarray  # glyph-layout indices of the kept pixels (those in some pair's region)
    shifted: np.ndarray  # (kept, shifts) indices into the edge-padded layout: each kept pixel at each shift
    seen: np.ndarray  # (pairs,) bool: the photos showed where the pair differs (a pixel at REGION_T, or a mark at MARK_T)
    parts: Parts  # each pair's region glyph by glyph, each compared at its own shift
    pooling: Pooling  # which twins' photos stand for each twin over each mark

    @staticmethod
    def learn(photos: np.ndarray, owner: np.ndarray, cards: np.ndarray,
              shows: Sequence[tuple[str, ...]] | None = None) -> Regions:
        """The distinguishing region of every pair of twins, from each photo's glyph layout (rows of
        photos), the card each photo shows (owner; cards lists the twins) and what each twin shows
        (shows: cards.shown_marks), pooled over the marks where twins show the same (vision.pooling)."""
        own = card_means(photos, owner, cards)
        counts = np.array([(owner == c).sum() for c in cards], np.float64)
        noise = _photo_noise(photos, owner, cards, own)
        marks = _marks(own, noise * np.mean(1 / counts))
        pooling = Pooling.plan(own, marks, shows if shows is not None else [(str(c),) for c in cards])
        means, n = pooling.means(photos, owner, cards)
        pairs = tuple((i, j) for i in range(len(cards)) for j in range(i + 1, len(cards)))
        printed = pooling.printed()  # chance marks out: lacquer blue-A1's plain "3" led 0.18 (rho 0.96 by a rim strip)
        found = [_region(means[i], means[j], noise * (1 / n[i] + 1 / n[j]), printed) for i, j in pairs]
        masks = np.stack([m for m, _ in found]) if pairs else np.zeros((0, photos.shape[1]), bool)
        seen = np.array([ok for _, ok in found], bool)
        pixels = np.flatnonzero(masks.any(axis=0)) if pairs else np.zeros(0, np.int64)
        glyphs = unit_rows(means)
        return Regions.over(glyphs, masks[:, pixels], pairs, pixels, seen, Parts.cut(glyphs, masks, pairs, marks),
                            pooling)

    @staticmethod
    def over(glyphs: np.ndarray, masks: np.ndarray, pairs: tuple[tuple[int, int], ...],
             pixels: np.ndarray, seen: np.ndarray, parts: Parts, pooling: Pooling) -> Regions:
        """Each pair's twins, rows of (cards, glyph) layouts, seen only inside its boolean mask
        (over the kept pixels) and glyph by glyph (parts); seen: which pairs' photos showed where they differ."""
        kept = glyphs[:, pixels]
        shape = (len(pairs), len(pixels))
        a = np.array([_unit_in(kept[i], m) for (i, _), m in zip(pairs, masks, strict=True)]).reshape(shape)
        b = np.array([_unit_in(kept[j], m) for (_, j), m in zip(pairs, masks, strict=True)]).reshape(shape)
        return Regions(a.astype(np.float32), b.astype(np.float32), masks.astype(np.float32), masks.sum(axis=1),
                       (a * b).sum(axis=1), pairs, len(glyphs), pixels, shifted(pixels), seen, parts, pooling)

    def seen_pairs(self) -> np.ndarray:
        """(cards, cards) bool: which twins' photos showed where they differ (the diagonal False)."""
        out = np.zeros((self.cards, self.cards), bool)
        if self.pairs:
            rows, cols = np.array(self.pairs).T
            out[rows, cols] = out[cols, rows] = self.seen
        return out

    def region(self, a: int, b: int) -> np.ndarray:
        """The boolean (h, w) glyph-layout image of where twins a and b (rows of the layouts) differ."""
        full = np.zeros(glyph_shape(), bool)
        full.ravel()[self.pixels] = self.mask[self.pairs.index((min(a, b), max(a, b)))] > 0
        return full

    def with_photos(self, photos: np.ndarray, owner: np.ndarray, cards: np.ndarray) -> Regions:
        """The same regions with each twin seen through other photos' glyph layouts (a coarser look),
        pooled as these were."""
        glyphs = unit_rows(self.pooling.means(photos, owner, cards)[0])
        return Regions.over(glyphs, self.mask > 0, self.pairs, self.pixels, self.seen, self.parts.seen_through(glyphs),
                            self.pooling)

    @cached_property
    def _stacked(self) -> np.ndarray:
        """(3 * pairs, kept): mask, a and b stacked, so that a card's shifted layout is multiplied by
        all three in one pass over it."""
        return np.ascontiguousarray(np.concatenate([self.mask, self.a, self.b]), np.float32)

    def beats(self, glyph: np.ndarray) -> np.ndarray:
        """(cards, cards): how far a card's glyph layout lies toward twin a from twin b: the mean of the
        lead over their region at one shift and glyph by glyph, each glyph at its own. A card the
        template aligned a millimetre off in one corner fits its true twin glyph by glyph, and a lead
        the region's one shift alone gives may be a badge's edge, not the card's; the smaller of the
        two leads instead of their mean named fewer wrong but refused many more (seen styles, twin
        photos read on their true outlines, 1435: mean 1111 right, 18 wrong; smaller 1055, 11, with the
        parts not yet cut along the marks; one shift alone 1108, 26). Each lead is parts.twin_lead's."""
        out = np.zeros((self.cards, self.cards), np.float32)
        if not self.pairs:
            return out
        seen = padded(glyph)[self.shifted]
        total, on_a, on_b = np.split(self._stacked @ seen, 3)
        mean = total / self.size[:, None]
        norm = np.sqrt(np.maximum((self.mask @ (seen * seen)) - self.size[:, None] * mean * mean, 1e-12))
        like_a, like_b = (on_a / norm).max(axis=1), (on_b / norm).max(axis=1)
        lead = twin_lead(like_a, like_b, self.rho)
        by_part = self.parts.leads(glyph)
        rows, cols = np.array(self.pairs).T
        both = 0.5 * (lead + by_part)
        out[rows, cols] = np.where(self.seen, both, UNSEEN_LEAD)
        out[cols, rows] = np.where(self.seen, -both, UNSEEN_LEAD)
        return out


def _marks(means: np.ndarray, error: np.ndarray) -> np.ndarray:
    """Each glyph pixel's mark (1, 2, ...; 0 off every mark): the connected pixels where the family's
    card means vary VARY_T times what photo noise alone would make them (error: the variance of one
    card's mean from noise). Letters, digits and pictograms are marks; a family of two has none (one
    pair's difference is all there is to test)."""
    if len(means) < 3:
        return np.zeros(means.shape[1], np.int32)
    vary = (means.var(axis=0, ddof=1) / error).reshape(glyph_shape()).astype(np.float32)
    on = np.sqrt(cv2.blur(vary, (REGION_POOL, REGION_POOL))) > VARY_T
    return cv2.connectedComponents(on.astype(np.uint8))[1].ravel()


def _region(a: np.ndarray, b: np.ndarray, error: np.ndarray, marks: np.ndarray) -> tuple[np.ndarray, bool]:
    """Pixels where two twins' mean glyph layouts differ by REGION_T standard errors (error: the
    variance of their difference from photo noise alone), pooled over REGION_POOL px; if none do,
    the family's marks (_marks) over which they differ by MARK_T on average (a small digit the 5 px
    pool misses). Where they differ on some mark, only the marks count: beside a letter both twins show
    alike, a blurrier photo or one a pixel off differs too (the rim of a letter disc), and a sharp card
    fitted the sharper twin there (chalk and lacquer, 200 blue and 208 set-up photos on true outlines,
    pooled: 331 right, 13 wrong with the marks alone; 320, 15 without).
    Grown by REGION_REACH px (the card is compared at shifts up to that). And whether
    either test found anything: if not, the region is the REGION_MIN_SHARE of pixels that differ
    most, the photos' noise."""
    shape = glyph_shape()
    z2 = ((a - b) ** 2 / error).astype(np.float32)
    # a box filter's running sums leave a hair under 0 where twins are pooled alike (z2 exactly 0)
    pooled = np.sqrt(np.maximum(cv2.blur(z2.reshape(shape), (REGION_POOL, REGION_POOL)), 0.0)).ravel()
    mask = pooled > REGION_T
    if (mask & (marks > 0)).any():  # off its family's marks a pair differs by its photos, not its letters
        mask &= marks > 0
    if not mask.any() and marks.any():
        per_mark = np.bincount(marks, weights=z2) / np.bincount(marks)
        mask = (per_mark > MARK_T)[marks] & (marks > 0)
    seen = bool(mask.any())
    if not seen:
        keep = max(1, int(REGION_MIN_SHARE * pooled.size))
        mask = pooled >= np.partition(pooled, -keep)[-keep]
    reach = 2 * REGION_REACH + 1
    grown = cv2.dilate(mask.reshape(shape).astype(np.uint8), np.ones((reach, reach), np.uint8))
    return grown.ravel().astype(bool), seen


def _unit_in(v: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """v over the mask only: zero mean, unit norm there, 0 elsewhere."""
    out = np.where(mask, v - v[mask].mean(), 0.0)
    return out / max(float(np.linalg.norm(out)), 1e-6)


def _photo_noise(photos: np.ndarray, owner: np.ndarray, cards: np.ndarray, means: np.ndarray) -> np.ndarray:
    """Per glyph pixel, the variance of a card's photos about their card's mean, pooled over the
    cards with two photos or more and smoothed over REGION_POOL px, never under NOISE_FLOOR (all
    of it when no card has two photos)."""
    floor = NOISE_FLOOR / photos.shape[1]  # layouts have unit norm: a pixel's own variance is 1 / size
    spare = len(owner) - len(cards)  # degrees of freedom: photos beyond each card's first
    if spare <= 0:
        return np.full(photos.shape[1], floor)
    rows = {int(c): i for i, c in enumerate(cards)}
    residual = photos - means[[rows[int(o)] for o in owner]]
    pooled = ((residual**2).sum(axis=0) / spare).reshape(glyph_shape()).astype(np.float32)
    return np.maximum(cv2.blur(pooled, (REGION_POOL, REGION_POOL)).ravel(), floor)


def unit_rows(means: np.ndarray) -> np.ndarray:
    """Each row of a (cards, length) array scaled back to unit norm."""
    return means / np.maximum(np.linalg.norm(means, axis=1, keepdims=True), 1e-6)


def card_means(vectors: np.ndarray, owner: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """Each card's plain mean of its photos' vectors: (cards, length)."""
    return np.stack([vectors[owner == c].mean(axis=0) for c in cards])
