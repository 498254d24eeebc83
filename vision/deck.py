"""Reference decks: described card images, and the matching of an unknown card against them.

A Deck holds one or more canonical images per card ID. Matching scores a described card
against every reference in both orientations (coarse grey layout plus colour). When the best
reference has near-twins in the deck (the 13 set-up cards, blue cards of one colour), a second
stage compares the fine grey layout after subtracting what the twins share, so only the parts
that differ (the letters) decide between them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.cards import CARD_IDS, kind_of
from vision.doubt import doubtful
from vision.features import (
    FINE_GRID,
    REFERENCE_ALIGN_CRITERIA,
    Descriptor,
    align_image,
    align_to,
    canonical,
    describe,
    fine_vector,
    mid_vector,
)

CHROMA_WEIGHT = 0.35  # share of the coarse score given to colour; grey layout carries the rest
CHROMA_SCALE = 0.02  # mean squared chromaticity difference at which colour similarity is 1/e
FAMILY_SIMILARITY = 0.70  # coarse score above which two different cards count as near-twins
FAMILY_COLOUR_WEIGHT = 0.5  # weight of a colour similarity difference (0..1) next to a twin-vs-twin projection
WAY_UP_ROUNDS = 10  # rounds to agree which way up near-twins lie (2-3 suffice in practice)
REGION_SIGMAS = 3.0  # a fine cell where two twins differ by this many robust sigmas (of all cells) sets them apart
REGION_MIN_SHARE = 0.01  # the distinguishing region keeps at least this share of the card's cells (a digit is ~1%)
REGION_REACH = 2  # fine cells (~2 mm): how far a twin's letters may lie off the family template after alignment


@dataclass(frozen=True)
class Match:
    """How well a described card matches its best card in a deck, and by what margin."""

    card: str  # best card ID
    score: float  # coarse similarity to it, about -1..1 (1 = identical)
    margin: float  # score minus the best score of a card outside its family of near-twins
    fine_margin: float | None  # within the family: fine score of the best minus the runner-up
    turned: bool  # True when the card lies upside down relative to its reference
    detail: float | None = None  # fine-detail correlation with the named card once aligned (-1..1); None: not measured
    kind_complete: bool = True  # False when a card of the named card's kind has no reference: it may be that one


@dataclass(frozen=True, eq=False)
class _Family:
    """Near-twin references, all turned the same way as the first: a shared template to align to."""

    members: np.ndarray  # reference indices
    template: np.ndarray  # float32 grey ALIGN_SIZE image: what the twins share
    asymmetry: np.ndarray  # mean asymmetry: tells which way round a card lies
    cards: np.ndarray  # card index of each row below
    fine: np.ndarray  # (cards, fine) each card's own fine layout (mean over its photos, unit norm)
    mid: np.ndarray  # (cards, mid) each card's own mid-scale layout (mean over its photos, unit norm)
    regions: Regions  # where each pair of twins differs, and each twin seen only there


class Deck:
    """A reference deck: card IDs with canonical images, ready for matching."""

    def __init__(self, references: Iterable[tuple[str, np.ndarray]], name: str = "") -> None:
        refs = [(card, canonical(image)) for card, image in references]
        if not refs:
            raise ValueError("a deck needs at least one reference image")
        self.name = name
        all_descs = [describe(image) for _, image in refs]
        similarity = similarity_matrix(all_descs)
        labels = np.array([card for card, _ in refs])
        doubted = doubtful(labels, similarity, FAMILY_SIMILARITY)
        doubted &= np.isin(labels, labels[~doubted])  # a card's only photos stay: none would be worse
        keep = np.flatnonzero(~doubted)
        self.doubted = tuple(int(i) for i in np.flatnonzero(doubted))  # references set aside (input order)
        self.labels = tuple(refs[i][0] for i in keep)
        self.images = tuple(refs[i][1] for i in keep)
        descs = [all_descs[i] for i in keep]
        self._similarity = similarity[np.ix_(keep, keep)]
        self._card_index = {card: i for i, card in enumerate(dict.fromkeys(self.labels))}
        self._ref_card = np.array([self._card_index[c] for c in self.labels])
        self._coarse = np.stack([d.coarse for d in descs])
        self._chroma = np.stack([d.chroma for d in descs])
        self._chroma_sq = (self._chroma**2).sum(axis=1)
        self._fine = np.stack([d.fine for d in descs])
        self._mid = np.stack([mid_vector(image) for image in self.images])
        self._family_of: list[_Family | None] = [None] * len(self.labels)
        self._turned_in_family = np.zeros(len(self.labels), bool)
        self._build_families(descs)
        have = set(self.labels)
        self.missing = tuple(c for c in CARD_IDS if c not in have)  # cards this deck cannot name
        self._incomplete = frozenset(c for c in have if any(k not in have for k in kind_of(c)))

    def doubts(self, card: str, image: np.ndarray) -> bool:
        """True when a new photo of card looks unlike its card and its kind here: a wrong outline."""
        d = describe(canonical(image))
        row = np.maximum(self._scores(d), self._scores(d.turned()))
        n = len(self.labels)
        similarity = np.ones((n + 1, n + 1))
        similarity[:n, :n], similarity[n, :n], similarity[:n, n] = self._similarity, row, row
        return bool(doubtful((*self.labels, card), similarity, FAMILY_SIMILARITY)[n])

    @property
    def cards(self) -> tuple[str, ...]:
        """The distinct card IDs this deck can name, in first-seen order."""
        return tuple(self._card_index)

    def __len__(self) -> int:
        return len(self.labels)

    def _colour(self, d: Descriptor) -> np.ndarray:
        """Colour similarity (0..1) of d to every reference."""
        return _colour_similarity(self._chroma, self._chroma_sq, d)

    def _scores(self, d: Descriptor) -> np.ndarray:
        """Coarse similarity of d to every reference, shape (references,)."""
        return _coarse_similarity(self._coarse, self._chroma, self._chroma_sq, d)

    def _build_families(self, descs: Sequence[Descriptor]) -> None:
        """Group references of different cards that look alike (transitively) into families."""
        n = len(descs)
        parent = list(range(n))

        def root(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for i in range(n):
            for j in range(i + 1, n):
                if self._similarity[i, j] >= FAMILY_SIMILARITY:
                    parent[root(j)] = root(i)
        groups: dict[int, list[int]] = {}
        for i in range(n):
            groups.setdefault(root(i), []).append(i)
        for members in groups.values():
            if len({int(self._ref_card[j]) for j in members}) < 2:
                continue
            flips, asymmetry = _common_way_up(np.stack([descs[j].asymmetry() for j in members]))
            images = [self.images[j][::-1, ::-1] if f else self.images[j] for j, f in zip(members, flips, strict=True)]
            template = np.mean([align_image(im) for im in images], axis=0).astype(np.float32)
            images = [align_to(im, template, REFERENCE_ALIGN_CRITERIA, cv2.MOTION_HOMOGRAPHY) for im in images]  # outlines are never exact
            template = np.mean([align_image(im) for im in images], axis=0).astype(np.float32)
            cards = np.array(sorted({int(self._ref_card[j]) for j in members}))
            owner = self._ref_card[members]
            photos = np.stack([fine_vector(im) for im in images])
            fine = _per_card(photos, owner, cards)
            mid = _per_card(np.stack([mid_vector(im) for im in images]), owner, cards)
            regions = Regions.learn(fine, _photo_noise(photos, owner, cards, fine))
            family = _Family(np.array(members), template, asymmetry, cards, fine, mid, regions)
            for j, f in zip(members, flips, strict=True):
                self._family_of[j] = family
                self._turned_in_family[j] = f

    def upright(self, card: str, image: np.ndarray) -> np.ndarray:
        """Turn a canonical image of card 180° if that matches the deck's references of it better."""
        d = describe(canonical(image))
        mine = self._ref_card == self._card_index.get(card, -1)
        if not mine.any():
            return image
        if self._scores(d.turned())[mine].max() > self._scores(d)[mine].max():
            return np.ascontiguousarray(image[::-1, ::-1])
        return image

    def match(self, image: np.ndarray, fine_above: float = -np.inf, detail_below: float = np.inf) -> Match:
        """Find the best card for a canonical card image, trying it upright and turned 180°.

        Among near-twins the fine stage decides; it is skipped (fine_margin 0) when the coarse
        score is below fine_above, as such a card is refused anyway. A card with no twin has its
        detail measured (an alignment, the costly part) only when its margin is below detail_below.
        """
        d = describe(image)
        both = np.stack([self._scores(d), self._scores(d.turned())])
        turn, best = np.unravel_index(int(np.argmax(both)), both.shape)
        best_score = float(both[turn, best])
        card_best = np.full(len(self._card_index), -np.inf)
        np.maximum.at(card_best, self._ref_card, both.max(axis=0))
        family = self._family_of[best]
        card, fine_margin, detail = int(self._ref_card[best]), None, None
        card_best[self._ref_card[family.members] if family is not None else card] = -np.inf  # its rivals are outside
        margin = best_score - (float(card_best.max()) if np.isfinite(card_best).any() else -1.0)
        if family is not None and best_score < fine_above:
            fine_margin = 0.0
        elif family is not None:
            flip = bool(d.asymmetry() @ family.asymmetry < 0)
            card, fine_margin, detail = self._within_family(family, image[::-1, ::-1] if flip else image,
                                                            self._family_colour(family, d, flip))
            turn = flip  # relative to the way up the family's first reference lies
        elif best_score >= fine_above and margin < detail_below:
            query = image[::-1, ::-1] if turn else image
            aligned = align_to(query, align_image(self.images[best]))
            detail = max(float(fine_vector(aligned) @ self._fine[best]), float(mid_vector(aligned) @ self._mid[best]))
        name = self.cards[card]
        return Match(name, best_score, margin, fine_margin, bool(turn), detail, name not in self._incomplete)

    def _family_colour(self, family: _Family, d: Descriptor, flip: bool) -> np.ndarray:
        """Best colour similarity of the card to each of the family's cards (rows of residuals)."""
        colour = np.stack([self._colour(d), self._colour(d.turned())])
        way = np.array([flip != bool(self._turned_in_family[j]) for j in family.members], int)
        per_ref = colour[way, family.members]
        cards = self._ref_card[family.members]
        return np.array([per_ref[cards == c].max() for c in family.cards])

    def _within_family(self, family: _Family, image: np.ndarray,
                       colour: np.ndarray) -> tuple[int, float, float]:
        """Pick among near-twins by where they differ, after aligning the card to their template.

        The named twin (fine layout, helped by colour) must beat every other twin where the two
        differ (their letters, digits or badges, as learnt from the photos): 1 is exactly the
        named twin there, 0 halfway to the other. The smallest such lead is the margin. Returns the card index, that
        margin, and how well the card's detail matches the named twin's (fine or mid scale).
        """
        aligned = align_to(image, family.template)
        fine, mid = fine_vector(aligned), mid_vector(aligned)
        beats = family.regions.beats(fine) + FAMILY_COLOUR_WEIGHT * (colour[:, None] - colour[None, :])
        np.fill_diagonal(beats, np.inf)
        worst = beats.min(axis=1)
        best = int(np.argmax(worst))
        margin = float(worst[best]) if len(family.cards) > 1 else 1.0
        detail = max(float(fine @ family.fine[best]), float(mid @ family.mid[best]))
        return int(family.cards[best]), margin, detail


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
    def learn(fine: np.ndarray, noise: np.ndarray | None) -> Regions:
        """The distinguishing region of every pair of rows of (cards, fine) unit-norm layouts.

        noise: per cell, how much photos of one card vary there (None: not known, one photo each).
        """
        pairs = tuple((i, j) for i in range(len(fine)) for j in range(i + 1, len(fine)))
        masks = np.stack([_region(fine[i], fine[j], noise) for i, j in pairs]) if pairs \
            else np.zeros((0, fine.shape[1]), bool)
        a = np.stack([_unit_in(fine[i], m) for (i, _), m in zip(pairs, masks, strict=True)]) if pairs else masks * 0.0
        b = np.stack([_unit_in(fine[j], m) for (_, j), m in zip(pairs, masks, strict=True)]) if pairs else masks * 0.0
        return Regions(a.astype(np.float32), b.astype(np.float32), masks.astype(np.float32), masks.sum(axis=1),
                       (a * b).sum(axis=1), pairs, len(fine))

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
    grid = mask.reshape(FINE_GRID[1], FINE_GRID[0]).astype(np.uint8)
    return cv2.dilate(grid, np.ones((3, 3), np.uint8)).ravel().astype(bool)  # letters land a cell off


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
    variance = (residual**2).sum(axis=0) / spare
    grid = variance.reshape(FINE_GRID[1], FINE_GRID[0]).astype(np.float32)
    return cv2.blur(grid, (3, 3)).ravel()


def _per_card(vectors: np.ndarray, owner: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """Each card's mean of its photos' vectors, back to unit norm: (cards, length)."""
    mean = np.stack([vectors[owner == c].mean(axis=0) for c in cards])
    return mean / np.maximum(np.linalg.norm(mean, axis=1, keepdims=True), 1e-6)


def _common_way_up(asymmetry: np.ndarray) -> tuple[list[bool], np.ndarray]:
    """Which members to turn so all lie the same way up: signs that agree with their mean, iterated.

    What the twins share (a marker at the top, a banner at the bottom) adds up in the mean while
    what sets them apart averages out, so a few rounds settle on the common way up.
    """
    signs = np.sign(asymmetry @ asymmetry[0])
    signs[signs == 0] = 1
    for _ in range(WAY_UP_ROUNDS):
        mean = (asymmetry * signs[:, None]).mean(axis=0)
        new = np.where(asymmetry @ mean < 0, -1.0, 1.0)
        if (new == signs).all():
            break
        signs = new
    if signs[0] < 0:
        signs = -signs
    return [bool(s < 0) for s in signs], (asymmetry * signs[:, None]).mean(axis=0)


def _colour_similarity(chroma: np.ndarray, chroma_sq: np.ndarray, d: Descriptor) -> np.ndarray:
    """Colour similarity (0..1) of d to each row of stacked chroma vectors (chroma_sq: their squared norms)."""
    msd = (chroma_sq + float(d.chroma @ d.chroma) - 2 * (chroma @ d.chroma)) / d.chroma.size
    return np.exp(-np.maximum(msd, 0) / CHROMA_SCALE)


def _coarse_similarity(coarse: np.ndarray, chroma: np.ndarray, chroma_sq: np.ndarray, d: Descriptor) -> np.ndarray:
    """Coarse similarity (about -1..1) of d to each row of stacked coarse and chroma vectors."""
    return (1 - CHROMA_WEIGHT) * (coarse @ d.coarse) + CHROMA_WEIGHT * _colour_similarity(chroma, chroma_sq, d)


def similarity_matrix(descs: Sequence[Descriptor]) -> np.ndarray:
    """Coarse similarity of every pair of described cards, each pair the better way round."""
    coarse = np.stack([d.coarse for d in descs])
    chroma = np.stack([d.chroma for d in descs])
    chroma_sq = (chroma**2).sum(axis=1)
    upright = np.stack([_coarse_similarity(coarse, chroma, chroma_sq, d) for d in descs])
    turned = np.stack([_coarse_similarity(coarse, chroma, chroma_sq, d.turned()) for d in descs])
    return np.maximum(upright, turned)


def render_deck(style_name: str = "standard", cards: Sequence[str] = CARD_IDS) -> Deck:
    """A deck whose references are the renderer's own images of the given cards in one style."""
    from vision.render import STYLES, render_card

    style = STYLES[style_name]
    return Deck(((card, render_card(card, style, px_per_mm=4.0)) for card in cards), name=style_name)


@lru_cache(maxsize=1)
def builtin_deck() -> Deck:
    """The built-in deck: every card ID drawn by our renderer, described once and kept in memory."""
    return render_deck("standard")
