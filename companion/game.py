"""The game as a fold over its log: each entry is checked against the rules and yields a new state."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from companion.claims import apply_claim
from companion.errors import LogFormatError, RefusedLine, RuleError, TucanaError
from companion.events import (
    Event,
    GameEnded,
    GameStarted,
    LastTurn,
    RedBonusDrawn,
    Revealed,
    RoundEnded,
    SetupDone,
    SoloKept,
    Undone,
)
from companion.moves import (
    Claim,
    EndGame,
    Entry,
    NewGame,
    RedBonus,
    Reveal,
    SetupCard,
    SoloKeep,
    Trail,
    Undo,
    parse_line,
)
from companion.rules import (
    RED_POINTS,
    REVEALS_PER_ROUND,
    SOLO_KEEP_ALL_AFTER,
    blue_stacks,
    red_card_count,
    setup_card_number,
)
from companion.sheet import SeatMode
from companion.state import GameState, Phase, PlayerSheet, evolve
from companion.trails import apply_trail, rare_cases

__all__ = ["Game", "GameState", "Phase", "PlayerSheet", "replay_lines"]

Outcome = tuple[GameState, list[Event]]


def _require_game(state: GameState) -> None:
    if state.setup is None:
        raise RuleError.of("no_game")
    if state.ended:
        raise RuleError.of("game_ended")


def _require_setup_phase(state: GameState, code: str) -> None:
    """Refuse with code unless the game is in its set-up, before the first reveal."""
    _require_game(state)
    if state.reveals:
        raise RuleError.of(code)


def _new_game(state: GameState, entry: NewGame) -> Outcome:
    if state.setup is not None:
        raise RuleError.of("game_under_way")
    new = GameState(
        setup=entry,
        blue=blue_stacks(len(entry.players)),
        sheets={name: PlayerSheet() for name in entry.players},
    )
    return new, [GameStarted(entry)]


def _setup_card(state: GameState, entry: SetupCard) -> Outcome:
    _require_setup_phase(state, "setup_card_after_reveal")
    if state.setup_letters is not None:
        raise RuleError.of("setup_card_read")
    return evolve(state, setup_letters=entry.letters), [
        SetupDone(entry.letters, setup_card_number(entry.letters))
    ]


def _red_bonus(state: GameState, entry: RedBonus) -> Outcome:
    _require_setup_phase(state, "red_bonus_after_reveal")
    assert state.setup is not None
    if not state.setup.special_bonus:
        raise RuleError.of("red_bonus_not_in_variant")
    if state.red_drawn is not None:
        raise RuleError.of("red_bonus_drawn")
    wanted = red_card_count(len(state.players))
    if len(entry.sights) != wanted:
        raise RuleError.of("red_bonus_count", players=len(state.players), wanted=wanted,
                           given=len(entry.sights))
    red = {sight: RED_POINTS for sight in entry.sights}
    return evolve(state, red_drawn=entry.sights, red=red), [RedBonusDrawn(entry.sights)]


def _close_round(state: GameState) -> Outcome:
    """Write every player's sight sum for the round that just ended."""
    sheets = {
        name: evolve(sheet, sights_by_round=sheet.sights_by_round + (sheet.sight_points_now,))
        for name, sheet in state.sheets.items()
    }
    sums = {name: sheet.sight_points_now for name, sheet in state.sheets.items()}
    return evolve(state, sheets=sheets), [RoundEnded(state.round, sums)]


def _check_before_round(state: GameState) -> None:
    """Refuse a round's first reveal that the set-up or the solo reshuffle does not allow yet."""
    assert state.setup is not None
    if state.red_bonus_due:
        raise RuleError.of("red_bonus_first")
    if state.all_revealed:
        raise RuleError.of("all_revealed", rounds=state.rounds)
    if state.needs_solo_keep:
        raise RuleError.of("solo_keep_first")


def _reveal(state: GameState, entry: Reveal) -> Outcome:
    _require_game(state)
    events: list[Event] = []
    new_round = state.reveals % REVEALS_PER_ROUND == 0
    if new_round:
        _check_before_round(state)
        if state.reveals:
            state, events = _close_round(state)
    problem = state.reveal_problem(entry.cards)
    if problem is not None:
        raise problem
    counts = {} if new_round else dict(state.round_counts)
    for card in entry.cards:
        counts[card] = counts.get(card, 0) + 1
    state = evolve(
        state,
        reveals=state.reveals + 1,
        last_reveal=entry,
        round_counts=counts,
        blue_this_turn={},
        red_this_turn={},
    )
    events.append(Revealed(state.round, state.turn, entry.cards))
    if state.turn == REVEALS_PER_ROUND:
        events.append(LastTurn(state.round))
    events.extend(rare_cases(state))
    return state, events


def _require_turn(state: GameState, player: str, code: str) -> PlayerSheet:
    """The player's sheet, once a turn is in progress and the player is at the table."""
    _require_game(state)
    if state.reveals == 0:
        raise RuleError.of(code)
    if player not in state.sheets:
        raise RuleError.of("not_a_player", player=player)
    return state.sheets[player]


def _claim(state: GameState, entry: Claim) -> Outcome:
    sheet = _require_turn(state, entry.player, "claim_before_reveal")
    if sheet.mode is SeatMode.SHEET:
        raise RuleError.of("claims_from_trails", player=entry.player)
    if sheet.mode is SeatMode.UNDECIDED:
        sheet = evolve(sheet, mode=SeatMode.PAPER)
        state = evolve(state, sheets={**state.sheets, entry.player: sheet})
    return apply_claim(state, entry)


def _trail(state: GameState, entry: Trail) -> Outcome:
    _require_turn(state, entry.player, "trail_before_reveal")
    return apply_trail(state, entry)


def _solo_keep(state: GameState, entry: SoloKeep) -> Outcome:
    _require_game(state)
    if not state.is_solo:
        raise RuleError.of("solo_keep_not_solo")
    if state.solo_kept:
        raise RuleError.of("solo_keep_done")
    last_round_start = (state.rounds - 1) * REVEALS_PER_ROUND
    if state.reveals != last_round_start:
        raise RuleError.of("solo_keep_when", round=state.rounds - 1)
    if state.blue_won >= SOLO_KEEP_ALL_AFTER:
        raise RuleError.of("solo_keep_all_stay", won=state.blue_won)
    gone = [letter for letter in entry.letters if not state.blue.get(letter)]
    if gone:
        raise RuleError.of("blue_card_gone", letters=", ".join(gone))
    blue = {letter: (stack if letter in entry.letters else ()) for letter, stack in state.blue.items()}
    return evolve(state, blue=blue, solo_kept=True), [SoloKept(entry.letters)]


def _end_game(state: GameState, entry: EndGame) -> Outcome:
    _require_game(state)
    if not state.all_revealed:
        raise RuleError.of("end_too_early", rounds=state.rounds,
                           last=state.rounds * REVEALS_PER_ROUND, reveals=state.reveals)
    state, events = _close_round(state)
    state = evolve(state, ended=True)
    events.append(GameEnded(state.standings))
    return state, events


_STEPS: dict[type, Callable[[GameState, object], Outcome]] = {
    NewGame: _new_game,
    SetupCard: _setup_card,
    RedBonus: _red_bonus,
    Reveal: _reveal,
    Claim: _claim,
    SoloKeep: _solo_keep,
    EndGame: _end_game,
    Trail: _trail,
}


@dataclass(frozen=True)
class _Node:
    """One accepted entry in a persistent linked list, with the state after it."""

    parent: _Node | None
    entry: Entry
    state: GameState
    effective: _Node | None  # the latest non-undone entry at or before this one, for undo


class Game:
    """An immutable game: the accepted entries and the state they derive. apply() returns a new Game."""

    __slots__ = ("_last", "_effective", "_count")

    def __init__(self) -> None:
        self._last: _Node | None = None  # newest accepted entry (undo included)
        self._effective: _Node | None = None  # newest entry still standing (undo excluded)
        self._count = 0

    @property
    def state(self) -> GameState:
        """The state derived from every accepted entry."""
        return self._effective.state if self._effective else _EMPTY

    def undone(self) -> frozenset[int]:
        """The 1-based positions in the log of the entries an undo took back (undo entries excluded)."""
        standing = set()
        node = self._effective
        while node is not None:
            standing.add(id(node))
            node = node.effective
        taken_back, node, position = set(), self._last, self._count
        while node is not None:
            if not isinstance(node.entry, Undo) and id(node) not in standing:
                taken_back.add(position)
            node, position = node.parent, position - 1
        return frozenset(taken_back)

    @property
    def entries(self) -> tuple[Entry, ...]:
        """Every accepted entry in order, undo entries included: the log."""
        out = []
        node = self._last
        while node is not None:
            out.append(node.entry)
            node = node.parent
        return tuple(reversed(out))

    def __len__(self) -> int:
        return self._count

    def apply(self, entry: Entry) -> tuple[Game, list[Event]]:
        """Check an entry against the rules; return the game with it accepted and what happened."""
        if isinstance(entry, Undo):
            return self._undo(entry)
        step = _STEPS.get(type(entry))
        if step is None:
            raise LogFormatError.of("not_an_entry", entry=repr(entry))
        state, events = step(self.state, entry)
        state = evolve(state, last_entry=entry)
        node = _Node(self._last, entry, state, self._effective)
        return self._with(node, node), events

    def _undo(self, entry: Undo) -> tuple[Game, list[Event]]:
        target = self._effective
        if self.state.ended:
            raise RuleError.of("game_ended")
        if self.state.undoable is None:
            raise RuleError.of("nothing_to_undo")
        node = _Node(self._last, entry, target.effective.state, target.effective)  # type: ignore[union-attr]
        return self._with(node, target.effective), [Undone(target.entry)]

    def _with(self, last: _Node, effective: _Node | None) -> Game:
        game = Game()
        game._last, game._effective, game._count = last, effective, self._count + 1
        return game

    @classmethod
    def replay(cls, entries: Iterable[Entry]) -> Game:
        """Fold entries into a game; a refused one raises RefusedLine with its 1-based position."""
        game = cls()
        for number, entry in enumerate(entries, start=1):
            try:
                game, _ = game.apply(entry)
            except TucanaError as exc:
                raise RefusedLine(number, exc) from exc
        return game


_EMPTY = GameState()


def replay_lines(lines: Iterable[str]) -> Game:
    """Fold JSONL text lines into a game; blank lines are skipped but still counted for line numbers."""
    game = Game()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            game, _ = game.apply(parse_line(line))
        except TucanaError as exc:
            raise RefusedLine(number, exc) from exc
    return game
