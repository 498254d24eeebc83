"""Near twins told apart by a linear discriminant learnt from their photos degraded as a camera
degrades a card: shrunk to the card's resolution, shaken by motion, a pixel or two off the template.

regions.Regions compares a card with each twin's mean photo where the pair differs; every pixel there
counts alike and on its own. A small or blurred card does not differ from its twin alike at every
pixel: a millimetre's shift or a motion streak moves whole strokes together. Here each family's
photos are degraded many times over (fixed draws, so a deck reads the same every time), and the
degradations' spread about each twin, pixels together (a covariance, not a variance per pixel), says
which differences survive at this resolution. A card's lead toward twin a from twin b is its
position along Fisher's direction between them: 1 at a's mean, -1 at b's, 0 halfway. Learnt on first
use at each resolution step a card is read at (0.2-1 s a family on this machine; steps of STEP), or
ahead of it by a warm-up (vision.deck.Deck.warm: the scanner's, in the background, once a deck loads).

Measured on seen styles (lacquer, chalk, gilded, inkwash; blue and set-up cards read on their true
outlines, 320 per family and seed, seeds 20261160 and 20261151), 1280 photos: the regions alone read
983 right and named 26 wrong; with this discriminant's lead and the regions' averaged, 1071 right and
18 wrong; averaged only where both lean toward the same twin, else the smaller (twins.Layouts.beats),
1047 and 8. This alone led worse than the mean (blue 246 right, 14 wrong, of 320); one variance per
pixel instead of the covariance named 28 wrong.

Each twin's mean is pooled where twins show the same thing (vision.pooling, as regions.Regions pools
them): over a letter both show, a twin is the mean of every photo showing that letter, so one
card's blurrier or brighter photos there do not set it apart from its twin. Unpooled, a large sharp
lacquer blue-A1 led toward blue-A2 by its letters "A-A" (-0.63 of a lead from them, +0.27 from its
digit). Seen styles' blue and set-up cards on their true outlines (lacquer, chalk, gilded, inkwash,
seeds 20261160 and 20261151, 1280 photos): 1122 right, 17 wrong unpooled; pooled 1124 and 9 (read
whole: 1125, 14 -> 1131, 11). Compared only inside each pair's own region, 1107 and 15: the pixels
outside it carry the shifts and streaks the degraded copies share.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from vision.features import CANON_H, CANON_W, at_resolution, glyph_vector
from vision.pooling import Pooling

DRAWS = 30  # degraded copies of each photo: the spread of 2 photos x 30 about each twin
KEEP = 150  # principal directions the discriminant works in (a blue family's 600 copies): 40 named nearly twice as many wrong
SHRINK = 0.01  # share of the degradations' covariance replaced by its mean variance (blue, 320: 0.3 251 right, 0.1 251, 0.03 259, 0.01 263, 0.001 261)
JITTER = 1.5  # canonical px (0.75 mm): how far an aligned card may lie off its template (0.75 read the same)
TURN = 0.7  # degrees an aligned card may lie turned off its template
SCALE = 0.01  # share an aligned card may lie larger or smaller than its template
RESOLUTION_SPREAD = 0.15  # a look stands for resolutions this share (log) either side: its step and the card's size
MOTION_SHARE = 0.3  # share of the copies streaked by motion: with none, blue read 247 right, not 256 (at SHRINK 0.1)
MOTION_PX = (1.0, 8.0)  # frame px a streak runs: a card laid down or a camera nudged streaks a frame up to ~8 px (the
# benchmark's photos 2-8 px). 1-3 px: seen styles' blue and set-up cards on true outlines 1124 right, 9 wrong of 1280;
# 1-6 px 1130, 9; 1-8 px 1131, 8 (read whole 1131, 11 -> 1136, 8; painted and flat 637 of 640 with each)
MIN_RESOLUTION = 0.2  # frame px per canonical px below which a streak is drawn as at this (a card 35 px tall)
SEED = 20261127  # the fixed draws' seed: a deck's discriminant is the same on every load
CARD_SHARES = (0.15, 0.45)  # card heights (share of the frame's) a camera over the mat shows: what a warm-up learns for
STEP = 1.25  # resolutions within this factor share one discriminant (its copies spread RESOLUTION_SPREAD, 1.16x, either
# way): cards 15-45% of a 480-720 px frame's height (0.4-1.8 frame px per canonical px) fall in 5 steps, each learnt once


@dataclass(frozen=True, eq=False)
class Discriminant:
    """The twins of a family as a linear discriminant over the glyph pixels where pairs differ,
    learnt (on first use) from its photos degraded to one resolution."""

    photos: tuple[np.ndarray, ...]  # canonical card images aligned onto the family's template
    owner: np.ndarray  # the card row (0..cards-1) each photo shows
    cards: int  # twins in the family
    pixels: np.ndarray  # glyph-layout indices compared (regions.Regions.pixels)
    resolution: float  # frame px per canonical px the photos are degraded to (1: sharp)
    pooling: Pooling  # over the compared pixels: which twins' photos stand for each twin (regions.Regions.pooling)

    @cached_property
    def _fit(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(centre, basis, directions, mids, spans): the degraded photos' mean, the principal
        directions, and for each pair (a < b) Fisher's direction, its value halfway and half its span."""
        rng = np.random.default_rng((SEED, round(1000 * self.resolution)))
        grey = [(cv2.cvtColor(p, cv2.COLOR_BGR2GRAY) if p.ndim == 3 else p).astype(np.float32) for p in self.photos]
        rows = np.array([self._row(degraded(g, self.resolution, rng)) for g in grey for _ in range(DRAWS)])
        label = np.repeat(self.owner, DRAWS)
        centre = rows.mean(axis=0)
        basis = _principal(rows - centre, KEEP)
        z = (rows - centre) @ basis.T
        means = (self.pooling.means(rows, label, np.arange(self.cards))[0] - centre) @ basis.T
        spread = z - means[label]
        cov = spread.T @ spread / max(len(z) - self.cards, 1)
        cov = (1 - SHRINK) * cov + SHRINK * np.trace(cov) / len(cov) * np.eye(len(cov))
        a, b = np.triu_indices(self.cards, 1)
        directions = np.linalg.solve(cov, (means[a] - means[b]).T).T
        mids = np.einsum("pk,pk->p", directions, (means[a] + means[b]) / 2)
        spans = np.einsum("pk,pk->p", directions, (means[a] - means[b]) / 2)
        return (centre.astype(np.float32), basis.astype(np.float32), directions.astype(np.float32),
                mids.astype(np.float32), np.maximum(spans, 1e-9).astype(np.float32))

    @property
    def learnt(self) -> bool:
        """Whether it has been learnt (by a warm-up or by the first card read with it)."""
        return "_fit" in self.__dict__

    def learn(self) -> Discriminant:
        """Learn it now (once; later calls return at once), not on the first card read with it."""
        self._fit  # noqa: B018  (the cached fit is the point)
        return self

    def _row(self, glyph_image: np.ndarray) -> np.ndarray:
        """A canonical image's glyph layout over the compared pixels: zero mean, unit norm there."""
        return _unit(glyph_vector(glyph_image)[self.pixels])

    def beats(self, glyph: np.ndarray) -> np.ndarray:
        """(cards, cards): how far a card's glyph layout (features.glyph_vector) lies toward twin a
        from twin b along their discriminant: 1 at a, -1 at b."""
        out = np.zeros((self.cards, self.cards), np.float32)
        if self.cards < 2:
            return out
        centre, basis, directions, mids, spans = self._fit
        z = basis @ (_unit(glyph[self.pixels]) - centre)
        lead = (directions @ z - mids) / spans
        a, b = np.triu_indices(self.cards, 1)
        out[a, b], out[b, a] = lead, -lead
        return out


def degraded(grey: np.ndarray, resolution: float, rng: np.random.Generator) -> np.ndarray:
    """A grey canonical card image as a camera might show it at about this resolution: a little off
    its template, blurred to a resolution near it, and now and then streaked by motion."""
    turn, scale = np.deg2rad(rng.uniform(-TURN, TURN)), np.exp(rng.uniform(-SCALE, SCALE))
    shift = rng.uniform(-JITTER, JITTER, 2)
    warp = cv2.getRotationMatrix2D((CANON_W / 2, CANON_H / 2), np.rad2deg(turn), scale)
    warp[:, 2] += shift
    out = cv2.warpAffine(grey, warp, (CANON_W, CANON_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    seen = resolution * np.exp(rng.uniform(-RESOLUTION_SPREAD, RESOLUTION_SPREAD))
    if seen < 1.0:
        out = at_resolution(out, seen)
    if rng.random() < MOTION_SHARE:
        out = cv2.filter2D(out, -1, streak(rng.uniform(*MOTION_PX) / max(seen, MIN_RESOLUTION), rng.uniform(0, np.pi)),
                           borderType=cv2.BORDER_REPLICATE)
    return out


def streak(length: float, angle: float) -> np.ndarray:
    """A motion-blur kernel: a line this many px long at this angle (radians), summing to 1."""
    half = int(np.ceil(length / 2))
    kernel = np.zeros((2 * half + 1, 2 * half + 1), np.float32)
    dx, dy = length / 2 * np.cos(angle), length / 2 * np.sin(angle)
    cv2.line(kernel, (round(half - dx), round(half - dy)), (round(half + dx), round(half + dy)), 1.0, 1)
    return kernel / kernel.sum()


def resolution_step(resolution: float) -> int:
    """The step (a whole number, 0 at most) of the resolutions that share one discriminant with this one.

    Cards at or above their canonical size share step 0: they show every pixel the template has, and
    learning larger steps apart read the same (seen styles' blue and set-up cards on true outlines,
    1280 photos: 1048 right and 8 wrong with one step, 1047 and 8 with each) at a third more learning."""
    return min(round(np.log(max(resolution, MIN_RESOLUTION / 2)) / np.log(STEP)), 0)


def step_resolution(step: int) -> float:
    """The resolution a step's discriminant is learnt at."""
    return float(STEP**step)


def warm_resolutions(frame_height: int) -> list[float]:
    """The resolutions of the steps cards CARD_SHARES of a frame this tall are read at, the middle
    size (the commonest at a table) first."""
    lo, hi, middle = (resolution_step(share * frame_height / CANON_H) for share in (*CARD_SHARES, np.mean(CARD_SHARES)))
    return [step_resolution(s) for s in sorted(range(lo, hi + 1), key=lambda s: (abs(s - middle), s))]


def learn_at(photos: Sequence[np.ndarray], owner: np.ndarray, cards: np.ndarray, pixels: np.ndarray,
             resolution: float, pooling: Pooling) -> Discriminant:
    """A family's discriminant at one resolution (learnt when first asked): photos aligned onto its
    template, the card index each shows (owner), its twins' card indices (cards), the pixels compared and
    how twins pool their photos over the glyph layout's marks (regions.Regions.pooling)."""
    rows = {int(c): i for i, c in enumerate(cards)}
    return Discriminant(tuple(photos), np.array([rows[int(o)] for o in owner]), len(cards), pixels, resolution,
                        Pooling(pooling.marks[pixels], pooling.groups))


def _principal(centred: np.ndarray, keep: int) -> np.ndarray:
    """(keep, columns): the leading principal directions of some centred rows, unit norm, from the
    eigenvectors of the smaller of their Gram and covariance matrices (a set-up family's 780 copies of
    2368 pixels: 0.2 s, against 1.1 s for a full SVD)."""
    if len(centred) >= centred.shape[1]:
        values, vectors = np.linalg.eigh(centred.T @ centred)
        return vectors[:, ::-1][:, :keep].T
    values, vectors = np.linalg.eigh(centred @ centred.T)
    order = np.argsort(values)[::-1][:keep]
    order = order[values[order] > values[order[0]] * 1e-12]
    return (vectors[:, order].T @ centred) / np.sqrt(values[order])[:, None]


def _unit(v: np.ndarray) -> np.ndarray:
    """A vector at zero mean and unit norm."""
    v = v - v.mean()
    return v / max(float(np.linalg.norm(v)), 1e-9)
