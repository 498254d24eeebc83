"""Shared fixtures: a log builder for rule scenarios, a log store and a table in a temp folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.game import Game
from companion.island import MAPS
from companion.moves import Entry, Terrain, parse_entry
from companion.rules import DECK, REVEALS_PER_ROUND
from companion.store import LogStore
from companion.table import Table

# A fixed round's deck order: 26 of the 27 cards, so any number of turns stays within the deck.
ROUND_CARDS = [t.value for t, n in DECK.items() for _ in range(n)][:26]


class LogBuilder:
    """Builds a contract-1 log step by step and applies it to a Game as it goes."""

    def __init__(self, **new_game: object) -> None:
        self.lines: list[dict] = []
        self.game = Game()
        self.events: list = []
        self.add({"type": "new_game", **new_game})

    def add(self, obj: dict) -> LogBuilder:
        """Apply one entry given as its JSON object; raises what the engine raises."""
        self.game, self.events = self.game.apply(parse_entry(obj))
        self.lines.append(obj)
        return self

    def setup(self, letters: str = "CEBAEDCDAB") -> LogBuilder:
        """Read a set-up card."""
        return self.add({"type": "setup_card", "letters": letters})

    def reveal(self, a: str | None = None, b: str | None = None) -> LogBuilder:
        """Reveal two cards, by default the next two of a fixed valid round order."""
        turn = self.game.state.reveals % REVEALS_PER_ROUND
        a = a or ROUND_CARDS[2 * turn]
        b = b or ROUND_CARDS[2 * turn + 1]
        return self.add({"type": "reveal", "cards": [a, b]})

    def reveals(self, count: int) -> LogBuilder:
        """Reveal `count` turns with default cards."""
        for _ in range(count):
            self.reveal()
        return self

    def to_round_end(self) -> LogBuilder:
        """Reveal up to and including the 13th reveal of the current round."""
        while True:
            self.reveal()
            if self.game.state.turn == REVEALS_PER_ROUND:
                return self

    def fill_round(self) -> LogBuilder:
        """Reveal whatever this round's deck still holds up to and including its 13th reveal."""
        while self.game.state.turn != REVEALS_PER_ROUND:
            pair = self.state.possible_reveals[0]
            self.reveal(pair[0].value, pair[1].value)
        return self

    def claim(self, player: str, **what: str) -> LogBuilder:
        """A claim: sight=..., village=... or red=..."""
        return self.add({"type": "claim", "player": player, **what})

    def trail(self, player: str, start: tuple[int, int], end: tuple[int, int], *, bonus: bool = False) -> LogBuilder:
        """One segment on a player's island sheet."""
        return self.add(
            {"type": "trail", "player": player, "from": list(start), "to": list(end), "bonus": bonus}
        )

    def reveal_for(self, start: tuple[int, int], end: tuple[int, int]) -> LogBuilder:
        """Reveal a pair that allows the segment: its two terrains, or "any" where the deck ran short.

        When no such pair is left in this round's deck, reveal whatever it still holds (a turn
        in which nobody draws here) and try again: the next round brings a full deck.
        """
        island = MAPS[self.state.setup.island]
        a, b = (island.hexes[island.index[s]].terrain for s in (start, end))
        wanted = [(a, b), (a, Terrain.ANY), (Terrain.ANY, b), (Terrain.ANY, Terrain.ANY)]
        while True:
            pair = next((p for p in wanted if self.state.reveal_problem(p) is None), None)
            if pair is not None:
                return self.reveal(pair[0].value, pair[1].value)
            filler = self.state.possible_reveals[0]
            self.reveal(filler[0].value, filler[1].value)

    def draw(self, player: str, *spaces: tuple[int, int]) -> LogBuilder:
        """Draw a path, one segment a turn, revealing for each a pair that allows it."""
        for start, end in zip(spaces, spaces[1:], strict=False):
            self.reveal_for(start, end).trail(player, start, end)
        return self

    def end(self) -> LogBuilder:
        """End the game."""
        return self.add({"type": "end_game"})

    @property
    def state(self):
        """The derived state so far."""
        return self.game.state

    @property
    def entries(self) -> list[Entry]:
        """The accepted entries."""
        return list(self.game.entries)

    def jsonl(self) -> str:
        """The log as JSONL text."""
        import json

        return "".join(json.dumps(line) + "\n" for line in self.lines)


@pytest.fixture
def log():
    """A factory of LogBuilders: log(players=[...], island=..., ...)."""
    return LogBuilder


@pytest.fixture
def rare_case() -> LogBuilder:
    """Lin (on the sheet) has drawn all 7 water-water edges of Isla Petit; water and water is revealed.

    Two second sights joined at once (the obelisk and the toucan at village 5) grant the two
    bonus segments that, with the round's water and "any" cards, reach every such edge.
    """
    game = LogBuilder(players=["Lin", "David"]).setup()
    game.draw("Lin", (2, 10), (2, 12), (1, 13)).draw("Lin", (2, 6), (2, 4), (1, 3))
    game.draw("Lin", (7, 9), (7, 11)).draw("Lin", (6, 12), (7, 11)).draw("Lin", (7, 11), (8, 12))
    game.trail("Lin", (1, 9), (2, 8), bonus=True).trail("Lin", (4, 2), (4, 4), bonus=True)
    for edge in [((4, 10), (5, 9)), ((5, 9), (6, 10)), ((5, 13), (6, 14))]:
        game.draw("Lin", *edge)
    game.fill_round().reveal("any", "any").trail("Lin", (7, 7), (8, 6))
    game.reveal("water", "water").trail("Lin", (9, 13), (9, 15))
    return game.reveal("water", "water")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[LogStore]:
    """A fresh SQLite log store in a temp folder, on the fast store: no fsync per entry.

    Durability is tested where it is the point (durable_store, the killed writer); elsewhere an
    fsync per entry only makes the run slow.
    """
    with LogStore(tmp_path / "games.sqlite3", clock=lambda: 1_700_000_000.0, durable=False) as s:
        yield s


@pytest.fixture
def durable_store(tmp_path: Path) -> Iterator[LogStore]:
    """A fresh log store as `tucana serve` opens it: every entry fsynced before append() returns."""
    with LogStore(tmp_path / "games.sqlite3", clock=lambda: 1_700_000_000.0) as s:
        yield s


@pytest.fixture
def table(store: LogStore) -> Table:
    """A table over the fresh store, with no game yet."""
    return Table(store)
