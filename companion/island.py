"""The two island maps of the score pad (facts/tucana.md) as data: spaces, neighbours, trail edges.

Spaces are [row, column] in doubled-column coordinates: the neighbours of (r, c) are (r, c-2),
(r, c+2), (r-1, c-1), (r-1, c+1), (r+1, c-1), (r+1, c+1). Each space also gets an index (its
position in the map's reading order) so a sheet can keep compact tuples indexed by space.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement
from types import MappingProxyType

from companion.moves import Island, Sight, Terrain

# Map lines from facts/tucana.md: row, column of the first hex, hexes west to east two columns
# apart; "." is a gap. D desert, F forest, M mountain, W water; (V1) a village, (ob) a sight.
PETIT_MAP = """
r0 c4  D D M(V1) M F
r1 c3  M(V10) F M W D F(V2)
r2 c2  F M F(tc) W D(ob) M D
r3 c1  D(V9) F D F F D M D(V3)
r4 c0  D W W M(ye) D W F(bk) F D
r5 c1  F M M D W(sm) D W M F
r6 c2  D(V8) D F(bk) F W F(tc) W D(V4)
r7 c1  D M F W D(ob) F D D
r8 c0  M(ye) M F(V7) W F D M(V5) M
r9 c5  D D F(V6) . W W(sm)
"""

GRANDE_MAP = """
r0  c14 W(sm)
r1  c13 W M
r2  c4  M(V10) D M D(V1) F D D
r3  c3  D F M W D D(ob) M F(V2)
r4  c2  F D(ob) F F(tc) W M M F M
r5  c1  F(V9) M D D W F W F(bk) D M(V3)
r6  c0  F D M W M(ye) D W(sm) D W W D
r7  c1  D F(bk) D F F W D M(ye) M M
r8  c0  D(V8) F D W(sm) W D F F D D F
r9  c1  D W M F D W D F(tc) M D(V4)
r10 c0  F W F(tc) M F W D(ob) M M F
r11 c1  M(ye) M D F(bk) D F D D(V5) F
r12 c4  M(V7) D M F(V6) D F
"""

TERRAIN_CODES = MappingProxyType(
    {"D": Terrain.DESERT, "F": Terrain.FOREST, "M": Terrain.MOUNTAIN, "W": Terrain.WATER}
)
SIGHT_CODES = MappingProxyType(
    {"ob": Sight.OBELISK, "bk": Sight.BOOK, "tc": Sight.TOUCAN, "ye": Sight.YETI, "sm": Sight.SEA_MONSTER}
)
ISLAND_NAMES = MappingProxyType({Island.PETIT: "Isla Petit", Island.GRANDE: "Isla Grande"})
NEIGHBOUR_STEPS = ((0, -2), (0, 2), (-1, -1), (-1, 1), (1, -1), (1, 1))

Space = tuple[int, int]  # (row, column), doubled columns
Edge = tuple[int, int]  # two space indices, smaller first: one possible trail segment


@dataclass(frozen=True)
class Hex:
    """One space of an island map: where it is, its terrain, and a sight or village on it."""

    row: int
    col: int
    terrain: Terrain
    sight: Sight | None = None
    village: int | None = None

    @property
    def space(self) -> Space:
        """The space's [row, column]."""
        return (self.row, self.col)


def parse_map(text: str) -> tuple[Hex, ...]:
    """Read the facts page's map notation into hexes, in reading order."""
    hexes: list[Hex] = []
    for line in text.strip().splitlines():
        row_part, col_part, *cells = line.split()
        row, col = int(row_part[1:]), int(col_part[1:])
        for offset, cell in enumerate(cells):
            if cell != ".":
                hexes.append(_parse_cell(row, col + 2 * offset, cell))
    return tuple(hexes)


def _parse_cell(row: int, col: int, cell: str) -> Hex:
    terrain = TERRAIN_CODES[cell[0]]
    mark = cell[2:-1] if "(" in cell else ""
    if mark.startswith("V"):
        return Hex(row, col, terrain, village=int(mark[1:]))
    return Hex(row, col, terrain, sight=SIGHT_CODES[mark] if mark else None)


def _matches(card: Terrain, terrain: Terrain) -> bool:
    return card is Terrain.ANY or card is terrain


def pair_key(cards: tuple[Terrain, Terrain]) -> tuple[Terrain, Terrain]:
    """A revealed pair in a fixed order (the pair is unordered: desert-water is water-desert)."""
    order = list(Terrain)
    a, b = cards
    return (a, b) if order.index(a) <= order.index(b) else (b, a)


class IslandMap:
    """One island's spaces with everything a sheet needs precomputed: neighbours, edges, pairs."""

    def __init__(self, island: Island, hexes: tuple[Hex, ...]) -> None:
        self.island = island
        self.hexes = hexes
        self.index: MappingProxyType[Space, int] = MappingProxyType(
            {h.space: i for i, h in enumerate(hexes)}
        )
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                self.index[(h.row + dr, h.col + dc)]
                for dr, dc in NEIGHBOUR_STEPS
                if (h.row + dr, h.col + dc) in self.index
            )
            for h in hexes
        )
        self.edges: tuple[Edge, ...] = tuple(
            (i, j) for i, around in enumerate(self.neighbours) for j in around if i < j
        )
        # edge -> (row, column, row, column) of its two spaces, for the pages
        self.edge_spaces: MappingProxyType[Edge, tuple[int, int, int, int]] = MappingProxyType(
            {(i, j): (*hexes[i].space, *hexes[j].space) for i, j in self.edges}
        )
        # village number (1-10) -> space index; sight -> its space indices
        self.villages: MappingProxyType[int, int] = MappingProxyType(
            {h.village: i for i, h in enumerate(hexes) if h.village}
        )
        self.sights: MappingProxyType[Sight, tuple[int, ...]] = MappingProxyType(
            {s: tuple(i for i, h in enumerate(hexes) if h.sight is s) for s in Sight}
        )
        # every revealable pair -> the edges whose two terrains it allows ("any" is any terrain)
        self.edges_for: MappingProxyType[tuple[Terrain, Terrain], tuple[Edge, ...]] = MappingProxyType(
            {
                pair: tuple(e for e in self.edges if self._allows(pair, e))
                for pair in combinations_with_replacement(Terrain, 2)
            }
        )

    def _allows(self, pair: tuple[Terrain, Terrain], edge: Edge) -> bool:
        a, b = pair
        t, u = self.hexes[edge[0]].terrain, self.hexes[edge[1]].terrain
        return (_matches(a, t) and _matches(b, u)) or (_matches(a, u) and _matches(b, t))

    def edge(self, start: Space, end: Space) -> Edge | None:
        """The edge between two spaces, or None when either is off the map or they are not adjacent."""
        i, j = self.index.get(start), self.index.get(end)
        if i is None or j is None or j not in self.neighbours[i]:
            return None
        return (i, j) if i < j else (j, i)

    def allows(self, cards: tuple[Terrain, Terrain], edge: Edge) -> bool:
        """True when a revealed pair lets a segment be drawn on this edge."""
        return self._allows(cards, edge)

    def space(self, index: int) -> Space:
        """The [row, column] of a space index."""
        return self.hexes[index].space


MAPS: MappingProxyType[Island, IslandMap] = MappingProxyType(
    {
        Island.PETIT: IslandMap(Island.PETIT, parse_map(PETIT_MAP)),
        Island.GRANDE: IslandMap(Island.GRANDE, parse_map(GRANDE_MAP)),
    }
)
