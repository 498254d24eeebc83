"""Near-twin cards: a family's shared template, where each pair of twins differs, and the twins
as a camera sees them at a card's resolution.

A card seen small is blurred by the camera's own pixels; its letters and digits are blobs. Its
enrolled photos were mostly taken closer. Compared as they are, a blurred card looks more like
whichever twin's photos happen to be the blurrier, whatever it shows; so the twins are compared
as the camera would see them at the card's resolution (Family.seen_at), and only then told apart.
Focus and motion blur a card as a smaller size would: the twins are seen at the resolution whose
look holds no more detail than the card itself (Family.seen_like).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import cv2
import numpy as np

from vision.cards import shown_marks
from vision.discriminant import Discriminant, learn_at, resolution_step, step_resolution
from vision.features import (
    align_image,
    align_to,
    at_resolution,
    fine_vector,
    glyph_shape,
    glyph_vector,
    inner_part,
    mid_vector,
    sharpness,
)
from vision.parts import REGION_REACH, Parts, shifted, twin_lead
from vision.pooling import Pooling

REGION_T = 2.5  # a pixel where two twins' mean photos differ by this many standard errors (root mean
                # square over REGION_POOL px) sets them apart: photo noise alone pools to about 1
REGION_POOL = 5  # px (2.5 mm): a glyph's stroke difference is this wide; a lone noisy pixel is not
REGION_MIN_SHARE = 0.01  # a pair whose photos never showed where they differ keeps this share of the card's
# pixels where they differ most (a digit is ~1%): a region to see them by at all, though it leads neither (UNSEEN_LEAD)
NOISE_FLOOR = 0.05  # per-pixel variance (in units of a layout's own, per pixel) two photos of one card differ by
                    # at least (JPEG, resampling): the noise assumed when no card has two photos
SHARPNESS_SLACK = 1.15  # a look may hold this much more detail than the card (photos of one card vary so much)
RESOLUTION_STEP = 0.05  # canonical px per px: cards seen within this of one resolution share one look at the twins
UNSEEN_LEAD = -1.0  # the lead either twin of a pair gets over the other when their photos never showed where they
# differ (no pixel at REGION_T, no mark at MARK_T): the region kept is the photos' noise, a lead over it a guess (a large,
# sharp gilded blue-D1 was named blue-D2 with confidence 1.0 on its true outline)
VARY_T = 1.5  # a pixel where a family's card means vary this many times (root, pooled over REGION_POOL px) what
# photo noise alone would make them vary lies on one of its marks (letters, a digit, a pictogram): noise alone gives
# about 1, so connected such pixels are the marks the twins are told apart by
MARK_T = 1.5  # mean squared standard error over a mark by which two twins' means differ for the mark to set them
# apart: noise alone gives about 1 (one glyph of two photos per card gives 0.2-1.1); a digit's 50 px pooled this way
# shows where a 5 px pooled test alone does not (gilded blue #1/#2: digit 2-13, the best 5 px pool 1.8-4.8)
MISALIGNED_GAP = 0.06  # correlation of two photos of one twin aligned onto the family's template (1 mm grey
# layouts): in 21 enrolled families (painted, woodcut) all but 8 pairs lay within 0.051 of their family's
# typical pair, those 8 lay 0.08-0.29 below (a painted blue-C2 photo enrolled by a skewed outline: 0.17)


@dataclass(frozen=True)
class Layouts:
    """Each twin's own fine and mid-scale layouts (mean over its photos), and where pairs differ."""

    fine: np.ndarray  # (cards, fine) unit norm
    mid: np.ndarray  # (cards, mid) unit norm
    regions: Regions
    sharpness: float  # median features.sharpness of the photos as this look shows them

    def beats(self, glyph: np.ndarray, discriminant: Discriminant | None = None) -> np.ndarray:
        """(cards, cards): how far a card's glyph layout lies toward twin a from twin b: the mean of
        the regions' lead and a discriminant's (Family.discriminant_at; None: the regions' alone) where
        both lean toward a, else the smaller of the two: the twins are told apart only where both
        tell them apart alike (seen styles' blue and set-up cards on their true outlines, 1280: the
        mean always 1071 right, 18 wrong; this 1047, 8; the smaller always 946, 3; the regions alone
        983, 26). A pair whose photos never showed where they differ keeps UNSEEN_LEAD, which no
        discriminant learnt from those photos can mend."""
        leads = self.regions.beats(glyph)
        if discriminant is None:
            return leads
        learnt = discriminant.beats(glyph)
        both = np.where((leads > 0) & (learnt > 0), 0.5 * (leads + learnt), np.minimum(leads, learnt))
        return np.where(self.regions.seen_pairs(), both, leads)


@dataclass(frozen=True, eq=False)
class Family:
    """Near-twin references, all turned the same way as the first: a shared template to align to."""

    members: np.ndarray  # reference indices
    template: np.ndarray  # float32 grey ALIGN_SIZE image: what the twins share
    asymmetry: np.ndarray  # mean asymmetry: tells which way round a card lies
    cards: np.ndarray  # card index of each row of the layouts
    owner: np.ndarray  # card index of each photo learnt from (twins.in_line)
    aligned: tuple[np.ndarray, ...]  # each such photo's canonical image aligned onto the template
    sharp: Layouts  # the twins as their photos show them
    _seen: dict[int, Layouts] = field(default_factory=dict, repr=False)  # looks at lower resolutions, made on first use
    _discriminants: dict[int, Discriminant] = field(default_factory=dict, repr=False)  # by discriminant.resolution_step

    @staticmethod
    def learn(members: np.ndarray, template: np.ndarray, asymmetry: np.ndarray, owner: np.ndarray,
              aligned: list[np.ndarray], names: Sequence[str] = ()) -> Family:
        """A family from its members' aligned images: each twin's layouts and the pairs' regions,
        learnt from the photos in line with their twin's others (in_line). names: the card ID of each
        card index (what the twins show is then pooled over, vision.pooling)."""
        cards = np.array(sorted({int(c) for c in owner}))
        keep = in_line(aligned, owner, template)
        owner, aligned = owner[keep], [im for im, k in zip(aligned, keep, strict=True) if k]
        fine, mid, glyphs = _layouts(aligned, owner, cards)
        regions = Regions.learn(glyphs, owner, cards, [shown_marks(names[c]) for c in cards] if names else None)
        return Family(members, template, asymmetry, cards, owner, tuple(aligned),
                      Layouts(fine, mid, regions, _sharpness(aligned)))

    def align(self, image: np.ndarray) -> np.ndarray:
        """A canonical card image aligned onto the template by a homography, or as its outline warped
        it if that fits the template better: an alignment may run off (a glared, blurred gilded
        blue-E2 turned and skewed a third of the way off was named blue-D2 with a clear lead).

        A homography, as the references are aligned, not an affine warp: an outline a corner off
        skews the card in perspective, which no affine warp undoes (seen styles' blue cards read
        whole, 800 photos over two seeds: named wrong 49 -> 34, right 615 -> 637)."""
        aligned = align_to(image, self.template, motion=cv2.MOTION_HOMOGRAPHY)
        fits = _inner_rows([aligned, image]) @ self._template_row
        return aligned if fits[0] >= fits[1] else image

    @cached_property
    def _template_row(self) -> np.ndarray:
        """The template as an _inner_rows row: made once, not on every card aligned."""
        return _inner_rows([self.template])[0]

    def seen_at(self, resolution: float) -> Layouts:
        """The twins as a card seen at this resolution (frame px per canonical px) shows them: the
        photos shrunk to it and enlarged back, where the twins differ kept as learnt sharp."""
        step = round(resolution / RESOLUTION_STEP)
        if step * RESOLUTION_STEP >= 1.0:
            return self.sharp
        if step not in self._seen:
            looks = [at_resolution(im, max(step, 1) * RESOLUTION_STEP) for im in self.aligned]
            fine, mid, glyphs = _layouts(looks, self.owner, self.cards)
            regions = self.sharp.regions.with_photos(glyphs, self.owner, self.cards)
            self._seen[step] = Layouts(fine, mid, regions, _sharpness(looks))
        return self._seen[step]

    def seen_like(self, resolution: float, detail: float) -> Layouts:
        """The twins as a card seen at this resolution with this much detail (features.sharpness)
        shows them: blur and motion cost detail as a smaller card would, so the look is taken at
        the highest resolution whose photos hold no more detail than the card (its own at most)."""
        step = _sharpest_look(resolution)
        while step > 1 and self.seen_at(step * RESOLUTION_STEP).sharpness > SHARPNESS_SLACK * detail:
            step -= 1
        return self.seen_at(max(step, 1) * RESOLUTION_STEP)

    def warm(self, resolutions: Iterable[float]) -> None:
        """Learn now what a card at each of these resolutions would learn on first use: the looks at
        the twins it may be compared with (at or below its resolution) and its discriminant."""
        for resolution in resolutions:
            for step in range(1, _sharpest_look(resolution) + 1):
                self.seen_at(step * RESOLUTION_STEP)
            self.discriminant_at(resolution).learn()

    def discriminant_at(self, resolution: float) -> Discriminant:
        """The twins' discriminant at a card's own resolution (made on first use), not the look's:
        it learns from photos degraded by motion and shifts as well, which a detail-matched look
        folds into a coarser resolution."""
        step = resolution_step(resolution)
        if step not in self._discriminants:
            self._discriminants[step] = learn_at(self.aligned, self.owner, self.cards, self.sharp.regions.pixels,
                                                 step_resolution(step), self.sharp.regions.pooling)
        return self._discriminants[step]


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
        own = _card_means(photos, owner, cards)
        counts = np.array([(owner == c).sum() for c in cards], np.float64)
        noise = _photo_noise(photos, owner, cards, own)
        marks = _marks(own, noise * np.mean(1 / counts))
        pooling = Pooling.plan(own, marks, shows if shows is not None else [(str(c),) for c in cards])
        means, n = pooling.means(photos, owner, cards)
        pairs = tuple((i, j) for i in range(len(cards)) for j in range(i + 1, len(cards)))
        found = [_region(means[i], means[j], noise * (1 / n[i] + 1 / n[j]), marks) for i, j in pairs]
        masks = np.stack([m for m, _ in found]) if pairs else np.zeros((0, photos.shape[1]), bool)
        seen = np.array([ok for _, ok in found], bool)
        pixels = np.flatnonzero(masks.any(axis=0)) if pairs else np.zeros(0, np.int64)
        glyphs = _unit_rows(means)
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
        glyphs = _unit_rows(self.pooling.means(photos, owner, cards)[0])
        return Regions.over(glyphs, self.mask > 0, self.pairs, self.pixels, self.seen, self.parts.seen_through(glyphs),
                            self.pooling)

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
        seen = np.pad(glyph.reshape(glyph_shape()), REGION_REACH, mode="edge").ravel()[self.shifted]
        mean = (self.mask @ seen) / self.size[:, None]
        norm = np.sqrt(np.maximum((self.mask @ (seen * seen)) - self.size[:, None] * mean * mean, 1e-12))
        like_a, like_b = ((self.a @ seen) / norm).max(axis=1), ((self.b @ seen) / norm).max(axis=1)
        lead = twin_lead(like_a, like_b, self.rho)
        by_part = self.parts.leads(glyph)
        rows, cols = np.array(self.pairs).T
        both = 0.5 * (lead + by_part)
        out[rows, cols] = np.where(self.seen, both, UNSEEN_LEAD)
        out[cols, rows] = np.where(self.seen, -both, UNSEEN_LEAD)
        return out


def _sharpest_look(resolution: float) -> int:
    """The step (of RESOLUTION_STEP) of the sharpest look a card at this resolution is compared with."""
    return min(round(resolution / RESOLUTION_STEP), round(1.0 / RESOLUTION_STEP))


def in_line(aligned: Sequence[np.ndarray], owner: np.ndarray, template: np.ndarray) -> np.ndarray:
    """Which of a family's aligned photos to learn the twins from: all but one of any twin whose
    photos agree MISALIGNED_GAP less than the family's photos of one twin typically do, the one that
    fits the template worse (its card keeps the other). A photo enrolled by a wrong outline that the
    alignment could not undo has its badge and digits out of place: learnt from, it makes a true
    photo of its card look like the twin. Judged over the inner part the twins are compared over: a
    photo taken by the card's inner frame line has no rim, which alone made well-aligned photos of
    gilded blue cards agree 0.81-0.88, under their family's 0.96, and left four twins one photo."""
    grey = _inner_rows(aligned)
    fit = grey @ _inner_rows([template])[0]
    agree = grey @ grey.T
    same = (owner[:, None] == owner[None, :]) & ~np.eye(len(owner), dtype=bool)
    best = np.where(same, agree, -np.inf).max(axis=1)  # -inf: no other photo of its card
    keep = np.ones(len(owner), bool)
    if not np.isfinite(best).any():
        return keep
    typical = float(np.median(best[np.isfinite(best)]))
    for card in np.unique(owner):
        photos = np.flatnonzero(owner == card)
        if len(photos) > 1 and best[photos].min() < typical - MISALIGNED_GAP:
            keep[photos[np.argmin(np.where(best[photos] < typical - MISALIGNED_GAP, fit[photos], np.inf))]] = False
    return keep


def _inner_rows(images: Sequence[np.ndarray]) -> np.ndarray:
    """Each card image (canonical, or an align_image template) as its inner_part at 1 mm: a zero-mean,
    unit-norm row, so that rows' dot products are correlations."""
    grey = np.stack([inner_part(align_image(im)).ravel() for im in images])
    return _unit_rows(grey - grey.mean(axis=1, keepdims=True))


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


def _sharpness(images: Sequence[np.ndarray]) -> float:
    """The median detail (features.sharpness) of some canonical card images."""
    return float(np.median([sharpness(im) for im in images]))


def _layouts(images: Sequence[np.ndarray], owner: np.ndarray,
             cards: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each card's fine and mid-scale layouts (means over its photos), and each photo's glyph layout."""
    fine = _per_card(np.stack([fine_vector(im) for im in images]), owner, cards)
    mid = _per_card(np.stack([mid_vector(im) for im in images]), owner, cards)
    return fine, mid, np.stack([glyph_vector(im) for im in images])


def _per_card(vectors: np.ndarray, owner: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """Each card's mean of its photos' vectors, back to unit norm: (cards, length)."""
    return _unit_rows(_card_means(vectors, owner, cards))


def _unit_rows(means: np.ndarray) -> np.ndarray:
    """Each row of a (cards, length) array scaled back to unit norm."""
    return means / np.maximum(np.linalg.norm(means, axis=1, keepdims=True), 1e-6)


def _card_means(vectors: np.ndarray, owner: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """Each card's plain mean of its photos' vectors: (cards, length)."""
    return np.stack([vectors[owner == c].mean(axis=0) for c in cards])
