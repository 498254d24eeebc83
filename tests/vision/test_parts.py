"""Twins' regions glyph by glyph (vision.parts): each part compared with the card at its own shift."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.features import glyph_shape
from vision.parts import REGION_REACH, Parts

H, W = glyph_shape()
LEFT, RIGHT = (20, 20), (20, 90)  # (row, column) of two glyph places, far apart as a letter and a points digit


def _layout(marks: dict[tuple[int, int], str], shift: dict[tuple[int, int], tuple[int, int]] | None = None) -> np.ndarray:
    """A glyph layout (zero mean, unit norm) with a digit drawn at each place, some places moved."""
    img = np.zeros((H, W), np.uint8)
    for (y, x), text in marks.items():
        dy, dx = (shift or {}).get((y, x), (0, 0))
        cv2.putText(img, text, (x + dx, y + dy + 10), cv2.FONT_HERSHEY_SIMPLEX, 0.5, 255, 2)
    img = cv2.GaussianBlur(img.astype(np.float32), (0, 0), 0.8).ravel()
    img -= img.mean()
    return img / np.linalg.norm(img)


def _region(places: list[tuple[int, int]]) -> np.ndarray:
    """A pair's region: a box around each glyph place, as regions.Regions grows it."""
    mask = np.zeros((H, W), bool)
    for y, x in places:
        mask[y - 4:y + 16, x - 4:x + 16] = True
    return mask.ravel()


def _two_twins() -> tuple[np.ndarray, Parts]:
    """Twin a shows 3 and 5, twin b shows 8 and 6, at the same two places."""
    glyphs = np.stack([_layout({LEFT: "3", RIGHT: "5"}), _layout({LEFT: "8", RIGHT: "6"})])
    return glyphs, Parts.cut(glyphs, _region([LEFT, RIGHT])[None], ((0, 1),))


def test_a_twins_own_layout_leads_by_one_and_its_twins_by_minus_one() -> None:
    """Exactly twin a's layout lies all the way toward a (1), twin b's all the way toward b (-1)."""
    glyphs, parts = _two_twins()
    assert parts.leads(glyphs[0])[0] == pytest.approx(1.0, abs=1e-4)
    assert parts.leads(glyphs[1])[0] == pytest.approx(-1.0, abs=1e-4)


@pytest.mark.parametrize("moved", [(0, REGION_REACH), (REGION_REACH, -REGION_REACH), (-2, 1)])
def test_a_glyph_lying_off_on_its_own_is_compared_where_it_lies(moved: tuple[int, int]) -> None:
    """A card whose right glyph lies a millimetre off while the left one sits in place (a corner the
    template did not fit) still leads toward its own twin by almost all the way."""
    _, parts = _two_twins()
    card = _layout({LEFT: "3", RIGHT: "5"}, shift={RIGHT: moved})
    assert parts.leads(card)[0] > 0.9


def test_a_place_where_the_twins_are_alike_weighs_nothing() -> None:
    """A part where both twins show the same glyph tells them apart by nothing: a card that differs
    there from both (glare on the badge) is judged by the glyph that does differ."""
    glyphs = np.stack([_layout({LEFT: "1", RIGHT: "5"}), _layout({LEFT: "1", RIGHT: "6"})])
    parts = Parts.cut(glyphs, _region([LEFT, RIGHT])[None], ((0, 1),))
    alike = int(np.argmax(parts.rho))
    assert parts.rho[alike] == pytest.approx(1.0, abs=1e-4) and parts.weight[alike] < 0.01 * parts.weight.max()
    assert parts.leads(_layout({LEFT: "7", RIGHT: "5"}))[0] > 0.9


def test_pairs_that_differ_at_the_same_places_share_their_parts() -> None:
    """Three twins that all differ at the same two places: three pairs, six entries, two parts."""
    glyphs = np.stack([_layout({LEFT: a, RIGHT: b}) for a, b in ("35", "86", "29")])
    region = _region([LEFT, RIGHT])
    parts = Parts.cut(glyphs, np.stack([region] * 3), ((0, 1), (0, 2), (1, 2)))
    assert len(parts.starts) == 2 and len(parts.pair) == 6
    leads = parts.leads(glyphs[2])
    assert leads[1] < -0.5 and leads[2] < -0.5  # the third twin's own layout leads away from both others


def test_a_coarser_look_keeps_the_parts_and_sees_the_twins_through_it() -> None:
    """Seen through blurred layouts the parts are the same pixels, the twins more alike over them."""
    glyphs, parts = _two_twins()
    blurred = np.stack([cv2.GaussianBlur(g.reshape(H, W), (0, 0), 3).ravel() for g in glyphs])
    coarse = parts.seen_through(blurred)
    assert np.array_equal(coarse.pixels, parts.pixels) and np.array_equal(coarse.starts, parts.starts)
    assert (coarse.rho > parts.rho).all()
    assert coarse.leads(blurred[0])[0] > 0.5  # below 1: a shift fits the blurred other twin closer than in place


def test_regions_on_the_familys_marks_share_each_marks_part() -> None:
    """Pairs whose regions cover the same two glyph places differently (one pair differs at the left
    glyph only, its region cut short) share one part per mark: each glyph is compared once."""
    glyphs = np.stack([_layout({LEFT: a, RIGHT: b}) for a, b in ("35", "85", "86")])
    marks = np.zeros((H, W), np.int32)
    for label, (y, x) in enumerate((LEFT, RIGHT), start=1):
        marks[y - 1:y + 13, x - 1:x + 13] = label  # grown by REGION_REACH, it covers the region's box
    short = np.zeros((H, W), bool)
    short[LEFT[0] - 4:LEFT[0] + 8, LEFT[1] - 4:LEFT[1] + 16] = True
    regions = np.stack([short.ravel(), _region([LEFT, RIGHT]), _region([RIGHT])])
    by_marks = Parts.cut(glyphs, regions, ((0, 1), (0, 2), (1, 2)), marks.ravel())
    assert len(by_marks.starts) == 2 and len(by_marks.pair) == 4
    assert len(Parts.cut(glyphs, regions, ((0, 1), (0, 2), (1, 2))).starts) == 3  # cut along its regions alone
    assert by_marks.leads(glyphs[0])[0] > 0.9 and by_marks.leads(glyphs[2])[2] < -0.9
