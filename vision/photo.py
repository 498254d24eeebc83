"""A photo camera over a table: cards laid in millimetres on a table top, seen through a tilted
pinhole camera with a lamp, glare, defocus, motion, white balance, sensor noise and JPEG.

Unlike vision.simulator (cards pasted on a flat frame for the live virtual table), this camera
works in the table's own millimetres: the table's texture, the cards and their soft contact
shadows are all seen in one perspective, so a 20 degree tilt foreshortens the hexagons of a mat
as it does the cards. take_photo() returns the image with the truth: where each card's corners
fall in the frame, its height as a share of the frame, the table and the conditions drawn.
Everything random comes from the generator passed in.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.optics import Optics, draw_optics, expose
from vision.props import as_generator, hand_polygons, skin_colour
from vision.render import CARD_H_MM
from vision.tables import GLOSS, TableTop, render_top

CORNER_RADIUS_MM = 3.0  # rounded corners as on printed cards
EDGE_MARGIN_PX = 8  # cards lie this far inside the frame, so every outline closes in view
MIN_GAP_MM = 6.0  # two cards not laid as a pair lie at least a finger apart
LAYOUT_TRIES = 60  # placements tried per camera before drawing another camera
CAMERA_TRIES = 30
PREFILTER = 1.5  # a face is shrunk to at most this many of its pixels per frame pixel before warping
TEXTURE_OVERSAMPLE = 1.1  # table texture pixels per frame pixel where the table is nearest
MAX_TEXTURE_PX = 1_200_000  # cap on the table patch, so a steep tilt does not draw a football field
CARD_GLOSS = 0.9  # printed cards reflect a lamp more than most tables
SIDE_BY_SIDE = 0.8  # share of pairs laid along their long edges, as the Mayor reveals them


@dataclass(frozen=True)
class PhotoConditions:
    """Ranges a photo is drawn from; the defaults are issue 9's test photos."""

    frames: tuple[tuple[int, int], ...] = ((1280, 720), (640, 480))
    card_height: tuple[float, float] = (0.15, 0.45)  # a card's long side, share of the frame height
    tilt_deg: tuple[float, float] = (0.0, 20.0)
    fov_deg: tuple[float, float] = (50.0, 75.0)  # horizontal field of view
    upright_deg: float | None = None  # cards within this of upright in the frame; None: any turn
    gap: tuple[float, float] = (0.1, 0.6)  # a pair's spacing, in card widths
    touching: float = 0.3  # chance a pair's cards touch
    tops: tuple[TableTop, ...] = tuple(TableTop)
    optics: Optics = Optics()


ENROLL_CONDITIONS = PhotoConditions(card_height=(0.30, 0.45), tilt_deg=(0.0, 4.0), upright_deg=8.0,
                                    optics=Optics.clear())


@dataclass(frozen=True, eq=False)
class Thing:
    """Something laid on the table: its face image, the card ID to read (None: never name it) and
    what it is for the truth file (the card ID, 'back-terrain', 'foreign-hearts7', ...)."""

    face: np.ndarray
    label: str | None
    name: str


@dataclass(frozen=True, eq=False)
class Seen:
    """Where a thing lies in the photo: corners (face's top-left, top-right, bottom-right,
    bottom-left, frame pixels) and its height as a share of the frame height."""

    thing: Thing
    corners: np.ndarray
    height: float


@dataclass(frozen=True, eq=False)
class Photo:
    """A photo and the truth about it."""

    image: np.ndarray  # the decoded JPEG
    jpeg: bytes  # the JPEG as the camera wrote it (save this: re-encoding would compress twice)
    seen: tuple[Seen, ...]
    top: TableTop
    tilt: float
    optics: dict
    hand: bool

    @property
    def labels(self) -> list[str | None]:
        """The card ID (or None) of each thing in the photo."""
        return [s.thing.label for s in self.seen]

    def truth(self, kind: str) -> dict:
        """The photo's entry in a truth.json (vision-dev format)."""
        h, w = self.image.shape[:2]
        return {"kind": kind, "cards": [{"name": s.thing.name, "corners": np.round(s.corners, 1).tolist(),
                                         "height": round(s.height, 3)} for s in self.seen],
                "frame": [w, h], "bg": self.top.value, "tilt": round(self.tilt, 1), **self.optics}


@dataclass(frozen=True)
class _Camera:
    size: tuple[int, int]
    homography: np.ndarray  # table mm -> frame pixels
    tilt: float

    def project(self, pts: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), self.homography).reshape(-1, 2)

    def unproject(self, pts: np.ndarray) -> np.ndarray:
        inv = np.linalg.inv(self.homography)
        return cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), inv).reshape(-1, 2)

    def scale_at(self, p: np.ndarray) -> float:
        """Frame pixels per table millimetre around table point p."""
        q = self.project(np.array([p, p + (1, 0), p + (0, 1)], np.float64))
        return float((np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[0])) / 2)


def _rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    return cv2.Rodrigues((axis / np.linalg.norm(axis) * angle).reshape(3, 1))[0]


def _camera(g: np.random.Generator, cond: PhotoConditions) -> _Camera:
    """A camera tilted by up to tilt_deg in any direction, turned any way, with a card about
    card_height of the frame tall where the optical axis meets the table."""
    w, h = cond.frames[int(g.integers(0, len(cond.frames)))]
    f = (w / 2) / math.tan(math.radians(g.uniform(*cond.fov_deg)) / 2)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    tilt = float(g.uniform(*cond.tilt_deg))
    azimuth = g.uniform(0, 2 * math.pi)
    roll = 0.0 if cond.upright_deg is not None else g.uniform(0, 2 * math.pi)
    rot = _rotation(np.array([0.0, 0.0, 1.0]), roll) @ _rotation(
        np.array([math.cos(azimuth), math.sin(azimuth), 0.0]), math.radians(tilt))
    cam = _Camera((w, h), k @ rot, tilt)  # the table plane at distance 1
    centre = cam.unproject(np.array([[w / 2, h / 2]]))[0]
    distance = cam.scale_at(centre) * CARD_H_MM / (g.uniform(*cond.card_height) * h)
    return _Camera((w, h), k @ rot @ np.diag([1.0, 1.0, distance]), tilt)


def _card_corners(centre: np.ndarray, angle: float, w_mm: float, h_mm: float) -> np.ndarray:
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    local = np.array([[-w_mm / 2, -h_mm / 2], [w_mm / 2, -h_mm / 2], [w_mm / 2, h_mm / 2], [-w_mm / 2, h_mm / 2]])
    return local @ rot.T + centre


def _size_mm(face: np.ndarray) -> tuple[float, float]:
    return CARD_H_MM * face.shape[1] / face.shape[0], CARD_H_MM


def _layout(things: Sequence[Thing], cam: _Camera, g: np.random.Generator, cond: PhotoConditions,
            pair: bool, touching: bool) -> list[np.ndarray] | None:
    """Table-mm corners for each thing, all inside the frame and apart (a pair side by side)."""
    w, h = cam.size
    for _ in range(LAYOUT_TRIES):
        spot = cam.unproject(np.array([[g.uniform(0.15, 0.85) * w, g.uniform(0.15, 0.85) * h]]))[0]
        angle = g.uniform(-cond.upright_deg, cond.upright_deg) if cond.upright_deg is not None else g.uniform(0, 360)
        if pair and len(things) == 2:
            sets = _pair(things, spot, angle, g, cond, touching)
        else:
            sets = []
            for i, t in enumerate(things):
                c = spot if i == 0 else cam.unproject(np.array([[g.uniform(0.1, 0.9) * w, g.uniform(0.1, 0.9) * h]]))[0]
                turn = angle if i == 0 or cond.upright_deg is not None else g.uniform(0, 360)
                sets.append(_card_corners(c, turn, *_size_mm(t.face)))
        if _fits(sets, cam, cond.card_height, apart=not (pair and len(things) == 2)):
            return sets
    return None


def _pair(things: Sequence[Thing], spot: np.ndarray, angle: float, g: np.random.Generator,
          cond: PhotoConditions, touching: bool) -> list[np.ndarray]:
    """Two cards side by side (or one above the other), a gap apart or touching."""
    (w0, h0), (w1, h1) = (_size_mm(t.face) for t in things)
    gap = 0.0 if touching else g.uniform(*cond.gap) * w0
    a = math.radians(angle)
    along, across = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    if g.random() < SIDE_BY_SIDE:
        step, shift = (w0 + w1) / 2 + gap, g.normal(0, 0.08) * h0
        offset = along * step + across * shift
    else:
        step, shift = (h0 + h1) / 2 + gap, g.normal(0, 0.08) * w0
        offset = across * step + along * shift
    turn = g.normal(0, 0.4 if touching else 2.5)
    return [_card_corners(spot - offset / 2, angle, w0, h0), _card_corners(spot + offset / 2, angle + turn, w1, h1)]


def _fits(sets: list[np.ndarray], cam: _Camera, heights: tuple[float, float], apart: bool) -> bool:
    """Whether every card lies inside the frame at a height in range and, unless a pair, apart."""
    w, h = cam.size
    for c in sets:
        q = cam.project(c)
        if q.min() < EDGE_MARGIN_PX or q[:, 0].max() > w - EDGE_MARGIN_PX or q[:, 1].max() > h - EDGE_MARGIN_PX:
            return False
        if not heights[0] <= _height(q, h) <= heights[1]:
            return False
    if apart:
        for i in range(len(sets)):
            for j in range(i):
                if _distance(sets[i], sets[j]) < MIN_GAP_MM:
                    return False
    return True


def _height(q: np.ndarray, frame_h: int) -> float:
    """A card's height in the frame (mean of its long sides) as a share of the frame height."""
    return float((np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2 / frame_h)


def _distance(a: np.ndarray, b: np.ndarray) -> float:
    """Smallest distance between two convex quadrilaterals (0 when they overlap)."""
    pa, pb = a.astype(np.float32), b.astype(np.float32)
    if cv2.intersectConvexConvex(pa, pb)[0] > 0:
        return 0.0
    return float(min(min(-cv2.pointPolygonTest(pb, tuple(map(float, p)), True) for p in pa),
                     min(-cv2.pointPolygonTest(pa, tuple(map(float, p)), True) for p in pb)))


def _rounded_mask(h: int, w: int, px_per_mm: float) -> np.ndarray:
    mask = np.zeros((h, w), np.uint8)
    r = max(1, round(CORNER_RADIUS_MM * px_per_mm))
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return mask


def _table(top: TableTop, cam: _Camera, g: np.random.Generator) -> np.ndarray:
    """The table as the camera sees it, float32 BGR: a patch drawn in mm, warped into the frame."""
    w, h = cam.size
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    seen = cam.unproject(frame)
    x0, y0 = seen.min(axis=0) - 5
    x1, y1 = seen.max(axis=0) + 5
    ppm = max(cam.scale_at(p) for p in seen) * TEXTURE_OVERSAMPLE
    ppm = min(ppm, math.sqrt(MAX_TEXTURE_PX / ((x1 - x0) * (y1 - y0))))
    patch = render_top(top, (max(2, int((y1 - y0) * ppm)), max(2, int((x1 - x0) * ppm))), ppm, g)
    to_table = np.array([[1 / ppm, 0, x0], [0, 1 / ppm, y0], [0, 0, 1]])
    out = cv2.warpPerspective(patch, cam.homography @ to_table, (w, h), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REFLECT)
    return out.astype(np.float32)


def _warp_face(face: np.ndarray, corners_px: np.ndarray, size: tuple[int, int]) -> tuple:
    """The face warped onto its frame corners: (float image, alpha 0..1, bounding box)."""
    w, h = size
    x0, y0 = np.maximum(np.floor(corners_px.min(axis=0)).astype(int) - 2, 0)
    x1, y1 = np.minimum(np.ceil(corners_px.max(axis=0)).astype(int) + 3, (w, h))
    tall = float(np.linalg.norm(corners_px[3] - corners_px[0]))
    if face.shape[0] > PREFILTER * tall:  # shrink first: a straight warp would alias the fine print
        scale = PREFILTER * tall / face.shape[0]
        face = cv2.resize(face, (max(2, round(face.shape[1] * scale)), max(2, round(face.shape[0] * scale))),
                          interpolation=cv2.INTER_AREA)
    fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    m = cv2.getPerspectiveTransform(src, (corners_px - (x0, y0)).astype(np.float32))
    box = (x1 - x0, y1 - y0)
    img = cv2.warpPerspective(face, m, box, flags=cv2.INTER_LINEAR).astype(np.float32)
    alpha = cv2.warpPerspective(_rounded_mask(fh, fw, fh / CARD_H_MM), m, box, flags=cv2.INTER_LINEAR)
    return img, alpha.astype(np.float32) / 255.0, (x0, y0, x1, y1)


def _hand(img: np.ndarray, gloss: np.ndarray, g: np.random.Generator) -> None:
    """A hand and forearm reaching in from the frame's edge, out of focus, with its shadow."""
    h, w = img.shape[:2]
    centre = np.array([g.uniform(0.25, 0.75) * w, g.uniform(0.25, 0.75) * h])
    angle = g.uniform(0, 360)
    scale = g.uniform(0.14, 0.22) * h
    polys = hand_polygons(g, tuple(centre), scale, angle, 3 * max(w, h))
    mask = np.zeros((h, w), np.uint8)
    for p in polys:
        cv2.fillPoly(mask, [np.round(p * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    soft = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), g.uniform(1.0, 3.5))
    drop = np.roll(soft, (int(g.uniform(10, 40)), int(g.uniform(10, 40))), axis=(0, 1))
    img *= (1 - 0.45 * cv2.GaussianBlur(drop, (0, 0), 12))[..., None]
    skin = np.asarray(skin_colour(g), np.float32)
    shade = 0.85 + 0.3 * np.linspace(0, 1, w, dtype=np.float32)[None, :] * g.uniform(0.2, 1)
    img += (skin * shade[..., None] - img) * soft[..., None]
    gloss *= 1 - 0.8 * soft


def take_photo(things: Sequence[Thing], rng: np.random.Generator | random.Random,
               conditions: PhotoConditions = PhotoConditions(), *, top: TableTop | None = None,
               pair: bool = False, hand: bool = False) -> Photo:
    """Lay the things on a table (a pair side by side when pair), take one photo; hand: a hand
    reaches over the table too."""
    g = as_generator(rng)
    cond = conditions
    top = top or cond.tops[int(g.integers(0, len(cond.tops)))]
    touching = bool(pair and g.random() < cond.touching)
    for _ in range(CAMERA_TRIES):
        cam = _camera(g, cond)
        sets = _layout(things, cam, g, cond, pair, touching) if things else []
        if sets is not None:
            break
    else:
        raise RuntimeError("could not lay the cards out in the frame")
    img = _table(top, cam, g)
    gloss = np.full(img.shape[:2], GLOSS[top], np.float32)
    optics = draw_optics(cond.optics, g)
    seen, pasted = [], []
    for thing, corners in zip(things, sets, strict=True):
        px = cam.project(corners)
        pasted.append((thing, px, _warp_face(thing.face, px, cam.size)))
        seen.append(Seen(thing, px, _height(px, cam.size[1])))
    _shadows(img, [p[2] for p in pasted], cam, g)
    for _, _, (face, alpha, (x0, y0, x1, y1)) in pasted:
        region = img[y0:y1, x0:x1]
        region += (face - region) * alpha[..., None]
        gloss[y0:y1, x0:x1] += (CARD_GLOSS - gloss[y0:y1, x0:x1]) * alpha
    if hand:
        _hand(img, gloss, g)
    card_centres = [s.corners.mean(axis=0) for s in seen]
    image, encoded, meta = expose(img, gloss, optics, g, card_centres)
    return Photo(image, encoded, tuple(seen), top, cam.tilt, meta, hand)


def _shadows(img: np.ndarray, warped: list, cam: _Camera, g: np.random.Generator) -> None:
    """Soft contact shadows: each card's outline, shifted away from the lamp and blurred."""
    if not warped:
        return
    h, w = img.shape[:2]
    cover = np.zeros((h, w), np.float32)
    for _, alpha, (x0, y0, x1, y1) in warped:
        np.maximum(cover[y0:y1, x0:x1], alpha, out=cover[y0:y1, x0:x1])
    px_mm = cam.size[1] * 0.3 / CARD_H_MM
    reach = g.uniform(0.3, 2.0) * px_mm
    a = g.uniform(0, 2 * math.pi)
    shift = np.float32([[1, 0, reach * math.cos(a)], [0, 1, reach * math.sin(a)]])
    shadow = cv2.warpAffine(cover, shift, (w, h))
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(0.6, g.uniform(0.4, 2.5) * px_mm))
    img *= (1 - g.uniform(0.15, 0.5) * shadow)[..., None]
