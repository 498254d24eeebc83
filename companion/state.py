"""The game state derived from the log: frozen snapshots, replaced (never edited) by each entry."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum
from functools import cached_property
from itertools import combinations_with_replacement
from typing import TypeVar

from companion.errors import RuleError
from companion.events import BonusKind, BonusTaken
from companion.moves import Entry, NewGame, Reveal, Sight, Terrain
from companion.rules import (
    DECK,
    DECK_SIZE,
    REVEALS_PER_ROUND,
    ROUNDS,
    SIGHT_VALUES,
    SOLO_KEEP_ALL_AFTER,
    village_letters,
)
from companion.scoring import Standings, standings
from companion.sheet import IslandSheet, SeatMode

T = TypeVar("T")


_FIELDS: dict[type, frozenset[str]] = {}


def evolve(obj: T, **changes: object) -> T:
    """A copy of a frozen dataclass with some fields changed (dataclasses.replace, without its cost).

    replace() re-runs __init__ and was two thirds of a replay's time; cached properties of the
    original (standings, village letters) are deliberately not carried over.
    """
    cls = type(obj)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS.setdefault(cls, frozenset(f.name for f in fields(cls)))  # type: ignore[arg-type]
    if not changes.keys() <= names:
        raise TypeError(f"{cls.__name__} has no field(s) {sorted(changes.keys() - names)}")
    new = object.__new__(cls)
    source = obj.__dict__
    new.__dict__.update({name: source[name] for name in names}, **changes)
    return new


class NextStep(Enum):
    """What the game waits for from the Mayor: the order the console and the virtual table follow."""

    NO_GAME = "no_game"  # a new game
    SETUP_CARD = "setup_card"  # the set-up card
    RED_BONUS = "red_bonus"  # the red bonus cards (Special Bonus variant)
    SOLO_KEEP = "solo_keep"  # solo: the 2 blue cards that stay for the last round
    REVEAL = "reveal"  # two terrain cards
    END_GAME = "end_game"  # the last round's 13th reveal is showing: the game can end
    FINISHED = "finished"  # nothing: the game is over


class Phase(Enum):
    """Where the game is: no game yet, set-up (before the first reveal), play, or finished."""

    NO_GAME = "no_game"
    SETUP = "setup"
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass(frozen=True)
class PlayerSheet:
    """One player's score pad as far as the companion knows it, and their island sheet if digital."""

    sights: dict[Sight, int] = field(default_factory=lambda: {s: 0 for s in Sight})
    villages: tuple[str, ...] = ()
    reds: tuple[Sight, ...] = ()
    bonus: int = 0
    sights_by_round: tuple[int, ...] = ()
    sight_points_now: int = 0
    mode: SeatMode = SeatMode.UNDECIDED
    drawing: IslandSheet | None = None  # the digital island sheet of a SHEET seat


@dataclass(frozen=True)
class GameState:
    """Everything derived from the accepted entries; dicts inside are never mutated after creation."""

    setup: NewGame | None = None
    setup_letters: str | None = None
    red_drawn: tuple[Sight, ...] | None = None
    reveals: int = 0
    last_reveal: Reveal | None = None
    round_counts: dict[Terrain, int] = field(default_factory=dict)
    blue: dict[str, tuple[int, ...]] = field(default_factory=dict)
    blue_this_turn: dict[str, int] = field(default_factory=dict)
    red: dict[Sight, int] = field(default_factory=dict)
    red_this_turn: dict[Sight, int] = field(default_factory=dict)
    bonus_taken: tuple[BonusTaken, ...] = ()
    sheets: dict[str, PlayerSheet] = field(default_factory=dict)
    solo_kept: bool = False
    ended: bool = False
    last_entry: Entry | None = None  # the newest entry still standing (an undo takes it back)

    @property
    def phase(self) -> Phase:
        """The phase of play."""
        if self.setup is None:
            return Phase.NO_GAME
        if self.ended:
            return Phase.FINISHED
        return Phase.SETUP if self.reveals == 0 else Phase.PLAYING

    @property
    def players(self) -> tuple[str, ...]:
        """Players in seat order; the first is the Mayor."""
        return self.setup.players if self.setup else ()

    @property
    def rounds(self) -> int:
        """Rounds in this game: 2 on Isla Petit, 3 on Isla Grande."""
        return ROUNDS[self.setup.island] if self.setup else 0

    @property
    def round(self) -> int:
        """The current round, 1-based; 0 before the first reveal."""
        return 0 if self.reveals == 0 else (self.reveals - 1) // REVEALS_PER_ROUND + 1

    @property
    def turn(self) -> int:
        """The current turn within the round, 1..13; 0 before the first reveal."""
        return 0 if self.reveals == 0 else (self.reveals - 1) % REVEALS_PER_ROUND + 1

    @property
    def is_last_turn(self) -> bool:
        """True while the 13th reveal of a round is showing and the game is not over."""
        return self.turn == REVEALS_PER_ROUND and not self.ended

    @property
    def deck_left(self) -> dict[Terrain, int]:
        """Cards of each terrain still in this round's deck."""
        return {t: DECK[t] - self.round_counts.get(t, 0) for t in Terrain}

    @property
    def cards_left(self) -> int:
        """Cards still in this round's deck (27 before the first reveal of a round)."""
        return DECK_SIZE - 2 * self.turn

    @property
    def is_solo(self) -> bool:
        """True for the one-player game."""
        return len(self.players) == 1

    @property
    def blue_won(self) -> int:
        """How many blue bonus cards were paid out (the solo rare case counts them)."""
        return sum(1 for b in self.bonus_taken if b.kind is BonusKind.BLUE)

    @property
    def needs_solo_keep(self) -> bool:
        """Solo: the second-to-last round is on its last turn and the 2 cards to keep are not drawn."""
        return (
            self.is_solo
            and not self.ended
            and not self.solo_kept
            and self.reveals == (self.rounds - 1) * REVEALS_PER_ROUND
            and self.blue_won < SOLO_KEEP_ALL_AFTER
        )

    @property
    def red_bonus_due(self) -> bool:
        """True in a Special Bonus set-up until the red bonus cards are drawn."""
        return (
            self.phase is Phase.SETUP
            and self.setup is not None
            and self.setup.special_bonus
            and self.red_drawn is None
        )

    @property
    def all_revealed(self) -> bool:
        """True once the last round's 13th reveal is showing: only end_game (or claims) may follow."""
        return self.setup is not None and self.reveals == self.rounds * REVEALS_PER_ROUND

    @property
    def next_step(self) -> NextStep:
        """What the game waits for now; the console (and the virtual table) follow this order."""
        phase = self.phase
        if phase is Phase.NO_GAME:
            return NextStep.NO_GAME
        if phase is Phase.FINISHED:
            return NextStep.FINISHED
        if phase is Phase.SETUP and self.setup_letters is None:
            return NextStep.SETUP_CARD
        if self.red_bonus_due:
            return NextStep.RED_BONUS
        if self.needs_solo_keep:
            return NextStep.SOLO_KEEP
        if self.all_revealed:
            return NextStep.END_GAME
        return NextStep.REVEAL

    @property
    def undoable(self) -> Entry | None:
        """The entry an undo would take back now; None when undo is refused (nothing to undo, game over)."""
        if self.ended or self.last_entry is None or isinstance(self.last_entry, NewGame):
            return None
        return self.last_entry

    @property
    def deck_for_next_reveal(self) -> dict[Terrain, int]:
        """Cards of each terrain the deck holds for the next reveal (a full deck when a round starts)."""
        if self.reveals % REVEALS_PER_ROUND == 0:
            return dict(DECK)
        return self.deck_left

    def reveal_problem(self, cards: tuple[Terrain, Terrain]) -> RuleError | None:
        """Why the deck cannot hold this reveal (a misread card?) as the refusal to raise, or None."""
        deck = self.deck_for_next_reveal
        round_number = self.reveals // REVEALS_PER_ROUND + 1
        seen = {t: DECK[t] - deck[t] for t in Terrain}
        for card in cards:
            seen[card] += 1
            if seen[card] > DECK[card]:
                return RuleError.of("deck_exceeded", n=seen[card], nth=_ordinal(seen[card]),
                                    terrain=card, round=round_number, limit=DECK[card])
        return None

    @property
    def possible_reveals(self) -> list[tuple[Terrain, Terrain]]:
        """Every pair of terrains (unordered, in Terrain order) the deck can still show next."""
        return [
            pair
            for pair in combinations_with_replacement(Terrain, 2)
            if self.reveal_problem(pair) is None
        ]

    @cached_property
    def village_letters(self) -> dict[str, str]:
        """Each player's letters at villages 1..10 (index 0 is village 1); empty before the set-up card."""
        if self.setup is None or self.setup_letters is None:
            return {}
        s = self.setup
        return {
            name: village_letters(
                self.setup_letters,
                seat,
                start_village=s.start_village,
                direction=s.direction,
                symmetric=s.symmetric,
            )
            for seat, name in enumerate(s.players, start=1)
        }

    @cached_property
    def standings(self) -> Standings:
        """Standings so far (final once the game has ended)."""
        if self.setup is None:
            return Standings(finished=False, players=(), winners=())
        return standings(self.setup, self.sheets, finished=self.ended)

    def sight_values(self, sight: Sight) -> tuple[int, ...]:
        """The score-pad row of a sight on this island."""
        assert self.setup is not None
        return SIGHT_VALUES[self.setup.island][sight]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
