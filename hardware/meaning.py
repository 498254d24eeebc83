"""What the cards under the camera mean at this point of the game: stable readings in, engine entries out.

Pure logic, no threads and no camera: the desk feeds it the stable set of cards the voter sees
(left to right) with the table's state, and gets back the entries to submit or a reading for the
Mayor to check. A card counts once, when it appears; it is counted again only after it has left.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from companion.errors import RuleError
from companion.moves import Entry, RedBonus, Reveal, SetupCard, Sight, SoloKeep, Terrain
from companion.rules import SOLO_REMAINING_KEPT, red_card_count
from companion.state import GameState, Phase
from vision.cards import CardKind, card_face


@dataclass(frozen=True)
class Note:
    """What the console says about the cards: a key of the pages' catalogue ("camera.note.<key>").

    Card IDs travel as they are (the "card" and "cards" parameters): each page names them in its
    own language, so the hardware holds no words of its own.
    """

    key: str
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def to_json(self) -> dict[str, Any]:
        """{"key", "params"} for the pages."""
        return {"key": self.key, "params": dict(self.params)}


def note(key: str, **params: Any) -> Note:
    """A Note with its parameters frozen."""
    return Note(key, MappingProxyType(params))


@dataclass(frozen=True)
class Pending:
    """A reading the Mayor must confirm or correct before anything is applied, and why it waits."""

    entry: Entry
    refusal: RuleError
    cards: tuple[str, ...]

    @property
    def reason(self) -> str:
        """Why the engine refuses the reading, in English."""
        return str(self.refusal)


@dataclass
class Reading:
    """The result of one stable reading: entries to submit, or a pending reading, and a note."""

    submit: list[Entry] = field(default_factory=list)
    pending: Pending | None = None
    note: Note | None = None


class CardSense:
    """Turns the stable set of cards under the camera into entries, one phase at a time."""

    def __init__(self) -> None:
        self.counted: Counter[str] = Counter()  # visible cards already given a meaning
        self.first: Terrain | None = None  # first card of a reveal, waiting for the second
        self.reds: list[Sight] = []  # red bonus cards drawn so far in set-up
        self.blues: list[str] = []  # solo: blue cards drawn so far to stay for the last round

    @property
    def half_read(self) -> bool:
        """True while a reveal, the red bonus draw or the solo keep is read only in part."""
        return self.first is not None or bool(self.reds or self.blues)

    def reset(self) -> None:
        """Forget half-read reveals and draws (after an undo or a dismissed reading)."""
        self.first = None
        self.reds.clear()
        self.blues.clear()

    def see(self, cards: tuple[str, ...], state: GameState, *, hold_new: bool = False) -> Reading:
        """Take the stable cards in view (left to right); hold_new leaves new cards for later."""
        visible = Counter(cards)
        self.counted &= visible  # a card that left the mat may be counted again when it comes back
        new = []
        for card in cards:
            if visible[card] > self.counted[card] + new.count(card):
                new.append(card)
        if hold_new or not new:
            return Reading()
        self.counted += Counter(new)
        return self._mean(new, state)

    def _mean(self, new: list[str], state: GameState) -> Reading:
        phase = state.phase
        if phase in (Phase.NO_GAME, Phase.FINISHED):
            return Reading(note=note("ignored_no_game", cards=list(new)))
        reading = Reading()
        for card in new:
            self._one(card, state, reading)
        return reading

    def _one(self, card: str, state: GameState, reading: Reading) -> None:
        face = card_face(card)
        if face is None:
            reading.note = note("unknown_card", card=card)
        elif face.kind is CardKind.TERRAIN:
            self._terrain(Terrain(face.terrain), state, reading)
        elif face.kind is CardKind.SETUP:
            self._setup_card(card, face.letters, state, reading)
        elif face.kind is CardKind.RED:
            self._red(card, Sight(face.sight), state, reading)
        else:
            self._blue(card, face.letter, state, reading)

    def _terrain(self, terrain: Terrain, state: GameState, reading: Reading) -> None:
        if reading.pending is not None or reading.submit:
            # One reveal per reading: the next pair is read against the state it will meet.
            reading.note = note("waits_one_reveal", card=terrain.value)
            self.first = terrain if self.first is None else self.first
            return
        if self.first is None:
            self.first = terrain  # the console says so while it waits (Desk.view)
            return
        cards = (self.first, terrain)
        self.first = None
        reveal = Reveal(cards=cards)
        problem = state.reveal_problem(cards)
        if problem is not None:
            reading.pending = Pending(reveal, problem, tuple(c.value for c in cards))
        else:
            reading.submit.append(reveal)

    def _setup_card(self, card: str, letters: str, state: GameState, reading: Reading) -> None:
        if state.phase is not Phase.SETUP or state.setup_letters is not None:
            reading.note = note("setup_already_read", card=card)
            return
        reading.submit.append(SetupCard(letters=letters))

    def reds_wanted(self, state: GameState) -> int:
        """Red bonus cards still to lay before the draw is complete (0 when none is being drawn)."""
        return red_card_count(len(state.players)) - len(self.reds) if state.red_bonus_due else 0

    def blues_wanted(self, state: GameState) -> int:
        """Solo: blue cards still to lay before the two kept are complete (0 when none is being drawn)."""
        return SOLO_REMAINING_KEPT - len(self.blues) if state.needs_solo_keep else 0

    def _red(self, card: str, sight: Sight, state: GameState, reading: Reading) -> None:
        if not state.red_bonus_due:
            reading.note = note("red_ignored", card=card)
            return
        if sight not in self.reds:
            self.reds.append(sight)
        if self.reds_wanted(state) > 0:
            return  # the console counts down while it waits (Desk.view)
        reading.submit.append(RedBonus(sights=tuple(self.reds)))
        self.reds.clear()

    def _blue(self, card: str, letter: str, state: GameState, reading: Reading) -> None:
        if not state.needs_solo_keep:
            reading.note = note("blue_ignored", card=card)
            return
        if letter not in self.blues:
            self.blues.append(letter)
        if self.blues_wanted(state) > 0:
            return
        reading.submit.append(SoloKeep(letters=tuple(self.blues)))
        self.blues.clear()
