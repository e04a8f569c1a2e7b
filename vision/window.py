"""The box's window: where the top card shows in the frame, found from a frame at rest.

>>> window = Window.find(frame)                 # doctest: +SKIP
>>> window.clip(frame).shape                    # doctest: +SKIP
(392, 270, 3)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["Window"]


@dataclass(frozen=True, slots=True)
class Window:
    """The box's window in frame pixels: where the top card shows."""

    x: int
    y: int
    w: int
    h: int

    @classmethod
    def find(cls, frame: np.ndarray, *, inset: float = 0.06) -> Window | None:
        """The bright card lying in a frame at rest, shrunk by ``inset`` on each side.

        The card is the largest bright region shaped like a portrait card that touches at
        most one side of the frame (the box's dark frame surrounds it; a light table cloth
        touches several). None when there is no such region.
        """
        height, width = frame.shape[:2]
        scale = 160 / max(height, width)
        small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
        small_h, small_w = grey.shape
        low, _ = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
        levels = [low]
        brighter = grey[grey > low]
        if brighter.size:
            # A light cloth is as bright as the card to one threshold: split the bright again.
            levels.append(cv2.threshold(brighter, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[0])
        best: tuple[int, int, int, int] | None = None
        best_area = 0.0
        for level in levels:
            bright = (grey > level).astype(np.uint8)
            for mask in _card_masks(bright):
                contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
                for contour in contours:
                    x, y, w, h = cv2.boundingRect(contour)
                    # The hull, not the region: a court card's picture or a big pip leaves
                    # only a ring or a notched white region, whose hull is still the card.
                    area = cv2.contourArea(cv2.convexHull(contour))
                    sides = (x == 0) + (y == 0) + (x + w >= small_w) + (y + h >= small_h)
                    shaped = 0.9 <= h / max(w, 1) <= 2.2 and area >= 0.6 * w * h
                    big = area >= 0.08 * small_h * small_w
                    # A cloth surrounds the box; a card may run off one side of the frame.
                    if sides <= 1 and shaped and big and area > best_area:
                        best, best_area = (x, y, w, h), area
        if best is None:
            return None
        x, y, w, h = best
        dx, dy = w * inset, h * inset
        return cls(
            int((x + dx) / scale),
            int((y + dy) / scale),
            max(8, int((w - 2 * dx) / scale)),
            max(8, int((h - 2 * dy) / scale)),
        )

    @classmethod
    def around(cls, corners: Iterable[tuple[float, float]], *, inset: float = 0.06) -> Window:
        """The window inside a card's outline (e.g. a deck profile's), shrunk by ``inset``."""
        points = np.asarray(list(corners), dtype=np.float32).reshape(-1, 2)
        x0, y0 = points.min(axis=0)
        x1, y1 = points.max(axis=0)
        dx, dy = (x1 - x0) * inset, (y1 - y0) * inset
        return cls(int(x0 + dx), int(y0 + dy), max(8, int(x1 - x0 - 2 * dx)),
                   max(8, int(y1 - y0 - 2 * dy)))

    def clip(self, frame: np.ndarray) -> np.ndarray:
        """The window's part of ``frame`` (a view, no copy)."""
        return frame[self.y : self.y + self.h, self.x : self.x + self.w]


def _card_masks(bright: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The bright mask cleaned two ways: specks removed; and holes filled, then thin bridges
    (a reflection on the box's frame joining the card to the cloth) cut."""
    specks = cv2.morphologyEx(bright, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    filled = bright.copy()
    contours, _ = cv2.findContours(filled, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(filled, contours, -1, 1, cv2.FILLED)
    bridges = cv2.morphologyEx(filled, cv2.MORPH_OPEN, np.ones((7, 7), np.uint8))
    return specks, bridges
