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

import numpy as np

from vision.cards import CARD_IDS, kind_of
from vision.features import (
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


class Deck:
    """A reference deck: card IDs with canonical images, ready for matching."""

    def __init__(self, references: Iterable[tuple[str, np.ndarray]], name: str = "") -> None:
        refs = [(card, canonical(image)) for card, image in references]
        if not refs:
            raise ValueError("a deck needs at least one reference image")
        self.name = name
        self.labels = tuple(card for card, _ in refs)
        self.images = tuple(image for _, image in refs)
        descs = [describe(image) for image in self.images]
        self._card_index = {card: i for i, card in enumerate(dict.fromkeys(self.labels))}
        self._ref_card = np.array([self._card_index[c] for c in self.labels])
        self._coarse = np.stack([d.coarse for d in descs])
        self._chroma = np.stack([d.chroma for d in descs])
        self._chroma_sq = (self._chroma**2).sum(axis=1)
        self._fine = np.stack([d.fine for d in descs])
        self._mid = np.stack([mid_vector(image) for image in self.images])
        self._family_of: list[_Family | None] = [None] * len(refs)
        self._turned_in_family = np.zeros(len(refs), bool)
        self._build_families(descs)
        have = set(self.labels)
        self.missing = tuple(c for c in CARD_IDS if c not in have)  # cards this deck cannot name
        self._incomplete = frozenset(c for c in have if any(k not in have for k in kind_of(c)))

    @property
    def cards(self) -> tuple[str, ...]:
        """The distinct card IDs this deck can name, in first-seen order."""
        return tuple(self._card_index)

    def __len__(self) -> int:
        return len(self.labels)

    def _colour(self, d: Descriptor) -> np.ndarray:
        """Colour similarity (0..1) of d to every reference."""
        msd = (self._chroma_sq + float(d.chroma @ d.chroma) - 2 * (self._chroma @ d.chroma)) / d.chroma.size
        return np.exp(-np.maximum(msd, 0) / CHROMA_SCALE)

    def _scores(self, d: Descriptor) -> np.ndarray:
        """Coarse similarity of d to every reference, shape (references,)."""
        return (1 - CHROMA_WEIGHT) * (self._coarse @ d.coarse) + CHROMA_WEIGHT * self._colour(d)

    def _build_families(self, descs: Sequence[Descriptor]) -> None:
        """Group references of different cards that look alike (transitively) into families."""
        n = len(descs)
        upright = np.stack([self._scores(d) for d in descs])
        turned = np.stack([self._scores(d.turned()) for d in descs])
        parent = list(range(n))

        def root(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for i in range(n):
            for j in range(i + 1, n):
                if max(upright[i, j], turned[i, j]) >= FAMILY_SIMILARITY:
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
            images = [align_to(im, template) for im in images]  # photos: outlines are never exact
            template = np.mean([align_image(im) for im in images], axis=0).astype(np.float32)
            cards = np.array(sorted({int(self._ref_card[j]) for j in members}))
            owner = self._ref_card[members]
            fine, mid = (_per_card(np.stack([f(im) for im in images]), owner, cards) for f in (fine_vector, mid_vector))
            family = _Family(np.array(members), template, asymmetry, cards, fine, mid)
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

        The likeliest twin (fine layout, helped by colour) must then beat every other twin on
        the line between the two: projected onto their difference (where their letters, digits
        or badges differ, as learnt from the photos), 1 is exactly the named twin, 0 halfway to
        the other. The smallest such projection is the margin. Returns the card index, that
        margin, and how well the card's detail matches the named twin's (fine or mid scale).
        """
        aligned = align_to(image, family.template)
        fine, mid = fine_vector(aligned), mid_vector(aligned)
        twins = family.fine
        diff = twins[:, None, :] - twins[None, :, :]  # (a, b, fine): where twin a differs from twin b
        halfway = (twins[:, None, :] + twins[None, :, :]) / 2
        spread = np.maximum((diff * diff).sum(axis=2) / 2, 1e-6)
        beats = ((fine - halfway) * diff).sum(axis=2) / spread + FAMILY_COLOUR_WEIGHT * (colour[:, None] - colour[None, :])
        np.fill_diagonal(beats, np.inf)
        worst = beats.min(axis=1)
        best = int(np.argmax(worst))
        margin = float(worst[best]) if len(twins) > 1 else 1.0
        detail = max(float(fine @ twins[best]), float(mid @ family.mid[best]))
        return int(family.cards[best]), margin, detail


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


def render_deck(style_name: str = "standard", cards: Sequence[str] = CARD_IDS) -> Deck:
    """A deck whose references are the renderer's own images of the given cards in one style."""
    from vision.render import STYLES, render_card

    style = STYLES[style_name]
    return Deck(((card, render_card(card, style, px_per_mm=4.0)) for card in cards), name=style_name)


@lru_cache(maxsize=1)
def builtin_deck() -> Deck:
    """The built-in deck: every card ID drawn by our renderer, described once and kept in memory."""
    return render_deck("standard")
