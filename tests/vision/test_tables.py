"""Table tops: seeded, split into tuning and held-out groups, and with the statistics they claim."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.tables import CHECK_MM, HELD_OUT_TOPS, TUNING_TOPS, TableTop, fbm, render_top

PPM = 2.0  # px per mm, about a card at 30% of a 720p frame
SHAPE = (320, 480)  # 160 x 240 mm of table


def _grey(img: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)


def _spectrum_slope(grey: np.ndarray) -> float:
    """Slope of the radially averaged power spectrum in log-log (natural photos: about -2)."""
    g = (grey - grey.mean()) * np.outer(np.hanning(grey.shape[0]), np.hanning(grey.shape[1]))
    power = np.abs(np.fft.fftshift(np.fft.fft2(g))) ** 2
    y, x = np.indices(power.shape)
    r = np.hypot(x - grey.shape[1] // 2, y - grey.shape[0] // 2).astype(int)
    radial = np.bincount(r.ravel(), power.ravel()) / np.maximum(np.bincount(r.ravel()), 1)
    f = np.arange(len(radial))
    sel = (f >= 4) & (f <= min(grey.shape) // 4)
    return float(np.polyfit(np.log(f[sel]), np.log(radial[sel]), 1)[0])


def _gradient_energy(grey: np.ndarray) -> tuple[float, float]:
    gx, gy = cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    return float((gx**2).mean()), float((gy**2).mean())


def _orientation_peaks(grey: np.ndarray) -> int:
    """How many strong edge directions (mod 180 degrees) the image has."""
    gx, gy = cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    mag = np.hypot(gx, gy)
    ang = np.degrees(np.arctan2(gy, gx)) % 180
    strong = mag > np.percentile(mag, 90)
    hist = np.bincount((ang[strong] // 5).astype(int) % 36, minlength=36).astype(float)
    hist = np.convolve(np.r_[hist[-2:], hist, hist[:2]], np.ones(5) / 5, "valid")
    return sum(1 for i in range(36) if hist[i] >= hist[i - 1] and hist[i] > hist[(i + 1) % 36]
               and hist[i] > 0.5 * hist.max())


def test_tops_are_split_into_tuning_and_held_out_groups() -> None:
    """Every top is in exactly one group, and each family has a held-out member."""
    assert set(TUNING_TOPS) | set(HELD_OUT_TOPS) == set(TableTop)
    assert not set(TUNING_TOPS) & set(HELD_OUT_TOPS)
    held = {t.value.split("-")[0] for t in HELD_OUT_TOPS}
    assert {"wood", "felt", "check", "mat", "marble", "birch"} <= held


@pytest.mark.parametrize("top", list(TableTop))
def test_every_top_is_seeded_and_varies_from_draw_to_draw(top: TableTop) -> None:
    """The same seed gives the same patch; the next draw is another variant of the family."""
    a = render_top(top, (120, 160), PPM, np.random.default_rng(3))
    assert np.array_equal(a, render_top(top, (120, 160), PPM, np.random.default_rng(3)))
    assert a.shape == (120, 160, 3) and a.dtype == np.uint8
    assert not np.array_equal(a, render_top(top, (120, 160), PPM, np.random.default_rng(4)))


@pytest.mark.parametrize("persistence", [0.5, 0.7, 1.0])
def test_fractal_noise_has_the_spectrum_its_persistence_names(persistence: float) -> None:
    """fbm's power spectrum falls as f^(2 log2(p) - 2): p = 1 is natural images' 1/f."""
    field = fbm(np.random.default_rng(1), (256, 256), 1.0, 128.0, persistence)
    expected = 2 * math.log2(persistence) - 2
    assert abs(_spectrum_slope(field) - expected) < 0.9
    assert 0.5 < float(field.std()) < 1.5


@pytest.mark.parametrize("top", [TableTop.WOOD_LIGHT, TableTop.WOOD_MID, TableTop.WOOD_DARK])
def test_wood_has_strong_grain_along_its_planks_in_both_directions(top: TableTop) -> None:
    """Wood is strongly anisotropic (grain), contrasted, and planks run either way."""
    directions = set()
    for seed in range(4):
        grey = _grey(render_top(top, SHAPE, PPM, np.random.default_rng(seed)))
        ex, ey = _gradient_energy(grey)
        assert max(ex, ey) / min(ex, ey) > 4 and grey.std() > 7
        directions.add(ex > ey)
    assert directions == {True, False}


def test_felt_is_even_and_fine_grained() -> None:
    """Felt has no direction, little contrast, and its detail is fine (a flat, whitish spectrum)."""
    for top in (TableTop.FELT_GREEN, TableTop.FELT_RED):
        grey = _grey(render_top(top, SHAPE, PPM, np.random.default_rng(2)))
        ex, ey = _gradient_energy(grey)
        assert max(ex, ey) / min(ex, ey) < 1.3 and 2 < grey.std() < 20
        assert _spectrum_slope(grey) > -1.5


@pytest.mark.parametrize("top", [TableTop.CHECK_RED, TableTop.CHECK_BLUE])
def test_checked_cloth_repeats_at_its_check_size(top: TableTop) -> None:
    """Gingham's strongest period along a row lies within the drawn check sizes, with high contrast."""
    for seed in range(3):
        grey = _grey(render_top(top, (400, 800), PPM, np.random.default_rng(seed)))
        rows = (grey - grey.mean(axis=1, keepdims=True)) * np.hanning(grey.shape[1])
        power = np.abs(np.fft.rfft(rows, axis=1)).sum(axis=0)  # summed per row: the askew lay does not smear it
        lowest = int(grey.shape[1] / (2 * CHECK_MM[1] * PPM))  # folds are broader than any check
        k = int(np.argmax(power[lowest:])) + lowest
        period_mm = grey.shape[1] / k / PPM
        assert CHECK_MM[0] * 0.8 < period_mm < CHECK_MM[1] * 1.25 and grey.std() > 25


def test_mats_are_dark_with_a_printed_grid_of_hexagons_or_squares() -> None:
    """Mats are dark; the hex grid has three edge directions, the square grid two."""
    for top, directions in ((TableTop.MAT_HEX, 3), (TableTop.MAT_SQUARE, 2)):
        for seed in range(3):
            grey = _grey(render_top(top, (400, 600), 3.0, np.random.default_rng(seed)))
            assert grey.mean() < 80
            assert _orientation_peaks(grey) == directions, (top, seed)


@pytest.mark.parametrize("top", [TableTop.LAMINATE, TableTop.MARBLE, TableTop.BIRCH])
def test_light_tables_are_light(top: TableTop) -> None:
    """Laminate, marble and birch are light tables."""
    for seed in range(3):
        assert _grey(render_top(top, SHAPE, PPM, np.random.default_rng(seed))).mean() > 150
