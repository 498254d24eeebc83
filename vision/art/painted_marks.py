"""The PAINTED style's own lettering and pictograms, drawn as masks on a brush.Sheet.

Letters are pen-stroke skeletons in a unit box (x right, y down) written with a broad nib, so
they have a calligraphic thick-thin contrast; no system or Hershey font is used. Sight
pictograms are silhouettes of the style's own design (a footprint for the yeti, a coiled serpent
for the sea monster), distinct from vision.glyphs.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.art.brush import Point, Sheet, star_points

Stroke = list[tuple[float, float]]

NIB_ANGLE_DEG = 35.0  # the broad nib's slant: strokes across it are thick, along it thin
NIB_SHARE = 0.45  # nib offset as a share of the stroke width
ADVANCE = 0.18  # space after a letter, as a share of the letter height


def _arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, n: int = 14) -> Stroke:
    """Points on an elliptical arc from a0 to a1 degrees (0 = right, 90 = down)."""
    return [(cx + rx * math.cos(math.radians(a)), cy + ry * math.sin(math.radians(a)))
            for a in np.linspace(a0, a1, n)]


# Skeletons: (width in units of the height, strokes).
SCRIPT: dict[str, tuple[float, list[Stroke]]] = {
    "A": (0.8, [[(0.04, 1.0), (0.4, 0.0), (0.76, 1.0)], [(0.17, 0.64), (0.63, 0.64)]]),
    "B": (0.68, [[(0.1, 0.0), (0.1, 1.0)],
                 [(0.1, 0.0), (0.38, 0.0)] + _arc(0.38, 0.24, 0.22, 0.24, -90, 90) + [(0.1, 0.48)],
                 [(0.1, 0.48), (0.42, 0.48)] + _arc(0.42, 0.74, 0.25, 0.26, -90, 90) + [(0.1, 1.0)]]),
    "C": (0.74, [_arc(0.42, 0.5, 0.38, 0.5, 40, 320, 22)]),
    "D": (0.76, [[(0.1, 0.0), (0.1, 1.0)],
                 [(0.1, 0.0), (0.3, 0.0)] + _arc(0.3, 0.5, 0.4, 0.5, -90, 90, 18) + [(0.1, 1.0)]]),
    "E": (0.64, [[(0.6, 0.0), (0.1, 0.0), (0.1, 1.0), (0.62, 1.0)], [(0.1, 0.5), (0.5, 0.5)]]),
    "0": (0.7, [_arc(0.35, 0.5, 0.32, 0.5, 0, 360, 26)]),
    "1": (0.5, [[(0.08, 0.22), (0.3, 0.0), (0.3, 1.0)], [(0.05, 1.0), (0.55, 1.0)]]),
    "2": (0.66, [_arc(0.33, 0.28, 0.29, 0.28, 190, 380) + [(0.04, 1.0), (0.66, 1.0)]]),
    "3": (0.66, [_arc(0.32, 0.25, 0.27, 0.25, 200, 450), _arc(0.32, 0.74, 0.31, 0.26, 270, 520)]),
    "4": (0.72, [[(0.52, 1.0), (0.52, 0.0), (0.03, 0.7), (0.72, 0.7)]]),
    "5": (0.66, [[(0.62, 0.0), (0.14, 0.0), (0.1, 0.44)] + _arc(0.36, 0.68, 0.3, 0.32, 225, 510)]),
    "6": (0.66, [[(0.56, 0.02), (0.25, 0.3), (0.06, 0.66)], _arc(0.34, 0.7, 0.29, 0.3, 0, 360, 22)]),
    "7": (0.66, [[(0.03, 0.0), (0.66, 0.0), (0.24, 1.0)]]),
    "8": (0.66, [_arc(0.33, 0.25, 0.22, 0.25, 0, 360, 18), _arc(0.33, 0.74, 0.3, 0.26, 0, 360, 20)]),
    "9": (0.66, [_arc(0.32, 0.3, 0.29, 0.3, 0, 360, 22), [(0.61, 0.34), (0.42, 0.7), (0.1, 0.98)]]),
    "#": (0.8, [[(0.33, 0.08), (0.25, 0.92)], [(0.6, 0.08), (0.52, 0.92)],
                [(0.06, 0.36), (0.78, 0.36)], [(0.02, 0.64), (0.74, 0.64)]]),
    "-": (0.5, [[(0.05, 0.55), (0.45, 0.55)]]),
}


def write(sheet: Sheet, text: str, centre: Point, height_mm: float, weight: float = 0.13,
          mask: np.ndarray | None = None) -> np.ndarray:
    """Write text centred on centre with letters height_mm tall, as a mask; KeyError on a
    character the script has no skeleton for."""
    mask = sheet.blank() if mask is None else mask
    widths = [SCRIPT[ch][0] * height_mm for ch in text]
    total = sum(widths) + ADVANCE * height_mm * (len(text) - 1)
    x = centre[0] - total / 2
    y0 = centre[1] - height_mm / 2
    width_mm = weight * height_mm
    a = math.radians(NIB_ANGLE_DEG)
    nib = (math.cos(a) * width_mm * NIB_SHARE, -math.sin(a) * width_mm * NIB_SHARE)
    for ch, w in zip(text, widths, strict=True):
        for stroke in SCRIPT[ch][1]:
            pts = [(x + u * height_mm, y0 + v * height_mm) for u, v in stroke]
            for dx, dy in ((0.0, 0.0), nib):  # two passes of the pen: the broad nib's contrast
                sheet.line([(px + dx, py + dy) for px, py in pts], width_mm * 0.7, mask)
        x += w + ADVANCE * height_mm
    return mask


def _box(c: Point, size: float, pts) -> list[Point]:
    return [(c[0] + x * size / 2, c[1] + y * size / 2) for x, y in pts]


def obelisk(sheet: Sheet, c: Point, size: float, mask: np.ndarray) -> None:
    """A stepped plinth and a slim needle with a pyramid tip."""
    sheet.poly(_box(c, size, [(-0.16, 0.62), (-0.1, -0.62), (0.0, -0.95), (0.1, -0.62), (0.16, 0.62)]), mask)
    sheet.poly(_box(c, size, [(-0.42, 0.62), (0.42, 0.62), (0.42, 0.78), (-0.42, 0.78)]), mask)
    sheet.poly(_box(c, size, [(-0.6, 0.82), (0.6, 0.82), (0.6, 0.97), (-0.6, 0.97)]), mask)


def book(sheet: Sheet, c: Point, size: float, mask: np.ndarray) -> None:
    """A closed book standing at a slant, with a bookmark ribbon."""
    sheet.poly(_box(c, size, [(-0.55, -0.7), (0.35, -0.9), (0.6, 0.75), (-0.3, 0.95)]), mask)
    cut = sheet.blank()
    sheet.line(_box(c, size, [(-0.38, -0.55), (-0.14, 0.78)]), size * 0.06, cut)
    mask[:] = np.minimum(mask, 255 - cut)
    sheet.poly(_box(c, size, [(0.05, 0.85), (0.15, 0.85), (0.18, 1.0), (0.1, 0.95), (0.03, 1.0)]), mask)


def toucan(sheet: Sheet, c: Point, size: float, mask: np.ndarray) -> None:
    """A toucan perched in profile: round body, head and a long curved beak, eye left open."""
    sheet.poly(_box(c, size, [(-0.5, 0.9), (-0.2, 0.15), (0.1, 0.2), (-0.15, 0.95)]), mask)  # tail
    sheet.disc(_box(c, size, [(-0.05, 0.1)])[0], size * 0.28, mask)
    sheet.disc(_box(c, size, [(-0.05, -0.45)])[0], size * 0.2, mask)
    beak = [(0.1, -0.65)] + [(0.1 + 0.85 * t, -0.6 + 0.45 * t * t) for t in np.linspace(0, 1, 8)]
    beak += [(0.15 + 0.5 * t, -0.2 + 0.05 * t) for t in np.linspace(1, 0, 6)]
    sheet.poly(_box(c, size, beak), mask)
    eye = sheet.disc(_box(c, size, [(-0.02, -0.5)])[0], size * 0.06)
    mask[:] = np.minimum(mask, 255 - eye)


def yeti(sheet: Sheet, c: Point, size: float, mask: np.ndarray) -> None:
    """A giant footprint: a broad sole and five toes."""
    sole = [(0.45 * math.cos(t) * (1 - 0.25 * math.sin(t)), 0.25 + 0.62 * math.sin(t))
            for t in np.linspace(0, 2 * math.pi, 24)]
    sheet.poly(_box(c, size, sole), mask)
    for x, y, r in ((-0.42, -0.5, 0.16), (-0.14, -0.66, 0.13), (0.12, -0.68, 0.12), (0.34, -0.58, 0.11),
                    (0.5, -0.38, 0.1)):
        sheet.disc(_box(c, size, [(x, y)])[0], r * size / 2, mask)


def sea_monster(sheet: Sheet, c: Point, size: float, mask: np.ndarray) -> None:
    """A serpent's coils rising from the sea and its horned head."""
    for x0 in (-0.75, -0.2):
        sheet.line(_box(c, size, [(x0 + 0.22 * (1 - math.cos(t)), 0.35 - 0.45 * math.sin(t))
                                  for t in np.linspace(0, math.pi, 10)]), size * 0.1, mask)
    sheet.line(_box(c, size, [(0.3, 0.35), (0.4, -0.2), (0.5, -0.55)]), size * 0.12, mask)
    sheet.poly(_box(c, size, [(0.4, -0.62), (0.95, -0.5), (0.85, -0.35), (0.45, -0.38)]), mask)
    sheet.poly(_box(c, size, [(0.45, -0.6), (0.5, -0.9), (0.6, -0.62)]), mask)
    sheet.line(_box(c, size, [(x, 0.62 + 0.1 * math.sin(6 * x)) for x in np.linspace(-0.95, 0.95, 20)]),
               size * 0.07, mask)


SIGHTS = {"obelisk": obelisk, "book": book, "toucan": toucan, "yeti": yeti, "sea_monster": sea_monster}


def sight(sheet: Sheet, name: str, c: Point, size: float, mask: np.ndarray | None = None) -> np.ndarray:
    """A sight pictogram size_mm across, as a mask."""
    mask = sheet.blank() if mask is None else mask
    SIGHTS[name](sheet, c, size, mask)
    return mask


def faceted_star(sheet: Sheet, c: Point, r_out: float, r_in: float) -> tuple[np.ndarray, np.ndarray]:
    """A five-pointed star as two masks, its lit and its shaded half-arms (a raised, bevelled star)."""
    pts = star_points(c, r_out, r_in)
    lit, shade = sheet.blank(), sheet.blank()
    for i in range(0, 10, 2):
        tip, left, right = pts[i], pts[i - 1], pts[(i + 1) % 10]
        sheet.poly([c, left, tip], lit if i in (0, 8) else shade)  # light comes from the top left
        sheet.poly([c, tip, right], shade if i in (0, 2) else lit)
    return lit, shade


def outline(sheet: Sheet, mask: np.ndarray, width_mm: float) -> np.ndarray:
    """A band width_mm wide around the edge of a mask's shape (its contour, stroked)."""
    k = max(1, round(width_mm * sheet.ppm))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
    return cv2.subtract(cv2.dilate(mask, kernel), mask)
