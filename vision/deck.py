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

from vision.cards import CARD_IDS
from vision.features import Descriptor, canonical, describe

CHROMA_WEIGHT = 0.35  # share of the coarse score given to colour; grey layout carries the rest
CHROMA_SCALE = 0.02  # mean squared chromaticity difference at which colour similarity is 1/e
FAMILY_SIMILARITY = 0.70  # coarse score above which two different cards count as near-twins


@dataclass(frozen=True)
class Match:
    """How well a described card matches its best card in a deck, and by what margin."""

    card: str  # best card ID
    score: float  # coarse similarity to it, about -1..1 (1 = identical)
    margin: float  # score minus the best score of a card outside its family of near-twins
    fine_margin: float | None  # within the family: fine score of the best minus the runner-up
    turned: bool  # True when the card lies upside down relative to its reference


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
        self._fine = np.stack([d.fine for d in descs])
        self._chroma_sq = (self._chroma**2).sum(axis=1)
        self._families = [self._family(i, descs) for i in range(len(descs))]

    @property
    def cards(self) -> tuple[str, ...]:
        """The distinct card IDs this deck can name, in first-seen order."""
        return tuple(self._card_index)

    def __len__(self) -> int:
        return len(self.labels)

    def _scores(self, d: Descriptor) -> np.ndarray:
        """Coarse similarity of d to every reference, shape (references,)."""
        grey = self._coarse @ d.coarse
        msd = (self._chroma_sq + float(d.chroma @ d.chroma) - 2 * (self._chroma @ d.chroma)) / d.chroma.size
        return (1 - CHROMA_WEIGHT) * grey + CHROMA_WEIGHT * np.exp(-np.maximum(msd, 0) / CHROMA_SCALE)

    def _family(self, i: int, descs: Sequence[Descriptor]) -> tuple[np.ndarray, np.ndarray] | None:
        """References of other cards that are near-twins of reference i, aligned to it, with their mean."""
        upright, turned = self._scores(descs[i]), self._scores(descs[i].turned())
        members = [j for j in range(len(descs)) if max(upright[j], turned[j]) >= FAMILY_SIMILARITY]
        if len({self._ref_card[j] for j in members}) < 2:
            return None
        fine = np.stack([descs[j].fine if upright[j] >= turned[j] else descs[j].turned().fine
                         for j in members])
        residual = fine - fine.mean(axis=0)
        residual /= np.maximum(np.linalg.norm(residual, axis=1, keepdims=True), 1e-6)
        return np.array(members), np.concatenate([fine.mean(axis=0)[None], residual])

    def upright(self, card: str, image: np.ndarray) -> np.ndarray:
        """Turn a canonical image of card 180° if that matches the deck's references of it better."""
        d = describe(canonical(image))
        mine = self._ref_card == self._card_index.get(card, -1)
        if not mine.any():
            return image
        if self._scores(d.turned())[mine].max() > self._scores(d)[mine].max():
            return np.ascontiguousarray(image[::-1, ::-1])
        return image

    def match(self, d: Descriptor) -> Match:
        """Find the best card for a described card, trying it upright and turned 180°."""
        both = np.stack([self._scores(d), self._scores(d.turned())])
        turn, best = np.unravel_index(int(np.argmax(both)), both.shape)
        query = d.turned() if turn else d
        best_score = float(both[turn, best])
        card_best = np.full(len(self._card_index), -np.inf)
        np.maximum.at(card_best, self._ref_card, both.max(axis=0))
        family = self._families[best]
        fine_margin = None
        card = int(self._ref_card[best])
        if family is not None:
            members, stack = family
            family_cards = set(self._ref_card[members].tolist())
            residual = query.fine - stack[0]
            residual /= max(float(np.linalg.norm(residual)), 1e-6)
            fine = stack[1:] @ residual
            per_card = {}
            for j, s in zip(self._ref_card[members], fine, strict=True):
                per_card[int(j)] = max(per_card.get(int(j), -np.inf), float(s))
            ranked = sorted(per_card.items(), key=lambda kv: -kv[1])
            card, fine_margin = ranked[0][0], ranked[0][1] - ranked[1][1]
            card_best[list(family_cards)] = -np.inf
        else:
            card_best[card] = -np.inf
        other = float(card_best.max()) if np.isfinite(card_best).any() else -1.0
        return Match(self.cards[card], best_score, best_score - other, fine_margin, bool(turn))


def render_deck(style_name: str = "standard", cards: Sequence[str] = CARD_IDS) -> Deck:
    """A deck whose references are the renderer's own images of the given cards in one style."""
    from vision.render import STYLES, render_card

    style = STYLES[style_name]
    return Deck(((card, render_card(card, style, px_per_mm=4.0)) for card in cards), name=style_name)


@lru_cache(maxsize=1)
def builtin_deck() -> Deck:
    """The built-in deck: every card ID drawn by our renderer, described once and kept in memory."""
    return render_deck("standard")
