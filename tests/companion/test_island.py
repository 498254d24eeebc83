"""The island maps: the facts page's counts, the hex neighbourhood, and the edges each pair allows."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.island import MAPS, pair_key
from companion.moves import Island, Sight, Terrain

D, F, M, W, ANY = Terrain.DESERT, Terrain.FOREST, Terrain.MOUNTAIN, Terrain.WATER, Terrain.ANY


@pytest.mark.parametrize(("island", "hexes", "terrains", "sights_each"), [
    (Island.PETIT, 73, {D: 24, F: 20, M: 16, W: 13}, 2),
    (Island.GRANDE, 104, {D: 34, F: 29, M: 24, W: 17}, 3),
])
def test_the_island_maps_match_the_facts_page(island, hexes, terrains, sights_each) -> None:
    """Each island map has the hex, terrain, village and sight counts of the facts page."""
    tiles = MAPS[island].hexes
    assert len(tiles) == hexes
    assert Counter(t.terrain for t in tiles) == terrains
    assert sorted(t.village for t in tiles if t.village) == list(range(1, 11))
    assert set(Counter(t.sight for t in tiles if t.sight).values()) == {sights_each}
    assert len({(t.row, t.col) for t in tiles}) == hexes


@pytest.mark.parametrize("island", list(Island))
def test_neighbours_are_mutual_and_the_island_is_one_piece(island) -> None:
    """Adjacency is symmetric, at most 6 a hex, and every hex is reachable from the first."""
    m = MAPS[island]
    for i, around in enumerate(m.neighbours):
        assert len(around) <= 6 and all(i in m.neighbours[j] for j in around)
    seen, todo = {0}, [0]
    while todo:
        for j in m.neighbours[todo.pop()]:
            if j not in seen:
                seen.add(j)
                todo.append(j)
    assert len(seen) == len(m.hexes)
    assert len(m.edges) == sum(len(a) for a in m.neighbours) // 2


@pytest.mark.parametrize(("start", "end", "adjacent"), [
    ((3, 1), (3, 3), True),  # east
    ((3, 3), (2, 2), True),  # north-west
    ((3, 3), (4, 4), True),  # south-east
    ((3, 1), (3, 5), False),  # two steps east
    ((3, 3), (5, 3), False),  # two rows down, same column
    ((3, 3), (3, 3), False),  # the same space
    ((0, 0), (0, 2), False),  # off the map
])
def test_an_edge_joins_two_adjacent_spaces_of_the_map(start, end, adjacent) -> None:
    """Only two different spaces one hex apart on Isla Petit make an edge, in either order."""
    m = MAPS[Island.PETIT]
    assert (m.edge(start, end) is not None) is adjacent
    assert m.edge(start, end) == m.edge(end, start)


def test_a_pair_allows_exactly_the_edges_of_its_terrains_and_any_stands_for_all() -> None:
    """Desert-water allows desert-water edges both ways; any-any allows every edge."""
    m = MAPS[Island.GRANDE]
    terrains = [(m.hexes[a].terrain, m.hexes[b].terrain) for a, b in m.edges_for[(D, W)]]
    assert terrains and all({t, u} == {D, W} for t, u in terrains)
    assert len(m.edges_for[(ANY, ANY)]) == len(m.edges)
    assert set(m.edges_for[(W, ANY)]) == {e for e in m.edges if W in (m.hexes[e[0]].terrain, m.hexes[e[1]].terrain)}
    assert pair_key((W, D)) == (D, W)


def test_village_and_sight_indices_point_at_their_hexes() -> None:
    """The villages and sights tables name the right spaces."""
    m = MAPS[Island.PETIT]
    assert m.space(m.villages[6]) == (9, 9)
    assert sorted(m.space(i) for i in m.sights[Sight.OBELISK]) == [(2, 10), (7, 9)]
