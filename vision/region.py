"""The card's bright region in the locator's small picture of the frame (vision.locate):
the paper at one level or another, what joins it cut off, its largest blob.
"""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np

from vision.pixels import brightest_channel, darkest_channel

__all__ = ["card_masks", "closings", "cut_arms", "hull_if_solid", "largest_blob",
           "largest_blobs", "runs_off_picture"]

#: A share of the frame too small to split again for the card's level (locate).
_LEAST_PART = 0.05
#: Arms narrower than this share of the card's width are cut off it (a thumb is a third).
_ARM = 0.45
#: An arm is at least this share of the blob (what the opening cuts off a corner is less).
_ARM_AREA = 0.02


def card_masks(small: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The card face's pixels, and its white alone: at the level that best splits the
    darkest channel (Otsu's method), then (made only if asked for) at the levels that best
    split what lies above it and what lies below it.

    The box around the card is dull grey metal: neither bright nor saturated. A warm or
    cool light lifts one channel; the darkest channel tells the card's white from it.
    """
    lowest, highest = darkest_channel(small), brightest_channel(small)
    whiteness = cv2.GaussianBlur(lowest, (3, 3), 0)
    saturation = highest.astype(np.int16) - lowest
    level = _otsu(whiteness)
    for at in (level, *_levels_either_side(whiteness, level)):
        white = whiteness > at
        # Court figures and big pips: saturated ink, brighter than the metal's shadowed grey.
        printed = (saturation > 70) & (highest > 0.8 * at)
        mask = (white | printed).astype(np.uint8) * 255
        # Close over thin dark lines of the print, not over the metal's width.
        yield cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)), white


def _otsu(values: np.ndarray) -> float:
    """The level that best splits ``values`` (8-bit) in two (Otsu's method)."""
    level, _ = cv2.threshold(values.reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return float(level)


def _levels_either_side(whiteness: np.ndarray, level: float) -> Iterator[float]:
    """The levels that best split what lies above ``level``, then what lies below it."""
    for part in (whiteness[whiteness > level], whiteness[whiteness <= level]):
        if part.size >= _LEAST_PART * whiteness.size:
            yield _otsu(part)


def closings(mask: np.ndarray) -> Iterator[np.ndarray]:
    """The mask, then (made only if needed) the mask closed over wider print.

    A row of print running into the card's shaded edge (an index beside a pip) can cut the
    card's white in two: closing joins it again, with kernels still narrower than the metal.
    """
    yield mask
    for size in (5, 7):
        yield cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((size, size), np.uint8))


def hull_if_solid(contour: np.ndarray, least: float) -> np.ndarray | None:
    """The outline's convex hull, if the outline fills at least ``least`` of it."""
    hull = cv2.convexHull(contour)
    return hull if cv2.contourArea(contour) >= least * cv2.contourArea(hull) else None


def largest_blob(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The largest blob of a mask: its outline, and the blob filled."""
    largest = largest_blobs(mask, 1)
    return largest[0] if largest else None


def largest_blobs(mask: np.ndarray, most: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The ``most`` largest blobs of a mask, largest first: each its outline and the blob
    filled."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    blobs = []
    for contour in sorted(contours, key=cv2.contourArea, reverse=True)[:most]:
        blob = np.zeros(mask.shape, np.uint8)
        cv2.drawContours(blob, [contour], -1, 1, cv2.FILLED)
        blobs.append((contour, blob))
    return blobs


def runs_off_picture(blob: np.ndarray) -> bool:
    """The blob reaches the picture's edge: a hand on the card (the box's frame lies
    between the card and the picture's edge)."""
    return bool(blob[[0, -1], :].any() or blob[:, [0, -1]].any())


def cut_arms(blob: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The blob without the arms narrower than the card that run off the picture (the
    dealer's thumb and hand), and those arms (none, maybe: the blob is then kept whole).

    An opening by a disc keeps straight sides whole and only rounds the corners, which
    the sides are not fitted to. (Not on every card: its print at its edge would widen
    into deep bays.)
    """
    rows = np.count_nonzero(blob, axis=1)
    size = int(_ARM * float(np.median(rows[rows > 0]))) | 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    kept = cv2.morphologyEx(blob, cv2.MORPH_OPEN, disc)
    # The corners' rounding is cut off too, in slivers: an arm is larger.
    _, labels, stats, _ = cv2.connectedComponentsWithStats(cv2.subtract(blob, kept))
    large = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] >= _ARM_AREA * np.count_nonzero(blob))
    arms = np.isin(labels, large[large > 0])
    return (kept, arms) if arms.any() else (blob, arms)
