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

__all__ = ["CARD_H", "CARD_W", "CardQuad", "corners", "plausible", "quad_from_corners",
           "straighten", "within_margin"]

#: The straightened card's size in pixels (a poker card is 63 x 88 mm).
CARD_W = 180
CARD_H = 252

#: The card fills 55-90% of the frame height; allow some slack either side.
_MIN_HEIGHT_FRACTION = 0.40
_MAX_HEIGHT_FRACTION = 1.02
#: A card is 0.716 wide for its height; the lips may hide a few percent of the width.
_MIN_ASPECT = 0.52
_MAX_ASPECT = 0.86
#: The card stands within about 6 degrees of upright and the camera's tilt slants its sides
#: up to some 10 degrees more (RIG.md; 10.6 at most over 400 simulated hard scenes): a side
#: further from its axis than this is an outline gone wrong (a court card's diagonal sword,
#: glare cut off at a slant).
_MAX_SLANT_DEG = 16.0
_MAX_SLANT = math.tan(math.radians(_MAX_SLANT_DEG))  # as rise over run
#: Turning a card does not shear it, and the camera's tilt barely does: the card's mean
#: across and mean down directions stay within 2.5 degrees of square over 400 simulated
#: hard scenes (3.4 with the camera turned 10 and tilted 15). An outline sheared further
#: has a side that ran off the card's edge (a kde-penguins 8C's top and bottom, 11 degrees
#: off square, cut both 8s, and each was read as a 9).
_MAX_SHEAR_DEG = 6.0


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


def plausible(quad: CardQuad, frame_height: int, square: bool = True) -> bool:
    """Whether the outline can be the card's in a frame ``frame_height`` high: portrait and
    near upright by the box's construction, as large as the camera's mount makes it, and
    (``square``) not sheared."""
    if not _MIN_HEIGHT_FRACTION * frame_height <= quad.height <= (
            _MAX_HEIGHT_FRACTION * frame_height):
        return False
    if not _MIN_ASPECT <= quad.width / quad.height <= _MAX_ASPECT:
        return False
    # Top and bottom run across (angle from the x axis), left and right down (from y).
    c = quad.corners
    for i in range(4):
        (xa, ya), (xb, yb) = c[i], c[(i + 1) % 4]
        run, rise = (xb - xa, yb - ya) if i % 2 == 0 else (yb - ya, xb - xa)
        if abs(rise) > _MAX_SLANT * max(abs(run), 1e-6):
            return False
    return not square or quad.shear_deg <= _MAX_SHEAR_DEG


#: A straightened card's corners, in the order of CardQuad's.
_STRAIGHT = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], dtype=np.float32)


def straighten(frame: np.ndarray, quad: CardQuad) -> np.ndarray:
    """The card warped to CARD_H x CARD_W, top-left corner at the origin."""
    matrix = cv2.getPerspectiveTransform(quad.array(), _STRAIGHT)
    return cv2.warpPerspective(
        frame, matrix, (CARD_W, CARD_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def trimmed(quad: CardQuad, top: float, right: float, bottom: float, left: float) -> CardQuad:
    """The outline with so many pixels of its straightened card (CARD_H x CARD_W) cut off
    each side, in frame pixels."""
    back = cv2.getPerspectiveTransform(_STRAIGHT, quad.array())
    kept = np.array([[left, top], [CARD_W - right, top], [CARD_W - right, CARD_H - bottom],
                     [left, CARD_H - bottom]], dtype=np.float32)
    return quad_from_corners(cv2.perspectiveTransform(kept[None], back)[0])


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
