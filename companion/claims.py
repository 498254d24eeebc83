"""Claims: circling a sight value, a village pair, or a red pair, and paying blue and red bonus cards."""

from __future__ import annotations

from companion.errors import RuleError
from companion.events import BonusKind, BonusTaken, Claimed, Event
from companion.moves import Claim, Sight
from companion.rules import VILLAGE_POINTS
from companion.state import GameState, PlayerSheet, evolve


def apply_claim(state: GameState, claim: Claim) -> tuple[GameState, list[Event]]:
    """Score one claim of the turn in progress (the caller checked the game, turn and player)."""
    if claim.sight is not None:
        return _sight(state, claim.player, claim.sight)
    if claim.village is not None:
        return _village(state, claim.player, claim.village)
    assert claim.red is not None
    return _red(state, claim.player, claim.red)


def _with_sheet(state: GameState, player: str, sheet: PlayerSheet) -> GameState:
    return evolve(state, sheets={**state.sheets, player: sheet})


def _sight(state: GameState, player: str, sight: Sight) -> tuple[GameState, list[Event]]:
    sheet = state.sheets[player]
    row = state.sight_values(sight)
    joined = sheet.sights[sight]
    if joined >= len(row):
        assert state.setup is not None
        raise RuleError.of("sights_all_joined", player=player, count=len(row), sight=sight,
                           sights=_plural(sight), island=state.setup.island)
    points = row[joined]
    sheet = evolve(
        sheet,
        sights={**sheet.sights, sight: joined + 1},
        sight_points_now=sheet.sight_points_now + points,
    )
    event = Claimed(player, points, sight=sight, bonus_segment=joined + 1 == len(row))
    return _with_sheet(state, player, sheet), [event]


def _village(state: GameState, player: str, letter: str) -> tuple[GameState, list[Event]]:
    sheet = state.sheets[player]
    if letter in sheet.villages:
        raise RuleError.of("village_pair_joined", player=player, letter=letter)
    assert state.setup is not None
    points = VILLAGE_POINTS[state.setup.island][letter]
    events: list[Event] = [Claimed(player, points, village=letter)]
    bonus, blue, this_turn = _take(state.blue, state.blue_this_turn, letter)
    state = evolve(state, blue=blue, blue_this_turn=this_turn)
    sheet = evolve(sheet, villages=sheet.villages + (letter,), bonus=sheet.bonus + bonus)
    if bonus:
        taken = BonusTaken(player, BonusKind.BLUE, letter, bonus, state.round, state.turn)
        state = evolve(state, bonus_taken=state.bonus_taken + (taken,))
        events.append(taken)
    return _with_sheet(state, player, sheet), events


def _red(state: GameState, player: str, sight: Sight) -> tuple[GameState, list[Event]]:
    assert state.setup is not None
    if not state.setup.special_bonus:
        raise RuleError.of("red_claim_not_in_variant")
    if sight not in (state.red_drawn or ()):
        raise RuleError.of("red_card_not_in_play", sight=sight, sights=_plural(sight))
    sheet = state.sheets[player]
    if sight in sheet.reds:
        raise RuleError.of("red_pair_joined", player=player, sight=sight, sights=_plural(sight))
    bonus, _, this_turn = _take({s: (p,) for s, p in state.red.items()}, state.red_this_turn, sight)
    red = {s: p for s, p in state.red.items() if s != sight}
    state = evolve(state, red=red, red_this_turn=this_turn)
    sheet = evolve(sheet, reds=sheet.reds + (sight,), bonus=sheet.bonus + bonus)
    events: list[Event] = [Claimed(player, 0, red=sight)]
    if bonus:
        taken = BonusTaken(player, BonusKind.RED, sight.value, bonus, state.round, state.turn)
        state = evolve(state, bonus_taken=state.bonus_taken + (taken,))
        events.append(taken)
    return _with_sheet(state, player, sheet), events


def _take(stacks: dict, this_turn: dict, key: object) -> tuple[int, dict, dict]:
    """Pay the bonus card for key: a card taken earlier this turn pays again (a tie), else the top card."""
    if key in this_turn:
        return this_turn[key], stacks, this_turn
    stack = stacks.get(key, ())
    if not stack:
        return 0, stacks, this_turn
    top, rest = stack[0], stack[1:]
    return top, {**stacks, key: rest}, {**this_turn, key: top}


def _plural(sight: Sight) -> str:
    return sight.value.replace("_", " ") + "s"
