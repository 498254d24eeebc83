"""What the game waits for next, and which reveals the deck can still hold: checked against the engine."""

from __future__ import annotations

from itertools import combinations_with_replacement
from pathlib import Path

import pytest

from companion.errors import RuleError
from companion.game import Game
from companion.moves import (
    EndGame,
    Island,
    NewGame,
    RedBonus,
    Reveal,
    SetupCard,
    Sight,
    SoloKeep,
    Terrain,
    parse_line,
)
from companion.state import NextStep

D, F, M, W, A = Terrain.DESERT, Terrain.FOREST, Terrain.MOUNTAIN, Terrain.WATER, Terrain.ANY


def test_deck_problem_uses_a_full_deck_when_a_round_starts(log):
    """At the end of a round the reveal check uses the next round's full deck."""
    game = log(players=["Mary"]).setup().to_round_end()
    assert game.state.turn == 13
    assert game.state.deck_left[W] == 0
    assert game.state.reveal_problem((W, W)) is None  # the next reveal opens round 2



ROUND = [(D, W), (D, D), (D, D), (D, D), (D, F), (F, F), (F, F), (F, F), (M, M), (M, M), (M, M), (W, W), (W, A)]
DATA = Path(__file__).resolve().parents[1] / "data"


def _solo_special_bonus_log() -> list:
    """A solo Grande game with the Special Bonus: red cards, two rounds, the solo keep, the last round."""
    log = [NewGame(players=("Ana",), island=Island.GRANDE, special_bonus=True),
           SetupCard(letters="CEBAEDCDAB"), RedBonus(sights=(Sight.YETI,))]
    for round_number in (1, 2, 3):
        if round_number == 3:
            log.append(SoloKeep(letters=("A", "C")))
        log += [Reveal(cards=pair) for pair in ROUND]
    return log + [EndGame()]


def _prefixes():
    """Every state along real logs: the rulebook examples and a solo Special Bonus game."""
    for path in sorted(DATA.glob("*.jsonl")):
        entries = [parse_line(line) for line in path.read_text().splitlines() if line.strip()]
        yield from ((path.name, entries[:n]) for n in range(len(entries) + 1))
    entries = _solo_special_bonus_log()
    yield from (("solo", entries[:n]) for n in range(len(entries) + 1))


def _reveals_the_engine_takes(game: Game) -> set[tuple[Terrain, Terrain]]:
    taken = set()
    for pair in combinations_with_replacement(Terrain, 2):
        try:
            game.apply(Reveal(cards=pair))
        except RuleError:
            continue
        taken.add(pair)
    return taken


def test_the_next_step_and_the_possible_reveals_are_what_the_engine_accepts():
    """At every point of sample games the next step and possible reveals match the engine."""
    steps = set()
    for name, entries in _prefixes():
        game = Game.replay(entries)
        step = game.state.next_step
        steps.add(step)
        taken = _reveals_the_engine_takes(game)
        if step is NextStep.REVEAL:
            assert set(game.state.possible_reveals) == taken, (name, len(entries))
        elif step is not NextStep.SETUP_CARD:  # the engine takes a reveal before the card; the console does not
            assert taken == set(), (name, len(entries), step)
    assert steps == set(NextStep)  # every step was met on the way


@pytest.mark.parametrize(
    ("entries", "step"),
    [
        ([], NextStep.NO_GAME),
        ([NewGame(players=("Mary", "David"))], NextStep.SETUP_CARD),
        ([NewGame(players=("Mary", "David"), special_bonus=True), SetupCard(letters="CEBAEDCDAB")],
         NextStep.RED_BONUS),
        ([NewGame(players=("Mary", "David")), SetupCard(letters="CEBAEDCDAB")], NextStep.REVEAL),
        ([NewGame(players=("Mary", "David")), SetupCard(letters="CEBAEDCDAB"),
          *(Reveal(cards=pair) for pair in ROUND * 2)], NextStep.END_GAME),
        ([NewGame(players=("Ana",)), SetupCard(letters="CEBAEDCDAB"), *(Reveal(cards=pair) for pair in ROUND)],
         NextStep.SOLO_KEEP),
    ],
)
def test_next_step(entries, step):
    """Each kind of log leads to its next step, from no game to solo keep and end game."""
    assert Game.replay(entries).state.next_step is step
