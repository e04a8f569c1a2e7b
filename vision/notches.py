"""Print against the paper, and the notches of a suit's outline: what tells a spade from a
club in the middle's pips (:mod:`vision.crosscheck`) and in the corner's glyph
(:mod:`vision.corner_suit`)."""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["DARK", "ink_levels", "notch_depths"]

#: Ink is darker than this share of the paper around it.
DARK = 0.62


def ink_levels(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's darkest and brightest channel as a share of the paper around it.

    The paper around each pixel is a wide maximum, smoothed; dividing by it takes away
    gradients and the colour cast of the light. Shares are clipped to 1 (glare is paper).
    """
    img = image.astype(np.float32) + 1.0
    paper = cv2.GaussianBlur(cv2.dilate(image, np.ones((9, 9), np.uint8)).astype(np.float32)
                             + 1.0, (0, 0), 3)
    b, g, r = cv2.split(cv2.divide(img, paper))
    # Compared per pixel with numpy's elementwise minimum (fast on one core).
    lo = np.minimum(np.minimum(np.minimum(b, g), r), 1.0)
    hi = np.minimum(np.maximum(np.maximum(b, g), r), 1.0)
    return lo, hi


def notch_depths(blob: np.ndarray) -> tuple[float, float]:
    """The third and fourth deepest notches in a blob's outline, by the square root of its
    hull's area (NaN for an outline that touches itself).

    A club has four deep notches (between its three leaves, and each side of the stem); a
    spade only the two beside its stem. Whatever the typeface, the third and fourth notch
    tell them apart, and they do not depend on which way up the pip stands.
    """
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    outline = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(outline, returnPoints=False)
    size = float(np.sqrt(max(cv2.contourArea(cv2.convexHull(outline)), 1.0)))
    if len(hull) < 4:
        return 0.0, 0.0
    try:
        defects = cv2.convexityDefects(outline, hull)
    except cv2.error:  # a self-touching outline: no opinion
        return float("nan"), float("nan")
    if defects is None:
        return 0.0, 0.0
    depths = [*sorted(defects.reshape(-1, 4)[:, 3] / 256.0 / size, reverse=True), 0.0, 0.0, 0.0]
    return float(depths[2]), float(depths[3])
