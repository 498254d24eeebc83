"""Property tests of the island sheet over random legal games on both islands (hypothesis seeds)."""

from __future__ import annotations

import dataclasses
import random
from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.events import Claimed
from companion.game import Game
from companion.island import MAPS
from companion.moves import Claim, Island, Reveal, Terrain, Trail, Undo, dump_line, parse_line
from companion.sheet import SeatMode
from companion.sim import random_game, random_setup

seeds = st.integers(min_value=0, max_value=2**32 - 1)
islands = st.sampled_from(list(Island))
FAST = settings(max_examples=40, deadline=None)
SHEETS = 0.7  # most seats draw on the sheet; the others tap claims in the same turns


def _sheet_game(seed: int, island: Island) -> list:
    rng = random.Random(seed)
    setup = dataclasses.replace(random_setup(rng), island=island)
    return random_game(rng, setup, sheets=SHEETS)


def _as_paper(entries: list) -> list:
    """The same game with every trail replaced by the claims it made, tapped by hand."""
    game, out = Game(), []
    for entry in entries:
        game, events = game.apply(entry)
        if not isinstance(entry, Trail):
            out.append(entry)
            continue
        out += [Claim(e.player, sight=e.sight, village=e.village, red=e.red)
                for e in events if isinstance(e, Claimed)]
    return out


@FAST
@given(seeds, islands)
def test_a_sheet_scores_what_its_derived_claims_score_when_tapped(seed, island):
    """Scored by the sheet or replayed from the derived claims as paper taps: the same game."""
    entries = _sheet_game(seed, island)
    sheet = Game.replay(entries).state
    paper = Game.replay(_as_paper(entries)).state
    assert sheet.standings == paper.standings
    assert sheet.bonus_taken == paper.bonus_taken
    assert sheet.blue == paper.blue and sheet.red == paper.red
    for name in sheet.players:
        a, b = sheet.sheets[name], paper.sheets[name]
        assert (a.sights, a.villages, a.reds, a.bonus, a.sights_by_round) == (
            b.sights, b.villages, b.reds, b.bonus, b.sights_by_round)


def _pieces(island, edges) -> list[set[int]]:
    """Connected pieces of the drawn edges, found from scratch (a plain search, not the sheet's labels)."""
    around = defaultdict(set)
    for a, b in edges:
        around[a].add(b)
        around[b].add(a)
    seen, pieces = set(), []
    for start in range(len(island.hexes)):
        if start in seen:
            continue
        piece, todo = {start}, [start]
        while todo:
            for j in around[todo.pop()] - piece:
                piece.add(j)
                todo.append(j)
        seen |= piece
        pieces.append(piece)
    return pieces


@FAST
@given(seeds, islands)
def test_every_connection_on_a_sheet_is_scored_exactly_once(seed, island):
    """A search from scratch over the drawn edges finds exactly the sights, pairs and reds scored."""
    state = Game.replay(_sheet_game(seed, island)).state
    m = MAPS[island]
    for name in state.players:
        sheet = state.sheets[name]
        if sheet.mode is not SeatMode.SHEET:
            continue
        letters = state.village_letters[name]
        pieces = _pieces(m, [s.edge for s in sheet.drawing.segments])
        with_village = set().union(*(p for p in pieces if any(m.hexes[i].village for i in p)))
        joined = defaultdict(int)
        for i in with_village:
            if m.hexes[i].sight:
                joined[m.hexes[i].sight] += 1
        assert {s: n for s, n in sheet.sights.items() if n} == dict(joined)
        pairs = {letters[v - 1] for v in range(1, 11) for p in pieces
                 if m.villages[v] in p and any(m.villages[w] in p for w in range(1, 11)
                                               if w != v and letters[w - 1] == letters[v - 1])}
        assert set(sheet.villages) == pairs
        reds = {s for s in state.red_drawn or () for p in pieces if sum(i in p for i in m.sights[s]) >= 2}
        assert set(sheet.reds) == reds


@FAST
@given(seeds, islands)
def test_every_accepted_trail_keeps_the_rules_of_the_turn(seed, island):
    """Checked independently of the engine: adjacency, the reveal's terrains, one turn segment, no edge twice."""
    m = MAPS[island]
    cards, turn, drawn, turn_segments = None, 0, defaultdict(set), set()
    for entry in _sheet_game(seed, island):
        if isinstance(entry, Reveal):
            cards, turn = entry.cards, turn + 1
        if not isinstance(entry, Trail):
            continue
        (r1, c1), (r2, c2) = entry.from_, entry.to
        assert (abs(r1 - r2), abs(c1 - c2)) in {(0, 2), (1, 1)}
        edge = frozenset((entry.from_, entry.to))
        assert edge not in drawn[entry.player]
        drawn[entry.player].add(edge)
        if entry.bonus:
            continue
        assert (entry.player, turn) not in turn_segments
        turn_segments.add((entry.player, turn))
        terrains = [m.hexes[m.index[s]].terrain for s in (entry.from_, entry.to)]
        fits = [c in (Terrain.ANY, t) for c, t in zip(cards, terrains, strict=True)]
        swapped = [c in (Terrain.ANY, t) for c, t in zip(cards, reversed(terrains), strict=True)]
        assert all(fits) or all(swapped)


@FAST
@given(seeds, islands, st.data())
def test_undo_then_redo_of_any_entry_of_a_sheet_game_gives_the_same_game(seed, island, data):
    """Taking back any entry (a trail with all it granted included) and making it again changes nothing."""
    entries = _sheet_game(seed, island)
    k = data.draw(st.integers(min_value=1, max_value=len(entries) - 2))
    before = Game.replay(entries[: k + 1])
    undone, _ = before.apply(Undo())
    assert undone.state == Game.replay(entries[:k]).state
    redone, _ = undone.apply(entries[k])
    assert redone.state == before.state


@FAST
@given(seeds, islands)
def test_a_sheet_game_survives_the_jsonl_round_trip(seed, island):
    """Every line of a sheet game is written and read back as the same entry."""
    entries = _sheet_game(seed, island)
    again = [parse_line(dump_line(e)) for e in entries]
    assert again == entries
    assert Game.replay(again).state == Game.replay(entries).state
