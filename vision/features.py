"""Warp a card flat and describe it: small vectors that survive light, blur, noise and JPEG.

A card is warped to a canonical portrait image (2 px per mm). Its description has three parts,
each a flat vector: a coarse grey layout (zero mean, unit norm: brightness and contrast drop
out), a coarse chromaticity grid (intensity drops out, colour stays) and a finer grey layout for
telling near-identical cards apart (the set-up cards differ only in their letters). Turning a
card 180° reverses each grid, so the upside-down description is the same vectors reversed.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.sides import following, side_lengths

CANON_W, CANON_H = 126, 176  # canonical card image, px: 63x88 mm at 2 px/mm
INNER_MARGIN = 0.05  # share of each side cropped away: rounded corners and a slightly-off outline
COARSE_GRID = (24, 34)  # (w, h) grey cells: big glyphs and layout, robust to blur
CHROMA_GRID = (8, 11)  # (w, h) colour cells: what colour each part of the card is
FINE_GRID = (60, 84)  # (w, h) grey cells: letters on the set-up and blue bonus cards
COARSE_BLUR = 0.8  # cells; smooths aliasing and small misplacements of the outline
COARSE_SURROUND = 6.0  # cells (a quarter of the card's width): light changing slower than this (glare, a lamp's fall-off) is dropped
FINE_BLUR = 1.0  # cells; a letter stroke is about two cells wide at this grid
FINE_SURROUND = 5.0  # cells; detail finer than this is kept: letters, not light falling off
GLYPH_BLUR = 0.7  # canonical px (0.35 mm): JPEG blocks and sensor noise go, a 2.6 mm badge's "1" or "2" stays
GLYPH_SURROUND = 6.0  # canonical px (3 mm): light changing slower than this (glare, a lamp) is dropped
MID_GRID = (30, 42)  # (w, h) grey cells: shapes a few mm across, where painted texture has averaged out
MID_BLUR = 1.0  # cells
MID_SURROUND = 4.0  # cells; detail finer than this is kept, light falling off is not
SHARPNESS_EPS = 1.0  # grey levels added to a card's spread: a blank card has no detail, not infinite detail
ALIGN_SIZE = (63, 88)  # (w, h) px: 1 px per mm is enough to lock onto a card's layout
ALIGN_CRITERIA = (3, 10, 1e-3)  # ECC stops after 10 steps or when a step moves < 1e-3 (COUNT|EPS)
REFERENCE_ALIGN_CRITERIA = (3, 60, 1e-4)  # a deck's references are aligned once per deck: worth converging fully
COARSE_ALIGN_BLUR = 5  # px (5 mm at ALIGN_SIZE): an enrolled photo taken by an outline a few mm off (the
# inner gold line, a strip of table) aligns closer when fine detail is blurred away first (300 inkwash photos: blue
# and set-up read wrong 17 -> 14 of 170, right 115 -> 126); the photos twins.in_line drops stayed the same
LOOK_BLUR = 0.5  # frame px: a pixel's box (sigma 0.29 px) and the bilinear enlargement back to canonical size
# (sigma 0.41 px) blur a card seen small by about half a frame pixel
CHROMA_EPS = 30.0  # grey levels added to the intensity so dark, noisy cells carry little colour


@dataclass(frozen=True, eq=False)
class Descriptor:
    """The three feature vectors of one warped card, in its upright orientation."""

    coarse: np.ndarray  # float32, COARSE_GRID cells, zero mean, unit norm
    chroma: np.ndarray  # float32, 2 x CHROMA_GRID cells, opponent chromaticity
    fine: np.ndarray | None  # float32, FINE_GRID cells, zero mean, unit norm (None: not described)

    def turned(self) -> Descriptor:
        """The description of the same card turned 180°."""
        n = self.chroma.size // 2
        chroma = np.concatenate([self.chroma[:n][::-1], self.chroma[n:][::-1]])
        return Descriptor(self.coarse[::-1].copy(), chroma, None if self.fine is None else self.fine[::-1].copy())

    def asymmetry(self) -> np.ndarray:
        """What changes when the card is turned 180° (text, a marker at the top), zero if symmetric.

        Its dot product with another card's asymmetry says whether the two lie the same way round
        even when most of their layout (a ring of letters) looks the same both ways.
        """
        turned = self.turned()
        return np.concatenate([self.coarse - turned.coarse, self.chroma - turned.chroma])


def order_corners(corners: np.ndarray) -> np.ndarray:
    """Order 4 corners clockwise (in image coordinates) starting so the first edge is a short side."""
    pts = np.asarray(corners, np.float64).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # y points down, so increasing angle runs clockwise on screen
    sides = side_lengths(pts)
    if sides[0] + sides[2] > sides[1] + sides[3]:
        pts = following(pts)
    return pts


def warp_card(frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """Warp the card with these corners (first edge short) to the canonical portrait image."""
    dst = np.array([[0, 0], [CANON_W, 0], [CANON_W, CANON_H], [0, CANON_H]], np.float32)
    homography = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
    return cv2.warpPerspective(frame, homography, (CANON_W, CANON_H), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def canonical(image: np.ndarray) -> np.ndarray:
    """Resize any portrait card image (BGR or grey) to the canonical BGR size."""
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[0] < image.shape[1]:
        image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    return cv2.resize(image, (CANON_W, CANON_H), interpolation=cv2.INTER_AREA)


def _unit(v: np.ndarray) -> np.ndarray:
    v = v.ravel().astype(np.float32)
    v = v - v.mean()
    return v / max(float(np.linalg.norm(v)), 1e-6)


def _margins() -> tuple[int, int]:
    """(x, y) canonical px cropped from each side: INNER_MARGIN of the card's width and height."""
    return round(CANON_W * INNER_MARGIN), round(CANON_H * INNER_MARGIN)


def _inner(card: np.ndarray) -> np.ndarray:
    mx, my = _margins()
    return card[my:CANON_H - my, mx:CANON_W - mx]


def _band_pass(grey: np.ndarray, grid: tuple[int, int], blur: float, surround: float) -> np.ndarray:
    """A grey image shrunk to grid cells, keeping detail between blur and surround cells across."""
    small = cv2.resize(grey.astype(np.float32), grid, interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (0, 0), blur) - cv2.GaussianBlur(small, (0, 0), surround)


def _inner_grey(card: np.ndarray) -> np.ndarray:
    inner = _inner(card)
    return inner if inner.ndim == 2 else cv2.cvtColor(inner, cv2.COLOR_BGR2GRAY)


def fine_vector(card: np.ndarray) -> np.ndarray:
    """The fine grey layout of a canonical card image (BGR or grey), zero mean, unit norm."""
    return _unit(_band_pass(_inner_grey(card), FINE_GRID, FINE_BLUR, FINE_SURROUND))


def glyph_shape() -> tuple[int, int]:
    """(h, w) of a glyph layout: the card's inner area at canonical px."""
    mx, my = _margins()
    return CANON_H - 2 * my, CANON_W - 2 * mx


def glyph_vector(card: np.ndarray) -> np.ndarray:
    """The grey layout of a canonical card image at its own pixels (0.5 mm), zero mean, unit norm:
    a points digit or a "#1"/"#2" badge a few millimetres across, which the fine grid blurs away."""
    h, w = glyph_shape()
    return _unit(_band_pass(_inner_grey(card), (w, h), GLYPH_BLUR, GLYPH_SURROUND))


def mid_vector(card: np.ndarray) -> np.ndarray:
    """The mid-scale grey layout of a canonical card image (BGR or grey), zero mean, unit norm.

    Painted cards (waves, rock, foliage) have fine texture that no two photos share exactly, so
    their fine layouts hardly correlate; at a few millimetres the painting is the same in both.
    """
    return _unit(_band_pass(_inner_grey(card), MID_GRID, MID_BLUR, MID_SURROUND))


def sharpness(card: np.ndarray) -> float:
    """How much fine detail a canonical card image (BGR or grey) holds: the mean size of its grey
    inner area's Laplacian over the area's spread (blur lowers it, light and contrast do not)."""
    grey = _inner_grey(card).astype(np.float32)
    return float(np.abs(cv2.Laplacian(grey, cv2.CV_32F)).mean() / (grey.std() + SHARPNESS_EPS))


def describe(card: np.ndarray, fine: bool = True) -> Descriptor:
    """Describe a canonical BGR card image (fine=False: all but the fine layout, which a photo being
    matched never needs: its detail is measured once it is aligned)."""
    inner = _inner(card)
    coarse = _band_pass(_inner_grey(card), COARSE_GRID, COARSE_BLUR, COARSE_SURROUND)
    small = cv2.resize(inner, CHROMA_GRID, interpolation=cv2.INTER_AREA).astype(np.float32)
    b, g, r = small[..., 0], small[..., 1], small[..., 2]
    total = b + g + r + CHROMA_EPS
    chroma = np.concatenate([((r - g) / total).ravel(), ((r + g - 2 * b) / total).ravel()])
    return Descriptor(_unit(coarse), chroma.astype(np.float32), fine_vector(card) if fine else None)


def at_resolution(card: np.ndarray, resolution: float) -> np.ndarray:
    """A canonical card image as a camera sees it at this resolution (frame px per canonical px,
    below 1): blurred by a Gaussian as wide as the frame's pixels, as the lens, the sensor and the
    enlargement to canonical size blur a small card. A Gaussian, not the pixel grid itself: a focus
    or motion blur is no grid, and shrunk to a grid and enlarged back, a blurred "B" and "D" were
    boxes of different shapes that a round blob fitted one of (seen styles, 1434 twin photos matched
    on their true outlines with a lead of 0.25 or more: wrong 53 -> 43, right 1153 -> 1177)."""
    return cv2.GaussianBlur(card, (0, 0), LOOK_BLUR / max(resolution, 1e-3))


def resolution(corners: np.ndarray) -> float:
    """Frame px per canonical px of a card with these corners: its longest side over the canonical height."""
    pts = np.asarray(corners, np.float64).reshape(4, 2)
    return float(side_lengths(pts).max()) / CANON_H


def align_image(card: np.ndarray) -> np.ndarray:
    """The float32 grey ALIGN_SIZE image used to align a card to its family's template."""
    grey = card if card.ndim == 2 else cv2.cvtColor(card, cv2.COLOR_BGR2GRAY)
    return cv2.resize(grey, ALIGN_SIZE, interpolation=cv2.INTER_AREA).astype(np.float32)


def inner_part(grey: np.ndarray) -> np.ndarray:
    """An align_image (or a template) without INNER_MARGIN of each side: the area twins are compared
    over, free of the rim an outline taken a little inside or outside the card shows or cuts off."""
    h, w = grey.shape[:2]
    my, mx = round(h * INNER_MARGIN), round(w * INNER_MARGIN)
    return grey[my:h - my, mx:w - mx]


def align_to(card: np.ndarray, template: np.ndarray, criteria: tuple = ALIGN_CRITERIA,
             motion: int = cv2.MOTION_AFFINE, coarse: bool = False) -> np.ndarray:
    """Warp a canonical card image (ECC, affine or homography) so it lies exactly over a template;
    as is if ECC fails. coarse: settle first on both blurred by COARSE_ALIGN_BLUR (a wider basin)."""
    identity = np.eye(3 if motion == cv2.MOTION_HOMOGRAPHY else 2, 3, dtype=np.float32)
    grey, warp = align_image(card), identity
    if coarse:
        try:
            _, warp = cv2.findTransformECC(template, grey, identity.copy(), motion, criteria, None, COARSE_ALIGN_BLUR)
        except cv2.error:  # no coarse fit: the fine pass starts from the outline's own warp
            warp = identity
    try:
        _, warp = cv2.findTransformECC(template, grey, warp, motion, criteria, None, 1)
    except cv2.error:  # did not converge: keep the outline's own warp
        return card
    scale = CANON_W / ALIGN_SIZE[0]
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    if motion == cv2.MOTION_HOMOGRAPHY:
        to_canon = np.diag([scale, scale, 1.0]).astype(np.float32)
        warp = to_canon @ warp @ np.linalg.inv(to_canon)
        return cv2.warpPerspective(card, warp, (CANON_W, CANON_H), flags=flags, borderMode=cv2.BORDER_REPLICATE)
    warp[:, 2] *= scale
    return cv2.warpAffine(card, warp, (CANON_W, CANON_H), flags=flags, borderMode=cv2.BORDER_REPLICATE)
