"""Which pixels of a frame are table: the table's own colours, learnt from the frame's border band
(where cards rarely lie) by k-means, and every pixel near one of them after a median filter that
wipes out grain lines and grid lines. What is far from every table colour is a card, a hand or
something else on the table (vision.detect reads its blobs; vision.lone, enrollment's search, also
takes nearer distances)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.sides import UNIT_LEVELS, colour_units

TABLE_BAND = 0.06  # share of each frame side taken as table when learning its colours
TABLE_COLOURS = 4  # k-means clusters of the table's colours: wood tones, check colours, grid lines
TABLE_MEDIAN_PX = 3  # median filter (half-work px): wider than grain and grid lines, narrower than a card edge band
TABLE_SEED = 0x7AB1E  # fixed k-means++ seed (any constant): readings must not depend on earlier ones
TABLE_SAMPLES = 3000  # border pixels the table's colours are learnt from: plenty for 4 clusters
TABLE_SPREAD_MIN = 4.0  # colour units (YCrCb, chroma scaled): a flat felt still varies this much (noise, light fall-off)
TABLE_MIN_SHARE = 0.05  # share of the border band a table colour holds at least: a card or an arm
# reaching into the band holds less (an arm across one side is ~3% of the band), the table's
# darkest grain lines or check crossings ~3-10%, whose pixels the median filter then mostly wipes out
TABLE_DISTANCE = 3.5  # a pixel this many spreads from every table colour is not table
_OPEN_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))  # specks and gaps a few work px across


def table_mask(colour_u8: np.ndarray, min_share: float = TABLE_MIN_SHARE) -> np.ndarray:
    """Mask of what is far from every colour of the table (learnt from the frame's border band;
    a colour holding less than min_share of the band is not taken for the table's).

    Runs at half the work size: it only has to tell regions apart, edge support then ranks them.
    """
    return table_masks(colour_u8, min_share, (TABLE_DISTANCE,))[0]


def table_masks(colour_u8: np.ndarray, min_share: float, distances: tuple[float, ...]) -> list[np.ndarray]:
    """table_mask at each of these distances (in spreads of a table colour), the colours learnt once."""
    half = cv2.resize(colour_u8, (colour_u8.shape[1] // 2, colour_u8.shape[0] // 2), interpolation=cv2.INTER_AREA)
    smooth = cv2.medianBlur(half, TABLE_MEDIAN_PX)
    h, w = smooth.shape[:2]
    bh, bw = max(2, round(h * TABLE_BAND)), max(2, round(w * TABLE_BAND))
    band = np.concatenate([smooth[:bh].reshape(-1, 3), smooth[-bh:].reshape(-1, 3),
                           smooth[:, :bw].reshape(-1, 3), smooth[:, -bw:].reshape(-1, 3)])
    band = colour_units(band[:: max(1, len(band) // TABLE_SAMPLES)])  # each pixel's own look-up: sampled first
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_MAX_ITER, 10, 1.0)
    # OpenCV seeds k-means++ from its global generator: reset it, so the same frame always gives
    # the same mask whatever was read before it.
    cv2.setRNGSeed(TABLE_SEED)
    _, labels, centres = cv2.kmeans(band, TABLE_COLOURS, None, criteria, 1, cv2.KMEANS_PP_CENTERS)
    labels = labels.ravel()
    shares = np.bincount(labels, minlength=TABLE_COLOURS) / len(labels)
    # Each colour's spread: the 90th percentile of its pixels' distance (a card in the band is an outlier)
    sq = band - centres[labels]
    sq *= sq
    own = sq[:, 0] + sq[:, 1] + sq[:, 2]  # the three in turn, as a sum over the row adds them; numpy is slow on that axis
    tables = [np.zeros((h, w), bool) for _ in distances]
    channels = cv2.split(smooth)  # looked up one channel at a time: no strided sums over interleaved channels
    for k, centre in enumerate(centres):
        if shares[k] < min_share:
            continue  # not the table's own colour: a card or an arm reaching into the border band
        mine = own[labels == k]
        spread2 = max(TABLE_SPREAD_MIN**2, float(np.partition(mine, int(0.9 * (len(mine) - 1)))[int(0.9 * (len(mine) - 1))])) \
            if len(mine) else TABLE_SPREAD_MIN**2
        # Each channel's squared distance from the centre depends on the pixel's level alone: looked up.
        levels = (UNIT_LEVELS - centre) ** 2
        d2 = cv2.LUT(channels[0], levels[..., 0].copy())
        d2 += cv2.LUT(channels[1], levels[..., 1].copy())  # added in place, in the same order
        d2 += cv2.LUT(channels[2], levels[..., 2].copy())
        for table, distance in zip(tables, distances, strict=True):
            table |= d2 <= distance**2 * spread2
    return [_far_from(table, colour_u8.shape) for table in tables]


def _far_from(table: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The work-size mask of what a half-size table mask does not hold, its specks opened and gaps closed."""
    mask = cv2.resize((~table).astype(np.uint8) * 255, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _OPEN_KERNEL)
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _OPEN_KERNEL)
