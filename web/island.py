"""The island maps of companion.island, drawn as our own small SVG sketch."""

from __future__ import annotations

import math
from html import escape

from companion.island import MAPS, Hex
from companion.moves import Island

HEX_RADIUS = 10.0  # SVG user units from a hex centre to a corner; the sketch scales with CSS


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
    """An inline SVG sketch of the island; each village carries data-village for its letter.

    Every space carries data-space="row,column" and its centre (data-cx, data-cy), and empty
    layers (legal, trails, picked) wait for the island sheet's script to draw segments into them.
    """
    tiles = MAPS[island].hexes
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
        space = f'data-space="{tile.row},{tile.col}"'
        parts.append(
            f'<polygon class="hex t-{tile.terrain.value}" {space} data-terrain="{tile.terrain.value}" '
            f'data-cx="{x:.1f}" data-cy="{y:.1f}" '
            f'points="{_corners(x, y)}"/>'
        )
        if tile.village:
            marks.append(
                f'<g class="village" data-village="{tile.village}" {space}>'
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{HEX_RADIUS * 0.8:.1f}"/>'
                f'<text class="letter" x="{x:.1f}" y="{y + 3.5:.1f}"></text>'
                f'<text class="number" x="{x + 6:.1f}" y="{y - 5:.1f}">{tile.village}</text></g>'
            )
        elif tile.sight:
            marks.append(
                f'<circle class="sight-ring" {space} cx="{x:.1f}" cy="{y:.1f}" r="{HEX_RADIUS * 0.75:.1f}"/>'
                f'<use class="sight" data-sight="{tile.sight.value}" {space} href="#i-{tile.sight.value}" '
                f'x="{x - 6:.1f}" y="{y - 6:.1f}" width="12" height="12"/>'
            )
    parts.append('<g class="legal"></g><g class="trails"></g>')
    parts.extend(marks)
    parts.append('<g class="picked"></g>')
    parts.append("</svg>")
    return "".join(parts)
