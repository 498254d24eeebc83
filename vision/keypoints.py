"""Card outlines found by the deck's own art: keypoints matched to the references, a homography each.

The live cues look for a card's outline; a painted full-bleed card on strongly grained wood or
a busy mat may show none whole. Its art still shows: ORB keypoints of the frame matched to the
keypoints of every reference photo, and a RANSAC homography from a reference onto the frame,
put the reference's corners where the card lies, kept only where the frame has a card's edge:
a reference's art fitted over a card of other art (the built-in deck's desert over an owner's
woodcut desert) lands a few mm off the card's rim. Which card it is stays the reader's decision
(the outline is read like any other): near-twins share most of their keypoints (a shared frame,
a shared star), so the reference that placed the outline says nothing of the card's name.

Costly (ORB over the frame, every keypoint compared with a whole deck's: 100-500 ms on one shared
core here), so the reader asks only when no other search named a card, or for a lone terrain
card's partner.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.blobs import MIN_CARD_SHARE, card_shaped
from vision.features import CANON_H, CANON_W
from vision.sides import covered, edge_support, quad_area

REFERENCE_KEYPOINTS = 300  # per reference photo (126x176 px): a painted card has more, a flat one fewer
FRAME_KEYPOINTS = 1500  # per frame: enough that two small cards on grain keep 20+ each
FRAME_MAX_HEIGHT = 720  # px: a taller frame is shrunk first (a smallest card is still ~100 px tall)
ORB_LEVELS = 6  # pyramid levels at 1.2x each: a card 0.4-1.5x its reference's size
ORB_PATCH = 15  # px: small patches, as a reference card is only 126 px wide
MATCH_HAMMING = 50  # of 256 bits: a keypoint this near a reference keypoint is matched (noise: ~90+)
MIN_INLIERS = 12  # homography inliers for an outline: a true card 18+, chance alignments on grain 8-11
RANSAC_PX = 4.0  # frame px: reprojection error of an inlier
RANSAC_ITERATIONS = 500  # enough at a quarter of the matches inliers; bounds the cost on a busy frame
PLACED_SUPPORT = 0.7  # edge support an outline needs (vision.sides): the art placed over a card of other art
# (the built-in desert over a woodcut one) lands off its edges, 0.5; a true card's outline 0.72 and up
SAME_CARD_SHARE = 0.3  # two outlines, one this much inside the other, place one card (a card's part placed as a card)

_CANON_CORNERS = np.array([[[0, 0], [CANON_W, 0], [CANON_W, CANON_H], [0, CANON_H]]], np.float32)


def _orb(count: int) -> cv2.ORB:
    return cv2.ORB_create(nfeatures=count, nlevels=ORB_LEVELS, edgeThreshold=ORB_PATCH, patchSize=ORB_PATCH)


@dataclass(frozen=True, eq=False)
class KeypointIndex:
    """Every reference photo's keypoints, stacked: positions (canonical px), descriptors, owner."""

    points: np.ndarray  # float32 (n, 2)
    descriptors: np.ndarray  # uint8 (n, 32)
    owner: np.ndarray  # int (n,): the reference photo each keypoint was found on

    @classmethod
    def of(cls, images: tuple[np.ndarray, ...]) -> KeypointIndex:
        """The index of canonical BGR reference images."""
        orb = _orb(REFERENCE_KEYPOINTS)
        points, descriptors, owner = [], [], []
        for ref, image in enumerate(images):
            found, described = orb.detectAndCompute(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), None)
            if described is None:
                continue
            points.append(np.array([k.pt for k in found], np.float32))
            descriptors.append(described)
            owner.append(np.full(len(found), ref))
        if not points:
            return cls(np.zeros((0, 2), np.float32), np.zeros((0, 32), np.uint8), np.zeros(0, int))
        return cls(np.concatenate(points), np.concatenate(descriptors), np.concatenate(owner))

    def outlines(self, frame: np.ndarray, among: np.ndarray | None = None) -> list[np.ndarray]:
        """Card-shaped outlines (4x2 frame px) where a reference's art lies in a BGR frame, best placed
        first; among: which reference photos may place one (a bool per reference), all if None."""
        mine = np.ones(len(self.owner), bool) if among is None else np.asarray(among, bool)[self.owner]
        if not mine.any():
            return []
        scale = min(1.0, FRAME_MAX_HEIGHT / frame.shape[0])
        if scale < 1.0:
            frame = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        found, described = _orb(FRAME_KEYPOINTS).detectAndCompute(grey, None)
        if described is None:
            return []
        where = np.array([k.pt for k in found], np.float32)
        query, train = self._matched(described, np.flatnonzero(mine))
        placed = []
        refs, counts = np.unique(self.owner[train], return_counts=True)
        for ref in refs[counts >= MIN_INLIERS]:  # fewer matches cannot hold that many inliers
            its = self.owner[train] == ref
            got = _placed(self.points[train[its]], where[query[its]], grey.shape)
            if got is not None:
                placed.append(got)
        colour = cv2.cvtColor(frame, cv2.COLOR_BGR2YCrCb)
        on_edges = [(inliers, quad) for quad, inliers in placed if edge_support(colour, quad) >= PLACED_SUPPORT]
        return [quad / scale for quad in distinct(on_edges)]

    def _matched(self, described: np.ndarray, keypoints: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each frame descriptor's nearest of these reference keypoints within MATCH_HAMMING: (frame,
        reference keypoint) indices."""
        matches = cv2.BFMatcher(cv2.NORM_HAMMING).match(described, self.descriptors[keypoints])
        pairs = np.array([(m.queryIdx, m.trainIdx) for m in matches if m.distance <= MATCH_HAMMING], int).reshape(-1, 2)
        return pairs[:, 0], keypoints[pairs[:, 1]]


def _placed(ref_points: np.ndarray, frame_points: np.ndarray, shape: tuple[int, ...]) -> tuple[np.ndarray, int] | None:
    """The reference's corners carried onto the frame by a RANSAC homography, with its inlier count;
    None when too few agree or the outline is not a card's shape and size."""
    homography, inliers = cv2.findHomography(ref_points, frame_points, cv2.RANSAC, RANSAC_PX,
                                             maxIters=RANSAC_ITERATIONS)
    if homography is None or int(inliers.sum()) < MIN_INLIERS:
        return None
    quad = cv2.perspectiveTransform(_CANON_CORNERS, homography)[0].astype(np.float64)
    if not cv2.isContourConvex(quad.astype(np.float32)) or not card_shaped(quad):
        return None
    if quad_area(quad) < MIN_CARD_SHARE * shape[0] * shape[1] or not _inside(quad, shape):
        return None
    return quad, int(inliers.sum())


def _inside(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether a quad's centre lies in the frame (a card half out of view still has one)."""
    x, y = quad.mean(axis=0)
    return 0 <= x < shape[1] and 0 <= y < shape[0]


def distinct(placed: list[tuple[int, np.ndarray]]) -> list[np.ndarray]:
    """The outlines of (inliers, quad) pairs, most inliers first, each overlapping no better one (SAME_CARD_SHARE)."""
    kept: list[np.ndarray] = []
    for _, quad in sorted(placed, key=lambda p: -p[0]):
        if all(max(covered(quad, other), covered(other, quad)) <= SAME_CARD_SHARE for other in kept):
            kept.append(quad)
    return kept
