"""Hearts against diamonds from the outline of the suit glyph under each index.

The index network settles red against black by the ink's colour, but may stay torn between
the two red suits where a deck's index sits unlike any it learned from (a court card's
framed picture close to the index, say). The glyph under the rank tells them apart by its
outline alone: a heart is broad at the top (two lobes) and pointed at the bottom, a diamond
pointed at both ends, whichever way up it is printed (a deck may print its lower index
unturned, so that it stands on its head when the card is turned to read that corner). The
glyph's width over its top fifth less its width over its bottom fifth (shares of its widest
row) was measured on the dev decks' red cards under hard light
(``tools/measure_red_glyphs.py``: 48 sessions, the dealer's thumb on some, 2 156 glyphs):
hearts 0.35 or more in 93.0% of glyphs, diamonds within 0.15 of nought in 95.6%; a diamond
measured as a heart in 0.4%, a heart as a diamond in 0.7% (a lobe lost under glare or the
thumb), and no diamond at -0.35 or less (a heart on its head; the dev decks turn their lower
indices, so hardly a heart measured so: 0.1%). Without the thumb (an earlier run): 95.7% and
97.4%, none and 0.3%. Only a glyph of red ink is weighed (``RED_INK``), under a rank at
least half as tall (``RANK_OVER_GLYPH``). A diamond read over a heart on its head is held
however sure the network is (:func:`heart_on_its_head`): it never saw one; but not beside a
glyph shaped as a diamond. A number card's pips are measured so too
(:func:`pips_deny`): a red suit read where three pips or more of red ink, cut out from the
middle, are all shaped as the other red suit is held.

>>> red_suit_log_odds(find_indices(card))           # doctest: +SKIP
7.7
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from shoe.cards import Rank, Suit
from vision.glyphs import Pip, cut_pips
from vision.indices import RED_INK, IndexBlobs
from vision.reading import Reading

__all__ = ["DIAMOND_SHAPE", "EVIDENCE", "HEART_SHAPE", "NAMED_SHARE", "PIPS_TO_SAY",
           "RANK_OVER_GLYPH", "RED_INK", "RED_SHARE", "heart_on_its_head", "ink_colour",
           "pip_shapes", "pips_deny", "red_pips_say", "red_suit_log_odds", "red_suits_torn",
           "shaped_suit", "top_less_bottom", "weigh_red_suits"]

#: A glyph whose top is this much wider than its bottom is a heart (so is one whose bottom
#: is this much wider: a heart on its head); one within DIAMOND_SHAPE of nought a diamond;
#: between them, nothing is said.
HEART_SHAPE = 0.35
DIAMOND_SHAPE = 0.15
#: A rank is at least this share of its suit glyph's height: on the clean faces of every
#: aisleriot and KDE deck, 0.76 or more (3 692 indices). What is found over a "glyph" less
#: tall is no rank but a sliver of the card's edge, and the "glyph" may be the rank: an A
#: so found measured as a heart on its head under the thumb (a kde-standard AD).
RANK_OVER_GLYPH = 0.5
#: Rows in the top and in the bottom share of the glyph that are measured.
_END = 0.2
#: A glyph fewer pixels high than this is too coarse to show its notch.
_MIN_HEIGHT = 8
#: Log-odds one glyph gives its suit: right on about 95% of glyphs, and a glyph seen so seldom on
#: the other suit is taken to happen 2% of the time there (a deck unlike the dev decks may
#: draw its suits otherwise), as vision.pipcount's FLOOR.
EVIDENCE = math.log(0.95 / 0.02)
#: The glyphs only pick between the red suits: the network must give them this much between
#: them (the ink is red), and the suit they name this share of it.
RED_SHARE = 0.9
NAMED_SHARE = 0.2
#: The middle's pips say a red suit where at least this many of red ink are cut out
#: (:func:`vision.glyphs.cut_pips`) and each is shaped as it. Two are too few: past
#: RIG.md's ranges, two pieces of an ornamental 6D's pips broken by glare measured as hearts
#: (0.49 and 0.42), and two of a neoclassical 6H's pips, candle-lit, as diamonds.
PIPS_TO_SAY = 3


def top_less_bottom(glyph: np.ndarray) -> float | None:
    """The width of a glyph's top fifth less that of its bottom fifth, as shares of its
    widest row (each row's width from its first to its last pixel); None for a glyph too
    small to tell."""
    ys, xs = np.nonzero(glyph)
    if len(ys) == 0 or ys.max() - ys.min() + 1 < _MIN_HEIGHT:
        return None
    box = glyph[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(bool)
    h, w = box.shape
    first = box.argmax(axis=1)
    last = w - 1 - box[:, ::-1].argmax(axis=1)
    widths = np.where(box.any(axis=1), last - first + 1, 0) / w
    k = max(1, round(_END * h))
    return float(widths[:k].mean() - widths[-k:].mean())


def ink_colour(found: IndexBlobs) -> float:
    """The median colour (:class:`~vision.indices.IndexBlobs`) of an index's suit glyph."""
    assert found.suit is not None
    return found.ink_colour(found.suit)


def red_suit_log_odds(indices: Sequence[IndexBlobs | None]) -> float:
    """Log-odds for a heart rather than a diamond from the red suit glyphs of a card's
    index corners (vision.indices.find_indices): EVIDENCE for each glyph shaped as a heart
    either way up, less EVIDENCE for each shaped as a diamond; 0 where none says anything."""
    odds = 0.0
    for shape in map(_red_glyph_shape, indices):
        suit = None if shape is None else _shaped_as(shape)
        if suit is Suit.HEARTS:
            odds += EVIDENCE
        elif suit is Suit.DIAMONDS:
            odds -= EVIDENCE
    return odds


def _shaped_as(shape: float) -> Suit | None:
    """The red suit a glyph measured by :func:`top_less_bottom` is shaped as, either way
    up; None between a diamond's shape and a heart's."""
    if abs(shape) >= HEART_SHAPE:
        return Suit.HEARTS
    if abs(shape) <= DIAMOND_SHAPE:
        return Suit.DIAMONDS
    return None


def heart_on_its_head(indices: Sequence[IndexBlobs | None]) -> bool:
    """Whether a red suit glyph under an index is shaped as a heart on its head, which no
    diamond measured. The index network learned from decks that turn their lower index, so
    it never saw such a heart, and may name it a diamond surely: kde-ancient-egyptians
    prints its lower index upright, and an 8H read from that corner alone was read as 8D
    at 0.93. Not where the other corner's glyph is shaped as a diamond: such a deck's other
    corner shows its heart upright, and a diamond's glyph under glare or blur may measure as
    a heart on its head (kde-ancient-egyptians' 3D, a piece of its glared 3 cut out as the
    glyph: -0.58; orell's 2D blurred in a dark room: -0.39; the other corners' 0.0)."""
    shapes = [shape for shape in map(_red_glyph_shape, indices) if shape is not None]
    return (any(shape <= -HEART_SHAPE for shape in shapes)
            and not any(abs(shape) <= DIAMOND_SHAPE for shape in shapes))


def red_pips_say(card: np.ndarray) -> Suit | None:
    """The red suit that a straightened number card's pips are shaped as: where at least
    PIPS_TO_SAY of red ink are cut out and all are of that shape (:func:`shaped_suit`);
    else None."""
    return shaped_suit(pip_shapes(cut_pips(card)))


def pip_shapes(pips: Sequence[Pip]) -> list[float | None]:
    """:func:`top_less_bottom` of each pip of red ink (RED_INK) of those cut out of a
    card's middle as for the black suits (:func:`vision.glyphs.cut_pips`, at most four). In
    the dark, blobs of the sensor's noise on the dim paper were cut out as pips and measured
    as diamonds, and held an orell 5H read right past RIG.md's range: their colour was 0.17,
    a red pip's 0.46-0.51."""
    return [top_less_bottom(pip.glyph > 0.5) for pip in pips if pip.colour >= RED_INK]


def shaped_suit(shapes: Sequence[float | None], least: int = PIPS_TO_SAY) -> Suit | None:
    """The red suit that at least ``least`` measured glyphs all are shaped as, either way
    up; None where fewer are measured or their shapes differ."""
    suits = {_shaped_as(shape) for shape in shapes if shape is not None}
    measured = sum(shape is not None for shape in shapes)
    return suits.pop() if measured >= least and len(suits) == 1 else None


def pips_deny(reading: Reading, card: np.ndarray, indices: Sequence[IndexBlobs | None]
              ) -> bool:
    """Whether a number card read as of a red suit shows pips shaped as the other red suit
    (:func:`red_pips_say`). Glare may wash out the small glyph under both indices while the
    pips stay plain: past RIG.md's glare range a neoclassical 6H, one corner's heart washed
    to a diamond's shape and the other's gone, was read as 6D at 0.967; its pips measured
    0.48-0.70. The pips are not cut out where both corners' glyphs are shaped as the suit
    read (some 1 ms saved on most red number cards)."""
    red = (Suit.HEARTS, Suit.DIAMONDS)
    if reading.rank is None or not Rank.TWO <= reading.rank <= Rank.TEN or reading.suit not in red:
        return False
    said = red_suit_log_odds(indices)
    if (said if reading.suit is Suit.HEARTS else -said) >= 2 * EVIDENCE:
        return False
    shown = red_pips_say(card)
    return shown is not None and shown is not reading.suit


def _red_glyph_shape(found: IndexBlobs | None) -> float | None:
    """:func:`top_less_bottom` of an index's suit glyph, where it is of red ink and under a
    rank at least RANK_OVER_GLYPH as tall as itself."""
    if found is None or found.suit is None or ink_colour(found) < RED_INK:
        return None
    glyph = found.labels == found.suit
    if _height(found.labels == found.rank) < RANK_OVER_GLYPH * _height(glyph):
        return None
    return top_less_bottom(glyph)


def _height(mask: np.ndarray) -> int:
    ys = np.flatnonzero(mask.any(axis=1))
    return int(ys[-1] - ys[0] + 1) if len(ys) else 0


def red_suits_torn(hearts: float, diamonds: float) -> bool:
    """Whether the network's probabilities leave hearts against diamonds for the glyphs
    to weigh: the ink is red, and neither suit has all but 1% of it."""
    red = hearts + diamonds
    return red >= RED_SHARE and max(hearts, diamonds) < 0.99 * red


def weigh_red_suits(suit_p: np.ndarray, hearts: int, diamonds: int, log_odds: float
                    ) -> np.ndarray:
    """Suit probabilities with hearts against diamonds weighed by the glyphs' log-odds
    (Bayes' rule), where the network is torn between them (:func:`red_suits_torn`) and
    gives the suit the glyphs favour at least NAMED_SHARE of the red suits' share; else
    unchanged."""
    if log_odds == 0.0 or not red_suits_torn(suit_p[hearts], suit_p[diamonds]):
        return suit_p
    red = float(suit_p[hearts] + suit_p[diamonds])
    favoured = hearts if log_odds > 0 else diamonds
    if suit_p[favoured] < NAMED_SHARE * red:
        return suit_p
    heart_odds = suit_p[hearts] / max(float(suit_p[diamonds]), 1e-12) * math.exp(log_odds)
    weighed = suit_p.copy()
    weighed[hearts] = red * heart_odds / (1.0 + heart_odds)
    weighed[diamonds] = red - weighed[hearts]
    return weighed
