"""Near-twin cards: a family's shared template, and the twins as a camera sees them at a card's
resolution (where each pair differs, and a card's lead there: vision.regions).

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
    glyph_vector,
    inner_part,
    mid_vector,
    sharpness,
)
from vision.regions import Regions, card_means, unit_rows

SHARPNESS_SLACK = 1.15  # a look may hold this much more detail than the card (photos of one card vary so much)
RESOLUTION_STEP = 0.05  # canonical px per px: cards seen within this of one resolution share one look at the twins
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

    def beats(self, glyphs: Sequence[np.ndarray], discriminant: Discriminant | None = None) -> np.ndarray:
        """(looks + 1, cards, cards): how far a card's glyph layouts (one per look at it: its outline and
        that outline nudged, reader.CardReader) lie toward twin a from twin b, over all looks (first)
        and then each look alone. A lead is the regions' and a discriminant's (Family.discriminant_at;
        None: the regions' alone): their mean where both lean toward a, else the smaller of the two, so
        the twins are told apart only where both tell them apart alike (seen styles' blue and set-up
        cards on their true outlines, 1280: the mean always 1071 right, 18 wrong; this 1047, 8; the
        smaller always 946, 3; the regions alone 983, 26). Over all looks, each is averaged over them
        before they are weighed against each other: a lead one look alone gives by a pixel's shift
        then counts for less (seen styles' blue and set-up cards on true outlines, 960: from the
        outline alone 872 right, 2 wrong; averaged over it and six nudges of it 897, 2). A pair whose
        photos never showed where they differ keeps UNSEEN_LEAD, which no discriminant learnt from
        those photos can mend."""
        leads = _over_all_looks(np.stack([self.regions.beats(g) for g in glyphs]))
        if discriminant is None:
            return leads
        learnt = _over_all_looks(np.stack([discriminant.beats(g) for g in glyphs]))
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
    def by_print(self) -> bool:
        """Whether the twins differ by small printed fields what they show explains (a blue card's
        digit and badge, a set-up card's letters), not by their art at large (terrain, red cards)."""
        return bool(self.sharp.regions.pooling.explained().any())

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


def _over_all_looks(leads: np.ndarray) -> np.ndarray:
    """(looks + 1, cards, cards): the looks' mean lead first, then each look's own."""
    return np.concatenate([leads.mean(axis=0, keepdims=True), leads])


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
    return unit_rows(grey - grey.mean(axis=1, keepdims=True))


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
    return unit_rows(card_means(vectors, owner, cards))

