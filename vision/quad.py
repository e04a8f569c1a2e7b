"""The card's outline in the frame, and the straightened card cut from it.

>>> card = straighten(frame, quad)            # doctest: +SKIP
>>> top_left, bottom_right = corners(card, 0.2, 0.3)   # doctest: +SKIP
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.pixels import paper_colour

__all__ = ["CARD_H", "CARD_W", "CardQuad", "corners", "quad_from_corners", "straighten",
           "within_margin"]

#: The straightened card's size in pixels (a poker card is 63 x 88 mm).
CARD_W = 180
CARD_H = 252


@dataclass(frozen=True, slots=True)
class CardQuad:
    """The card's outline in the frame: corners top-left, top-right, bottom-right,
    bottom-left (portrait, as the camera sees it), in frame pixels."""

    corners: tuple[tuple[float, float], ...]
    #: Fitted to the hull of the card's region (under a thumb, where the sides were not
    #: found, or the region's bay closed over): no side of it was found as such, so it may
    #: lie off the card at a corner.
    fitted: bool = False

    def array(self) -> np.ndarray:
        return np.array(self.corners, dtype=np.float32)

    def scaled(self, factor: float) -> CardQuad:
        """The outline in a copy of the frame resized by ``factor``."""
        if factor == 1.0:
            return self
        corners = tuple(((x + 0.5) * factor - 0.5, (y + 0.5) * factor - 0.5)
                        for x, y in self.corners)
        return replace(self, corners=corners)

    @property
    def shear_deg(self) -> float:
        """How far the outline's mean across and mean down directions are from square, in
        degrees: 0 for a rectangle however it is turned."""
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = self.corners
        top, bottom = _unit(x1 - x0, y1 - y0), _unit(x2 - x3, y2 - y3)  # left to right
        left, right = _unit(x3 - x0, y3 - y0), _unit(x2 - x1, y2 - y1)  # top to bottom
        across = (top[0] + bottom[0], top[1] + bottom[1])
        down = (left[0] + right[0], left[1] + right[1])
        cosine = (across[0] * down[0] + across[1] * down[1]) / max(
            math.hypot(*across) * math.hypot(*down), 1e-9)
        return 90.0 - math.degrees(math.acos(min(abs(cosine), 1.0)))

    @property
    def height(self) -> float:
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = self.corners
        return (math.hypot(x3 - x0, y3 - y0) + math.hypot(x2 - x1, y2 - y1)) / 2

    @property
    def width(self) -> float:
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = self.corners
        return (math.hypot(x1 - x0, y1 - y0) + math.hypot(x2 - x3, y2 - y3)) / 2


def _unit(dx: float, dy: float) -> tuple[float, float]:
    length = max(math.hypot(dx, dy), 1e-9)
    return dx / length, dy / length


def quad_from_corners(points: np.ndarray) -> CardQuad:
    """Order four points as top-left, top-right, bottom-right, bottom-left."""
    # In plain floats: numpy's overhead on four points was most of the outline's checks.
    pts = np.asarray(points, dtype=np.float32).reshape(4, 2).tolist()
    cx, cy = sum(x for x, _ in pts) / 4, sum(y for _, y in pts) / 4
    pts.sort(key=lambda p: math.atan2(p[1] - cy, p[0] - cx))  # clockwise from near -180°
    # Start from the corner with the smallest x + y: the top-left one.
    start = min(range(4), key=lambda i: pts[i][0] + pts[i][1])
    return CardQuad(tuple((x, y) for x, y in pts[start:] + pts[:start]))


def straighten(frame: np.ndarray, quad: CardQuad) -> np.ndarray:
    """The card warped to CARD_H x CARD_W, top-left corner at the origin."""
    dst = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(quad.array(), dst)
    return cv2.warpPerspective(
        frame, matrix, (CARD_W, CARD_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def corners(card: np.ndarray, width: float, height: float) -> tuple[np.ndarray, np.ndarray]:
    """The top-left corner of a straightened card and its bottom-right one turned half round,
    each ``width`` x ``height`` (shares of the card): both show an index the right way up,
    whichever way the card lies."""
    if card.shape[:2] != (CARD_H, CARD_W):
        raise ValueError(f"expected a straightened card {CARD_H}x{CARD_W}, got {card.shape}")
    w, h = round(width * CARD_W), round(height * CARD_H)
    return card[:h, :w], np.ascontiguousarray(card[CARD_H - h:, CARD_W - w:][::-1, ::-1])


def within_margin(card: np.ndarray, margin: float) -> np.ndarray:
    """A straightened card shrunk to leave ``margin`` (a share of each side) of its own
    paper all round it: an index printed nearer the card's edge than most decks print it
    then stands where the index network learned to read one."""
    top, side = round(margin * CARD_H), round(margin * CARD_W)
    paper = [float(v) for v in paper_colour(card, 4)]
    framed = cv2.copyMakeBorder(card, top, top, side, side, cv2.BORDER_CONSTANT, value=paper)
    return cv2.resize(framed, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)
