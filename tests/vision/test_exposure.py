"""An underexposed frame seen brighter (vision.exposure), and read so when it named nothing as it came."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.conftest import AT_REST, bench_pair_at_rest, bench_terrain_reader
from vision.exposure import DIM_LIGHT, MAX_GAIN, USUAL_LIGHT, brightened, light
from vision.photo import take_photo
from vision.tables import TableTop


def _ycrcb(grey: np.ndarray, cr: int = 128, cb: int = 128) -> np.ndarray:
    """A YCrCb image of this grey (Y) with one chroma everywhere."""
    return np.dstack([grey, np.full_like(grey, cr), np.full_like(grey, cb)]).astype(np.uint8)


def test_a_frames_light_is_the_level_under_which_nearly_all_of_it_lies() -> None:
    """A few glints do not set the light: 99% of the pixels do."""
    grey = np.full((100, 100), 60, np.uint8)
    grey[:1, :50] = 250  # half a percent of glints
    assert light(_ycrcb(grey)) == 60


@pytest.mark.parametrize("level", [DIM_LIGHT, 160, 230])
def test_a_frame_lit_well_enough_is_not_brightened(level) -> None:
    """Only an underexposed frame is seen brighter: a well-lit one keeps its outlines as they are."""
    assert brightened(_ycrcb(np.full((50, 50), level, np.uint8))) is None


def test_a_dim_frame_is_brightened_to_the_usual_light_colours_kept() -> None:
    """Light and the colours' distance from grey grow by one gain, as a longer exposure makes them."""
    grey = np.tile(np.linspace(10, 80, 100, dtype=np.float32), (100, 1)).astype(np.uint8)
    seen = brightened(_ycrcb(grey, cr=138, cb=123))
    assert seen is not None
    assert abs(light(seen) - USUAL_LIGHT) <= 3
    gain = seen[..., 0].astype(float).max() / grey.max()
    assert seen[0, 0, 1] == pytest.approx(128 + 10 * gain, abs=1) and seen[0, 0, 2] == pytest.approx(128 - 5 * gain, abs=1)


def test_a_nearly_black_frame_gains_no_more_than_max_gain() -> None:
    """A frame of noise stays noise: its gain is capped."""
    seen = brightened(_ycrcb(np.full((50, 50), 5, np.uint8)))
    assert seen is not None and seen[0, 0, 0] == round(5 * MAX_GAIN)


def test_the_benchmarks_dim_chalk_pair_on_the_hexagon_mat_is_read(tmp_path) -> None:
    """The benchmark's chalk pair at rest 0 on the hexagon mat (seed 20261160), its light at 73: two dark
    cards touching on a dark mat, no edge strong enough to outline them, nothing found. Seen brighter,
    both are outlined and named."""
    pair, photo = bench_pair_at_rest("chalk", 20261160, TableTop.MAT_HEX, 0)
    assert light(cv2.cvtColor(photo.image, cv2.COLOR_BGR2YCrCb)) < DIM_LIGHT
    assert sorted(bench_terrain_reader("chalk", 20261160, tmp_path).read(photo.image).named) == sorted(pair)


@pytest.mark.parametrize("top", [TableTop.MAT_HEX, TableTop.WOOD_DARK, TableTop.CHECK_BLUE])
def test_an_empty_table_in_a_dim_room_reads_empty(reader, top) -> None:
    """Brightened, a table's grain, grid or checks are no card: an empty dim table stays empty, so the
    scanner rests."""
    photo = take_photo([], np.random.default_rng(3), AT_REST, top=top)
    dim = cv2.convertScaleAbs(photo.image, alpha=0.3)
    assert light(cv2.cvtColor(dim, cv2.COLOR_BGR2YCrCb)) < DIM_LIGHT
    assert reader.read(dim).named == ()
