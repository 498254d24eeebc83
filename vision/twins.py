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

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.features import FINE_GRID, at_resolution, fine_vector, mid_vector, sharpness

REGION_SIGMAS = 3.0  # a fine cell where two twins differ by this many robust sigmas (of all cells) sets them apart
REGION_MIN_SHARE = 0.01  # the distinguishing region keeps at least this share of the card's cells (a digit is ~1%)
REGION_REACH = 2  # fine cells (~2 mm): how far a twin's letters may lie off the family template after alignment
FAMILY_F = 6.0  # between-twin over within-card variance above which a cell is where the family varies at all:
                # with 2 photos of each of 5-13 twins, chance alone passes it in well under 1% of cells
SHARPNESS_SLACK = 1.15  # a look may hold this much more detail than the card (photos of one card vary so much)
RESOLUTION_STEP = 0.05  # canonical px per px: cards seen within this of one resolution share one look at the twins


@dataclass(frozen=True)
class Layouts:
    """Each twin's own fine and mid-scale layouts (mean over its photos), and where pairs differ."""

    fine: np.ndarray  # (cards, fine) unit norm
    mid: np.ndarray  # (cards, mid) unit norm
    regions: Regions
    sharpness: float  # median features.sharpness of the photos as this look shows them


@dataclass(frozen=True, eq=False)
class Family:
    """Near-twin references, all turned the same way as the first: a shared template to align to."""

    members: np.ndarray  # reference indices
    template: np.ndarray  # float32 grey ALIGN_SIZE image: what the twins share
    asymmetry: np.ndarray  # mean asymmetry: tells which way round a card lies
    cards: np.ndarray  # card index of each row of the layouts
    owner: np.ndarray  # card index of each member
    aligned: tuple[np.ndarray, ...]  # each member's canonical image aligned onto the template
    sharp: Layouts  # the twins as their photos show them
    _seen: dict[int, Layouts] = field(default_factory=dict, repr=False)  # looks at lower resolutions, made on first use

    @staticmethod
    def learn(members: np.ndarray, template: np.ndarray, asymmetry: np.ndarray, owner: np.ndarray,
              aligned: list[np.ndarray]) -> Family:
        """A family from its members' aligned images: each twin's layouts and the pairs' regions."""
        cards = np.array(sorted({int(c) for c in owner}))
        photos, fine, mid = _layouts(aligned, owner, cards)
        noise = _photo_noise(photos, owner, cards, fine)
        regions = Regions.learn(fine, noise, _varying(photos, owner, cards, noise))
        return Family(members, template, asymmetry, cards, owner, tuple(aligned),
                      Layouts(fine, mid, regions, _sharpness(aligned)))

    def seen_at(self, resolution: float) -> Layouts:
        """The twins as a card seen at this resolution (frame px per canonical px) shows them: the
        photos shrunk to it and enlarged back, where the twins differ kept as learnt sharp."""
        step = round(resolution / RESOLUTION_STEP)
        if step * RESOLUTION_STEP >= 1.0:
            return self.sharp
        if step not in self._seen:
            looks = [at_resolution(im, max(step, 1) * RESOLUTION_STEP) for im in self.aligned]
            _, fine, mid = _layouts(looks, self.owner, self.cards)
            self._seen[step] = Layouts(fine, mid, self.sharp.regions.with_layouts(fine), _sharpness(looks))
        return self._seen[step]

    def seen_like(self, resolution: float, detail: float) -> Layouts:
        """The twins as a card seen at this resolution with this much detail (features.sharpness)
        shows them: blur and motion cost detail as a smaller card would, so the look is taken at
        the highest resolution whose photos hold no more detail than the card (its own at most)."""
        step = min(round(resolution / RESOLUTION_STEP), round(1.0 / RESOLUTION_STEP))
        while step > 1 and self.seen_at(step * RESOLUTION_STEP).sharpness > SHARPNESS_SLACK * detail:
            step -= 1
        return self.seen_at(max(step, 1) * RESOLUTION_STEP)


@dataclass(frozen=True, eq=False)
class Regions:
    """For every pair of twins (a, b), the fine cells where they differ, and both twins seen only there.

    A card is compared with each twin over the region at the shift (up to REGION_REACH cells)
    where it fits that twin best: the alignment to the family's template locks onto the big
    shared art, and a scale error of a percent leaves the letters a cell or two off.

    Photos of one card differ all over (blur, glare, painted texture, a slightly-off outline),
    twins only in a small region (a "#1"/"#2" badge, a points digit, ten letters). Compared over
    the whole card, a blurrier reference photo can outweigh the digit that sets two twins apart;
    compared over the region alone, only the digit counts. The region is where the twins' photos
    differ far more than they differ across most of the card (which the twins share).
    """

    a: np.ndarray  # (pairs, fine) twin a over the pair's region: zero mean, unit norm there, 0 elsewhere
    b: np.ndarray  # (pairs, fine) twin b likewise
    mask: np.ndarray  # (pairs, fine) float32 1 inside the pair's region
    size: np.ndarray  # (pairs,) cells in each region
    rho: np.ndarray  # (pairs,) correlation of the twins with each other over their region
    pairs: tuple[tuple[int, int], ...]  # the (a, b) card rows of each pair, a < b
    cards: int  # twins in the family

    @staticmethod
    def learn(fine: np.ndarray, noise: np.ndarray | None, varying: np.ndarray | None = None) -> Regions:
        """The distinguishing region of every pair of rows of (cards, fine) unit-norm layouts.

        noise: per cell, how much photos of one card vary there (None: not known, one photo each).
        varying: the cells where the family's twins differ at all, beyond their photos' noise (None:
        not known); a pair's region keeps to them, so a glare spot that two photos of one twin
        happen to share does not count as a difference.
        """
        pairs = tuple((i, j) for i in range(len(fine)) for j in range(i + 1, len(fine)))
        masks = np.stack([_within(_region(fine[i], fine[j], noise), varying) for i, j in pairs]) if pairs \
            else np.zeros((0, fine.shape[1]), bool)
        return Regions.over(fine, masks, pairs)

    @staticmethod
    def over(fine: np.ndarray, masks: np.ndarray, pairs: tuple[tuple[int, int], ...]) -> Regions:
        """Each pair's twins, rows of (cards, fine) layouts, seen only inside its boolean mask."""
        shape = (len(pairs), fine.shape[1])
        a = np.array([_unit_in(fine[i], m) for (i, _), m in zip(pairs, masks, strict=True)]).reshape(shape)
        b = np.array([_unit_in(fine[j], m) for (_, j), m in zip(pairs, masks, strict=True)]).reshape(shape)
        return Regions(a.astype(np.float32), b.astype(np.float32), masks.astype(np.float32), masks.sum(axis=1),
                       (a * b).sum(axis=1), pairs, len(fine))

    def with_layouts(self, fine: np.ndarray) -> Regions:
        """The same regions with each twin seen through other (cards, fine) layouts (a coarser look)."""
        return Regions.over(fine, self.mask > 0, self.pairs)

    def beats(self, fine: np.ndarray) -> np.ndarray:
        """(cards, cards): how far a card's fine layout lies toward twin a from twin b, over their region."""
        out = np.zeros((self.cards, self.cards), np.float32)
        if not self.pairs:
            return out
        seen = _shifts(fine).T  # (fine, shifts): the card may lie a cell or two off where the twins differ
        mean = (self.mask @ seen) / self.size[:, None]
        norm = np.sqrt(np.maximum((self.mask @ (seen * seen)) - self.size[:, None] * mean * mean, 1e-12))
        like_a, like_b = ((self.a @ seen) / norm).max(axis=1), ((self.b @ seen) / norm).max(axis=1)
        lead = (like_a - like_b) / np.maximum(1.0 - self.rho, 1e-6)
        rows, cols = np.array(self.pairs).T
        out[rows, cols] = lead
        out[cols, rows] = -lead
        return out


def _region(a: np.ndarray, b: np.ndarray, noise: np.ndarray | None) -> np.ndarray:
    """Cells where two twins' layouts differ well beyond what photos of one card differ by, grown a cell.

    A difference that shifting one layout a cell or two explains away is an outline a little off
    (shared letters, the star's edges), not a difference: each cell counts only its smallest
    difference over the shifts, both ways round. Where photos of one card vary (glare, blur on high-contrast
    art) a difference must be larger to count.
    """
    size = np.maximum(_shifted_difference(a, b), _shifted_difference(b, a))
    if noise is not None:
        size = size / np.sqrt(noise + np.median(noise))
    sigma = 1.4826 * float(np.median(size)) + 1e-9  # robust: most cells are art the twins share
    keep = max(1, int(REGION_MIN_SHARE * size.size))
    mask = (size > REGION_SIGMAS * sigma) | (size >= np.partition(size, -keep)[-keep])
    return _grown(mask)  # letters land a cell off


def _within(region: np.ndarray, varying: np.ndarray | None) -> np.ndarray:
    """A pair's region kept to the cells where the family varies, unless too little is left."""
    if varying is None:
        return region
    kept = region & varying
    return kept if kept.sum() >= REGION_MIN_SHARE * kept.size else region


def _varying(photos: np.ndarray, owner: np.ndarray, cards: np.ndarray, noise: np.ndarray | None) -> np.ndarray | None:
    """Cells (grown a cell) where the twins' own means differ more than photos of one twin do: the
    letters, digits and badges the family's cards carry, not the art they share."""
    if noise is None or len(cards) < 3:
        return None
    counts = np.array([(owner == c).sum() for c in cards], np.float64)
    means = _card_means(photos, owner, cards)
    grand = (counts[:, None] * means).sum(axis=0) / counts.sum()
    between = (counts[:, None] * (means - grand) ** 2).sum(axis=0) / (len(cards) - 1)
    # smoothed as the noise is, or a spot one photo shows outweighs its own noise spread thin
    return _grown(_smoothed(between) > FAMILY_F * np.maximum(noise, 1e-12))


def _grown(cells: np.ndarray) -> np.ndarray:
    """A boolean mask of fine cells grown by one cell all round."""
    grid = cells.reshape(FINE_GRID[1], FINE_GRID[0]).astype(np.uint8)
    return cv2.dilate(grid, np.ones((3, 3), np.uint8)).ravel().astype(bool)


def _smoothed(cells: np.ndarray) -> np.ndarray:
    """Values per fine cell averaged over 3x3 cells."""
    return cv2.blur(cells.reshape(FINE_GRID[1], FINE_GRID[0]).astype(np.float32), (3, 3)).ravel()


def _shifted_difference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per cell, the smallest |a - b| with b shifted by up to REGION_REACH cells each way."""
    return np.abs(a[None, :] - _shifts(b)).min(axis=0)


def _shifts(v: np.ndarray) -> np.ndarray:
    """A fine layout shifted by up to REGION_REACH cells each way (edges repeated): (shifts, fine)."""
    r = REGION_REACH
    grid = v.reshape(FINE_GRID[1], FINE_GRID[0])
    h, w = grid.shape
    pad = np.pad(grid, r, mode="edge")
    return np.stack([pad[dy:dy + h, dx:dx + w].ravel() for dy in range(2 * r + 1) for dx in range(2 * r + 1)])


def _unit_in(v: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """v over the mask only: zero mean, unit norm there, 0 elsewhere."""
    out = np.where(mask, v - v[mask].mean(), 0.0)
    return out / max(float(np.linalg.norm(out)), 1e-6)


def _photo_noise(photos: np.ndarray, owner: np.ndarray, cards: np.ndarray, fine: np.ndarray) -> np.ndarray | None:
    """Per fine cell, the variance of a card's photos about their card's mean, pooled over the cards
    with two photos or more and smoothed over 3x3 cells; None when no card has two."""
    rows = {int(c): i for i, c in enumerate(cards)}
    residual = photos - fine[[rows[int(o)] for o in owner]]
    spare = len(owner) - len(cards)  # degrees of freedom: photos beyond each card's first
    if spare <= 0:
        return None
    return _smoothed((residual**2).sum(axis=0) / spare)


def _sharpness(images: Sequence[np.ndarray]) -> float:
    """The median detail (features.sharpness) of some canonical card images."""
    return float(np.median([sharpness(im) for im in images]))


def _layouts(images: Sequence[np.ndarray], owner: np.ndarray,
             cards: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each photo's fine layout, and each card's fine and mid-scale layouts (means over its photos)."""
    photos = np.stack([fine_vector(im) for im in images])
    return photos, _per_card(photos, owner, cards), _per_card(np.stack([mid_vector(im) for im in images]), owner, cards)


def _per_card(vectors: np.ndarray, owner: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """Each card's mean of its photos' vectors, back to unit norm: (cards, length)."""
    mean = _card_means(vectors, owner, cards)
    return mean / np.maximum(np.linalg.norm(mean, axis=1, keepdims=True), 1e-6)


def _card_means(vectors: np.ndarray, owner: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """Each card's plain mean of its photos' vectors: (cards, length)."""
    return np.stack([vectors[owner == c].mean(axis=0) for c in cards])



