"""Spades against clubs from the suit glyphs themselves: the small glyph under each corner's
rank and the pips of the middle, each cut out alone and named by a small network.

The index network reads a whole corner, so the rank's typeface and the index's size and
place all weigh in on its suit; a deck laid out unlike any it learned from can fool it
surely (clubs read as spades at 0.97). A glyph cut out alone and scaled to one size is the
same shape whatever the deck around it: a club has three leaves, a spade one pointed body.
The glyph network (``vision/data/glyph_net.onnx``, trained by ``tools/train_glyph_net.py``
on the dev decks' glyphs and pips, suit symbols of many typefaces and drawn shapes, either
way up) says how much likelier a club is than a spade, as log-odds.

>>> net = GlyphNet.load()                          # doctest: +SKIP
>>> black_suit_evidence(card, net).total           # doctest: +SKIP
21.7
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.locate import corners
from vision.pixels import ninetieth
from vision.reading import ModelError, load_network, softmax

__all__ = [
    "BLACK_SHARE",
    "CORNERS_SETTLE",
    "DARK",
    "GLYPHS_CONFIRM",
    "GLYPH_SIZE",
    "RED_INK",
    "BlackSuitEvidence",
    "GlyphNet",
    "IndexBlobs",
    "black_suit_evidence",
    "corner_glyph",
    "find_index",
    "find_indices",
    "glyph_input",
    "index_corners",
    "ink_levels",
    "pip_glyphs",
    "rank_encloses_counter",
    "speckled",
    "weigh_black_suits",
]

#: Ink is darker than this share of the paper around it.
DARK = 0.62
#: The glyphs say a black suit where their log-odds for it reach this (some 55 to one). The
#: index network and the glyphs see the same blurred print, so they are not wholly
#: independent witnesses: blurred clubs of a held-out deck once gave the wrong suit up to
#: 2.6. On hard frames of dev decks the truth's evidence had a median of 16-24
#: (docs/READER.md).
GLYPHS_CONFIRM = 4.0
#: The glyphs weigh spades against clubs only where the index network gives the black
#: suits this much between them (the ink is black).
BLACK_SHARE = 0.9
#: The paper is found at 1/n of the resolution for every this many pixels of reach.
_COARSE_REACH = 10


def ink_levels(image: np.ndarray, reach: int = 9) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's darkest and brightest channel as a share of the paper around it.

    The paper around each pixel is the brightest within ``reach`` pixels (a square), smoothed;
    dividing by it takes away gradients and the colour cast of the light. Print wider than
    ``reach`` looks pale inside. Shares are clipped to 1 (glare is paper).
    """
    img = image.astype(np.float32) + 1.0
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
    b, g, r = cv2.split(cv2.divide(img, paper))
    # Compared per pixel with numpy's elementwise minimum (fast on one core).
    lo = np.minimum(np.minimum(np.minimum(b, g), r), 1.0)
    hi = np.minimum(np.maximum(np.maximum(b, g), r), 1.0)
    return lo, hi


#: The network's input: one glyph, GLYPH_SIZE pixels a side, its darkness in 0-1.
GLYPH_SIZE = 32
#: The corner searched for the index: taller than the index network's patch, since a large
#: index pushes its suit glyph lower.
_CORNER_W = 0.32
_CORNER_H = 0.45
#: Blobs smaller than this (pixels of the straightened card) are specks, not glyphs.
_MIN_AREA = 25
#: A suit glyph run into other print beside it is cut off at the thinnest column within
#: this share of the rank's width of the rank's right side, if the print there is at most
#: _NECK of the glyph's height (a neck, not the glyph's body).
_NECK_REACH = 0.3
_NECK = 0.45
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
#: How far (pixels of the straightened card) the paper is sought around the print: past the
#: middle of a large index's glyph, and of the largest pip (it would look pale inside).
_GLYPH_REACH = 17
_PIP_REACH = 41
#: Pips smaller than this are too coarse to show their shape.
_MIN_PIP_AREA = 60
#: Where pips are sought (fractions of the card cut off each side), and the corners that
#: hold the indices (a blob wholly inside one is an index, not a pip).
_PIP_ZONE = (0.08, 0.04)
_INDEX_ZONE = (0.3, 0.3)
#: At most this many pips are looked at: they are all the same shape, and each costs some
#: 0.5 ms through the network.
_MAX_PIPS = 4
#: Both corners' glyphs saying one suit by this much (log-odds each) settle it: the pips
#: are not cut out. On 9 800 frames of black number cards of the 24 dev decks (hard light,
#: and each condition past RIG.md's range), two corners that both said the wrong suit
#: reached 4.2 and 5.7 at most (out of focus); 5 567 were settled so, none wrongly, and the
#: pips said the other suit against such corners once, wrongly (docs/READER.md).
CORNERS_SETTLE = 6.0
_MODEL_STEM = "glyph_net"


def index_corners(card: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The corners searched for the index (:func:`vision.locate.corners`)."""
    return corners(card, _CORNER_W, _CORNER_H)


def glyph_input(level: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """One glyph as the network's input (GLYPH_SIZE x GLYPH_SIZE float32).

    ``level`` is the ink level around it (1 is paper, see :func:`ink_levels`)
    and ``keep`` marks the glyph's own pixels; other print is blanked. The glyph is scaled to
    fill the square (its proportions kept) and its darkness to reach 1, so the size of the
    print and the strength of the light do not matter.
    """
    ys, xs = np.nonzero(keep)
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    # A suit has no holes (print that looked pale inside is the glyph's too), and the
    # anti-aliased rim belongs to it.
    solid = keep.astype(np.uint8)
    outline, _ = cv2.findContours(solid, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(solid, outline, -1, 1, cv2.FILLED)
    rim = cv2.dilate(solid, np.ones((3, 3), np.uint8)).astype(bool)
    dark = np.where(rim, 1.0 - np.clip(level, 0.0, 1.0), 0.0).astype(np.float32)
    dark = dark[y0:y1, x0:x1]
    top = float(ninetieth(dark[dark > 0])) if (dark > 0).any() else 1.0
    dark = np.clip(dark / max(top, 0.1), 0.0, 1.0)
    h, w = dark.shape
    inner = GLYPH_SIZE - 4  # a margin of two pixels
    scale = inner / max(h, w)
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    small = cv2.resize(dark, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    out = np.zeros((GLYPH_SIZE, GLYPH_SIZE), np.float32)
    oy, ox = (GLYPH_SIZE - size[1]) // 2, (GLYPH_SIZE - size[0]) // 2
    out[oy:oy + size[1], ox:ox + size[0]] = np.clip(small, 0.0, 1.0)
    return out


def corner_glyph(corner: np.ndarray) -> np.ndarray | None:
    """The suit glyph under an index corner's rank as the network's input; None where no
    whole glyph is found there."""
    return _suit_glyph(find_index(corner))


def _suit_glyph(found: IndexBlobs | None) -> np.ndarray | None:
    if found is None or found.suit is None:
        return None
    return glyph_input(found.level, found.labels == found.suit)


def find_indices(card: np.ndarray) -> tuple[IndexBlobs | None, IndexBlobs | None]:
    """:func:`find_index` in both index corners of a straightened card."""
    top, bottom = index_corners(card)
    return find_index(top), find_index(bottom)


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


def find_index(corner: np.ndarray) -> IndexBlobs | None:
    """The rank and the suit glyph of an index corner; None where there is no rank."""
    level, brightest = ink_levels(corner, _GLYPH_REACH)
    colour = brightest - level
    found = _index_blobs(level, colour, 0)
    if found is not None and found.suit is not None:
        return found
    # The card's own edges are the corner's top and left: a blurred edge or the shadow of
    # the box's lip is a thin dark line there, which an index printed close to the edge
    # runs into and is lost with. Failing that, a band along them is left out of the ink.
    near_edge = _index_blobs(level, colour, _EDGE_BAND)
    return near_edge if near_edge is not None and near_edge.suit is not None else found


def _index_blobs(level: np.ndarray, colour: np.ndarray, band: int) -> IndexBlobs | None:
    mask = (level < DARK).astype(np.uint8)
    mask[:band] = 0
    mask[:, :band] = 0
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = mask.shape
    x, y, bw, bh, area = (stats[:, i] for i in range(5))
    # Blobs wholly inside the corner: the card's edge and the box beyond it touch the
    # border, and so does a glyph cut off by it (which would lose its outline).
    edge = max(band, 2)
    big = area >= _MIN_AREA
    big[0] = False
    whole = big & (x >= edge) & (y >= edge) & (x + bw < w - 1) & (y + bh < h - 1)
    # The rank: the topmost such blob in the index's column. Past the band it may touch
    # it (only its place is needed), but not stretch down the corner as a shadow would.
    may_be_rank = big & (x + bw < w - 1) & (bh < 0.5 * h) if band else whole
    tops = np.flatnonzero(may_be_rank & (x < 0.7 * w) & (y < 0.5 * h))
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
    if suit is None or not 0.6 <= bw[suit] / bh[suit] <= 1.6:
        suit = None
        # A court card's black glyph run by the blur into the big suit symbol and the
        # frame beside it (which may reach higher): what of the nearest print under the
        # rank lies in its column.
        near = np.flatnonzero(big & under & (y > y[rank]) & (y + bh > bottom + 2))
        piece = None if len(near) == 0 else _black_glyph_in_column(
            labels == near[np.argmin(y[near])], colour, left, right, bottom)
        if piece is not None:
            suit = int(labels.max()) + 1
            labels[piece] = suit
    return IndexBlobs(level, colour, labels, rank,
                      None if _too_speckled(area[1:], h * w) else suit)


def _black_glyph_in_column(blob: np.ndarray, colour: np.ndarray, left: int, right: int,
                           top: int) -> np.ndarray | None:
    """The glyph of black ink in a blob of print under the rank (``left``-``right``, above
    ``top``), where the blur ran it into the print beside it (a court card's big suit
    symbol and frame): what lies left of the blob's thinnest column near the rank's right
    side, if that column crosses a narrow neck; None otherwise.

    Red print is left alone: a piece of a red court figure, so cut, was once weighed as a
    heart or a diamond, wrongly and surely (tango_nuevo's KH and QH)."""
    reach = round(_NECK_REACH * (right - left))
    x0 = max(0, left - reach)
    beside = blob[top:].sum(axis=0)
    neck = right - reach + int(np.argmin(beside[right - reach:right + reach + 1]))
    column = np.zeros(blob.shape, bool)
    column[top:, x0:neck] = blob[top:, x0:neck]
    piece, (px, py, pw, ph) = _topmost_part(column)
    if (ph == 0 or not 0.6 <= pw / ph <= 1.6 or beside[neck] > _NECK * ph
            or px <= x0 < left or py + ph >= blob.shape[0] - 1):
        return None
    return piece if float(np.median(colour[piece])) < RED_INK else None


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


#: A hole in the rank's print at least this share of its height and of its box is a
#: counter like a D's or an O's. Measured on hard frames: German queens' D (read as J by
#: the index network) 0.73-1.0 of the height and 0.15-0.34 of the box; holes where a
#: standard K ran into other print (kings of dev, held-out and blind decks) at most 0.65
#: of the height (then 0.08 of the box) and 0.10 of the box.
_COUNTER_HEIGHT = 0.7
_COUNTER_AREA = 0.12


def rank_encloses_counter(found: IndexBlobs | None) -> bool:
    """Whether the rank of an index (:func:`find_index`) encloses a tall counter, as a D or
    an O does (an R's bowl is shorter). No J or K does: such a rank read as one is a foreign
    letter."""
    if found is None:
        return False
    rank = (found.labels == found.rank).astype(np.uint8)
    contours, hierarchy = cv2.findContours(rank, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return False
    _, _, w, h = cv2.boundingRect(rank)
    for contour, (_, _, _, parent) in zip(contours, hierarchy[0], strict=True):
        if parent < 0:
            continue  # an outline, not a hole
        _, _, _, hole_h = cv2.boundingRect(contour)
        if hole_h >= _COUNTER_HEIGHT * h and cv2.contourArea(contour) >= _COUNTER_AREA * w * h:
            return True
    return False


def pip_glyphs(card: np.ndarray) -> list[np.ndarray]:
    """The pips of a straightened card as the network's inputs: whole blobs of print of
    one size, at least two, that are not in a corner's index; none where there are none."""
    h, w = card.shape[:2]
    x0, y0 = round(_PIP_ZONE[0] * w), round(_PIP_ZONE[1] * h)
    zone = card[y0:h - y0, x0:w - x0]
    level = ink_levels(zone, _PIP_REACH)[0]
    mask = cv2.morphologyEx((level < DARK).astype(np.uint8), cv2.MORPH_OPEN,
                            np.ones((2, 2), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    zh, zw = mask.shape
    x, y, bw, bh, area = (stats[1:, i] for i in range(5))
    # Not cut by the zone's edge, and not wholly inside a corner (an index, printed in two
    # corners or in all four).
    cx, cy = _INDEX_ZONE[0] * w - x0, _INDEX_ZONE[1] * h - y0
    in_corner = (((x + bw <= cx) | (x >= zw - cx)) & ((y + bh <= cy) | (y >= zh - cy)))
    whole = (x > 0) & (y > 0) & (x + bw < zw) & (y + bh < zh) & ~in_corner
    if not whole.any():
        return []
    pips = np.flatnonzero(whole & (area >= max(area[whole].max() / 2.0, _MIN_PIP_AREA)))
    if len(pips) < 2:
        return []  # one blob may be anything: a picture, an ornament, a merged row
    # Each pip from the box around it only (the same input, sooner than from the whole zone):
    # its rim reaches one pixel past it.
    found = []
    for i in pips[:_MAX_PIPS]:
        box = np.s_[max(0, y[i] - 2):y[i] + bh[i] + 2, max(0, x[i] - 2):x[i] + bw[i] + 2]
        found.append(glyph_input(level[box], labels[box] == i + 1))
    return found


@dataclass(frozen=True, slots=True)
class GlyphNet:
    """The glyph network loaded into ``cv2.dnn``, with its calibration."""

    net: cv2.dnn.Net
    temperature: float

    @classmethod
    def load(cls, folder: Path | None = None) -> GlyphNet:
        """Load ``glyph_net.onnx`` and ``glyph_net.json`` (default: the packaged ones)."""

        def build(net: cv2.dnn.Net, meta: dict[str, Any]) -> GlyphNet:
            if int(meta["size"]) != GLYPH_SIZE:
                raise ModelError(f"glyph network expects {meta['size']} pixels a side")
            return cls(net, float(meta["temperature"]))

        return load_network(_MODEL_STEM, "glyph network", folder, build)

    def shapes(self, glyphs: list[np.ndarray]) -> np.ndarray:
        """Calibrated probabilities (N x 3) that each glyph is a spade, a club, or neither
        (a rank's letter, a piece of a picture, a red suit)."""
        logits = np.empty((len(glyphs), 3), np.float32)
        # One glyph at a time, as for the index network (OpenCV 4.x ran batches wrong).
        for i, glyph in enumerate(glyphs):
            self.net.setInput(glyph.astype(np.float32)[None, None])
            logits[i] = self.net.forward().reshape(-1)
        return softmax(logits, self.temperature).astype(np.float64)

    def club_log_odds(self, glyphs: list[np.ndarray]) -> np.ndarray:
        """For each glyph, the log-odds that it is a club rather than a spade, counted only
        as far as it is either (a blob that is neither says nothing)."""
        return _club_log_odds(self.shapes(glyphs))


def _club_log_odds(p: np.ndarray) -> np.ndarray:
    eps = 1e-6
    out: np.ndarray = (1.0 - p[:, 2]) * np.log((p[:, 1] + eps) / (p[:, 0] + eps))
    return out


@dataclass(frozen=True, slots=True)
class BlackSuitEvidence:
    """What the glyphs say about spades against clubs, as log-odds for a club (0: nothing).

    ``corners`` is the sum over the index corners that show a glyph; ``pips`` the median
    over the middle's pips (all the same shape, so one badly cut pip does not count; 0 where
    they were not looked at); ``shaped`` counts the glyphs and pips the network takes for a
    spade or a club at all (not a letter or a piece of a picture cut out where a suit was
    sought); ``dissent`` is the most that one witness (a corner's glyph, or the pips) says
    against the suit the total favours."""

    corners: float
    pips: float
    shaped: int
    dissent: float = 0.0

    @property
    def total(self) -> float:
        return self.corners + self.pips

    @property
    def says(self) -> bool:
        """Whether the glyphs say a suit: some glyph is shaped like a spade or a club, their
        log-odds reach GLYPHS_CONFIRM, and no witness says the other suit by half as much
        (two corners of different cards, one over the other, say both)."""
        return (self.shaped > 0 and abs(self.total) >= GLYPHS_CONFIRM
                and self.dissent < GLYPHS_CONFIRM / 2)


def black_suit_evidence(card: np.ndarray, net: GlyphNet, pips: bool = False,
                        indices: Sequence[IndexBlobs | None] | None = None
                        ) -> BlackSuitEvidence:
    """The glyphs' evidence on a straightened card; its pips too with ``pips`` (a number
    card: a court card's picture has no row of pips), unless both corners' glyphs say one
    suit by CORNERS_SETTLE. ``indices`` are the card's
    :func:`find_indices`, where they are already known."""
    if indices is None:
        indices = find_indices(card)
    found = [g for g in map(_suit_glyph, indices) if g is not None]
    in_corners = net.shapes(found)
    each_corner = _club_log_odds(in_corners)
    # Cutting out and naming the pips is most of the glyphs' cost on a number card (some
    # 4 ms of 6); where both corners already say one suit surely, the pips are left alone.
    settled = len(found) == 2 and bool((abs(each_corner) >= CORNERS_SETTLE).all()
                                       and each_corner[0] * each_corner[1] > 0)
    pip_list = pip_glyphs(card) if pips and not settled else []
    in_middle = net.shapes(pip_list)
    shaped = int((in_corners[:, 2] < 0.5).sum() + (in_middle[:, 2] < 0.5).sum())
    pip_odds = float(np.median(_club_log_odds(in_middle))) if pip_list else 0.0
    corner_odds = float(each_corner.sum())
    against = -np.sign(corner_odds + pip_odds) * np.append(each_corner, pip_odds)
    return BlackSuitEvidence(corner_odds, pip_odds, shaped, max(0.0, float(against.max())))


def weigh_black_suits(suit_p: np.ndarray, spades: int, clubs: int,
                      evidence: BlackSuitEvidence) -> np.ndarray:
    """Suit probabilities with spades against clubs weighed by the glyphs' log-odds (Bayes'
    rule), where the ink is black (BLACK_SHARE) and the glyphs say a suit
    (:attr:`BlackSuitEvidence.says`); else unchanged.

    The index network reads the whole corner, so a rank's typeface or an index laid out
    unlike any it learned from can sway its suit; the glyph cut out alone is the witness
    made for this question. Glyphs that say the other black suit than the network's may so
    overrule it, but only as far as their log-odds outweigh the network's.
    """
    black = float(suit_p[spades] + suit_p[clubs])
    if not evidence.says or black < BLACK_SHARE:
        return suit_p
    network = math.log(max(float(suit_p[clubs]), 1e-12) / max(float(suit_p[spades]), 1e-12))
    club_share = 1.0 / (1.0 + math.exp(-float(np.clip(network + evidence.total, -50, 50))))
    weighed = suit_p.copy()
    weighed[clubs] = black * club_share
    weighed[spades] = black - weighed[clubs]
    return weighed
