"""Reference decks: described card images, and the matching of an unknown card against them.

A Deck holds one or more canonical images per card ID. Matching scores a described card
against every reference in both orientations (coarse grey layout plus colour). When the best
reference has near-twins in the deck (the 13 set-up cards, blue cards of one colour), a second
stage compares the fine grey layout after subtracting what the twins share, so only the parts
that differ (the letters) decide between them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.cards import CARD_IDS, kind_of
from vision.discriminant import warm_resolutions
from vision.doubt import doubtful
from vision.features import (
    REFERENCE_ALIGN_CRITERIA,
    Descriptor,
    align_image,
    align_to,
    canonical,
    describe,
    fine_vector,
    glyph_vector,
    mid_vector,
    sharpness,
)
from vision.judge import MIN_DETAIL
from vision.keypoints import KeypointIndex
from vision.twins import Family

CHROMA_WEIGHT = 0.35  # share of the coarse score given to colour; grey layout carries the rest
CHROMA_SCALE = 0.02  # mean squared chromaticity difference at which colour similarity is 1/e
FAMILY_SIMILARITY = 0.70  # coarse score above which two different cards count as near-twins
FAMILY_COLOUR_WEIGHT = 0.5  # weight of a colour similarity difference (0..1) next to a twin-vs-twin projection
UNALIGNED_MARGIN = 0.6  # twin lead (1: the named twin exactly) at which a card whose twins differ in their art at large
# is named as its outline warped it, without aligning it onto their template (~1.2 ms of ECC a card), if its detail
# there is already judge.MIN_DETAIL, the most any match is asked for: painted terrain cards lead by 1.0-1.3, but
# unaligned their detail lies 0.06 lower (median; 0.14 at the quarter), under judge.DETAIL_FLOOR in 19 of 437 calls
WAY_UP_ROUNDS = 10  # rounds to agree which way up near-twins lie (2-3 suffice in practice)


@dataclass(frozen=True)
class Match:
    """How well a described card matches its best card in a deck, and by what margin."""

    card: str  # best card ID
    score: float  # coarse similarity to it, about -1..1 (1 = identical)
    margin: float  # score minus the best score of a card outside its family of near-twins
    fine_margin: float | None  # within the family: fine score of the best minus the runner-up
    turned: bool  # True when the card lies upside down relative to its reference
    detail: float | None = None  # fine-detail correlation with the named card once aligned (-1..1); None: not measured
    rival_detail: float | None = None  # the same with the runner-up card outside its family; None: not measured
    kind_complete: bool = True  # False when a card of the named card's kind has no reference: it may be that one
    steady: bool = True  # among twins: every look at the card (its outline, nudged ones) alone names the same twin


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
        self._descs = descs
        self._family_of: list[Family | None] | None = None  # learnt on first use: enrollment needs none
        self._keypoints: KeypointIndex | None = None  # found on first use: only a frame no other search read needs it
        self._turned_in_family = np.zeros(len(self.labels), bool)  # learnt with them: turned to the family's way up
        have = set(self.labels)
        self.missing = tuple(c for c in CARD_IDS if c not in have)  # cards this deck cannot name
        self._incomplete = frozenset(c for c in have if any(k not in have for k in kind_of(c)))

    def doubts(self, card: str, image: np.ndarray) -> bool:
        """True when a new photo of card looks unlike its card and its kind here: a wrong outline."""
        d = describe(canonical(image), fine=False)
        row = np.maximum(self._scores(d), self._scores(d.turned()))
        n = len(self.labels)
        similarity = np.ones((n + 1, n + 1))
        similarity[:n, :n], similarity[n, :n], similarity[:n, n] = self._similarity, row, row
        return bool(doubtful((*self.labels, card), similarity, FAMILY_SIMILARITY)[n])

    def images_of(self, card: str) -> tuple[np.ndarray, ...]:
        """The canonical images of a card's enrolled photos (none if it has none)."""
        return tuple(image for label, image in zip(self.labels, self.images, strict=True) if label == card)

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

    def families(self) -> list[Family | None]:
        """Each reference's family of near-twins (None: no twin), learnt on the first call."""
        if self._family_of is None:
            self._family_of, self._turned_in_family = self._build_families(self._descs)
        return self._family_of

    def warm(self, frame_height: int, until: Callable[[], bool] = lambda: False) -> bool:
        """Learn now, family by family and size by size, what the first cards read in frames this tall
        would otherwise learn then (twins.Family.warm: 0.2-1 s a family and card size here): a scanner
        asks it in the background once a deck is loaded, so no card laid later waits for it. Stops
        between sizes once until() is true (the deck was replaced); returns whether it finished."""
        families = {id(f): f for f in self.families() if f is not None}.values()
        for resolution in warm_resolutions(frame_height):
            for family in families:
                if until():
                    return False
                family.warm([resolution])
        return True

    def keypoints(self) -> KeypointIndex:
        """The references' keypoints (vision.keypoints), found on the first call."""
        if self._keypoints is None:
            self._keypoints = KeypointIndex.of(self.images)
        return self._keypoints

    def twins(self, a: str, b: str) -> bool:
        """Whether two cards of the deck are of one family of near twins (told apart only where they differ)."""
        of = [self._family_of_card(c) for c in (a, b)]
        return of[0] is not None and of[0] is of[1]

    def by_print(self, card: str) -> bool:
        """Whether a card's twins are told from it by small printed fields (Family.by_print: blue, set-up)."""
        family = self._family_of_card(card)
        return family is not None and family.by_print

    def _family_of_card(self, card: str) -> Family | None:
        """The family of near-twins a card of the deck belongs to (None: no twin, or not in the deck)."""
        return self.family(int(np.argmax(self._ref_card == self._card_index[card]))) if card in self._card_index else None

    def family(self, ref: int) -> Family | None:
        """The family of near-twins a reference belongs to (None: it has no twin)."""
        return self.families()[ref]

    def _build_families(self, descs: Sequence[Descriptor]) -> tuple[list[Family | None], np.ndarray]:
        """Group references of different cards that look alike (transitively) into families: each
        reference's family (None: no twin), and whether it lies turned relative to its family."""
        family_of: list[Family | None] = [None] * len(descs)
        turned = np.zeros(len(descs), bool)
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
            images = [align_to(im, template, REFERENCE_ALIGN_CRITERIA, cv2.MOTION_HOMOGRAPHY, coarse=True) for im in images]  # outlines are never exact
            template = np.mean([align_image(im) for im in images], axis=0).astype(np.float32)
            family = Family.learn(np.array(members), template, asymmetry, self._ref_card[members], images,
                                  self.cards)
            for j, f in zip(members, flips, strict=True):
                family_of[j] = family
                turned[j] = f
        # A photo of a twin unlike the family (its own tiles, a skewed outline) is no member to learn
        # from, but a card it fits best is still one of the twins: told among them, not named past their
        # test (a tiled painted "any" card named mountain by the one mountain photo outside the family)
        of_card = {int(self._ref_card[j]): f for j, f in enumerate(family_of) if f is not None}
        return [f if f is not None else of_card.get(int(self._ref_card[j])) for j, f in enumerate(family_of)], turned

    def upright(self, card: str, image: np.ndarray) -> np.ndarray:
        """Turn a canonical image of card 180° if that matches the deck's references of it better."""
        d = describe(canonical(image), fine=False)
        mine = self._ref_card == self._card_index.get(card, -1)
        if not mine.any():
            return image
        if self._scores(d.turned())[mine].max() > self._scores(d)[mine].max():
            return np.ascontiguousarray(image[::-1, ::-1])
        return image

    def match(self, image: np.ndarray, fine_above: float = -np.inf, detail_below: float = np.inf,
              resolution: float = 1.0, rival_below: float = -np.inf, among: np.ndarray | None = None,
              nudged: Sequence[np.ndarray] = ()) -> Match:
        """Find the best card for a canonical card image, trying it upright and turned 180°.

        resolution: frame px per canonical px where the card was seen (features.resolution); twins
        are compared as a card that small shows them.

        Among near-twins the fine stage decides; it is skipped (fine_margin 0) when the coarse
        score is below fine_above, as such a card is refused anyway. A card with no twin has its
        detail measured (an alignment, the costly part) only when its margin is below detail_below,
        and the runner-up's detail too when the margin is below rival_below (a close call).
        among: the references it may match (bool per reference; None: all), its rivals among them.
        nudged: the card as its outline nudged warps it (sides.nudged): among twins, the leads are
        averaged over these looks and the image's own (twins.Layouts.beats).
        """
        d = describe(image, fine=False)
        both = np.stack([self._scores(d), self._scores(d.turned())])
        if among is not None:
            both[:, ~among] = -np.inf
        turn, best = np.unravel_index(int(np.argmax(both)), both.shape)
        best_score = float(both[turn, best])
        card_best = np.full(len(self._card_index), -np.inf)
        np.maximum.at(card_best, self._ref_card, both.max(axis=0))
        family = self.family(best)
        card, fine_margin, detail, steady = int(self._ref_card[best]), None, None, True
        card_best[self._ref_card[family.members] if family is not None else card] = -np.inf  # its rivals are outside
        margin = best_score - (float(card_best.max()) if np.isfinite(card_best).any() else -1.0)
        if family is not None and best_score < fine_above:
            fine_margin = 0.0
        elif family is not None:
            flip = bool(d.asymmetry() @ family.asymmetry < 0)
            looks = [im[::-1, ::-1] if flip else im for im in (image, *nudged)]
            card, fine_margin, detail, steady = self._within_family(family, looks, self._family_colour(family, d, flip),
                                                                    resolution)
            turn = flip  # relative to the way up the family's first reference lies
        elif best_score >= fine_above and margin < detail_below:
            detail = self._detail(image, bool(turn), int(best))
        rival_detail = None
        if detail is not None and margin < rival_below and np.isfinite(card_best).any():
            rival_turn, rival = np.unravel_index(int(np.argmax(np.where(
                self._ref_card == int(np.argmax(card_best)), both, -np.inf))), both.shape)
            rival_detail = self._detail(image, bool(rival_turn), int(rival))
        name = self.cards[card]
        return Match(name, best_score, margin, fine_margin, bool(turn), detail, rival_detail,
                     kind_complete=name not in self._incomplete, steady=steady)

    def _detail(self, image: np.ndarray, turn: bool, ref: int) -> float:
        """Fine-detail correlation (-1..1) of a canonical card image with one reference, aligned to it
        or as its outline warped it, whichever agrees better: on a card streaked by motion the
        alignment may run off (a water card's detail -0.02 aligned, 0.87 as warped)."""
        query = image[::-1, ::-1] if turn else image
        aligned = align_to(query, align_image(self.images[ref]))
        return max(max(float(fine_vector(v) @ self._fine[ref]), float(mid_vector(v) @ self._mid[ref]))
                   for v in (aligned, query))

    def _family_colour(self, family: Family, d: Descriptor, flip: bool) -> np.ndarray:
        """Best colour similarity of the card to each of the family's cards (rows of residuals)."""
        colour = np.stack([self._colour(d), self._colour(d.turned())])
        way = np.array([flip != bool(self._turned_in_family[j]) for j in family.members], int)
        per_ref = colour[way, family.members]
        cards = self._ref_card[family.members]
        return np.array([per_ref[cards == c].max() for c in family.cards])

    def _within_family(self, family: Family, images: Sequence[np.ndarray], colour: np.ndarray,
                       resolution: float) -> tuple[int, float, float, bool]:
        """Pick among near-twins by where they differ, after aligning the card to their template (unless,
        among twins that differ in their art, its outline's own warp already leads by UNALIGNED_MARGIN with
        MIN_DETAIL: _looks). images: the card as its outline warped it, then any nudged looks at it.

        The named twin (fine layout, helped by colour) must beat every other twin where the two
        differ (their letters, digits or badges, as learnt from the photos): 1 is exactly the
        named twin there, 0 halfway to the other. The smallest such lead is the margin, over all images.
        Returns the card index, that margin, how well the card's detail (its first image's) matches the
        named twin's (fine or mid scale), and whether each image alone would name that twin too.
        """
        for looks, last in _looks(family, images):
            greys = [cv2.cvtColor(look, cv2.COLOR_BGR2GRAY) for look in looks]  # once, not in each layout below
            twins = family.seen_like(resolution, sharpness(greys[0]))
            fine, mid = fine_vector(greys[0]), mid_vector(greys[0])
            if not last and max(float((twins.fine @ fine).max()), float((twins.mid @ mid).max())) < MIN_DETAIL:
                continue  # no twin's detail reaches MIN_DETAIL here: this look cannot settle the call, spare its beats
            beats = twins.beats([glyph_vector(g) for g in greys], family.discriminant_at(resolution))
            beats += FAMILY_COLOUR_WEIGHT * (colour[:, None] - colour[None, :])
            for each in beats:
                np.fill_diagonal(each, np.inf)
            worst = beats.min(axis=2)
            best = int(np.argmax(worst[0]))
            margin = float(worst[0, best]) if len(family.cards) > 1 else 1.0
            steady = bool((worst[1:].argmax(axis=1) == best).all())
            detail = max(float(fine @ twins.fine[best]), float(mid @ twins.mid[best]))
            if margin >= UNALIGNED_MARGIN and detail >= MIN_DETAIL:
                break
        return int(family.cards[best]), margin, detail, steady


def _looks(family: Family, images: Sequence[np.ndarray]) -> Iterator[tuple[list[np.ndarray], bool]]:
    """Card images to tell twins apart by (each image of the card), and whether it is the last look: first
    as their outlines warped them when the twins differ in their art at large (family.by_print False), then
    aligned onto their template (the costly part)."""
    if not family.by_print:
        yield list(images), False
    yield [family.align(image) for image in images], True


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
