"""The deck profile's descriptors of a straightened card: small white-balanced images of
its whole face and its index corner (compared by correlation), and its ink maps
(vision.pairwise) on the face's grid and at half the card's resolution."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.indexnet import CORNER_H, CORNER_W
from vision.pairwise import GLARE_RIM, glare_above_light, ink_against_paper
from vision.pixels import ninetieth
from vision.quad import CARD_H, CARD_W

__all__ = ["CORNER", "FINE", "SHIFT", "WHOLE", "Seen", "describe", "describe_ink_and_light",
           "middles", "shifted_views", "unit"]

#: Descriptor sizes (width, height): the whole face, and the index corner.
WHOLE = (36, 50)
CORNER = (18, 30)
#: The fine ink maps' shape (height, width): half the face's (vision.pairwise.fine_ink_map).
FINE = ((CARD_H - 8) // 2, (CARD_W - 12) // 2)
#: How far (descriptor pixels) the card may lie from where it lay while learning.
SHIFT = 2


def unit(vectors: np.ndarray) -> np.ndarray:
    """Zero-mean, unit-length rows: similarity by dot product, blind to light level."""
    v = vectors.astype(np.float32)
    v = v - v.mean(axis=-1, keepdims=True)
    norm = np.linalg.norm(v, axis=-1, keepdims=True)
    out: np.ndarray = v / np.maximum(norm, 1e-6)
    return out


def _print_only(image: np.ndarray) -> np.ndarray:
    """The print on the card, without the light: white-balanced, glare clipped to white,
    and the slow shading across the card (uneven light, a broad glare) taken away."""
    flat = image.reshape(-1, 3).astype(np.float32)
    white = ninetieth(flat)
    balanced = np.clip(flat / np.maximum(white, 24.0), 0.0, 1.0).reshape(image.shape)
    shading = cv2.GaussianBlur(balanced, (0, 0), image.shape[1] / 6)
    out: np.ndarray = balanced - shading
    return out


def describe(card: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(whole-face, corners) descriptor images (float32) of a straightened card: the face
    (H x W x 3), and its top-left corner then its bottom-right one turned round (2 x h x w
    x 3).

    Both index corners, so that a card compares alike whichever way up it was learned and
    is seen: a deck may print its rank at one end of a corner only (the suit top left, the
    rank top right), and one corner alone then matches the cards learned the same way up
    best, whatever their rank.
    """
    whole = cv2.resize(_face(card), WHOLE, interpolation=cv2.INTER_AREA)
    cw, ch = round(CORNER_W * CARD_W), round(CORNER_H * CARD_H)
    corners = [cv2.resize(c[:ch, :cw], CORNER, interpolation=cv2.INTER_AREA)
               for c in (card, card[::-1, ::-1])]
    return _print_only(whole), np.stack([_print_only(c) for c in corners])


#: A card's (ink, unknown, fine ink, fine unknown) maps (:func:`describe_ink_and_light`).
InkMaps = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def describe_ink_and_light(card: np.ndarray) -> tuple[InkMaps, np.ndarray]:
    """(ink, unknown) maps (float32, 0..1) of a straightened card's face on the grid of its
    whole-face descriptor, then the same at half the card's resolution: (ink, unknown, fine
    ink, fine unknown); and the paper's level over the face that the ink is measured
    against, on the fine maps' grid (vision.pairwise.ink_against_paper)."""
    fine, hidden, light = ink_against_paper(_face(card))
    return (cv2.resize(fine, WHOLE, interpolation=cv2.INTER_AREA),
            cv2.resize(hidden, WHOLE, interpolation=cv2.INTER_AREA), fine, hidden), light


@dataclass(slots=True)
class Seen:
    """A straightened card as a deck profile's reader sees it: its similarities (52,
    FULL_DECK order), the best shift of each learned card (rows in the reader's order)
    upright and turned, and its face descriptor."""

    card: np.ndarray
    scores: np.ndarray
    shift: np.ndarray  # 2 x learned
    whole: np.ndarray  # the upright face descriptor
    maps: InkMaps | None = None
    light: np.ndarray | None = None
    glared: np.ndarray | None = None

    def ink(self) -> InkMaps:
        """The card's (ink, unknown, fine ink, fine unknown) maps (:func:`describe_ink_and_light`),
        made once and only when asked for."""
        if self.maps is None:
            self.maps, self.light = describe_ink_and_light(self.card)
        return self.maps

    def glare(self) -> np.ndarray:
        """Where glare lifts the paper in view, and a rim round it (float32, 1 inside; the
        fine maps' grid), made once and only when asked for (from the paper's level the
        ink maps are measured against)."""
        if self.glared is None:
            self.ink()
            assert self.light is not None
            lifted = glare_above_light(self.light).astype(np.uint8)
            self.glared = cv2.dilate(lifted, GLARE_RIM).astype(np.float32)
        return self.glared


def _face(card: np.ndarray) -> np.ndarray:
    if card.shape[:2] != (CARD_H, CARD_W):
        raise ValueError(f"expected a straightened card {CARD_H}x{CARD_W}, got {card.shape}")
    # Leave out a margin: the lips and the outline's error live there.
    return card[4:CARD_H - 4, 6:CARD_W - 6]


def shifted_views(image: np.ndarray) -> np.ndarray:
    """Unit rows: the image's middle (a border of SHIFT cut off) at every shift of up to
    SHIFT pixels; the outline found in the box is never exactly where it was while
    learning, so each card is compared at its best alignment."""
    s = SHIFT
    h, w = image.shape[:2]
    views = [image[dy:dy + h - 2 * s, dx:dx + w - 2 * s].ravel()
             for dy in range(2 * s + 1) for dx in range(2 * s + 1)]
    return unit(np.stack(views))


def middles(templates: np.ndarray) -> np.ndarray:
    """Unit rows: each template's middle, to compare with :func:`shifted_views`."""
    s = SHIFT
    return unit(templates[:, s:-s, s:-s].reshape(len(templates), -1))
