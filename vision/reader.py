"""Read a frame: find the cards, name each one against a deck, or refuse when not sure."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np

from vision.beside import SAME_PLACE, beside, places_beside
from vision.cards import TERRAINS, setup_letters
from vision.deck import Deck, Match, builtin_deck
from vision.detect import Candidate, Detection, detect, detect_brighter, from_frame, to_frame
from vision.features import order_corners, resolution, warp_card
from vision.joins import tilings
from vision.judge import (
    CLEAR_FINE_MARGIN,
    CLEAR_MARGIN,
    MIN_FINE_MARGIN,
    MIN_MARGIN,
    MIN_SCORE,
    SURE_DETAIL,
    SURE_SCORE,
    judge,
    partner_named,
)
from vision.light import light_of, relit
from vision.likeness import likeliest_places, shows_detail
from vision.lone import find_lone_card
from vision.pieces import alike_in_size, one_per_place, pieces_refused, refused, table_left_out
from vision.refine import refined
from vision.sides import covered, iou, nudged, scaled

SAME_PLACE_IOU = 0.6  # two hypotheses' outlines this alike cover one card (a card's half covers 0.5 of it)
STEADY_FLOOR = -0.5  # twin lead on its outline alone under which a call is not worth its nudged looks (six more
# warps and alignments): seen styles' blue and set-up cards on their true outlines that the looks' average turned
# right (named from MIN_FINE_MARGIN) had led from about -0.4 up
MIN_FRAME_PX = 64  # shortest frame side read: a smallest card (1.2% of the frame) is then ~7 px wide
RESCALE_SCORE = 0.5  # coarse similarity of a refused outline read again grown and shrunk (RESCALES): it looks like a
# card (a patch of checks or grain beside a pair reads 0.00-0.33); one a few percent inside a painted frame 0.52-0.93
RESCALES = (0.95, 1.05)  # linear scales about its centre: an outline 0.8-0.9 of its card's area (inside a dark rim)
# or 1.1-1.25 (over a light rim's table) settles back onto the card's edge from there (vision.refine)


@dataclass(frozen=True)
class CardReading:
    """One card outline in a frame and what it shows: card is None when refused."""

    card: str | None
    confidence: float  # 0..1; named cards have at least 0.5, refused ones less
    corners: tuple[tuple[float, float], ...]  # 4 (x, y) frame pixels, clockwise from the card's top-left
    letters: str | None = None  # set-up cards: the ten letters clockwise from the red letter

    def to_json(self) -> dict:
        """The contract-2 form: {"card", "confidence", "corners"}."""
        return {"card": self.card, "confidence": round(self.confidence, 3),
                "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners]}


@dataclass(frozen=True)
class FrameReading:
    """Every card outline of one frame, and whether something else (a hand) was in view."""

    cards: tuple[CardReading, ...]
    clutter: bool = False

    @property
    def named(self) -> tuple[str, ...]:
        """The card IDs read with confidence, sorted (a multiset: two deserts appear twice)."""
        return tuple(sorted(r.card for r in self.cards if r.card is not None))

    @property
    def clean(self) -> bool:
        """True when every outline was named and nothing else is in view."""
        return not self.clutter and all(r.card is not None for r in self.cards)


def _clutter(detection: Detection, cards: list[CardReading]) -> bool:
    """Whether something else is in view beside the cards read so far (Detection.clutter_beside)."""
    return detection.clutter_beside([np.array(r.corners) for r in cards])


class CardReader:
    """Reads frames against one deck: CardReader(deck).read(frame_bgr) -> FrameReading."""

    def __init__(self, deck: Deck | None = None) -> None:
        self.deck = deck if deck is not None else builtin_deck()
        self.deck.families()  # learnt now, not on the first card the Mayor lays
        self._terrain_refs = np.isin(self.deck.labels, TERRAINS)  # the references a lone terrain card's partner may be

    def read_quad(self, frame: np.ndarray, corners: np.ndarray) -> CardReading:
        """Name the card whose outline has these 4 corners (any order) in a BGR frame."""
        return self._read_quad(frame, corners)[0]

    def recognises(self, frame: np.ndarray, corners: np.ndarray) -> bool:
        """Whether an outline shows a card of the deck, even of a kind not held whole (never named).

        Enrollment asks this to tell one card from two while a kind is only partly enrolled.
        """
        return judge(replace(self._match(frame, order_corners(corners)), kind_complete=True))[0]

    def _match(self, frame: np.ndarray, quad: np.ndarray, nudged_quads: Sequence[np.ndarray] = ()) -> Match:
        """The deck's best match for the card inside an ordered quad (detail only for close calls); among
        twins, over it and these nudged outlines of it too (Deck.match's nudged)."""
        return self.deck.match(warp_card(frame, quad), MIN_SCORE, CLEAR_MARGIN, resolution(quad), MIN_MARGIN,
                               nudged=[warp_card(frame, q) for q in nudged_quads])

    def _read_quad(self, frame: np.ndarray, corners: np.ndarray) -> tuple[CardReading, Match]:
        """Name the card inside an outline, refined. A twin called short of a clear lead is looked at again
        on the outline and six nudges of it (sides.nudged): the call stands only if every look alone names
        the same twin (Match.steady), and a call the outline alone refuses is named when the twins' leads
        averaged over the looks lead clearly (CLEAR_FINE_MARGIN). With a bar of 0.35 instead, a blurred
        ink-wash blue-A1 that every look took for blue-A2 (lead 0.41) was named so (test_twins); with the
        average deciding every such call, seen styles' blue and set-up photos read whole (1632) went 1434 ->
        1424 right and 4 -> 2 named wrong."""
        quad = refined(frame, order_corners(corners))
        match = self._match(frame, quad)
        if _unsteady(match):
            looks = self._match(frame, quad, nudged(quad))
            if match.fine_margin >= MIN_FINE_MARGIN:
                match = replace(match, steady=looks.steady)
            elif looks.fine_margin >= CLEAR_FINE_MARGIN:
                match = looks
        accept, confidence = judge(match)
        return _reading(match, quad, match.card if accept else None, confidence), match

    def read(self, frame: np.ndarray) -> FrameReading:
        """Find and name every card in a BGR frame (picamera2 "RGB888" is BGR in memory). Where no card
        is named and nothing else is in view, an underexposed frame is read again seen brighter
        (vision.exposure), and that reading kept if it names a card."""
        check_frame(frame)
        reading = self._read_found(frame, detect(frame))
        if reading.named or reading.clutter:
            return reading
        brighter = detect_brighter(frame)
        if brighter is None or not brighter.candidates:
            return reading
        again = self._read_found(frame, brighter)
        return again if again.named else reading

    def _read_found(self, frame: np.ndarray, detection: Detection) -> FrameReading:
        """Name the cards of a frame's detection: every search of the live read after detect()."""
        cards: list[CardReading] = []
        for candidate in detection.candidates:
            cards.extend(self.read_candidate(frame, candidate))
        if not detection.candidates:
            cards.extend(self._read_lone(frame))
        elif not _clutter(detection, cards) and all(c.card is None for c in cards):
            cards = self._with_lone(frame, cards)
        if not _clutter(detection, cards) and (cards or detection.off_table) and all(c.card is None for c in cards):
            cards = self._with_keypoints(frame, cards)
        named = [c for c in cards if c.card is not None]
        if len(named) == 1 and named[0].card in TERRAINS:  # the Mayor reveals two terrain cards; others come alone
            cards = self._with_neighbour(frame, detection, cards, np.array(named[0].corners))
        named = [c for c in cards if c.card is not None]
        if len(named) == 1 and named[0].card in TERRAINS and not _clutter(detection, cards):
            # the Mayor reveals two: its partner may be in view, and is a terrain card
            cards = self._with_keypoints(frame, cards, self._terrain_refs)
        cards = pieces_refused(self._with_joins(frame, cards))
        clutter = _clutter(detection, cards)
        if not clutter:  # a card the partner reading adds only covers more
            cards = self._with_partner(frame, cards)
        return FrameReading(tuple(table_left_out(one_per_place(cards))), clutter)

    def _with_partner(self, frame: np.ndarray, cards: list[CardReading]) -> list[CardReading]:
        """The readings with a lone named terrain card's refused partner named among the terrain cards
        alone (partner_named): the Mayor reveals two, and glare on the second may leave too little
        of its art for the whole deck's gates, but enough to tell it from the other four terrains."""
        named = [r for r in cards if r.card is not None]
        if len(named) != 1 or named[0].card not in TERRAINS:
            return cards
        beside_it = np.array(named[0].corners)
        for i, reading in enumerate(cards):
            quad = np.array(reading.corners)
            if reading.card is None and alike_in_size(quad, beside_it) and alike_in_size(beside_it, quad) \
                    and covered(quad, beside_it) <= SAME_PLACE and (partner := self._partner(frame, quad, named[0])) is not None:
                return cards[:i] + [partner] + cards[i + 1:]
        return cards

    def _partner(self, frame: np.ndarray, corners: np.ndarray, first: CardReading) -> CardReading | None:
        """The terrain card a refused reading's outline (settled when first read: vision.refine) shows among the
        terrain cards alone, or None: as the frame shows it, else in the light the named first card shows
        (vision.light) if it leads there by the deck's own MIN_MARGIN (that light is another card's estimate)."""
        quad = order_corners(corners)
        image = warp_card(frame, quad)
        match = self.deck.match(image, resolution=resolution(quad), among=self._terrain_refs)
        if not partner_named(match):
            light = light_of(warp_card(frame, np.array(first.corners)), self.deck.images_of(first.card))
            match = self.deck.match(relit(image, light), resolution=resolution(quad), among=self._terrain_refs)
            if match.margin < MIN_MARGIN or not partner_named(match):
                return None
        sure, confidence = judge(match)  # sure only where the terrain cards' margin made it a clear call
        return _reading(match, quad, match.card, confidence if sure else 0.5)

    def _with_joins(self, frame: np.ndarray, cards: list[CardReading]) -> list[CardReading]:
        """The readings with outlines that tile one card (vision.joins) replaced by the card around
        them, where the deck names it with more confidence than every piece: a card's panels may be
        outlined and named where its rim was lost."""
        used: set[int] = set()
        joins = []
        for members, outline in tilings([np.array(r.corners) for r in cards]):
            surest = max(cards[m].confidence for m in members)
            # no reading is surer than a sure piece (confidence 1, judge's most): that outline need not be read
            if used.isdisjoint(members) and surest < 1.0:
                reading = self.read_quad(frame, outline)
                if reading.card is not None and reading.confidence > surest:
                    used.update(members)
                    joins.append(reading)
        return [r for i, r in enumerate(cards) if i not in used] + joins

    def _with_neighbour(self, frame: np.ndarray, detection: Detection, cards: list[CardReading],
                        found: np.ndarray) -> list[CardReading]:
        """The readings with the first terrain card the deck names beside a lone named terrain card
        (vision.beside): the Mayor's second card may hide from every cue while the first is outlined
        exactly. A refused outline in the same place gives way to it. Terrain cards only: only they
        are revealed in pairs, and an outline guessed from its neighbour's shape, settled on the
        edges near it (vision.refine), may take a bonus card's panel for part of its rim (a built-in
        blue-C2 beside a set-up card was named blue-C1 so)."""
        for outline in beside(detection.grad, from_frame(found, detection.per_px)):
            quad = to_frame(outline, detection.per_px)
            if any(r.card is not None and iou(quad, np.array(r.corners)) > SAME_PLACE for r in cards):
                continue
            got = [r for r in self.read_candidate(frame, Candidate(((quad,),))) if r.card in TERRAINS]
            if got:
                return _making_way(cards, got)
        return self._with_likeliest(frame, detection, cards, found)

    def _with_likeliest(self, frame: np.ndarray, detection: Detection, cards: list[CardReading],
                        found: np.ndarray) -> list[CardReading]:
        """The readings with the terrain card the deck names at the place beside a lone named terrain
        card most like one (vision.likeness), when no edge outlined it (a light card on checks), and
        only with the detail that settles a close call (likeness.shows_detail), whatever its margin:
        the best of a hundred patches of table may pass a coarse call (marble beside a flat card was
        named "any" so)."""
        places = [to_frame(p, detection.per_px) for p in
                  places_beside(from_frame(found, detection.per_px), detection.grad[0].shape)[0]]
        named = [np.array(r.corners) for r in cards if r.card is not None]
        refused = [np.array(r.corners) for r in cards if r.card is None]
        for quad in likeliest_places(self.deck, frame, places, self._terrain_refs, named, refused):
            got = [r for r in self.read_candidate(frame, Candidate(((quad,),)))
                   if r.card in TERRAINS and shows_detail(self.deck, frame, np.array(r.corners), r.card)]
            if got:
                return _making_way(cards, got)
        return cards

    def _with_lone(self, frame: np.ndarray, cards: list[CardReading]) -> list[CardReading]:
        """The readings with the card the lone search names when no outline of the live cues named one:
        on checks an outline may cut across a light card whose rim the cloth swallowed, which the
        exhaustive search still outlines whole. A refused outline in the same place gives way to it.
        Not with a hand in view (the caller skips it): such a frame is never logged, and the search
        costs a few live reads."""
        return _making_way(cards, self._read_lone(frame))

    def _with_keypoints(self, frame: np.ndarray, cards: list[CardReading],
                        among: np.ndarray | None = None) -> list[CardReading]:
        """The readings with every card named on an outline the deck's art places (vision.keypoints;
        among: the reference photos that may place one), away from the cards named already: a painted
        card on grain or a busy mat may show no outline whole, but its art. A refused outline in the
        same place gives way to it. Costly (ORB over the frame): only where no other search named a
        card, or for a lone terrain card's partner."""
        named = [np.array(r.corners) for r in cards if r.card is not None]
        outlines = [q for q in self.deck.keypoints().outlines(frame, among) if all(covered(q, n) <= SAME_PLACE for n in named)]
        found = [r for quad in outlines for r in self.read_candidate(frame, Candidate(((quad,),))) if r.card is not None]
        return _making_way(cards, found)

    def _read_lone(self, frame: np.ndarray) -> list[CardReading]:
        """The card enrollment's exhaustive search (vision.lone) finds in a frame where detection found
        none (or named none), if the deck names it: a big card on a busy or light table may hide from
        every cue of the live read (a parchment set-up card on birch, a painted card on strong grain)
        and still have an outline that is mostly edge. An outline the deck does not name is left out:
        the search offers its best guess on any table, and an empty mat must read as empty for the
        scanner to rest."""
        found = find_lone_card(frame, live=False)
        if found.corners is None:
            return []
        candidate = Candidate(((found.corners,),), found.along, wraps=tuple((q,) for q in found.others))
        return [r for r in self.read_candidate(frame, candidate) if r.card is not None]

    def read_candidate(self, frame: np.ndarray, candidate: Candidate) -> list[CardReading]:
        """One detected candidate's readings: its likeliest hypothesis', or when none looks like a
        card at all, its outer outlines', or when none names a card, its wraps' (vision.detect); a card
        two outlines name differently is refused, but not for another outline's guess among its twins
        (seen styles, all families read whole, 5760 photos: 5524 right -> 5529, named wrong 5 both)."""
        tried: list[tuple[tuple[bool, float], list[tuple[CardReading, Match]]]] = []
        for hypothesis in _likeliest_first(candidate):
            tried.append(self._read_hypothesis(frame, hypothesis))
            if tried[-1][0][0] and all(m.score >= SURE_SCORE or (m.detail or 0.0) >= SURE_DETAIL for _, m in tried[-1][1]):
                break  # hypotheses come likeliest first: a sure reading (by its score or its detail) needs no rival
        # An outline that looks like no card at all may be its art's panel: the rim around it, then.
        # Not when one looks like a card and was refused on its detail: a rim outline overshoots a little.
        if all(m.score < MIN_SCORE for _, read in tried for _, m in read):
            tried += [self._read_hypothesis(frame, hypothesis) for hypothesis in candidate.outer]
        # An outline no reading names may be its art's panel found as cleanly as the card: the card around it.
        if not any(named for (named, _), _ in tried):
            tried += [self._read_hypothesis(frame, hypothesis) for hypothesis in candidate.wraps]
        # An outline that looks like a card, refused, may lie a few percent inside or outside its card.
        if not any(named for (named, _), _ in tried):
            tried += self._rescaled(frame, tried)
        (named, _), best = max(tried, key=lambda t: t[0])
        # what each other outline looks most like, named or not: a sure-looking card refused on detail still counts
        rivals = [(replace(r, card=m.card), m) for _, read in tried if read is not best for r, m in read
                  if m.score >= MIN_SCORE]
        return [refused(r) if named and disputed(r, [v for v, m in rivals if not self._twin_guess(m, r.card)]) else r
                for r, _ in best]

    def _rescaled(self, frame: np.ndarray, tried: list[tuple[tuple[bool, float], list[tuple[CardReading, Match]]]]
                  ) -> list[tuple[tuple[bool, float], list[tuple[CardReading, Match]]]]:
        """The readings of the likeliest refused one-card outline grown and shrunk (RESCALES), named only if
        both name the card it leaned to: a call that holds whichever way the outline errs is no guess. Not
        for twins told apart by a printed field (Deck.by_print): a blurred blue-A1 leaning to blue-A2 was
        named blue-A2 by both scales, each with a clear lead (seen ink-wash, seed 20261149). Refused, they
        still count as outlines: the one most like a card is what a lone terrain card's partner is read on."""
        singles = [(m, r) for _, read in tried if len(read) == 1 for r, m in read]
        if not singles:
            return []
        leaning, reading = max(singles, key=lambda s: s[0].score)
        if leaning.score < RESCALE_SCORE or self.deck.by_print(leaning.card):
            return []
        quad = np.array(reading.corners, np.float32)
        more = [self._read_hypothesis(frame, (scaled(quad, k),)) for k in RESCALES]
        if all(read[0][0].card == leaning.card for _, read in more):
            return more
        return [((False, score), [(refused(r), m) for r, m in read]) for (_, score), read in more]

    def _twin_guess(self, match: Match, card: str | None) -> bool:
        """Whether a match refused on its twin call lies among card's twins: the twin it leans to is a
        guess (a set-up card's outline 3 px off leans to any of the thirteen), it names their family only."""
        return (card is not None and match.fine_margin is not None and match.fine_margin < MIN_FINE_MARGIN
                and self.deck.twins(match.card, card))

    def _read_hypothesis(self, frame: np.ndarray,
                         hypothesis: tuple[np.ndarray, ...]) -> tuple[tuple[bool, float], list[tuple[CardReading, Match]]]:
        """A hypothesis' readings, ranked by whether all are named and their mean score."""
        read = [self._read_quad(frame, q) for q in hypothesis]
        return (all(r.card is not None for r, _ in read), float(np.mean([m.score for _, m in read]))), read


def _unsteady(match: Match) -> bool:
    """Whether a match names a twin without a clear lead (CLEAR_FINE_MARGIN) but near enough one to be
    worth looking at on nudged outlines (STEADY_FLOOR), on a card like the deck's (MIN_SCORE)."""
    return (match.fine_margin is not None and STEADY_FLOOR <= match.fine_margin < CLEAR_FINE_MARGIN
            and match.score >= MIN_SCORE)


def _likeliest_first(candidate: Candidate) -> Iterator[tuple[np.ndarray, ...]]:
    """A candidate's hypotheses, then its blob cut at its own middle (Candidate.halved: two cards offset
    along their seam), made only when the reader gets that far (no earlier hypothesis was sure)."""
    yield from candidate.hypotheses
    yield from candidate.halved


def _reading(match: Match, quad: np.ndarray, card: str | None, confidence: float) -> CardReading:
    """The reading of an ordered outline a match names card (None: refused), its corners from the
    card's top-left (the quad turned when the card lies upside down)."""
    if match.turned:
        quad = np.roll(quad, 2, axis=0)
    return CardReading(card, confidence, tuple((float(x), float(y)) for x, y in quad),
                       setup_letters(card) if card else None)


def disputed(reading: CardReading, rivals: list[CardReading]) -> bool:
    """Whether another hypothesis names a different card in about the same place (an outline a
    little off may show another card's part: neither reading can be trusted)."""
    here = np.array(reading.corners)
    return any(r.card not in (None, reading.card) and iou(here, np.array(r.corners)) >= SAME_PLACE_IOU for r in rivals)


def _making_way(cards: list[CardReading], found: list[CardReading]) -> list[CardReading]:
    """The readings with cards found by a later search added, and every refused outline in the same
    place as one of them (beside.SAME_PLACE) left out: it gives way to the card found there."""
    return [r for r in cards if r.card is not None
            or all(iou(np.array(r.corners), np.array(n.corners)) <= SAME_PLACE for n in found)] + found


def check_frame(frame: object) -> None:
    """Pass for an HxWx3 uint8 BGR array big enough to read; else ValueError saying what is wrong."""
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise ValueError("a frame must be an HxWx3 uint8 BGR array")
    if min(frame.shape[:2]) < MIN_FRAME_PX:
        raise ValueError(f"frame of {frame.shape[1]}x{frame.shape[0]} pixels is too small to read")


def find_card(frame: np.ndarray) -> np.ndarray | None:
    """Corners (4x2, first edge short) of the one card in an enrollment photo, or None (vision.lone)."""
    check_frame(frame)
    found = find_lone_card(frame)
    return None if found.corners is None else order_corners(found.corners)
