"""OpenCV's area shrink (cv2.resize, INTER_AREA), worked out over planes of pixels: the same bytes, quicker.

Shrunk by a factor that is no whole number (the scanner's 768x432 stream to detection's 640x360
work copy: 6 px to 5), cv2.resize runs a general loop over a table of weights, ~4 ms a frame on
one core. Its arithmetic is simple: each output pixel is a float32 sum of a few neighbouring
pixels along x, each times its weight, then a float32 sum of a few such row sums along y, each
times its weight, rounded to the nearest (ties to even). Where the weights repeat every few
pixels, the same float32 products and sums, in the same order, can be taken over whole planes of
the pixels of one phase (~1.6 ms). A plan is used only once it gave the very bytes cv2.resize
gives on a noise image of its size; any other shrink is left to cv2.resize.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

AREA_EPS = 1e-3  # OpenCV's: a source pixel covering less than this of an output pixel is left out
MAX_PERIOD = 16  # source px a pattern of weights may take to repeat: beyond it, too many small planes to gain
CHECK_SEED = 0x5A12  # fixed seed of the noise image a plan is checked on (any constant)


@dataclass(frozen=True)
class _Axis:
    """One axis of a shrink whose weights repeat: src source px make dst output px, and each output
    phase's taps (source phase, float32 weight), in the order OpenCV adds them."""

    src: int
    dst: int
    taps: tuple[tuple[tuple[int, np.float32], ...], ...]


def _area_taps(ssize: int, dsize: int) -> list[list[tuple[int, float]]]:
    """Each output pixel's (source pixel, weight) along one axis, as OpenCV's computeResizeAreaTab
    makes them (double arithmetic, its order)."""
    scale = 1.0 / (dsize / ssize)  # OpenCV keeps the inverse scale and inverts it
    taps: list[list[tuple[int, float]]] = []
    for dx in range(dsize):
        fsx1 = dx * scale
        fsx2 = fsx1 + scale
        cell = min(scale, ssize - fsx1)
        sx2 = min(math.floor(fsx2), ssize - 1)
        sx1 = min(math.ceil(fsx1), sx2)
        row = []
        if sx1 - fsx1 > AREA_EPS:
            row.append((sx1 - 1, (sx1 - fsx1) / cell))
        row += [(sx, 1.0 / cell) for sx in range(sx1, sx2)]
        if fsx2 - sx2 > AREA_EPS:
            row.append((sx2, min(min(fsx2 - sx2, 1.0), cell) / cell))
        taps.append(row)
    return taps


def _axis(ssize: int, dsize: int) -> _Axis | None:
    """The repeating pattern of an area shrink along one axis, or None when it does not repeat
    within MAX_PERIOD px inside whole periods."""
    if dsize >= ssize:
        return None
    g = math.gcd(ssize, dsize)
    src, dst = ssize // g, dsize // g
    if src > MAX_PERIOD:
        return None
    taps = _area_taps(ssize, dsize)
    phases = tuple(tuple((sx, np.float32(w)) for sx, w in taps[j]) for j in range(dst))
    for dx, row in enumerate(taps):
        base = src * (dx // dst)
        if tuple((sx - base, np.float32(w)) for sx, w in row) != phases[dx % dst]:
            return None
    if any(not 0 <= s < src for phase in phases for s, _ in phase):
        return None
    return _Axis(src, dst, phases)


def _weighted(planes: np.ndarray, out: np.ndarray, taps: tuple[tuple[int, np.float32], ...], spare: np.ndarray) -> None:
    """out = the taps' planes times their weights, summed in order (float32, as OpenCV does)."""
    for t, (s, w) in enumerate(taps):
        if t == 0:
            np.multiply(planes[s], w, out=out)
        else:
            np.multiply(planes[s], w, out=spare)
            out += spare


def _apply(frame: np.ndarray, ax: _Axis, ay: _Axis) -> np.ndarray:
    """An area shrink by repeating patterns along both axes (uint8, 1-4 channels)."""
    h, w = frame.shape[:2]
    c = frame.shape[2] if frame.ndim == 3 else 1
    blocks, bands = w // ax.src, h // ay.src
    # Source rows grouped by their phase, then each row's blocks of ax.src pixels seen as one matrix row
    # and transposed: one plane per row phase, column phase and channel, each a long run of float32.
    by_phase = np.ascontiguousarray(frame.reshape(bands, ay.src, w * c).transpose(1, 0, 2))
    planes = cv2.transpose(by_phase.reshape(h * blocks, ax.src * c)).astype(np.float32).reshape(ax.src, c, h * blocks)
    cols = np.empty((ax.dst, c, h * blocks), np.float32)
    spare = np.empty((c, h * blocks), np.float32)
    for j, taps in enumerate(ax.taps):
        _weighted(planes, cols[j], taps, spare)
    rows = cols.reshape(ax.dst * c, ay.src, bands * blocks).transpose(1, 0, 2)  # by source row phase
    sums = np.empty((ay.dst, ax.dst * c, bands * blocks), np.float32)
    spare = np.empty(rows.shape[1:], np.float32)
    for j, taps in enumerate(ay.taps):
        _weighted(rows, sums[j], taps, spare)
    # OpenCV's own float to uint8 (nearest, ties to even; every sum lies in 0..255), as resize rounds
    small = cv2.convertScaleAbs(sums.reshape(ay.dst * ax.dst * c, -1)).reshape(ay.dst, ax.dst * c, -1)
    slabs = np.empty((ay.dst, bands * blocks, ax.dst * c), np.uint8)  # each output row phase's pixels in order
    for j in range(ay.dst):
        cv2.transpose(small[j], dst=slabs[j])
    out = np.ascontiguousarray(slabs.reshape(ay.dst, bands, blocks * ax.dst * c).transpose(1, 0, 2))
    return out.reshape((bands * ay.dst, blocks * ax.dst) + ((c,) if frame.ndim == 3 else ()))


@cache
def _plan(shape: tuple[int, ...], size: tuple[int, int]) -> tuple[_Axis, _Axis] | None:
    """The repeating patterns of an area shrink of frames of this shape to size (w, h), or None
    when they do not repeat or the planes did not give cv2.resize's bytes on a noise image."""
    ax, ay = _axis(shape[1], size[0]), _axis(shape[0], size[1])
    if ax is None or ay is None or shape[1] % ax.src or shape[0] % ay.src:
        return None
    if ax.dst == ay.dst == 1:
        return None  # a whole number along both axes: OpenCV's own quick path, with its own (integer) sums
    noise = np.random.default_rng(CHECK_SEED).integers(0, 256, shape, dtype=np.uint8)
    same = np.array_equal(_apply(noise, ax, ay), cv2.resize(noise, size, interpolation=cv2.INTER_AREA))
    return (ax, ay) if same else None


def area_shrink(frame: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """cv2.resize(frame, size, interpolation=cv2.INTER_AREA) for a uint8 frame, byte for byte."""
    plan = _plan(frame.shape, size) if frame.dtype == np.uint8 and frame.ndim in (2, 3) else None
    if plan is None:
        return cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    return _apply(frame, *plan)
