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

from shoe.cards import Rank
from vision.indices import IndexBlobs, find_index, find_indices
from vision.pixels import DARK, ink_levels, ninetieth
from vision.reading import ModelError, load_network, softmax

__all__ = [
    "BLACK_SHARE",
    "CORNERS_SETTLE",
    "GLYPHS_CONFIRM",
    "GLYPH_SIZE",
    "BlackSuitEvidence",
    "GlyphNet",
    "Pip",
    "black_suit_evidence",
    "club_odds",
    "corner_glyph",
    "cut_pips",
    "glyph_input",
    "pip_glyphs",
    "stemless_spade",
    "weigh_black_suits",
]

#: The glyphs say a black suit where their log-odds for it reach this (some 55 to one). The
#: index network and the glyphs see the same blurred print, so they are not wholly
#: independent witnesses: blurred clubs of a held-out deck once gave the wrong suit up to
#: 2.6. On hard frames of dev decks the truth's evidence had a median of 16-24
#: (docs/READER.md).
GLYPHS_CONFIRM = 4.0
#: The glyphs weigh spades against clubs only where the index network gives the black
#: suits this much between them (the ink is black).
BLACK_SHARE = 0.9


#: The network's input: one glyph, GLYPH_SIZE pixels a side, its darkness in 0-1.
GLYPH_SIZE = 32
#: How far (pixels of the straightened card) the paper is sought around a pip: past the
#: middle of the largest (it would look pale inside).
_PIP_REACH = 41
#: Pips smaller than this are too coarse to show their shape.
_MIN_PIP_AREA = 60
#: Where pips are sought (fractions of the card cut off each side), and the corners that
#: hold the indices (a blob wholly inside one is an index, not a pip).
_PIP_ZONE = (0.08, 0.04)
_INDEX_ZONE = (0.3, 0.3)
#: An ace's pip is the largest whole blob of the middle, its centre within this share of the
#: middle's width and height of the middle's centre: the dev decks' ace pips that said a
#: suit, under hard light and out of focus, lay 0.04 at most off it; a blob further off is
#: something else (a piece of a picture, ink run together beside a glare).
_ACE_CENTRE = 0.15
#: At most this many pips are looked at: they are all the same shape, and each costs some
#: 0.5 ms through the network.
_MAX_PIPS = 4
#: Both corners' glyphs saying one suit by this much (log-odds each) settle it on a number
#: card: its pips are not cut out. Over the 24 dev decks' black number cards, under hard
#: light and each condition past RIG.md's ranges (tools/measure_corner_glyphs.py), two
#: corners that both said the wrong suit said it by 3.8 and 4.9 at most (4.2 and 5.7 with
#: another seed), both out of focus; 3 203 frames were settled so, none wrongly
#: (docs/READER.md).
CORNERS_SETTLE = 6.0
#: A spade's stem is its thinnest stroke, and blur takes it first. What is left is pointed
#: at the top and broad at its foot, as a heart upside down is, so the glyph network may
#: name it neither spade nor club. Under an index a glyph stands upright, and a glyph so
#: shaped there is a spade's: its foot's width (its lowest quarter of rows, as a share of
#: its widest row) exceeds its top's by _STEMLESS_FOOT or more, and the centre of its
#: weight lies _STEMLESS_WEIGHT of its height or more below its top. On the 15 tuning decks
#: under hard light, of the corners' glyphs named neither and leaning to a spade, 37 of 47
#: spades' were so shaped and 2 of 1 165 hearts' and diamonds' (printed red, and printed in
#: one ink; docs/READER-LOG.md).
_STEMLESS_FOOT = 0.35
_STEMLESS_WEIGHT = 0.53
_MODEL_STEM = "glyph_net"


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


def corner_glyph(corner: np.ndarray, cut_necks: bool = True) -> np.ndarray | None:
    """The suit glyph under an index corner's rank as the network's input; None where no
    whole glyph is found there (``cut_necks``: as :func:`vision.indices.find_index`)."""
    return _suit_glyph(find_index(corner, cut_necks))


def _suit_glyph(found: IndexBlobs | None) -> np.ndarray | None:
    if found is None or found.suit is None:
        return None
    return glyph_input(found.level, found.labels == found.suit)


@dataclass(frozen=True, slots=True)
class Pip:
    """One pip cut out of a card's middle: as the network's input (:func:`glyph_input`), and
    its ink's colour (the median over its pixels of the brightest channel's ink level less
    the darkest's, as :meth:`vision.indices.IndexBlobs.ink_colour`)."""

    glyph: np.ndarray
    colour: float


def pip_glyphs(card: np.ndarray, ace: bool = False) -> list[np.ndarray]:
    """The pips of a straightened card as the network's inputs (:func:`cut_pips`)."""
    return [pip.glyph for pip in cut_pips(card, ace)]


def cut_pips(card: np.ndarray, ace: bool = False) -> list[Pip]:
    """The pips of a straightened card: whole blobs of print of one size, at least two, that
    are not in a corner's index; none where there are none. With ``ace``, the one large pip
    of an ace instead, which lies at the card's centre."""
    h, w = card.shape[:2]
    x0, y0 = round(_PIP_ZONE[0] * w), round(_PIP_ZONE[1] * h)
    zone = card[y0:h - y0, x0:w - x0]
    level, brightest = ink_levels(zone, _PIP_REACH)
    mask = cv2.morphologyEx((level < DARK).astype(np.uint8), cv2.MORPH_OPEN,
                            np.ones((2, 2), np.uint8))
    _, labels, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    zh, zw = mask.shape
    x, y, bw, bh, area = (stats[1:, i] for i in range(5))
    # Not cut by the zone's edge, and not wholly inside a corner (an index, printed in two
    # corners or in all four).
    cx, cy = _INDEX_ZONE[0] * w - x0, _INDEX_ZONE[1] * h - y0
    in_corner = (((x + bw <= cx) | (x >= zw - cx)) & ((y + bh <= cy) | (y >= zh - cy)))
    whole = (x > 0) & (y > 0) & (x + bw < zw) & (y + bh < zh) & ~in_corner
    if not whole.any():
        return []
    if ace:
        largest = int(np.argmax(np.where(whole, area, 0)))
        off_centre = np.abs(centres[largest + 1] / (zw, zh) - 0.5)
        if area[largest] < _MIN_PIP_AREA or (off_centre > _ACE_CENTRE).any():
            return []
        pips = np.array([largest])
    else:
        pips = np.flatnonzero(whole & (area >= max(area[whole].max() / 2.0, _MIN_PIP_AREA)))
        if len(pips) < 2:
            return []  # one blob may be anything: a picture, an ornament, a merged row
    # Each pip from the box around it only (the same input, sooner than from the whole zone):
    # its rim reaches one pixel past it.
    found = []
    for i in pips[:_MAX_PIPS]:
        box = np.s_[max(0, y[i] - 2):y[i] + bh[i] + 2, max(0, x[i] - 2):x[i] + bw[i] + 2]
        own = labels[box] == i + 1
        colour = float(np.median((brightest[box] - level[box])[own]))
        found.append(Pip(glyph_input(level[box], own), colour))
    return found


def stemless_spade(glyph: np.ndarray) -> bool:
    """Whether a glyph (as :func:`glyph_input`) is shaped as a spade whose stem the blur has
    taken: pointed at the top, broad at its foot, its weight low."""
    ink = glyph > 0.5
    rows = np.flatnonzero(ink.any(axis=1))
    if len(rows) < 4:
        return False
    inked_rows = slice(rows[0], rows[-1] + 1)
    widths = ink[inked_rows].sum(axis=1)
    widths = widths / widths.max()
    quarter = max(1, len(widths) // 4)
    weight = glyph[inked_rows].sum(axis=1)
    centre = float((weight * (np.arange(len(widths)) + 0.5)).sum() / weight.sum()) / len(widths)
    return (float(widths[-quarter:].mean() - widths[:quarter].mean()) >= _STEMLESS_FOOT
            and centre >= _STEMLESS_WEIGHT)


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
        return club_odds(self.shapes(glyphs))


def club_odds(shapes: np.ndarray) -> np.ndarray:
    """:meth:`GlyphNet.club_log_odds` from the network's :meth:`GlyphNet.shapes`."""
    p, eps = shapes, 1e-6
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
    against the suit the total favours; ``pips_seen`` counts the middle's pips cut out and
    named, spade, club or neither, and ``pips_shaped`` those named spade or club;
    ``stemless`` counts the corners' glyphs named neither that lean to a spade and are
    shaped as one whose stem the blur took (:func:`stemless_spade`)."""

    corners: float
    pips: float
    shaped: int
    dissent: float = 0.0
    pips_seen: int = 0
    pips_shaped: int = 0
    stemless: int = 0

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

    @property
    def corners_agree(self) -> bool:
        """Whether both corners' glyphs are shaped as a black suit and no witness (a
        corner, or the pips) leans against the suit their total leans to."""
        return self.shaped - self.pips_shaped >= 2 and self.dissent == 0.0 and self.total != 0


def black_suit_evidence(card: np.ndarray, net: GlyphNet, rank: Rank | None = None,
                        indices: Sequence[IndexBlobs | None] | None = None
                        ) -> BlackSuitEvidence:
    """The glyphs' evidence on a straightened card; with the ``rank`` read, the middle's
    pips too: an ace's one pip, or a number card's pips unless both corners' glyphs say
    one suit by CORNERS_SETTLE (a court card's picture has none). ``indices`` are the
    card's :func:`find_indices`, where they are already known."""
    if indices is None:
        indices = find_indices(card)
    found = [g for g in map(_suit_glyph, indices) if g is not None]
    in_corners = net.shapes(found)
    each_corner = club_odds(in_corners)
    # Cutting out and naming the pips is most of the glyphs' cost on a number card (some
    # 4 ms of 6); where both corners already say one suit surely, the pips are left alone.
    settled = len(found) == 2 and bool((abs(each_corner) >= CORNERS_SETTLE).all()
                                       and each_corner[0] * each_corner[1] > 0)
    # An ace's pip is large, and blur spares it longest: out of focus past RIG.md's range
    # aces of clubs were read surely as spades (0.90-0.998), where the corners showed no
    # glyph or glyphs blurred into spades, and their big pip was a club all the same. It is
    # one glyph, so it is looked at even where the corners settle the suit.
    ace = rank == Rank.ACE
    number = rank is not None and Rank.TWO <= rank <= Rank.TEN
    pip_list = pip_glyphs(card, ace) if ace or (number and not settled) else []
    in_middle = net.shapes(pip_list)
    pips_shaped = int((in_middle[:, 2] < 0.5).sum())
    shaped = int((in_corners[:, 2] < 0.5).sum()) + pips_shaped
    pip_odds = float(np.median(club_odds(in_middle))) if pip_list else 0.0
    corner_odds = float(each_corner.sum())
    against = -np.sign(corner_odds + pip_odds) * np.append(each_corner, pip_odds)
    leaning_spade = (in_corners[:, 2] >= 0.5) & (in_corners[:, 0] > in_corners[:, 1])
    stemless = sum(stemless_spade(glyph)
                   for glyph, lean in zip(found, leaning_spade, strict=True) if lean)
    return BlackSuitEvidence(corner_odds, pip_odds, shaped, max(0.0, float(against.max())),
                             len(pip_list), pips_shaped, stemless)


def weigh_black_suits(suit_p: np.ndarray, spades: int, clubs: int,
                      evidence: BlackSuitEvidence, seconding: bool = False) -> np.ndarray:
    """Suit probabilities with spades against clubs weighed by the glyphs' log-odds (Bayes'
    rule), where the ink is black (BLACK_SHARE) and the glyphs say a suit
    (:attr:`BlackSuitEvidence.says`), or with ``seconding`` only lean to the suit the
    network leans to, as both corners do (:attr:`BlackSuitEvidence.corners_agree`); else
    unchanged.

    The index network reads the whole corner, so a rank's typeface or an index laid out
    unlike any it learned from can sway its suit; the glyph cut out alone is the witness
    made for this question. Glyphs that say the other black suit than the network's may so
    overrule it, but only as far as their log-odds outweigh the network's, and only two
    glyphs or more: one glyph alone against it leaves the two suits even.
    """
    black = float(suit_p[spades] + suit_p[clubs])
    network = math.log(max(float(suit_p[clubs]), 1e-12) / max(float(suit_p[spades]), 1e-12))
    seconds = seconding and evidence.corners_agree and evidence.total * network > 0
    if not (evidence.says or seconds) or black < BLACK_SHARE:
        return suit_p
    weighed_odds = network + evidence.total
    if evidence.shaped < 2 and weighed_odds * network < 0:
        # One glyph may be cut out wrong: a kde-penguins QS under a thumb showed only its
        # top-left glyph, run into the Q's tail, a club to the glyph network (8.1) against
        # an index network sure of a spade (0.99 in both corners); it was read as QC at
        # 0.96. Plastic's clubs, which the index network takes for spades, mostly show two
        # glyphs or more: this holds one of 9 464 frames with a thumb on the card, and 4 of
        # 10 816 past RIG.md's ranges, all plastic's clubs (docs/READER.md).
        weighed_odds = 0.0
    club_share = 1.0 / (1.0 + math.exp(-float(np.clip(weighed_odds, -50, 50))))
    weighed = suit_p.copy()
    weighed[clubs] = black * club_share
    weighed[spades] = black - weighed[clubs]
    return weighed
