"""The two island maps of the score pad (facts/tucana.md), drawn as our own small SVG sketch."""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

from companion.moves import Island

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

TERRAIN_CODES = {"D": "desert", "F": "forest", "M": "mountain", "W": "water"}
SIGHT_CODES = {"ob": "obelisk", "bk": "book", "tc": "toucan", "ye": "yeti", "sm": "sea_monster"}
HEX_RADIUS = 10.0  # SVG user units from a hex centre to a corner; the sketch scales with CSS


@dataclass(frozen=True)
class Hex:
    """One space of an island map: where it is, its terrain, and a sight or village on it."""

    row: int
    col: int
    terrain: str
    sight: str | None = None
    village: int | None = None


def parse_map(text: str) -> tuple[Hex, ...]:
    """Read the facts page's map notation into hexes."""
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


MAPS = {Island.PETIT: parse_map(PETIT_MAP), Island.GRANDE: parse_map(GRANDE_MAP)}


def _centre(tile: Hex) -> tuple[float, float]:
    # Doubled columns: one column step is half a hex width; rows are 1.5 radii apart.
    width = math.sqrt(3) * HEX_RADIUS
    return tile.col * width / 2 + width / 2, tile.row * 1.5 * HEX_RADIUS + HEX_RADIUS


def _corners(x: float, y: float) -> str:
    points = []
    for k in range(6):
        angle = math.radians(60 * k - 90)
        points.append(f"{x + HEX_RADIUS * math.cos(angle):.1f},{y + HEX_RADIUS * math.sin(angle):.1f}")
    return " ".join(points)


def island_svg(island: Island, title: str) -> str:
    """An inline SVG sketch of the island; each village carries data-village for its letter."""
    tiles = MAPS[island]
    centres = [_centre(t) for t in tiles]
    width = max(x for x, _ in centres) + math.sqrt(3) * HEX_RADIUS / 2 + 1
    height = max(y for _, y in centres) + HEX_RADIUS + 1
    parts = [
        f'<svg class="island" viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
        f'aria-labelledby="island-title" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="island-title">{escape(title)}</title>',
    ]
    marks = []
    for tile, (x, y) in zip(tiles, centres, strict=True):
        parts.append(f'<polygon class="hex t-{tile.terrain}" points="{_corners(x, y)}"/>')
        if tile.village:
            marks.append(
                f'<g class="village" data-village="{tile.village}">'
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{HEX_RADIUS * 0.8:.1f}"/>'
                f'<text class="letter" x="{x:.1f}" y="{y + 3.5:.1f}"></text>'
                f'<text class="number" x="{x + 6:.1f}" y="{y - 5:.1f}">{tile.village}</text></g>'
            )
        elif tile.sight:
            marks.append(
                f'<use class="sight" href="#i-{tile.sight}" x="{x - 6:.1f}" y="{y - 6:.1f}" '
                f'width="12" height="12"/>'
            )
    parts.extend(marks)
    parts.append("</svg>")
    return "".join(parts)
