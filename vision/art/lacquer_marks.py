"""Lacquer style's pictures: the five hexagon scenes, the five sights, the gold lantern, vine work.

Scenes are painted on a whole sheet and cut out by the caller; sights and the lantern are masks
laid on in gold. Each drawing here is the style's own: nothing is shared with the other styles.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.art.lacquer_paint import BLACK, CREAM, Sheet, leaf, noise, spiral


def _wave_y(x: float, base: float, amp: float, period: float, phase: float) -> float:
    return base + amp * math.sin(x / period * 2 * math.pi + phase)


def _below(sh: Sheet, x0: float, x1: float, curve, bottom: float) -> np.ndarray:
    """A mask of everything under a curve y = curve(x) between x0 and x1."""
    xs = np.linspace(x0, x1, 40)
    return sh.poly(sh.blank(), [(x, curve(x)) for x in xs] + [(x1, bottom), (x0, bottom)])


def _gradient(sh: Sheet, top, bottom, y0: float, y1: float) -> None:
    t = np.clip((np.arange(sh.h, dtype=np.float32) / sh.ppm - y0) / (y1 - y0), 0, 1)[:, None, None]
    sh.img[:] = np.asarray(top, np.float32) * (1 - t) + np.asarray(bottom, np.float32) * t


def _desert(sh: Sheet, c, r: float) -> None:
    cx, cy = c
    _gradient(sh, (175, 225, 245), (120, 200, 240), cy - r, cy - r * 0.2)
    sh.paint(sh.circle(sh.blank(), (cx + r * 0.35, cy - r * 0.45), r * 0.16), (150, 235, 255), soften=0.3)
    tones = [(95, 180, 232), (70, 150, 215), (55, 125, 200), (40, 100, 178)]
    for k, tone in enumerate(tones):
        base, ph = cy - r * 0.25 + k * r * 0.3, k * 1.7
        dune = _below(sh, cx - r, cx + r, lambda x, b=base, p=ph: _wave_y(x, b, r * 0.09, r * 1.1, p), cy + r)
        sh.paint(dune, tone)
        ridge = [(x, _wave_y(x, base, r * 0.09, r * 1.1, ph)) for x in np.linspace(cx - r, cx + r, 40)]
        sh.paint(sh.line(sh.blank(), ridge, 0.35), (150, 215, 245), opacity=0.8)
    dots = noise(sh.h, sh.w, (sh.h // 2, sh.w // 2), "lacquer/sand")
    sh.img *= (1.0 + 0.05 * np.clip(dots, -2, 2))[..., None]
    cactus = sh.blank()
    sh.line(cactus, [(cx - r * 0.4, cy + r * 0.35), (cx - r * 0.4, cy - r * 0.05)], 1.3)
    sh.line(cactus, [(cx - r * 0.4, cy + r * 0.15), (cx - r * 0.55, cy + r * 0.12), (cx - r * 0.55, cy)], 0.8)
    sh.line(cactus, [(cx - r * 0.4, cy + r * 0.2), (cx - r * 0.27, cy + r * 0.17), (cx - r * 0.27, cy + r * 0.03)], 0.8)
    sh.paint(cactus, (50, 110, 45), bevel=0.4)


def _pine(sh: Sheet, base, height: float, dark, light) -> None:
    x, y = base
    trunk = sh.line(sh.blank(), [(x, y), (x, y - height * 0.25)], height * 0.08)
    sh.paint(trunk, (30, 50, 80))
    for k in range(3):
        top = y - height * (0.45 + 0.2 * k) - height * 0.15
        bot = y - height * (0.15 + 0.22 * k)
        half = height * (0.34 - 0.08 * k)
        sh.paint(sh.poly(sh.blank(), [(x, top), (x + half, bot), (x - half, bot)]), dark)
        sh.paint(sh.poly(sh.blank(), [(x, top), (x, bot), (x - half, bot)]), light)


def _forest(sh: Sheet, c, r: float) -> None:
    cx, cy = c
    _gradient(sh, (200, 225, 205), (60, 120, 70), cy - r, cy + r)
    rows = [(-0.25, 0.55, (80, 130, 90), (110, 165, 120)), (0.15, 0.75, (40, 95, 45), (70, 140, 75)),
            (0.6, 0.95, (25, 70, 30), (55, 120, 55))]
    for k, (dy, size, dark, light) in enumerate(rows):
        for j in range(-3, 4):
            x = cx + j * r * 0.3 + (k % 2) * r * 0.15
            _pine(sh, (x, cy + dy * r), r * size * (0.9 + 0.1 * ((j + k) % 3)), dark, light)


def _mountain(sh: Sheet, c, r: float) -> None:
    cx, cy = c
    _gradient(sh, (235, 220, 205), (205, 195, 190), cy - r, cy)
    far = [(cx - r, cy + 0.1 * r), (cx - 0.6 * r, cy - 0.35 * r), (cx - 0.2 * r, cy - 0.1 * r),
           (cx + 0.3 * r, cy - 0.45 * r), (cx + r, cy), (cx + r, cy + r), (cx - r, cy + r)]
    sh.paint(sh.poly(sh.blank(), far), (175, 150, 160))
    for px, peak, half in ((-0.3, -0.7, 0.55), (0.35, -0.5, 0.5)):
        top = (cx + px * r, cy + peak * r)
        left, right = (top[0] - half * r, cy + r), (top[0] + half * r, cy + r)
        sh.paint(sh.poly(sh.blank(), [top, right, left]), (105, 105, 115))
        sh.paint(sh.poly(sh.blank(), [top, (top[0] + 0.05 * r, cy + r), left]), (160, 160, 170))
        snow = [top, (top[0] + half * r * 0.28, top[1] + 0.25 * r), (top[0] + 0.05 * r, top[1] + 0.18 * r),
                (top[0] - 0.1 * r, top[1] + 0.3 * r), (top[0] - half * r * 0.3, top[1] + 0.26 * r)]
        sh.paint(sh.poly(sh.blank(), snow), (250, 250, 252), bevel=0.3)
    for bx, by, br in ((-0.5, 0.75, 0.18), (0.1, 0.8, 0.22), (0.6, 0.7, 0.15)):
        rock = sh.ellipse(sh.blank(), (cx + bx * r, cy + by * r), (br * r, br * r * 0.6))
        sh.paint(rock, (80, 80, 90), bevel=0.6)


def _water(sh: Sheet, c, r: float) -> None:
    cx, cy = c
    _gradient(sh, (210, 160, 90), (120, 55, 20), cy - r, cy + r)
    for k in range(7):
        y = cy - r * 0.85 + k * r * 0.3
        for j in range(-4, 5):
            x = cx + j * r * 0.36 + (k % 2) * r * 0.18
            crest = sh.ellipse(sh.blank(), (x, y), (r * 0.17, r * 0.1), 0, (180, 360), 0.55)
            sh.paint(crest, (240, 215, 170))
            curl = spiral((x + r * 0.1, y - r * 0.02), r * 0.06, r * 0.015, 0.8, math.pi, -1, 16)
            sh.paint(sh.line(sh.blank(), curl, 0.35), (250, 245, 230))


SCENES = {"desert": _desert, "forest": _forest, "mountain": _mountain, "water": _water}


def terrain_scene(terrain: str, ppm: float, c, r: float) -> np.ndarray:
    """The picture inside a terrain hexagon, painted over a whole sheet (float BGR)."""
    if terrain != "any":
        sh = Sheet(ppm)
        SCENES[terrain](sh, c, r)
        return sh.img
    parts = [terrain_scene(t, ppm, c, r) for t in ("desert", "forest", "mountain", "water")]
    sh = Sheet(ppm)
    yy, xx = np.mgrid[0:sh.h, 0:sh.w].astype(np.float32) / ppm
    right, low = xx >= c[0], yy >= c[1]
    pick = (right.astype(int) + 2 * low.astype(int))[..., None]
    img = np.where(pick == 0, parts[0], np.where(pick == 1, parts[1], np.where(pick == 2, parts[2], parts[3])))
    sh.img = img.astype(np.float32)
    cross = sh.line(sh.blank(), [(c[0], c[1] - r), (c[0], c[1] + r)], 0.9)
    sh.line(cross, [(c[0] - r, c[1]), (c[0] + r, c[1])], 0.9)
    sh.gold(cross, "lacquer/any-cross")
    return sh.img


def sight_mask(sh: Sheet, sight: str, c, s: float) -> np.ndarray:
    """A sight pictogram about s mm tall, as a silhouette with cut-out details."""
    x, y = c
    m = sh.blank()
    if sight == "obelisk":
        sh.poly(m, [(x, y - s * 0.5), (x + s * 0.12, y - s * 0.36), (x + s * 0.17, y + s * 0.38),
                    (x - s * 0.17, y + s * 0.38), (x - s * 0.12, y - s * 0.36)])
        sh.poly(m, [(x - s * 0.3, y + s * 0.38), (x + s * 0.3, y + s * 0.38), (x + s * 0.3, y + s * 0.5),
                    (x - s * 0.3, y + s * 0.5)])
        for k in range(3):
            sh.line(m, [(x - s * 0.05, y - s * 0.15 + k * s * 0.15), (x + s * 0.05, y - s * 0.15 + k * s * 0.15)],
                    s * 0.04, value=0)
    elif sight == "book":
        for side in (-1, 1):
            sh.poly(m, [(x, y - s * 0.25), (x + side * s * 0.25, y - s * 0.38), (x + side * s * 0.5, y - s * 0.3),
                        (x + side * s * 0.5, y + s * 0.3), (x + side * s * 0.25, y + s * 0.22), (x, y + s * 0.34)])
            for k in range(3):
                yy = y - s * 0.15 + k * s * 0.13
                sh.line(m, [(x + side * s * 0.1, yy), (x + side * s * 0.4, yy - s * 0.03)], s * 0.035, value=0)
        sh.line(m, [(x, y - s * 0.25), (x, y + s * 0.34)], s * 0.04, value=0)
    elif sight == "toucan":
        sh.ellipse(m, (x - s * 0.12, y + s * 0.1), (s * 0.17, s * 0.3), 15)
        sh.circle(m, (x - s * 0.05, y - s * 0.22), s * 0.15)
        sh.poly(m, [(x + s * 0.05, y - s * 0.32), (x + s * 0.5, y - s * 0.22), (x + s * 0.45, y - s * 0.12),
                    (x + s * 0.05, y - s * 0.12)])
        sh.poly(m, [(x - s * 0.2, y + s * 0.3), (x - s * 0.1, y + s * 0.5), (x - s * 0.3, y + s * 0.5)])
        sh.circle(m, (x - s * 0.03, y - s * 0.24), s * 0.045, value=0)
        sh.line(m, [(x + s * 0.08, y - s * 0.2), (x + s * 0.42, y - s * 0.18)], s * 0.03, value=0)
    elif sight == "yeti":
        body = [(x + s * 0.28 * math.cos(a) * (1 + 0.12 * (k % 2)), y + s * 0.05 + s * 0.4 * math.sin(a)
                 * (1 + 0.1 * (k % 2))) for k, a in enumerate(np.linspace(0, 2 * math.pi, 24, endpoint=False))]
        sh.poly(m, body)
        for side in (-1, 1):
            sh.line(m, [(x + side * s * 0.22, y), (x + side * s * 0.45, y - s * 0.3)], s * 0.12)
            sh.line(m, [(x + side * s * 0.12, y + s * 0.35), (x + side * s * 0.15, y + s * 0.5)], s * 0.13)
            sh.circle(m, (x + side * s * 0.09, y - s * 0.17), s * 0.045, value=0)
        sh.line(m, [(x - s * 0.08, y - s * 0.04), (x + s * 0.08, y - s * 0.04)], s * 0.04, value=0)
    else:  # sea monster
        for k, hx in enumerate((-0.3, 0.0, 0.28)):
            sh.ellipse(m, (x + hx * s, y + s * 0.15), (s * 0.12, s * (0.2 - 0.04 * k)), 0, (180, 360), s * 0.1)
        sh.circle(m, (x - s * 0.42, y - s * 0.12), s * 0.12)
        sh.line(m, [(x - s * 0.42, y - s * 0.05), (x - s * 0.42, y + s * 0.18)], s * 0.1)
        sh.circle(m, (x - s * 0.45, y - s * 0.15), s * 0.035, value=0)
        wave = [(x + t * s, y + s * 0.22 + s * 0.05 * math.sin(t * 14)) for t in np.linspace(-0.5, 0.5, 20)]
        sh.line(m, wave, s * 0.06)
    return m


LANTERN_CENTRE = (31.5, 53.0)


def lantern(sh: Sheet) -> None:
    """The big gold lantern of the bonus cards, glowing, centred on LANTERN_CENTRE."""
    x, y = LANTERN_CENTRE
    halo = sh.circle(sh.blank(), (x, y + 2), 17.0)
    sh.paint(halo, (120, 200, 240), opacity=0.35, soften=5.0)
    body = [(x + 10.5 * math.sin(a), y + 2 + 13.5 * math.cos(a) * (1 - 0.08 * math.cos(a) ** 2))
            for a in np.linspace(0, 2 * math.pi, 48, endpoint=False)]
    pane = sh.poly(sh.blank(), body)
    glow = sh.alpha(sh.circle(sh.blank(), (x, y + 3), 9.0), 4.0)
    sh.paint(pane, np.asarray((60, 150, 235), np.float32) * 0.7)
    sh.img += np.asarray((120, 190, 230), np.float32) * (glow * sh.alpha(pane))[..., None]
    flame = [(x, y - 5), (x + 2.6, y + 1), (x + 1.8, y + 5), (x - 1.8, y + 5), (x - 2.6, y + 1)]
    sh.paint(sh.poly(sh.blank(), flame), (200, 245, 255), soften=0.5)
    frame = sh.line(sh.blank(), body, 1.4, closed=True)
    for k in (-2, -1, 0, 1, 2):
        f = math.sin(k * math.pi / 6)
        rib = [(x + f * 10.5 * math.sqrt(max(0.0, 1 - v * v)), y + 2 + 13.5 * v) for v in np.linspace(-0.97, 0.97, 24)]
        sh.line(frame, rib, 0.7)
    sh.poly(frame, [(x - 6.5, y - 10), (x + 6.5, y - 10), (x + 4.5, y - 14), (x - 4.5, y - 14)])
    sh.ellipse(frame, (x, y - 14), (4.5, 2.2), 0, (180, 360))
    sh.circle(frame, (x, y - 19.5), 2.6, 1.0)
    sh.line(frame, [(x, y - 16.8), (x, y - 16)], 1.0)
    sh.poly(frame, [(x - 6.5, y + 14), (x + 6.5, y + 14), (x + 4, y + 18), (x - 4, y + 18)])
    for k in (-2, 0, 2):
        sh.line(frame, [(x + k * 0.9, y + 18), (x + k * 1.4, y + 24)], 0.6)
    sh.circle(frame, (x, y + 18.5), 1.2)
    sh.gold(frame, "lacquer/lantern")


def vine(sh: Sheet, m: np.ndarray, path, amp: float, period: float, name: str) -> None:
    """A gold vine winding along a path: a wavy stem, leaves on alternate sides and small curls."""
    path = np.asarray(path, np.float64)
    seg = np.linalg.norm(np.diff(path, axis=0), axis=1)
    total = seg.sum()
    n = max(8, int(total / 0.6))
    s = np.linspace(0, total, n)
    cum = np.concatenate([[0], np.cumsum(seg)])
    px, py = np.interp(s, cum, path[:, 0]), np.interp(s, cum, path[:, 1])
    tx, ty = np.gradient(px), np.gradient(py)
    norm = np.hypot(tx, ty) + 1e-9
    nx, ny = -ty / norm, tx / norm
    off = amp * np.sin(s / period * 2 * math.pi)
    stem = np.stack([px + nx * off, py + ny * off], axis=1)
    sh.line(m, stem, 0.55)
    for k in range(int(total / period * 2)):
        i = min(n - 1, int((k + 0.25) * period / 2 / total * n))
        side = 1 if k % 2 else -1
        ang = math.atan2(ty[i], tx[i]) + side * 1.0
        sh.poly(m, leaf(stem[i], ang, amp * 1.6, amp * 0.7))
        if k % 3 == 1:
            curl = spiral((stem[i][0] - nx[i] * side * amp, stem[i][1] - ny[i] * side * amp),
                          amp * 0.6, amp * 0.1, 1.1, ang, side, 20)
            sh.line(m, curl, 0.35)


def scroll(sh: Sheet, m: np.ndarray, c, r: float, start: float, sign: int) -> None:
    """A corner scroll: a thick spiral ending in a leaf."""
    pts = spiral(c, r, r * 0.12, 1.6, start, sign, 50)
    sh.line(m, pts, max(0.45, r * 0.12))
    sh.poly(m, leaf(pts[0], start + sign * math.pi / 2 + math.pi, r * 1.1, r * 0.5))


def cartouche(sh: Sheet, box, rim_name: str) -> None:
    """A black lacquer panel with a gold rim and clipped corners."""
    x0, y0, x1, y1 = box
    k = min(x1 - x0, y1 - y0) * 0.22
    pts = [(x0 + k, y0), (x1 - k, y0), (x1, y0 + k), (x1, y1 - k), (x1 - k, y1), (x0 + k, y1),
           (x0, y1 - k), (x0, y0 + k)]
    sh.paint(sh.poly(sh.blank(), pts), BLACK, bevel=0.2)
    rim = sh.line(sh.blank(), pts, 0.6, closed=True)
    sh.gold(rim, rim_name)


def disc(sh: Sheet, c, r: float, digit: str, font: int) -> None:
    """A gold points disc with a dark numeral."""
    sh.gold(sh.circle(sh.blank(), c, r), "lacquer/disc")
    sh.paint(sh.circle(sh.blank(), c, r * 0.8, 0.25), (20, 80, 125), opacity=0.8)
    sh.paint(sh.text(sh.blank(), digit, (c[0], c[1]), r * 1.2, font, r * 0.26), BLACK)


def badge(sh: Sheet, c, number: int) -> None:
    """The small cream '#1'/'#2' badge, about 3 mm across."""
    sh.paint(sh.circle(sh.blank(), c, 1.7), CREAM, bevel=0.3)
    sh.paint(sh.text(sh.blank(), f"#{number}", c, 1.3, cv2.FONT_HERSHEY_SIMPLEX, 0.2), BLACK)
