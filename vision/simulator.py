"""A camera simulator: cards laid on a table, seen through a cheap camera, for tests and benchmarks.

A Scene fixes what lies on the table and how it is lit; Scene.render(rng) takes one frame of it
with fresh sensor noise, so a sequence of renders is a "virtual table" video. random_scene()
draws a scene from a random generator; simulate_frame() does both at once. Everything random
comes from the generator passed in (numpy Generator or random.Random), never from globals.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.props import (
    Background,
    as_generator,
    hand_polygons,
    render_background,
    skin_colour,
    to_uint8,
)
from vision.render import CARD_H_MM, CARD_W_MM

CARD_ASPECT = CARD_H_MM / CARD_W_MM
CORNER_RADIUS_MM = 3.0  # rounded corners as on printed cards
FRAME_SIZE = (1280, 720)  # (width, height): the camera mode the scanner uses
MIN_BLUR_SIGMA = 0.3  # px: a softer defocus than this is not worth a pass
LAYOUT_TRIES = 200  # random layouts tried before giving up: a fitting one comes within a few
EDGE_MARGIN_PX = 8  # cards stay this far inside the frame, so every outline closes in view
MIN_GAP_PX = 12  # two cards not touching are at least a finger's width apart
SHADOW_PX = 6  # room around a pasted card for its soft contact shadow
SHADOW_SIGMA_PX = 2.5  # blur of that shadow
SHADOW_DEPTH = 0.2  # how much the shadow darkens the table right at the card's edge


@dataclass(frozen=True)
class Conditions:
    """Ranges the random scene is drawn from; the defaults are a fair home table under a lamp."""

    size: tuple[int, int] = FRAME_SIZE
    card_height: tuple[float, float] = (0.30, 0.50)  # card's long side as a share of frame height
    touching: float = 0.35  # chance two cards touch along an edge
    tilt: float = 0.04  # camera tilt: frame corners move up to this share of the width
    light_gain: tuple[float, float] = (0.75, 1.15)  # overall exposure
    light_gradient: float = 0.12  # brightness change from one side of the frame to the other
    vignette: float = 0.15  # darkening in the frame corners
    white_balance: float = 0.10  # per-channel gain changes (colour temperature)
    glare: float = 0.25  # chance of a lamp reflection
    glare_strength: tuple[float, float] = (40.0, 110.0)  # grey levels added at its centre
    blur_sigma: tuple[float, float] = (0.0, 1.4)  # defocus, pixels
    motion_blur: float = 0.1  # chance of a short motion streak
    noise_sigma: tuple[float, float] = (1.0, 4.0)  # sensor noise, grey levels
    jpeg_quality: tuple[int, int] = (55, 95)
    backgrounds: tuple[Background, ...] = tuple(Background)


DEFAULT_CONDITIONS = Conditions()


@dataclass(frozen=True, eq=False)
class Placement:
    """One card-like object on the table: its face image and where its corners fall in the frame."""

    face: np.ndarray  # BGR face image, portrait
    corners: np.ndarray  # 4x2 float frame pixels: face's top-left, top-right, bottom-right, bottom-left
    label: str | None  # card ID, or None for a back or another game's card


@dataclass(frozen=True, eq=False)
class Scene:
    """What lies on the table and how the camera sees it; render() takes a frame."""

    background: np.ndarray
    placements: tuple[Placement, ...] = ()
    hand: tuple[np.ndarray, ...] = ()  # polygons in frame pixels
    hand_colour: tuple[int, int, int] = (150, 180, 220)
    gain: float = 1.0
    gradient: tuple[float, float] = (0.0, 0.0)
    vignette: float = 0.0
    channel_gain: tuple[float, float, float] = (1.0, 1.0, 1.0)
    glare: tuple[float, float, float, float] | None = None  # x, y, radius px, strength
    blur_sigma: float = 0.0
    motion: tuple[float, float] | None = None  # length px, angle degrees
    noise_sigma: float = 0.0
    jpeg_quality: int | None = None
    _cache: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the frame."""
        return self.background.shape[1], self.background.shape[0]

    def with_hand(self, rng: np.random.Generator | random.Random) -> Scene:
        """The same scene with a hand reaching over the table."""
        g = as_generator(rng)
        w, h = self.size
        centre = (float(g.uniform(0.2, 0.8) * w), float(g.uniform(0.3, 0.9) * h))
        polys = hand_polygons(g, centre, float(g.uniform(0.12, 0.2) * h), float(g.uniform(-60, 60)), 2 * max(w, h))
        return replace(self, hand=tuple(polys), hand_colour=skin_colour(g), _cache={})

    @property
    def plain(self) -> bool:
        """True when light and optics leave the table as laid (a virtual table): it is then kept in uint8."""
        return (self.gain == 1 and self.gradient == (0.0, 0.0) and self.vignette == 0 and self.glare is None
                and self.channel_gain == (1.0, 1.0, 1.0) and self.blur_sigma <= MIN_BLUR_SIGMA
                and self.motion is None)

    def render(self, rng: np.random.Generator | random.Random | None = None) -> np.ndarray:
        """Take one BGR uint8 frame; rng supplies sensor noise and JPEG (None: a clean frame).

        The lit table is kept between renders: float32 when light or optics change it, else
        uint8 (a quarter of the memory; card edges rounded to the nearest grey level), and then a
        clean render is that kept table itself, read-only, not a copy.
        """
        if "lit" not in self._cache:
            if self.plain:
                self._cache["lit"] = self._compose(np.uint8)
            else:
                self._cache["lit"] = self._optics(self._light(self._compose(np.float32)))
        img = self._cache["lit"]
        if rng is None and img.dtype == np.uint8:
            clean = img.view()  # the kept table itself, not a copy: read-only, so it stays as laid
            clean.flags.writeable = False
            return clean
        if rng is None:
            return to_uint8(img)
        g = as_generator(rng)
        out = to_uint8(img, g, self.noise_sigma)
        if self.jpeg_quality is not None:
            ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, self.jpeg_quality])
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        return out

    def _compose(self, dtype: type[np.generic]) -> np.ndarray:
        img = self.background.astype(dtype)
        for p in self.placements:
            _paste(img, p.face, p.corners)
        for poly in self.hand:
            cv2.fillPoly(img, [np.round(poly * 16).astype(np.int32)], self.hand_colour, cv2.LINE_AA, 4)
        return img

    def _light(self, img: np.ndarray) -> np.ndarray:
        """Light the composed frame in place (it is this scene's own buffer): no frame-sized copies."""
        w, h = self.size
        xs = np.linspace(-1, 1, w, dtype=np.float32)[None, :]
        ys = np.linspace(-1, 1, h, dtype=np.float32)[:, None]
        if self.gain != 1 or self.gradient != (0.0, 0.0) or self.vignette != 0:  # else a field of ones
            field = self.gain * (1 + self.gradient[0] * xs / 2 + self.gradient[1] * ys / 2)
            field = field * (1 - self.vignette * (xs**2 + ys**2) / 2)
            img *= field[..., None]
        if self.channel_gain != (1.0, 1.0, 1.0):
            img *= np.array(self.channel_gain, np.float32)
        if self.glare is not None:
            gx, gy, radius, strength = self.glare
            d2 = ((xs + 1) * w / 2 - gx) ** 2 + ((ys + 1) * h / 2 - gy) ** 2
            img += (strength * np.exp(-d2 / (2 * radius**2)))[..., None]
        return img

    def _optics(self, img: np.ndarray) -> np.ndarray:
        if self.blur_sigma > MIN_BLUR_SIGMA:
            img = cv2.GaussianBlur(img, (0, 0), self.blur_sigma)
        if self.motion is not None:
            length, angle = self.motion
            k = np.zeros((int(length) * 2 + 1,) * 2, np.float32)
            c = int(length)
            dx, dy = math.cos(math.radians(angle)) * length, math.sin(math.radians(angle)) * length
            cv2.line(k, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1)
            img = cv2.filter2D(img, -1, k / k.sum())
        return img


@dataclass(frozen=True, eq=False)
class SimulatedFrame:
    """A simulated camera frame with the truth about what is in it."""

    image: np.ndarray  # BGR uint8
    placements: tuple[Placement, ...]

    @property
    def labels(self) -> tuple[str | None, ...]:
        """The card ID (or None) of each card-like object, in placement order."""
        return tuple(p.label for p in self.placements)


def _rounded_mask(h: int, w: int) -> np.ndarray:
    mask = np.zeros((h, w), np.uint8)
    r = max(1, round(CORNER_RADIUS_MM * w / CARD_W_MM))
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return mask


def _paste(img: np.ndarray, face: np.ndarray, corners: np.ndarray) -> None:
    """Warp a face onto the frame at the given corners, with a soft contact shadow."""
    h, w = face.shape[:2]
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - SHADOW_PX
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + SHADOW_PX
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, img.shape[1]), min(y1, img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    homography = cv2.getPerspectiveTransform(src, (corners - [x0, y0]).astype(np.float32))
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(face, homography, size, flags=cv2.INTER_AREA).astype(np.float32)
    alpha = cv2.warpPerspective(_rounded_mask(h, w), homography, size, flags=cv2.INTER_LINEAR)
    alpha = alpha.astype(np.float32)[..., None] / 255.0
    shadow = cv2.GaussianBlur(alpha, (0, 0), SHADOW_SIGMA_PX)[..., None]
    region = img[y0:y1, x0:x1].astype(np.float32)
    region *= 1 - SHADOW_DEPTH * np.roll(shadow, (2, 2), axis=(0, 1))
    region *= 1 - alpha  # in place: region * (1 - alpha) + warped * alpha without three more copies
    warped *= alpha
    region += warped
    img[y0:y1, x0:x1] = region if img.dtype == np.float32 else np.rint(region)


def _card_corners(centre, height: float, angle: float) -> np.ndarray:
    w = height / CARD_ASPECT
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    local = np.array([[-w / 2, -height / 2], [w / 2, -height / 2], [w / 2, height / 2], [-w / 2, height / 2]])
    return local @ rot.T + np.asarray(centre, np.float64)


def _layout(n: int, g: np.random.Generator, cond: Conditions, touching: bool) -> list[np.ndarray]:
    """Corner sets for n cards that fit in the frame without overlapping."""
    w, h = cond.size
    for _ in range(LAYOUT_TRIES):
        height = g.uniform(*cond.card_height) * h
        angle = g.uniform(0, 360)
        if n == 2 and touching:
            long_edge = g.random() < 0.8  # cards laid side by side, as the Mayor reveals them
            a = math.radians(angle)
            step = height / CARD_ASPECT if long_edge else height
            along = g.uniform(-0.25, 0.25) * (height if long_edge else height / CARD_ASPECT)
            axis = np.array([math.cos(a), math.sin(a)]) if long_edge else np.array([-math.sin(a), math.cos(a)])
            other = np.array([-math.sin(a), math.cos(a)]) if long_edge else np.array([math.cos(a), math.sin(a)])
            centre = np.array([g.uniform(0.25, 0.75) * w, g.uniform(0.3, 0.7) * h])
            offsets = (-axis * step / 2, axis * step / 2 + other * along)
            sets = [_card_corners(centre + o, height, angle + g.uniform(-1.5, 1.5)) for o in offsets]
        else:
            sets = []
            for _ in range(n):
                centre = (g.uniform(0, w), g.uniform(0, h))
                sets.append(_card_corners(centre, height, g.uniform(0, 360) if n > 1 else angle))
        sets = _tilt(sets, g, cond)
        if _fits(sets, w, h, touching):
            return sets
    raise RuntimeError("could not lay out the cards in the frame")


def _fits(sets: list[np.ndarray], w: int, h: int, touching: bool) -> bool:
    """Whether every card lies inside the frame and, unless touching, two stay apart."""
    margin = EDGE_MARGIN_PX
    for c in sets:
        if c[:, 0].min() < margin or c[:, 1].min() < margin or c[:, 0].max() > w - margin or c[:, 1].max() > h - margin:
            return False
    if len(sets) == 2 and not touching:
        polys = [c.astype(np.float32) for c in sets]
        inter, _ = cv2.intersectConvexConvex(polys[0], polys[1])
        if inter > 0:
            return False
        gap = min(cv2.pointPolygonTest(polys[1], tuple(map(float, p)), True) for p in polys[0])
        return gap < -MIN_GAP_PX  # else it is the touching case
    return True


def _tilt(sets: list[np.ndarray], g: np.random.Generator, cond: Conditions) -> list[np.ndarray]:
    w, h = cond.size
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    moved = frame + g.uniform(-cond.tilt, cond.tilt, (4, 2)).astype(np.float32) * w
    homography = cv2.getPerspectiveTransform(frame, moved)
    return [cv2.perspectiveTransform(c[None].astype(np.float64), homography)[0] for c in sets]


def random_scene(faces: Sequence[np.ndarray], rng: np.random.Generator | random.Random,
                 conditions: Conditions = DEFAULT_CONDITIONS, *, labels: Sequence[str | None] | None = None,
                 touching: bool | None = None, background: Background | None = None) -> Scene:
    """Lay 0-2 faces on a random table under random light; touching=None lets chance decide."""
    g = as_generator(rng)
    cond = conditions
    labels = list(labels) if labels is not None else [None] * len(faces)
    if touching is None:
        touching = len(faces) == 2 and g.random() < cond.touching
    kind = background or cond.backgrounds[int(g.integers(0, len(cond.backgrounds)))]
    sets = _layout(len(faces), g, cond, touching) if faces else []
    w, h = cond.size
    glare = None
    if g.random() < cond.glare:
        glare = (float(g.uniform(0, w)), float(g.uniform(0, h)), float(g.uniform(0.03, 0.1) * w),
                 float(g.uniform(*cond.glare_strength)))
    motion = None
    if g.random() < cond.motion_blur:
        motion = (float(g.uniform(1.0, 3.0)), float(g.uniform(0, 180)))
    wb = cond.white_balance
    return Scene(
        background=render_background(kind, cond.size, g),
        placements=tuple(Placement(f, c, lab) for f, c, lab in zip(faces, sets, labels, strict=True)),
        gain=float(g.uniform(*cond.light_gain)),
        gradient=(float(g.uniform(-1, 1) * cond.light_gradient), float(g.uniform(-1, 1) * cond.light_gradient)),
        vignette=float(g.uniform(0, cond.vignette)),
        channel_gain=tuple(float(v) for v in g.uniform(1 - wb, 1 + wb, 3)),
        glare=glare, blur_sigma=float(g.uniform(*cond.blur_sigma)), motion=motion,
        noise_sigma=float(g.uniform(*cond.noise_sigma)),
        jpeg_quality=int(g.integers(cond.jpeg_quality[0], cond.jpeg_quality[1] + 1)),
    )


def simulate_frame(faces: Sequence[np.ndarray], rng: np.random.Generator | random.Random,
                   conditions: Conditions = DEFAULT_CONDITIONS, *, labels: Sequence[str | None] | None = None,
                   touching: bool | None = None, background: Background | None = None) -> SimulatedFrame:
    """Draw a random scene of these faces and take one frame of it."""
    g = as_generator(rng)
    scene = random_scene(faces, g, conditions, labels=labels, touching=touching, background=background)
    return SimulatedFrame(scene.render(g), scene.placements)


def pair_up(placements: Sequence[Placement], readings: Sequence) -> tuple[list, list]:
    """Pair each placement with the reading whose outline centre lies on it (or None).

    Readings are anything with .corners; returns (pairs, extras): pairs of (placement, reading or
    None) and the readings that lie on no placement. For grading a reader against the truth.
    """
    free = list(readings)
    pairs = []
    for p in placements:
        centre, size = p.corners.mean(axis=0), float(np.linalg.norm(p.corners[0] - p.corners[2]))
        hit = next((r for r in free if np.linalg.norm(np.mean(r.corners, axis=0) - centre) < 0.25 * size), None)
        if hit is not None:
            free.remove(hit)
        pairs.append((p, hit))
    return pairs, free
