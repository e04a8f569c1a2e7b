"""A witness for black suits: the shape of the suit glyph under each corner's rank.

The index network names the suit from a small glyph, and a deck whose spades and clubs are
drawn unlike any it learned from (rounded, fat) can fool it surely. The glyph's outline says
it plainly: a club has three leaves, so its outline has four deep notches (two between the
leaves, two beside the stem); a spade has only the two beside its stem. As for the pips of
the middle (:mod:`vision.crosscheck`), the third-deepest notch decides, whatever the
typeface. Unlike the pips, every card has this glyph: aces and court cards too.

The glyph is small (10–20 pixels of the straightened card), so its outline is traced on the
ink level enlarged four times with cubic interpolation, not on the blocky mask.
"""

from __future__ import annotations

import cv2
import numpy as np

from shoe.cards import Suit
from vision.locate import corners
from vision.notches import DARK, ink_levels, notch_depths

__all__ = ["corner_black_suit", "glyph_notch", "index_corners", "suit_glyph"]

#: The corner searched for the index: taller than the network's patch, since a large index
#: pushes its suit glyph lower.
_CORNER_W = 0.32
_CORNER_H = 0.45
#: Blobs smaller than this (pixels of the straightened card) are specks, not glyphs.
_MIN_AREA = 25
#: The enlargement at which the glyph's outline is traced.
_UP = 4
#: The glyph's third notch depth (by the square root of its hull's area): a spade's is under
#: the first, a club's over the second; in between the glyph does not say. A corner past the
#: strong bounds may speak alone. A blurred club's leaves fill in first, so the spade side is
#: the stricter. Set on simulated corners of the dev decks only (40 black cards a deck, normal
#: and hard light, both corners): 99% of spade corners are under 0.08 and 99% of club
#: corners over 0.05; as this module combines the corners, a card's glyphs named the other
#: suit for 0 of 938 cards in normal light and 3 of 934 in hard light, and named the card's
#: own suit for 90% and 83%.
_SPADE_BELOW, _STRONG_SPADE = 0.07, 0.025
_CLUB_ABOVE, _STRONG_CLUB = 0.12, 0.20


def index_corners(card: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The corners searched for the index (:func:`vision.locate.corners`)."""
    return corners(card, _CORNER_W, _CORNER_H)


def corner_black_suit(card: np.ndarray) -> Suit | None:
    """Spades or clubs, as the suit glyphs under the two indices are shaped: both corners
    say it, or one says it clearly and the other does not say the other suit. None where
    the glyphs do not say."""
    (first, first_clear), (second, second_clear) = (
        _glyph_suit(glyph_notch(corner)) for corner in index_corners(card))
    if first is not None and first == second:
        return first
    for said, clear, other in ((first, first_clear, second), (second, second_clear, first)):
        if said is not None and clear and other is None:
            return said
    return None


def _glyph_suit(depth: float | None) -> tuple[Suit | None, bool]:
    """The suit one glyph's third notch says, and whether it says it clearly."""
    if depth is None:
        return None, False
    if depth < _SPADE_BELOW:
        return Suit.SPADES, depth < _STRONG_SPADE
    if depth > _CLUB_ABOVE:
        return Suit.CLUBS, depth > _STRONG_CLUB
    return None, False


def glyph_notch(corner: np.ndarray) -> float | None:
    """The third notch depth of the suit glyph under the corner's rank; None where no
    whole glyph is found there."""
    glyph = suit_glyph(corner)
    if glyph is None:
        return None
    depth = notch_depths(glyph)[0]
    return None if np.isnan(depth) else depth


def suit_glyph(corner: np.ndarray) -> np.ndarray | None:
    """The suit glyph under the corner's rank, as a mask enlarged _UP times (uint8, 1 for
    ink); None where no whole glyph is found there."""
    level = ink_levels(corner)[0]
    mask = (level < DARK).astype(np.uint8)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = mask.shape
    x, y, bw, bh, area = (stats[:, i] for i in range(5))
    # Blobs wholly inside the corner: the card's edge and the box beyond it touch the
    # border, and so does a glyph cut off by it (which would lose its outline).
    whole = (area >= _MIN_AREA) & (x > 1) & (y > 1) & (x + bw < w - 1) & (y + bh < h - 1)
    whole[0] = False
    # The rank: the topmost such blob in the index's column.
    tops = np.flatnonzero(whole & (x < 0.7 * w) & (y < 0.5 * h))
    if len(tops) == 0:
        return None
    rank = tops[np.argmin(y[tops])]
    left, right, bottom = x[rank], x[rank] + bw[rank], y[rank] + bh[rank]
    # The suit: the nearest blob below the rank and under it (a "10" has two blobs, but
    # its 0 is beside the 1, not below it).
    overlap = np.minimum(x + bw, right) - np.maximum(x, left)
    below = np.flatnonzero(whole & (y >= bottom - 2) & (overlap >= 0.3 * np.minimum(bw, bw[rank])))
    below = below[below != rank]
    if len(below) == 0:
        return None
    suit = below[np.argmin(y[below])]
    sx, sy, sw, sh = int(x[suit]), int(y[suit]), int(bw[suit]), int(bh[suit])
    if not 0.6 <= sw / sh <= 1.6:
        return None  # not a suit's shape: a stroke, a frame line, print run together
    # Its outline, traced on the ink level enlarged; other print near it is paper here.
    box = (slice(max(sy - 2, 0), sy + sh + 2), slice(max(sx - 2, 0), sx + sw + 2))
    others = (labels[box] != suit) & (labels[box] != 0)
    alone = np.where(others, 1.0, level[box]).astype(np.float32)
    big = cv2.resize(alone, None, fx=_UP, fy=_UP, interpolation=cv2.INTER_CUBIC)
    glyph = (big < DARK).astype(np.uint8)
    return glyph if glyph.any() else None
