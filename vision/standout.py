"""Whether a piece cut from a blob stands out from the table: its inside's mean colour against a
band just outside it, in spreads of the band's colour (a card on a table: several; a piece of the
table itself, a plank or a grid's cell cut out: about one or less), or in one channel alone, in
that channel's spread: a card of another hue on a veined stone differs little in lightness, which
the veins spread widely, and much in hue, which they do not. Seen styles on birch, marble and light
wood (2546 photos read whole, with blobs' spurs cut at their own size too: blobs.without_spurs):
2435 -> 2445 right, the same 5 named wrong.

The measure was first taken in float32 over colour units with numpy's mean and variance, which add
a piece's pixels one at a time (~2 ms a piece). It is now taken in double from the pixels' own
levels (cv2.meanStdDev, ~0.3 ms), and the float32 measure decides only near the bar. Away from it
both fall on the same side: with every pixel's level sum exact in float32 (the pieces are small
enough, PX_EXACT), numpy's float32 measure differs from the exact one by about n * 2^-24 relative
at most (n pixels: 0.16% for the largest piece allowed here), far inside SURE.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.sides import CHROMA_GAIN, colour_units, quad_area

RING = 0.15  # width of the inside's margin and of the outside band, as a share of the piece's size
MIN_PX = 5  # pixels each side needs for a mean colour
SURE = 0.01  # relative distance from the bar beyond which the double measure decides (see above)
PX_EXACT = 26_000  # pixels whose levels float32 adds exactly, one at a time: every partial sum of
# lightness (integers to 255) stays under 2^24 and of scaled chroma (halves to 320) under 2^23
_GAIN = np.array([1.0, CHROMA_GAIN, CHROMA_GAIN])  # colour units per level, each channel
_DILATE = np.ones((3, 3), np.uint8)


def stands_out(colour_u8: np.ndarray, quad: np.ndarray, bar: float, partners: tuple[np.ndarray, ...] = ()) -> bool:
    """Whether a quad's inside differs in mean colour from a band just outside it by at least bar
    spreads of the band's colour: all channels together, or one alone in its own spread (a pale
    green card on light marble: the veins spread the stone's lightness, not its hue). The band
    leaves out partners, the other cards read from the same blob: a red card's band that ran over
    its red partner spread widely and hid it."""
    roi, core, band = _regions(colour_u8, quad, partners)
    sizes = cv2.countNonZero(core), cv2.countNonZero(band)
    if min(sizes) < MIN_PX:
        return bar <= 0.0  # too few pixels: measured as 0, as before
    inner, _ = cv2.meanStdDev(roi, mask=core)
    outer, spread = cv2.meanStdDev(roi, mask=band)
    if _by_channel(inner, outer, spread) >= bar:
        return True
    quick = float(np.linalg.norm(_GAIN * (inner - outer).ravel()) / (np.linalg.norm(_GAIN * spread.ravel()) + 1.0))
    if max(sizes) <= PX_EXACT and abs(quick - bar) > SURE * bar:
        return quick >= bar
    return _float32_measure(roi, core, band) >= bar


def _by_channel(inner: np.ndarray, outer: np.ndarray, spread: np.ndarray) -> float:
    """The largest difference of one channel's means (inside, band) in that channel's spreads of the band."""
    return float(np.max(np.abs(_GAIN * (inner - outer).ravel()) / (_GAIN * spread.ravel() + 1.0)))


def _regions(colour_u8: np.ndarray, quad: np.ndarray,
             partners: tuple[np.ndarray, ...] = ()) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The work copy's box around a quad and a band around it (less the partners' insides), with
    masks of the quad's inside less a margin and of that band."""
    reach = max(3, round(RING * np.sqrt(quad_area(quad)))) | 1
    h, w = colour_u8.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int) - reach, 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + reach + 1, (w, h))
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(inside, np.round(quad - (x0, y0)).astype(np.int32), 255)
    kernel = np.ones((reach, reach), np.uint8)
    core = cv2.erode(inside, kernel)
    band = cv2.dilate(inside, kernel) & ~cv2.dilate(inside, _DILATE)
    for other in partners:
        beside = np.zeros_like(inside)
        cv2.fillConvexPoly(beside, np.round(other - (x0, y0)).astype(np.int32), 255)
        band &= ~cv2.dilate(beside, _DILATE)
    return colour_u8[y0:y1, x0:x1], core, band


def _float32_measure(roi: np.ndarray, core: np.ndarray, band: np.ndarray) -> float:
    """The measure in float32 over colour units, numpy's mean and variance."""
    units = colour_units(roi)
    a, b = units[core > 0], units[band > 0]
    return float(np.linalg.norm(a.mean(axis=0) - b.mean(axis=0)) / (np.sqrt(b.var(axis=0).sum()) + 1.0))
