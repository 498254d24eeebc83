"""Photo sets for the vision benchmark and the exporter: one card style, one group of table tops.

A set is what a user's deck would give the reader: two clear enrollment photos per card and test
photos by family, in the mix of issue 9's held-out set (about 12% one terrain card, 12% two,
25% blue bonus, 12% red bonus, 32% set-up, 7% backs, other games' cards, hands, empty tables).
The same (style, tops, seed) gives the same photos in the benchmark and in an exported folder.

The leave-one-style-out protocol: TUNING_STYLES on TUNING_TOPS with seeds in TUNING_SEEDS are
for tuning the reader; HELD_OUT_STYLES on HELD_OUT_TOPS with HELD_OUT_SEED are only measured, and
so are SEEN_STYLES (held out too, but their misses were looked at while the reader was designed)
and STRESS_STYLES (dark, low-contrast cards), reported apart from the headline.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from vision.art import BackKind, card_back, card_face
from vision.art.others import other_card
from vision.cards import BLUE_CARDS, CARD_IDS, RED_CARDS, SETUP_CARDS, TERRAINS
from vision.photo import ENROLL_CONDITIONS, Photo, PhotoConditions, Thing, take_photo
from vision.tables import HELD_OUT_TOPS, TUNING_TOPS, TableTop

TUNING_STYLES = ("standard", "woodcut")
HELD_OUT_STYLES = ("mosaic", "riso")  # drawn in session 25 by a separate hand, never looked at while tuning: the headline
SEEN_STYLES = ("lacquer", "chalk", "gilded", "inkwash", "painted", "flat")  # only measured, but their misses were looked
# at: lacquer and chalk (the headline in session 24) by session 25, gilded and inkwash (session 23's) by session 24,
# painted and flat (until session 22) by twenty sessions
STRESS_STYLES = ("dusk",)  # held out too, but harsher than issue 9 asks: measured apart from the headline
TOP_GROUPS = {"tuning": TUNING_TOPS, "held-out": HELD_OUT_TOPS, "all": tuple(TableTop)}
TUNING_SEEDS = range(100, 200)  # free to look at while tuning
HELD_OUT_SEED = 20261122  # only ever measured, never tuned on
FACE_PX_PER_MM = 5.0  # faces are drawn this fine: a 45% card under a 20 degree tilt needs ~4.8
ENROLL_PHOTOS = 2  # per card, as a user takes them
SETUP_SMALL = 0.30  # set-up cards below this share of the frame height may be refused

# Families and their share of the test photos (issue 9's held-out set: 60/60/120/60/156/30 of 486).
MIX = (("terrain", 60), ("pairs", 60), ("blue", 120), ("red", 60), ("setup", 156), ("rejects", 30))
REJECT_KINDS = ("back", "foreign", "hand", "empty")
EXAM_CONDITIONS = PhotoConditions()  # issue 9's test photos: heights 15-45%, tilt to 20 degrees, ...


@dataclass(frozen=True, eq=False)
class SetPhoto:
    """One photo of a set: what kind it is, its family for grading, the labels and the photo."""

    kind: str  # single, pair, back, foreign, hand, empty, enroll (vision-dev's truth kinds)
    family: str  # terrain, pairs, blue, red, setup, rejects, enroll
    labels: list[str | None]
    photo: Photo

    def truth(self) -> dict:
        """This photo's truth.json entry."""
        return self.photo.truth(self.kind)


def family_of(card: str) -> str:
    """The family a single card's photo is graded in."""
    return "blue" if card in BLUE_CARDS else "red" if card in RED_CARDS else "setup" if card in SETUP_CARDS else "terrain"


def generator(style: str, tops: str, seed: int, purpose: str) -> np.random.Generator:
    """An independent generator for each style, group of tops, seed and purpose."""
    key = zlib.crc32(f"{style}/{tops}/{purpose}".encode())
    return np.random.default_rng([seed, key])


@cache
def faces(style: str) -> dict[str, np.ndarray]:
    """Every card face of a style, drawn once."""
    return {card: card_face(style, card, FACE_PX_PER_MM) for card in CARD_IDS}


@cache
def backs(style: str) -> dict[BackKind, np.ndarray]:
    """The three backs of a style, drawn once."""
    return {kind: card_back(style, kind, FACE_PX_PER_MM) for kind in BackKind}


def thing(style: str, card: str) -> Thing:
    """A card of a style, to lay on a table."""
    return Thing(faces(style)[card], card, card)


def enrollment(style: str, tops: str, seed: int,
               cards: Sequence[str] = CARD_IDS) -> Iterator[tuple[str, list[SetPhoto]]]:
    """(card, its clear photos) for each card: one card alone, upright-ish, well lit."""
    g = generator(style, tops, seed, "enroll")
    cond = replace(ENROLL_CONDITIONS, tops=TOP_GROUPS[tops])
    for card in cards:
        yield card, [SetPhoto("enroll", "enroll", [card], take_photo([thing(style, card)], g, cond))
                     for _ in range(ENROLL_PHOTOS)]


def counts(total: int) -> dict[str, int]:
    """How many test photos of each family a set of total photos holds (largest remainders)."""
    weight = sum(n for _, n in MIX)
    exact = {family: total * n / weight for family, n in MIX}
    out = {family: int(v) for family, v in exact.items()}
    for family in sorted(exact, key=lambda f: out[f] - exact[f])[: total - sum(out.values())]:
        out[family] += 1
    return out


def exam_photos(style: str, tops: str, seed: int, total: int,
                conditions: PhotoConditions = EXAM_CONDITIONS) -> Iterator[SetPhoto]:
    """The test photos of a set, families interleaved; every card of a family comes in turn."""
    g = generator(style, tops, seed, "test")
    cond = replace(conditions, tops=TOP_GROUPS[tops])
    plan = [(family, i) for family, n in counts(total).items() for i in range(n)]
    order = g.permutation(len(plan))
    for k in order:
        family, i = plan[int(k)]
        yield _photo(style, family, i, g, cond)


def _photo(style: str, family: str, i: int, g: np.random.Generator, cond: PhotoConditions) -> SetPhoto:
    if family == "pairs":
        pair = [TERRAINS[int(v)] for v in g.integers(0, len(TERRAINS), 2)]
        photo = take_photo([thing(style, c) for c in pair], g, cond, pair=True)
        return SetPhoto("pair", family, pair, photo)
    if family != "rejects":
        cards = {"terrain": TERRAINS, "blue": BLUE_CARDS, "red": RED_CARDS, "setup": SETUP_CARDS}[family]
        card = cards[i % len(cards)]
        return SetPhoto("single", family, [card], take_photo([thing(style, card)], g, cond))
    kind = REJECT_KINDS[i % len(REJECT_KINDS)]
    if kind == "back":
        things = [Thing(backs(style)[k], None, f"back-{k.value}")
                  for k in (list(BackKind)[int(v)] for v in g.integers(0, 3, int(g.integers(1, 3))))]
    elif kind == "foreign":
        things = [Thing(*_foreign(g)) for _ in range(int(g.integers(1, 3)))]
    else:
        things = []
    photo = take_photo(things, g, cond, hand=kind == "hand")
    return SetPhoto(kind, family, [None] * len(things), photo)


def _foreign(g: np.random.Generator) -> tuple[np.ndarray, None, str]:
    face, name = other_card(g, FACE_PX_PER_MM)
    return face, None, name
