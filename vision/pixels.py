"""Per-pixel statistics, made quick where numpy's own are slow on small images, and each
pixel's ink against the paper around it (:func:`ink_levels`: the index corners' glyphs, the
pips and the card's middle are all found by it).

numpy's ``min(axis=2)`` over three interleaved channels took some 4 ms on a 320 x 240 frame
on one core, against 0.05 ms for OpenCV's elementwise minimum of the split planes; and
``np.percentile`` sorts, where a partial sort will do. The results are the same.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["DARK", "LIT", "brightest_channel", "darkest_channel", "ink_levels", "lit_channels",
           "ninetieth", "paper_colour"]

#: A channel whose paper is darker than this share of the brightest channel's carries mostly
#: the sensor's noise, not the print: blue under candle light with the camera's white balance
#: off (paper at 14-36 grey levels against a red one at 255, noise 6-13). Within RIG.md's
#: ranges the least share over a whole face was 0.30 (2700 K, a fifth of the cast removed,
#: the dimmest exposure).
LIT = 0.2
#: Ink is darker than this share of the paper around it.
DARK = 0.62
#: The paper is found at 1/n of the resolution for every this many pixels of reach.
_COARSE_REACH = 10
#: The paper closed over print (ink_levels(closed=True)) is smoothed by a Gaussian of this
#: many pixels: the closing leaves it in flat steps.
_CLOSED_SMOOTHING = 3.0


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


def ink_levels(image: np.ndarray, reach: int = 9, closed: bool = False
               ) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's darkest and brightest channel as a share of the paper around it.

    The paper around each pixel is the brightest within ``reach`` pixels (a square), smoothed;
    dividing by it takes away gradients and the colour cast of the light. Print wider than
    ``reach`` looks pale inside. Shares are clipped to 1 (glare is paper).

    ``closed`` finds the paper instead as the picture with its print narrower than ``reach``
    closed over (the brightest within it, then the darkest within that): a glare keeps its
    own edge, where the brightest around would spread it ``reach`` pixels out and the paper
    beside it would look dark as print.
    """
    img = image.astype(np.float32) + 1.0
    if closed:
        near = cv2.morphologyEx(image, cv2.MORPH_CLOSE, np.ones((reach, reach), np.uint8))
        paper = cv2.GaussianBlur(near.astype(np.float32) + 1.0, (0, 0), _CLOSED_SMOOTHING)
    else:
        paper = _brightest_around(image, reach)
    b, g, r = cv2.split(cv2.divide(img, paper))
    # Compared per pixel with numpy's elementwise minimum (fast on one core).
    lo = np.minimum(np.minimum(np.minimum(b, g), r), 1.0)
    hi = np.minimum(np.maximum(np.maximum(b, g), r), 1.0)
    return lo, hi


def _brightest_around(image: np.ndarray, reach: int) -> np.ndarray:
    """The brightest within ``reach`` pixels of each pixel, blurred as widely (plus one)."""
    near = cv2.dilate(image, np.ones((reach, reach), np.uint8))
    # Blurred this widely the paper changes slowly, so a wide reach finds it at a fraction
    # of the resolution: at a quarter (reach 41) the levels move by 1.5% at most, and the
    # blur, most of the time spent here, takes a sixth as long.
    step = max(1, reach // _COARSE_REACH)
    h, w = image.shape[:2]
    if step > 1:
        near = cv2.resize(near, (-(-w // step), -(-h // step)), interpolation=cv2.INTER_AREA)
    paper = cv2.GaussianBlur(near.astype(np.float32) + 1.0, (0, 0), reach / 3 / step)
    if step > 1:
        paper = cv2.resize(paper, (w, h), interpolation=cv2.INTER_LINEAR)
    return paper
