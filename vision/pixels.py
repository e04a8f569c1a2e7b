"""Per-pixel statistics, made quick where numpy's own are slow on small images.

numpy's ``min(axis=2)`` over three interleaved channels took some 4 ms on a 320 x 240 frame
on one core, against 0.05 ms for OpenCV's elementwise minimum of the split planes; and
``np.percentile`` sorts, where a partial sort will do. The results are the same.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["LIT", "brightest_channel", "darkest_channel", "lit_channels", "ninetieth",
           "paper_colour"]

#: A channel whose paper is darker than this share of the brightest channel's carries mostly
#: the sensor's noise, not the print: blue under candle light with the camera's white balance
#: off (paper at 14-36 grey levels against a red one at 255, noise 6-13). Within RIG.md's
#: ranges the least share over a whole face was 0.30 (2700 K, a fifth of the cast removed,
#: the dimmest exposure).
LIT = 0.2


def darkest_channel(image: np.ndarray) -> np.ndarray:
    """The per-pixel minimum of a three-channel image's channels."""
    b, g, r = cv2.split(image)
    out: np.ndarray = cv2.min(cv2.min(b, g), r)
    return out


def brightest_channel(image: np.ndarray) -> np.ndarray:
    """The per-pixel maximum of a three-channel image's channels."""
    b, g, r = cv2.split(image)
    out: np.ndarray = cv2.max(cv2.max(b, g), r)
    return out


def ninetieth(values: np.ndarray) -> np.ndarray:
    """``np.percentile(values, 90, axis=0)``, interpolated alike, from a partial sort."""
    at = 0.9 * (len(values) - 1)
    lo = int(at)
    hi = min(lo + 1, len(values) - 1)
    part = np.partition(values, (lo, hi), axis=0)
    out: np.ndarray = part[lo] + (at - lo) * (part[hi] - part[lo])
    return out


def paper_colour(image: np.ndarray, step: int) -> np.ndarray:
    """The colour (B, G, R) of the paper in a BGR image that is mostly paper: each channel's
    90th percentile over every ``step``-th pixel each way (the paper changes slowly)."""
    return ninetieth(image[::step, ::step].reshape(-1, 3).astype(np.float32))


def lit_channels(paper: np.ndarray, share: float = LIT) -> np.ndarray:
    """Which channels of a paper colour (B, G, R) are lit: at least ``share`` of the
    brightest (LIT unless told)."""
    lit: np.ndarray = paper >= share * paper.max()
    return lit
