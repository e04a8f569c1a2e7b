"""The print of an index corner: the rank, and the suit glyph under it, as blobs of ink.

Each pixel's ink is measured against the paper around it (:func:`vision.pixels.ink_levels`),
so the light's gradients and colour cast do not matter. In each index corner of a straightened
card (:func:`index_corners`) the rank is the topmost blob in the index's column and the suit
glyph the nearest blob below it (:func:`find_index`); the suit glyphs' witnesses name them
(:mod:`vision.glyphs` spades against clubs, :mod:`vision.hearts` hearts against diamonds).
Where a rank starts very near the card's edge (:func:`index_near_edge`), the reader looks
again with the card set within a margin of its paper.

>>> top, bottom = find_indices(card)                # doctest: +SKIP
>>> top.suit is not None                            # doctest: +SKIP
True
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.pixels import DARK, ink_levels
from vision.quad import CARD_H, corners

__all__ = [
    "RED_INK",
    "IndexBlobs",
    "find_index",
    "find_indices",
    "index_corners",
    "index_near_edge",
    "rank_encloses_counter",
    "speckled",
    "turn_glyphs",
]

#: The corner searched for the index: taller than the index network's patch, since a large
#: index pushes its suit glyph lower.
_CORNER_W = 0.32
_CORNER_H = 0.45
#: Blobs smaller than this (pixels of the straightened card) are specks, not glyphs.
_MIN_AREA = 25
#: A rank stands at least this tall for its width. A thinner blob lying across the corner
#: is a line: a court picture's frame run out over the index (orell's, atlasnye's), which,
#: topmost, was taken for the rank, and the rank under it for the suit glyph.
_LINE = 0.25
#: The corner's outermost rows and columns of pixels (its border): the card's edge and the
#: box beyond it, never a glyph.
_BORDER = 2
#: A suit glyph run into other print beside it is cut off at the thinnest column within
#: this share of the rank's width of the rank's right side, if the print there is at most
#: _NECK of the glyph's height (a neck, not the glyph's body). Of 471 glyphs so cut on the
#: dev decks' black cards (tools/measure_corner_glyphs.py) none said the other suit by 2.
_NECK_REACH = 0.3
_NECK = 0.45
#: A suit glyph under an index stands this share of the rank's height tall, at the least and
#: at the most (5th and 95th percentiles over eight dev decks' hard frames: 0.42 and 1.18).
_GLYPH_SHORTEST = 0.4
_GLYPH_TALLEST = 1.2
#: A glyph's ink is red (the median of IndexBlobs.colour over it) at this or more; black ink
#: is less. A glyph of black ink under a red rank is a piece of a picture (tango_nuevo
#: prints no suit under its index, and the black ermine of a king's robe, taken for one,
#: named a KH a KD at 0.98). On the dev decks under hard light
#: (tools/measure_red_glyphs.py) 0.19% of 2 159 red glyphs measured under it, and none of
#: 1 780 black ones (two-colour decks) over it: 99.7% of them under 0.15.
RED_INK = 0.2
#: A corner whose ink is specks over this share of its area is too noisy to tell a glyph
#: from the noise: it shows no suit glyph. Over 395 corners of hard frames (five decks) the
#: share was 0.012 at most; in a room darker than RIG.md's range (exposure 0.25-0.45,
#: noise 8-16) up to 0.13, where a speck under the rank was taken for a diamond and named a
#: 6H a 6D at 0.96.
_SPECKLED = 0.03
#: The band (pixels of the straightened card) along the card's edges left out of the ink
#: where an index is not found without it.
_EDGE_BAND = 3
#: How far (pixels of the straightened card) the paper is sought around an index's print:
#: past the middle of a large index's glyph (it would look pale inside).
_GLYPH_REACH = 17
#: An index whose rank starts nearer the card's top than this share of its height stands
#: nearer the edge than the index network learned indices: in simulated hard frames the
#: dev decks' ranks start 0.016-0.05 below it (anglo's 0.044 at the least, paris's and
#: dondorf's 0.016-0.024), bellot's and kde-penguins' 0.008-0.012. Only there does the
#: reader look again within a margin: looking so at any unsure reading confirmed foreign
#: letters wrongly (ancient_french's V, whose rank starts 0.036-0.048 below the top, read as
#: K at 0.78-0.87, then surely: 6 sure wrong readings more in 832 frames, seed 2024).
NEAR_EDGE = 0.02


def index_corners(card: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The corners searched for the index (:func:`vision.quad.corners`)."""
    return corners(card, _CORNER_W, _CORNER_H)


def find_indices(card: np.ndarray) -> tuple[IndexBlobs | None, IndexBlobs | None]:
    """:func:`find_index` in both index corners of a straightened card."""
    top, bottom = index_corners(card)
    return find_index(top), find_index(bottom)


#: A blob beside the rank is a part of it (a 10's 0) where their heights are within this
#: share of each other, and it shares this share of the shorter one's rows.
_BESIDE_RANK = 0.8


def turn_glyphs(card: np.ndarray, corner: int, found: IndexBlobs, together: bool = False
                ) -> np.ndarray:
    """The straightened card with the rank and the suit glyph of one index corner (0 the
    top-left, 1 the bottom-right, as :func:`find_indices`) each turned half round where it
    stands, or (``together``) turned as one block. A deck may print its lower index
    unturned, so that it stands upside down in the corner turned to read it: as the upper
    one is, the glyph then over the rank (turned as a block, it reads as any other deck's),
    or, as kde-ancient-egyptians does, with the rank still over the glyph (each turned
    where it stands)."""
    assert found.suit is not None
    view = card[::-1, ::-1].copy() if corner else card.copy()  # the corner at the top left
    rank, suit = _whole_rank(found), found.labels == found.suit
    for mask in ([rank | suit] if together else [rank, suit]):
        ys, xs = np.nonzero(mask)
        box = view[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
        box[:] = box[::-1, ::-1].copy()
    return np.ascontiguousarray(view[::-1, ::-1]) if corner else view


def _whole_rank(found: IndexBlobs) -> np.ndarray:
    """The rank's blob with those beside it of about its height in about its rows (a 10's
    0 beside its 1; not a line of a court card's frame)."""
    rows = found.rank_rows()
    top, bottom = rows[0], rows[-1]
    keep = []
    for label in np.unique(found.labels[top:bottom + 1]):
        spans = np.flatnonzero((found.labels == label).any(axis=1))
        shared = min(bottom, spans[-1]) - max(top, spans[0]) + 1
        if (label not in (0, found.suit)
                and _BESIDE_RANK * len(rows) <= len(spans) <= len(rows) / _BESIDE_RANK
                and shared >= _BESIDE_RANK * min(len(rows), len(spans))):
            keep.append(label)
    return np.isin(found.labels, keep)


@dataclass(frozen=True, slots=True)
class IndexBlobs:
    """The print of an index corner: its ink level, its colour (the brightest channel's
    level less the darkest's: 0 for black ink, some 0.5 or more for red), its blobs (labels)
    and which of them are the rank and the suit glyph under it (None if there is none, or if
    the corner is too noisy to tell: :func:`speckled`)."""

    level: np.ndarray
    colour: np.ndarray
    labels: np.ndarray
    rank: int
    suit: int | None

    def rank_rows(self) -> np.ndarray:
        """The rows (of the corner, top first) that the rank's print spans."""
        return np.flatnonzero((self.labels == self.rank).any(axis=1))

    def ink_colour(self, label: int) -> float:
        """The median colour of one blob (the rank's, or the suit glyph's)."""
        return float(np.median(self.colour[self.labels == label]))


def find_index(corner: np.ndarray, cut_necks: bool = True) -> IndexBlobs | None:
    """The rank and the suit glyph of an index corner; None where there is no rank.
    ``cut_necks=False`` leaves a glyph run into the print beside or below it unfound, and
    takes a blob however far below the rank for the glyph, as the glyph network's training
    data were cut (tools/train_glyph_net.py)."""
    level, brightest = ink_levels(corner, _GLYPH_REACH)
    colour = brightest - level
    found = _index_blobs(level, colour, 0, cut_necks)
    if found is not None and found.suit is not None:
        return found
    # The card's own edges are the corner's top and left: a blurred edge or the shadow of
    # the box's lip is a thin dark line there, which an index printed close to the edge
    # runs into and is lost with. Failing that, a band along them is left out of the ink.
    near_edge = _index_blobs(level, colour, _EDGE_BAND, cut_necks)
    return near_edge if near_edge is not None and near_edge.suit is not None else found


def _index_blobs(level: np.ndarray, colour: np.ndarray, band: int, cut_necks: bool
                 ) -> IndexBlobs | None:
    mask = (level < DARK).astype(np.uint8)
    mask[:band] = 0
    mask[:, :band] = 0
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = mask.shape
    x, y, bw, bh, area = (stats[:, i] for i in range(5))
    # Blobs wholly inside the corner: the card's edge and the box beyond it touch the
    # border, and so does a glyph cut off by it (which would lose its outline).
    edge = max(band, _BORDER)
    big = area >= _MIN_AREA
    big[0] = False
    whole = big & (x >= edge) & (y >= edge) & (x + bw < w - 1) & (y + bh < h - 1)
    # The rank: the topmost such blob in the index's column. Past the band it may touch
    # it (only its place is needed), but not stretch down the corner as a shadow would.
    may_be_rank = big & (x + bw < w - 1) & (bh < 0.5 * h) if band else whole
    tops = np.flatnonzero(may_be_rank & (x < 0.7 * w) & (y < 0.5 * h) & (bh >= _LINE * bw))
    if len(tops) == 0:
        return None
    rank = int(tops[np.argmin(y[tops])])
    left, right, bottom = x[rank], x[rank] + bw[rank], y[rank] + bh[rank]
    # The suit: the nearest blob below the rank and under it (a "10" has two blobs, but
    # its 0 is beside the 1, not below it), shaped like a suit (not a stroke, a frame line
    # or print run together).
    overlap = np.minimum(x + bw, right) - np.maximum(x, left)
    under = overlap >= 0.3 * np.minimum(bw, bw[rank])
    under[rank] = False
    below = np.flatnonzero(whole & under & (y >= bottom - 2))
    suit = int(below[np.argmin(y[below])]) if len(below) else None
    shaped = suit is not None and 0.6 <= bw[suit] / bh[suit] <= 1.6
    # The nearest print under the rank, whole or not. Where it is not the glyph found, a
    # court card's black glyph may be run by the blur into the print beside it (the big
    # suit symbol and the frame, which may reach higher) or below it (a sceptre, a
    # flower's stem): what of it lies in the rank's column, cut at a neck. A piece of the
    # picture lower down, whole, was taken for paris's spade, and said a club.
    top = _tops_under(labels, y, big & ~whole & (y <= y[rank]), left, right, bottom)
    near = np.flatnonzero(big & under & (top > y[rank]) & (y + bh > bottom + 2))
    nearest = int(near[np.argmin(top[near])]) if len(near) else None
    # Print beside the rank that reaches down under it is not nearer than the glyph.
    nearer = (nearest is not None and top[nearest] >= bottom - 2
              and (suit is None or top[nearest] < y[suit]))
    if cut_necks and nearest is not None and (nearer or not shaped):
        piece = _black_glyph_in_column(labels == nearest, colour, left, right, bottom,
                                       bh[rank])
        if piece is not None:
            suit, shaped = int(labels.max()) + 1, True
            labels[piece] = suit
    if not shaped:
        suit = None
    return IndexBlobs(level, colour, labels, rank,
                      None if _too_speckled(area[1:], h * w) else suit)


def _tops_under(labels: np.ndarray, tops: np.ndarray, joined: np.ndarray, left: int,
                right: int, bottom: int) -> np.ndarray:
    """The blobs' tops (``tops``, by label), but for those ``joined`` by the corner's border
    to print above the rank (the box past the card's rounded corner): where such a blob
    first shows in the rank's column (``left``-``right``) below the rank (``bottom``), if
    it shows there at all. paris's QS under hard light: the blur ran its spade into the
    queen's flower, and that, along the corner's edge, into the box; the spade went
    unfound, a leaf lower down was taken for it, and the suit was held."""
    out = tops.copy()
    start = max(0, bottom - 2)
    column = labels[start:, left:right]
    for label in np.flatnonzero(joined):
        rows = np.flatnonzero((column == label).any(axis=1))
        if len(rows):
            out[label] = start + rows[0]
    return out


def _black_glyph_in_column(blob: np.ndarray, colour: np.ndarray, left: int, right: int,
                           top: int, rank_h: int) -> np.ndarray | None:
    """The glyph of black ink in a blob of print under the rank (``left``-``right``, above
    ``top``), where the blur ran it into the print beside it (a court card's big suit
    symbol and frame) or below it (:func:`_cut_below`): what lies left of the blob's
    thinnest column near the rank's right side, if that column crosses a narrow neck; None
    otherwise.

    Red print is left alone: a piece of a red court figure, so cut, was once weighed as a
    heart or a diamond, wrongly and surely (tango_nuevo's KH and QH)."""
    reach = round(_NECK_REACH * (right - left))
    # Not the corner's border: the card's edge, which a blob joined by it (_tops_under)
    # runs down.
    x0 = max(_BORDER, left - reach)
    blob = _cut_below(blob, x0, right, top, rank_h)
    beside = blob[top:].sum(axis=0)
    neck = right - reach + int(np.argmin(beside[right - reach:right + reach + 1]))
    column = np.zeros(blob.shape, bool)
    column[top:, x0:neck] = blob[top:, x0:neck]
    piece, (px, py, pw, ph) = _topmost_part(column)
    if (ph == 0 or not 0.6 <= pw / ph <= 1.6 or beside[neck] > _NECK * ph
            or px <= x0 < left or py + ph >= blob.shape[0] - 1):
        return None
    return piece if float(np.median(colour[piece])) < RED_INK else None


def _cut_below(blob: np.ndarray, x0: int, x1: int, top: int, rank_h: int) -> np.ndarray:
    """The blob cut where the print in the rank's column (``x0``-``x1``, below ``top``)
    narrows to a neck under a glyph's height: a glyph run by the blur into print below it
    (a king's sceptre under paris's spade)."""
    rows = blob[:, x0:x1].sum(axis=1)
    inked = np.flatnonzero(rows[top:])
    if len(inked) == 0:
        return blob
    start = top + int(inked[0])
    lo, hi = start + round(_GLYPH_SHORTEST * rank_h), start + round(_GLYPH_TALLEST * rank_h)
    if hi >= len(rows) or not rows[hi:].any():
        return blob  # nothing hangs below a glyph's height
    neck = _NECK * int(rows[start:hi + 1].max())
    thinnest = int(rows[lo:hi + 1].min())
    if thinnest > neck:
        return blob
    # The foot of the first neck down, so that a glyph keeps its own stem; not the foot of
    # the last, which may lie down a thin line beneath it (a picture's frame line under
    # orell's spade, cut there, made a club of it). Any row as thin as a neck is one, not
    # only the thinnest: paris's QS runs its spade's stem into a flower's stalk, thinner
    # than the spade but wider than the gap below the stalk, where the glyph was cut with
    # the stalk in it and named no suit.
    thin = np.append(rows[lo:hi + 1] <= max(thinnest + 1, neck), False)
    first = int(np.argmax(thin))
    cut = lo + first + int(np.argmin(thin[first:]))  # the first row past the neck
    out = blob.copy()
    out[cut:] = False
    return out


def _topmost_part(mask: np.ndarray) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """The topmost connected part of a mask of at least _MIN_AREA pixels and its box (x, y,
    width, height); an empty mask and a box of zeros where there is none."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8),
                                                               connectivity=8)
    parts = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= _MIN_AREA]
    if not parts:
        return np.zeros(mask.shape, bool), (0, 0, 0, 0)
    first = min(parts, key=lambda i: int(stats[i, cv2.CC_STAT_TOP]))
    x, y, w, h = (int(v) for v in stats[first, :4])
    return labels == first, (x, y, w, h)


def speckled(corner: np.ndarray) -> bool:
    """Whether an index corner's ink is too noisy to tell a glyph from the noise (a room
    darker than RIG.md's range): then it shows no suit glyph, and may show no rank."""
    mask = (ink_levels(corner, _GLYPH_REACH)[0] < DARK).astype(np.uint8)
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return _too_speckled(stats[1:, cv2.CC_STAT_AREA], mask.size)


def _too_speckled(areas: np.ndarray, size: int) -> bool:
    """Whether blobs of these areas (the background left out) are specks over _SPECKLED of
    a corner of ``size`` pixels."""
    return bool(areas[areas < _MIN_AREA].sum() > _SPECKLED * size)


#: A hole in the rank's print that spans its middle, from no lower than _COUNTER_TOP of its
#: height to past _COUNTER_FOOT, and fills _COUNTER_AREA of its box, is a counter like a
#: D's, an O's or a Q's. A B's bowls and an R's do not span the middle. Measured on court
#: cards' index corners under hard light (the 15 tuning decks and eight foreign-indexed
#: ones: 3 243 corners, and 3 061 more with the thumb on half): the lower bowl of a jack's
#: B or В started at 0.33 of the height at the highest (under a thumb), and the bowl of a
#: king's R or the upper one of a В ended at 0.53 at the lowest. No standard jack's or
#: king's hole spanned the middle (2 705 corners); one berlin B run into the thumb showed
#: a hole as tall as itself. A stray hole where a K ran into other print may span it, but
#: filled 0.11 of the box at most (2 227 corners of dev, held-out and blind decks; one
#: 0.65 of the height and 0.084 of the box held a kde-standard KC). A Q's bowl runs from
#: about 0.1 to 0.75 of its height, its tail below: 79-84% of the standard queens' corners
#: showed it so, against 57-61% where the counter had to be 0.6 of the rank's height
#: (orell's long tail left it 0.48-0.58).
_COUNTER_TOP = 0.25
_COUNTER_FOOT = 0.6
_COUNTER_AREA = 0.12


def rank_encloses_counter(found: IndexBlobs | None) -> bool:
    """Whether the rank of an index (:func:`find_index`) encloses a counter that spans its
    middle, as a D, an O or a Q does (an R's bowl stays in its upper half, a B's in its
    halves). No J or K does: such a rank read as one is a foreign letter or a queen."""
    if found is None:
        return False
    rank = (found.labels == found.rank).astype(np.uint8)
    contours, hierarchy = cv2.findContours(rank, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return False
    _, y, w, h = cv2.boundingRect(rank)
    for contour, (_, _, _, parent) in zip(contours, hierarchy[0], strict=True):
        if parent < 0:
            continue  # an outline, not a hole
        _, hole_y, _, hole_h = cv2.boundingRect(contour)
        spans_middle = (hole_y - y <= _COUNTER_TOP * h
                        and hole_y + hole_h - y >= _COUNTER_FOOT * h)
        if spans_middle and cv2.contourArea(contour) >= _COUNTER_AREA * w * h:
            return True
    return False


def index_near_edge(indices: tuple[IndexBlobs | None, IndexBlobs | None]) -> bool:
    """Whether either index corner's rank, as :func:`find_indices` found it, starts nearer
    the card's top (its foot, for the corner turned round) than NEAR_EDGE of its height."""
    return any(found is not None and found.rank_rows()[0] < NEAR_EDGE * CARD_H
               for found in indices)
