"""What the cards under the camera mean at this point of the game: stable readings in, engine entries out.

Pure logic, no threads and no camera: the desk feeds it the stable set of cards the voter sees
(left to right) with the table's state, and gets back the entries to submit or a reading for the
Mayor to check. A card counts once, when it appears; it is counted again only after it has left.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from companion.moves import Entry, RedBonus, Reveal, SetupCard, Sight, SoloKeep, Terrain
from companion.rules import (
    SETUP_CARDS,
    SOLO_REMAINING_KEPT,
    red_card_count,
)
from companion.state import GameState, Phase

TERRAIN_IDS = {t.value: t for t in Terrain}
RED_PREFIX = "red-"
BLUE_PREFIX = "blue-"
SETUP_PREFIX = "setup-"


def setup_card_letters(card: str) -> str | None:
    """The ten letters of a set-up card ID such as 'setup-07', else None."""
    if not card.startswith(SETUP_PREFIX):
        return None
    number = card[len(SETUP_PREFIX):]
    return SETUP_CARDS.get(int(number)) if number.isdigit() else None


def red_card_sight(card: str) -> Sight | None:
    """The sight on a red bonus card ID such as 'red-yeti', else None."""
    if not card.startswith(RED_PREFIX):
        return None
    try:
        return Sight(card[len(RED_PREFIX):])
    except ValueError:
        return None


def blue_card_letter(card: str) -> str | None:
    """The letter of a blue bonus card ID such as 'blue-C2', else None."""
    if card.startswith(BLUE_PREFIX) and len(card) == len(BLUE_PREFIX) + 2:
        return card[len(BLUE_PREFIX)]
    return None


@dataclass(frozen=True)
class Pending:
    """A reading the Mayor must confirm or correct before anything is applied."""

    entry: Entry
    reason: str
    cards: tuple[str, ...]


@dataclass
class Reading:
    """The result of one stable reading: entries to submit, or a pending reading, and a note."""

    submit: list[Entry] = field(default_factory=list)
    pending: Pending | None = None
    note: str = ""


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
            return Reading(note=f"no game under way: {', '.join(new)} ignored")
        reading = Reading()
        for card in new:
            self._one(card, state, reading)
        return reading

    def _one(self, card: str, state: GameState, reading: Reading) -> None:
        terrain = TERRAIN_IDS.get(card)
        if terrain is not None:
            self._terrain(terrain, state, reading)
        elif (letters := setup_card_letters(card)) is not None:
            self._setup_card(card, letters, state, reading)
        elif (sight := red_card_sight(card)) is not None:
            self._red(sight, state, reading)
        elif (letter := blue_card_letter(card)) is not None:
            self._blue(letter, state, reading)
        else:
            reading.note = f"{card}: not a card the scanner knows"

    def _terrain(self, terrain: Terrain, state: GameState, reading: Reading) -> None:
        if reading.pending is not None or reading.submit:
            # One reveal per reading: the next pair is read against the state it will meet.
            reading.note = f"{terrain.value} waits: one reveal at a time"
            self.first = terrain if self.first is None else self.first
            return
        if self.first is None:
            self.first = terrain
            reading.note = f"{terrain.value}: waiting for the second card"
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
            reading.note = f"{card} ignored: the set-up card is already read"
            return
        reading.submit.append(SetupCard(letters=letters))

    def _red(self, sight: Sight, state: GameState, reading: Reading) -> None:
        if not state.red_bonus_due:
            reading.note = f"red {sight.value} ignored: no red bonus card is being drawn"
            return
        if sight not in self.reds:
            self.reds.append(sight)
        wanted = red_card_count(len(state.players))
        if len(self.reds) < wanted:
            reading.note = f"red {sight.value}: {wanted - len(self.reds)} more red card(s) to draw"
            return
        reading.submit.append(RedBonus(sights=tuple(self.reds[:wanted])))
        self.reds.clear()

    def _blue(self, letter: str, state: GameState, reading: Reading) -> None:
        if not state.needs_solo_keep:
            reading.note = f"blue {letter} ignored: no blue card is being drawn"
            return
        if letter not in self.blues:
            self.blues.append(letter)
        if len(self.blues) < SOLO_REMAINING_KEPT:
            reading.note = f"blue {letter}: {SOLO_REMAINING_KEPT - len(self.blues)} more blue card(s) to draw"
            return
        reading.submit.append(SoloKeep(letters=tuple(self.blues[:SOLO_REMAINING_KEPT])))
        self.blues.clear()
