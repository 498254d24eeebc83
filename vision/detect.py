"""Find card outlines in a frame on any table: several cues, each turned into card-shaped quads.

A card is a convex, nearly rectangular region (63x88 mm, rounded corners) whose whole outline
is a step from the table. No single cue finds that on every table: a white-bordered card on
felt shows in any edge map, a full-bleed painted card on strongly grained wood only where the
grain is ignored, a dark card on a dark printed mat only in colour. So detection runs several
cues over a small copy of the frame, each giving a mask of "enclosed, solid" regions:
  - edges at three strengths (colour edges: lightness and both opponent channels), the region
    each closed outline encloses seen from the table's side; weak edges find low-contrast cards
    on plain tables, strong ones keep grain, weave and printed grids from closing around a card;
  - distance from the table's own colours (vision.table_colour: learnt from the frame's border, where cards rarely
    lie), after a median filter that wipes out grain lines and grid lines.
On a checked cloth two more: the cloth blurred over its period, and what breaks its repeat
(vision.lattice, vision.repeat). Every blob of every mask is read as one card, two touching
cards, or nothing (clutter); an edge map's blob that is nothing is read again with its thin
spurs cut off (a plank seam that runs into a full-bleed card's outline joins the card's blob and
spoils its shape). Each
quad is scored by how much of its outline is a real step in colour (edge support), duplicates
from several cues are merged, best support first (vision.merge). Once every card-sized blob off
the table's colours is a card a cue outlined well, the remaining edge cues are skipped: on most
frames the mid edges and the table's colours find the cards, and the other edge strengths cost
half the search. A blob shaped like one card could also be
two cards touching along their long edges, so such a blob carries both readings as hypotheses
and the reader keeps whichever the deck recognises. A light card on a light table may show only
its art's panel: each one-card outline is also moved out onto a rim around it (Candidate.outer),
which the reader reads when no outline as found looks like a card at all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache, partial

import cv2
import numpy as np

from vision.blobs import MIN_CARD_SHARE, Candidate, analyse, card_sized, cut_at_seam, without_spurs
from vision.explained import all_settled, least_card, settled
from vision.exposure import brightened
from vision.hands import hand_like, uncovered
from vision.lattice import blob_rectangle, checks_period, cloth_mask, panel_rim, rim, snap_to_checks
from vision.merge import MIN_SUPPORT, merge, with_stretches
from vision.repeat import repeat_breaks
from vision.shrink import area_shrink
from vision.sides import CHROMA_GAIN, Gradient, edge_support
from vision.standout import stands_out
from vision.table_colour import table_mask

WORK_HEIGHT = 360  # px: detection runs on a copy this tall; a smallest card (15%) is ~54 px there
EDGE_LEVELS = ((15, 40), (35, 90), (80, 200), (180, 450))  # Canny (low, high), 3x3 Sobel L1: weak to strong
CUE_ORDER = (2, 4, 1, 3, 0)  # mid edges first (clean on most tables), then the table's colours (4): with
# both, most frames' cards are explained and the other edge strengths are skipped (vision.explained)
CLOTH_CUE = 5  # the blurred cloth (vision.lattice): after all others, on checked or gridded tables only; even when
# every blob off the table's colours is explained (those may be the quarters of an "any" card whose other quarters
# sank into the cloth: skipped then, the built-in "any" card on blue checks was named desert and forest)
WIPED_CUE = 7  # the weakest edges of the frame with its thin lines wiped (without_lines): a card a printed grid
# or grain joins to the table; after the edge and colour cues, only while a blob off the table's colours is
# unexplained or no cue found anything (run on every frame, it cost the Mayor's pairs 3 ms a frame)
REPEAT_CUE = 8  # what breaks the checked cloth's repeat (vision.repeat): after the blurred cloth, on checks only
REPEAT_TRUST = 0.9  # its edge support counts this much: a blob of two cards and the checks between them, snapped
# onto check lines, showed 1.00 where the cards' own outlines showed 0.99 (seen inkwash pair on blue checks)
BRIDGED_CUE = 6  # the weakest edges with gaps bridged: a light card on a light table, its outline broken in
                 # places; last, only when no other cue found a card, and not on checks (bridged, their net is one blob)
BRIDGE_PX = 7  # work px: gaps up to about this wide in an outline are closed (the weakest edges break 2-5 px)
LINE_WIPE_PX = 9  # work px (2.5% of the height): lines thinner than this are wiped (a hexagon mat's grid, 3-5 px;
# grain), the smallest card's short side (~39 px) is not
SPUR_TRUST = 0.85  # support kept by a piece cut from a blob (where the cut fell, its outline is the
# cut's): below vision.explained.SETTLED_SUPPORT, so a later cue still fits the place, and below a whole blob's
SPUR_CONTRAST = 2.0  # band spreads a piece's inside must differ by: tuning tables' cut-out planks and
# grid cells reach 1.4, cards cut from seams 2.7 and up

_OPEN_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
_DILATE = np.ones((3, 3), np.uint8)
_WIPE = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (LINE_WIPE_PX, LINE_WIPE_PX))
_BRIDGE = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (BRIDGE_PX, BRIDGE_PX))


@dataclass(frozen=True, eq=False)
class Detection:
    """The card candidates of a frame, and whether something else (a hand, glare) is in view."""

    candidates: tuple[Candidate, ...]
    clutter: bool
    gradient: Callable[[], Gradient] = field(repr=False)  # the work copy's colour gradient (vision.beside), made on first call
    per_px: np.ndarray = field(repr=False)  # frame px per work px, (x, y)
    off_table: bool = False  # a card-sized blob off the table's colours was seen (an empty table shows none)
    strays: tuple[np.ndarray, ...] = field(default=(), repr=False)  # hand-like blobs off the table's colours (work px)

    @property
    def grad(self) -> Gradient:
        """The work copy's colour gradient, float32 (vision.beside)."""
        return self.gradient()

    def clutter_beside(self, quads: list[np.ndarray]) -> bool:
        """Whether something else is in view once these outlines (frame px) are counted as cards too:
        a stray that was mostly outside the candidates may lie on a card a later search found."""
        if not self.clutter:
            return False
        found = [q for c in self.candidates for q in c.hypotheses[0]] + list(quads)
        return uncovered(list(self.strays), [from_frame(q, self.per_px) for q in found], self.grad[0].shape[:2])


def _enclosed(edges: np.ndarray, bridge: np.ndarray = _DILATE) -> np.ndarray:
    """What closed outlines enclose, as seen from the table (texture spurs cut off), gaps in an
    outline up to the bridge's size closed."""
    edges = cv2.dilate(edges, bridge)
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    mask = np.zeros_like(edges)
    cv2.drawContours(mask, contours, -1, 255, -1)
    mask = cv2.erode(mask, bridge)  # undo the dilation: outlines back in place
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, _OPEN_KERNEL)


def colour_gradient(colour_u8: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sobel dx, dy (int16) of whichever channel changes most at each pixel (chroma scaled up).

    One gradient for all channels, so each edge strength needs one Canny pass, not three.
    """
    blurred = cv2.GaussianBlur(colour_u8, (5, 5), 0)
    lightness, *chroma = cv2.split(blurred)
    # Lightness is not scaled: both 3x3 Sobels in one pass, the same int16 values (same reflected border)
    best_dx, best_dy = cv2.spatialGradient(lightness)
    # numpy's add and maximum, not cv2's: OpenCV's int16 add and max run several times slower here, and
    # no sum saturates (a 3x3 Sobel of uint8, chroma scaled, stays under 2600 each way)
    best_mag = np.abs(best_dx)
    best_mag += np.abs(best_dy)
    for ch in chroma:
        dx = cv2.Sobel(ch, cv2.CV_16S, 1, 0, scale=CHROMA_GAIN)
        dy = cv2.Sobel(ch, cv2.CV_16S, 0, 1, scale=CHROMA_GAIN)
        mag = np.abs(dx)
        mag += np.abs(dy)
        more = cv2.compare(mag, best_mag, cv2.CMP_GT)
        cv2.copyTo(dx, more, best_dx)
        cv2.copyTo(dy, more, best_dy)
        np.maximum(mag, best_mag, out=best_mag)
    return best_dx, best_dy


def without_lines(colour_u8: np.ndarray) -> np.ndarray:
    """The work copy with every line thinner than LINE_WIPE_PX wiped out, light ones then dark ones
    (a grey opening, then a closing): a mat's printed grid, grain and plank seams go, a card (far
    wider) stays, its outline a step from the table that no grid line now joins."""
    return cv2.morphologyEx(cv2.morphologyEx(colour_u8, cv2.MORPH_OPEN, _WIPE), cv2.MORPH_CLOSE, _WIPE)


def wiped_masks(colour_u8: np.ndarray, levels: int = 1) -> list[np.ndarray]:
    """What closed outlines enclose at the weakest levels edge strengths of the work copy with its
    thin lines wiped (without_lines): a card a printed grid or the grain joins to the table."""
    dx, dy = colour_gradient(without_lines(colour_u8))
    return [_enclosed(cv2.Canny(dx, dy, lo, hi)) for lo, hi in EDGE_LEVELS[:levels]]


def _card_sized(mask: np.ndarray, frame_area: float) -> list[tuple[np.ndarray, float]]:
    """A mask's blobs big enough to be a card, each with its area."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return [(c, a) for c in contours if (a := cv2.contourArea(c)) >= MIN_CARD_SHARE * frame_area]


def _blobs(blobs: list[tuple[np.ndarray, float]], frame_area: float, colour_u8: np.ndarray, known: list[Candidate],
           fit: Callable[[np.ndarray], Candidate | None], spurs: bool = False,
           trust: float = 1.0, least: float = 0.0) -> tuple[list[Candidate], list[np.ndarray]]:
    """The new card candidates among a mask's card-sized blobs (_card_sized; smaller ones are crumbs and
    specks of glare, smaller than any hand too), scored by edge support, and the blobs that are no card.

    fit reads a blob as cards (detect's own analyse, or the cloth's rectangles); spurs: a blob
    that is no card is read again with thin spurs cut off; trust: how far the cue's edge support is
    trusted (a cue whose blobs may run over the checks around cards yields to the others); least: the
    smallest area a card may have in this frame (explained.least_card): a smaller blob is no card, though it may be a hand."""
    found, others = [], []
    for contour, area in blobs:
        if settled(contour, area, known):
            continue
        if area < least:
            others.append(contour)
            continue
        fitted, pieces_trust = _fitted(contour, frame_area, fit, colour_u8, spurs)
        if not fitted or pieces_trust < 1.0:  # read in pieces, it may still be a hand: its palm cut from its fingers
            others.append(contour)
        for candidate in fitted:
            support = min(edge_support(colour_u8, q) for q in candidate.hypotheses[0])
            found.append(replace(candidate, support=trust * pieces_trust * support))
    return found, others


def _fitted(contour: np.ndarray, frame_area: float, fit: Callable[[np.ndarray], Candidate | None],
            colour_u8: np.ndarray, spurs: bool) -> tuple[list[Candidate], float]:
    """A blob read as cards, or failing that (spurs) its pieces once thin spurs are cut off, those
    that stand out from the table (a plank or a grid's cell cut out does not); and how far their
    edge support is trusted."""
    candidate = fit(contour)
    if candidate is not None or not spurs:
        return ([candidate] if candidate is not None else []), 1.0
    for cut in without_spurs(contour, frame_area):
        pieces = [c for piece in cut if (c := fit(piece)) is not None]
        kept = [c for c in pieces if _all_stand_out(colour_u8, c.hypotheses[0])]
        if kept:
            return kept, SPUR_TRUST
    return [], SPUR_TRUST


def _all_stand_out(colour_u8: np.ndarray, quads: tuple[np.ndarray, ...]) -> bool:
    """Whether every card of a hypothesis stands out from the table around it (its partner is no table)."""
    return all(stands_out(colour_u8, q, SPUR_CONTRAST, tuple(o for o in quads if o is not q)) for q in quads)


def _cloth_cards(contour: np.ndarray, frame_area: float, colour_u8: np.ndarray,
                 grad: tuple[np.ndarray, np.ndarray], period: float) -> Candidate | None:
    """A blob of the blurred cloth read as cards: its four-sided fits and the rectangle of its
    moments, each snapped onto the real edges, best edge support first."""
    hull = cv2.convexHull(contour, returnPoints=False)
    cut = cut_at_seam(contour, hull)
    fitted = analyse(contour, frame_area, hull, cut)
    hyps = list(fitted.hypotheses + fitted.halved) if fitted is not None else []  # checks only: all are scored
    rect = blob_rectangle(contour)
    if rect is not None:
        hyps.append((rect,))
    pieces = [blob_rectangle(p) for p in cut]  # two cards the blur ran together
    if len(pieces) == 2 and all(p is not None for p in pieces):
        hyps.append(tuple(pieces))
    snapped = [tuple(snap_to_checks(grad, q, period) for q in h) for h in hyps]
    shaped = [h for h in snapped if all(card_sized(q, frame_area) for q in h)]
    scored = sorted(((min(edge_support(colour_u8, q) for q in h), i, h) for i, h in enumerate(shaped)), reverse=True)
    return Candidate(tuple(h for _, _, h in scored), scored[0][0]) if scored else None


def _to_rim(cand: Candidate, grad: tuple[np.ndarray, np.ndarray], colour_u8: np.ndarray) -> Candidate:
    """A candidate with each quad moved out onto its card's rim (vision.lattice.rim), support anew; its
    halved blob too, when it is made (Candidate.halved).

    A card laid square to the checks has a check's edge just outside its own, where the rim may
    land: the outline as found stays as the next hypothesis, for the deck to choose.
    """
    hyps = _on_rims(cand.hypotheses, grad)
    return replace(cand, hypotheses=hyps, support=min(edge_support(colour_u8, q) for q in hyps[0]),
                   halving=cand.halving and (lambda: _on_rims(cand.halved, grad)))


def _on_rims(hyps: tuple[tuple[np.ndarray, ...], ...],
             grad: tuple[np.ndarray, np.ndarray]) -> tuple[tuple[np.ndarray, ...], ...]:
    """Hypotheses moved out onto their cards' rims, then those as found that moved."""
    moved = tuple(tuple(rim(grad, q) for q in h) for h in hyps)
    return moved + tuple(h for h, m in zip(hyps, moved, strict=True)
                         if any(np.abs(q - r).max() > 0 for q, r in zip(h, m, strict=True)))


def _rims(hyps: tuple[tuple[np.ndarray, ...], ...], gradient: Callable[[], Gradient],
          per_px: np.ndarray) -> tuple[tuple[np.ndarray, ...], ...]:
    """Each one-card outline (work px) moved out onto a rim around it, where there is one, in frame
    px: what the reader reads when no outline as found looks like a card (Candidate.outer)."""
    moved = tuple((out,) for hyp in hyps if len(hyp) == 1 if (out := panel_rim(gradient(), hyp[0])) is not None)
    return _in_frame(moved, per_px)


def _halved(cand: Candidate, per_px: np.ndarray) -> tuple[tuple[np.ndarray, ...], ...]:
    """A work-copy candidate's halved blob (Candidate.halved) in frame px."""
    return _in_frame(cand.halved, per_px)


def work_copy(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """The frame's YCrCb copy at WORK_HEIGHT (never enlarged), and the scale from frame to copy."""
    h, w = frame.shape[:2]
    scale = min(1.0, WORK_HEIGHT / h)
    small = area_shrink(frame, (round(w * scale), round(h * scale)))  # cv2's INTER_AREA, byte for byte
    return cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb), scale


def to_frame(quad: np.ndarray, per_px: float | np.ndarray) -> np.ndarray:
    """Work-copy px corners to frame px (per_px: frame px per work px, one or per axis; pixel centres kept)."""
    return (quad + 0.5) * per_px - 0.5


def from_frame(quad: np.ndarray, per_px: float | np.ndarray) -> np.ndarray:
    """Frame px corners to work-copy px (the inverse of to_frame)."""
    return (quad + 0.5) / per_px - 0.5


def _in_frame(hyps: tuple[tuple[np.ndarray, ...], ...], per_px: np.ndarray) -> tuple[tuple[np.ndarray, ...], ...]:
    """Hypotheses' work-copy quads in frame pixels."""
    return tuple(tuple(to_frame(q, per_px) for q in hyp) for hyp in hyps)


def detect(frame: np.ndarray) -> Detection:
    """Find card candidates in a BGR frame; corners come back in full-frame pixels."""
    return _search(frame.shape[:2], work_copy(frame)[0])


def detect_brighter(frame: np.ndarray) -> Detection | None:
    """detect() on an underexposed frame seen brighter (vision.exposure), or None when it is not dim."""
    brighter = brightened(work_copy(frame)[0])
    return None if brighter is None else _search(frame.shape[:2], brighter)


def _search(shape: tuple[int, ...], colour_u8: np.ndarray) -> Detection:
    """Card candidates in a frame of this shape (h, w), from its YCrCb work copy (work_copy)."""
    h, w = shape[:2]
    frame_area = float(colour_u8.shape[0] * colour_u8.shape[1])
    everything: list[Candidate] = []
    strays: list[np.ndarray] = []
    off_table = False
    dx, dy = colour_gradient(colour_u8)
    edges = cache(lambda level: cv2.Canny(dx, dy, *EDGE_LEVELS[level]))  # only the cues that run pay for theirs
    period = checks_period(dx, dy, EDGE_LEVELS[1][0], partial(edges, 1))
    # float32 for sampling between pixels, made only when an outline is snapped or moved: most frames need none
    gradient = cache(lambda: (dx.astype(np.float32), dy.astype(np.float32)))
    table_blobs = _card_sized(table_mask(colour_u8), frame_area)
    explained = False
    for level in CUE_ORDER + (WIPED_CUE,) + ((CLOTH_CUE, REPEAT_CUE) if period else (BRIDGED_CUE,)):
        fit = partial(analyse, frame_area=frame_area)
        if level < len(EDGE_LEVELS):
            if explained:
                continue
            blobs = _card_sized(_enclosed(edges(level)), frame_area)
        elif level == WIPED_CUE:
            if explained or (everything and not table_blobs):
                continue  # only for a blob off the table's colours left unexplained, or when nothing was found
            blobs = _card_sized(wiped_masks(colour_u8)[0], frame_area)
        elif level == BRIDGED_CUE:
            if everything:
                break  # bridging is for a card every other cue missed: it costs a pass on every frame
            blobs = _card_sized(_enclosed(edges(0), _BRIDGE), frame_area)
        elif level in (CLOTH_CUE, REPEAT_CUE):
            if level == REPEAT_CUE and explained:
                continue  # every blob off the table's colours is a card outlined well: nothing left to find
            outlined = [q for c in everything if c.support >= MIN_SUPPORT for q in c.hypotheses[0]]
            mask = (cloth_mask if level == CLOTH_CUE else repeat_breaks)(colour_u8, period, outlined)
            blobs = _card_sized(mask, frame_area)
            fit = partial(_cloth_cards, frame_area=frame_area, colour_u8=colour_u8, grad=gradient(), period=period)
        else:
            blobs = table_blobs  # found once: the early stop asks of them after every cue
        # An edge map's blob may hold a plank seam the card's outline runs into. Not on checks: the
        # cloth cue reads those cards, and a blob of checks cut at its spurs looks like a card.
        spurs = (level < len(EDGE_LEVELS) or level == WIPED_CUE) and not period
        found, others = _blobs(blobs, frame_area, colour_u8, everything, fit, spurs,
                               REPEAT_TRUST if level == REPEAT_CUE else 1.0, least_card(everything))
        everything += found
        if level == len(EDGE_LEVELS):
            strays += [b for b in others if hand_like(b, colour_u8.shape[:2])]
            off_table = bool(found or others)
        explained = explained or all_settled(table_blobs, everything)
    kept = merge(everything)
    if period:  # on checks a card's outline is often lost in the net but its art's panel is not
        kept = [_to_rim(c, gradient(), colour_u8) for c in kept]
    kept = [with_stretches(c, gradient) for c in kept]
    clutter = uncovered(strays, [q for c in kept for q in c.hypotheses[0]], colour_u8.shape[:2])
    per_px = np.array([w / colour_u8.shape[1], h / colour_u8.shape[0]])
    # Elsewhere a light card on a light table may show only its art's panel: its rim, in reserve
    # (made only when the reader asks: it seldom does).
    full = tuple(Candidate(_in_frame(c.hypotheses, per_px), c.support,
                           None if period else partial(_rims, c.hypotheses, gradient, per_px),
                           _in_frame(c.wraps, per_px), c.halving and partial(_halved, c, per_px)) for c in kept)
    return Detection(full, clutter, gradient, per_px, off_table, tuple(strays))
