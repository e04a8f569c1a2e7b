"""A second opinion from the card's middle: picture or pips, and how many pips.

The corner index is small; the middle of the card is large and easy. A number card shows
separated pips of one size; a court card a big picture. A reading whose kind the middle
clearly contradicts (an index read as 8 on a court card, a king read on a card of pips) is
capped below the accept threshold, so the deal holds it instead of paying on it. So is a
black suit that the suit glyphs, cut out alone (the pips of the middle and the glyphs under
the indices, :mod:`vision.glyphs`), do not surely confirm (or, with no glyph to judge by,
whose print is blurred or speckled past what the index network learned; the rules are in
:mod:`vision.blacksuit`), and a J or K whose rank glyph encloses a counter spanning its
middle, as a D does (a foreign queen, which the index network may take for a jack), or a Q
whose rank shows none on blurred print, and a red suit where three pips or more of the
middle are shaped as the other red suit (:mod:`vision.hearts`). So is any reading of print
smeared along one direction, as by a camera shaken during the exposure, and the suit of a
card on which the light leaves a channel of the paper unlit (candle light, the camera's
white balance off), where red and black look alike (the print's state is measured by
:mod:`vision.printstate`).

The check only ever lowers a confidence, and only when the middle, the glyph or the state
of the print is clear about it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from shoe.cards import Rank, Suit
from vision.blacksuit import glyphs_confirm
from vision.glyphs import BlackSuitEvidence, GlyphNet
from vision.hearts import heart_on_its_head, pips_deny
from vision.indices import IndexBlobs, find_indices, rank_encloses_counter
from vision.pixels import DARK, ink_levels
from vision.printstate import SHARP_ENOUGH, colour_lost, print_blur, smeared
from vision.quad import CARD_H, CARD_W
from vision.reading import ACCEPT_THRESHOLD, Reading

__all__ = [
    "CAP", "PIP_TALLEST", "Middle", "cap_rank", "cap_suit", "check", "contradicts", "counts_pips",
    "look_at_middle", "no_number", "only_small_blobs",
]

#: A contradicted reading keeps at most this confidence (below the accept threshold).
CAP = ACCEPT_THRESHOLD - 0.05

#: The middle of the straightened card (fractions): clear of both corner indices.
_X0, _X1 = 0.21, 0.79
_Y0, _Y1 = 0.07, 0.93
#: How far (pixels of the straightened card) the paper closed over a pip is sought: past
#: the middle of the largest pip (a pip is 0.11 of the middle's height, 24 pixels).
#: Sought nearer (9 pixels), a pip printed pale (a four-colour deck's blue spades, green
#: clubs) showed as a broken ring, whose pieces counted as pips: neoclassical_4_color's 2S
#: showed six, its 7S 21, and the index's sure rank was held for too many pips.
_PAPER_REACH = 41
#: This many pips more than the rank has contradict it.
_EXTRA_PIPS = 3
#: A blob of print at least _HIGH of the middle's height (a pip is 0.11) and broader than
#: _WIDER_THAN_PIPS of its width is no number card's: pips stand in columns (on number cards
#: of 14 decks under hard light the broadest was 0.67, a blurred 10). A foreign ace's
#: picture is broader (its "Т" was read as 7).
_WIDER_THAN_PIPS = 0.75
_HIGH = 0.2
#: A thumb rising from the middle's lower edge stays this share of the middle's height
#: below its top; a court card's picture reaches higher.
_THUMB_TOP = 0.3
#: Pips are narrower than this share of the middle's width, and smaller blobs only.
_PIP_WIDEST = 0.45
#: Pips are shorter than this share of the middle's height (a pip is 0.11).
PIP_TALLEST = 0.3
#: A blob no taller than this share of the middle's height (a pip is 0.11) and wider than
#: _WIDER_THAN_PIPS, or than a pip along the middle's top or bottom edge, is a strip: an
#: edge, not print. So is a band lower than _HIGH from side to side: the box past a card
#: located far too large (0.042 high below a candle-lit 9H).
_STRIP = 0.04
#: A blob the middle's top or bottom edge cuts, within this share of the width of the pips
#: clear of it, is a pip cut short.
_CUT_WIDTH = 0.15
#: Print paler than this share of the paper (its darkest channel, smoothed over
#: _SMOOTHING pixels) may be a pip washed out by glare or smeared by a shaken camera:
#: looked at where it is of a pip's size and darker than _FAINT_CORE over _CORE_SHARE of
#: it, never counted. Smoothed, since in the dark the sensor's noise reaches that pale all
#: over the paper; a core, since light falling off beside a glare does too, mostly only
#: just: on the dev decks, a pip so washed out kept 0.29 of itself under 0.72, such shading
#: beside a glare 0 and 0.07-0.08 (in the dark its darkest point was mostly 0.75-0.78).
_FAINT, _FAINT_CORE, _CORE_SHARE, _SMOOTHING = 0.8, 0.72, 0.15, (5, 5)
#: A pale blob stands for a pip where its width and height are within these shares of the
#: counted pips' (a smeared pip loses most of its height) and it has _FAINT_AREA of their ink.
_FAINT_WIDTH, _FAINT_HEIGHT, _FAINT_AREA = (0.6, 1.3), (0.5, 1.3), 0.3
#: A pip the thumb cuts lies within two pixels of it: its lit edge parts them at most.
_TWO_PIXELS = np.ones((5, 5), np.uint8)


@dataclass(frozen=True, slots=True)
class Middle:
    """What the middle of a straightened card shows."""

    tallest: float  # the tallest print blob's height, as a share of the middle's height
    widest: float  # the widest print blob's width, as a share of the middle's width
    blobs: int  # separated print blobs of pip size
    alike: bool  # those blobs (but those the thumb cuts) are of one size: a number card's pips
    broadest: float  # the widest blob of some height (not a strip), as ``widest``
    #: The pip-sized blobs' centres (x, y) as shares of the card's width and height, but for
    #: those the thumb cuts.
    places: tuple[tuple[float, float], ...] = ()
    #: The box showed across it (a card located far too large): what it shows may hold a
    #: reading, but not weigh one up, since it may take in print of the card's edge.
    banded: bool = False
    #: The dealer's thumb lies over it, and may hide pips.
    thumbed: bool = False
    #: The centres of pale blobs of a pip's size clear of the pips counted (as ``places``):
    #: pips glare or a shaken camera may have washed out. They stand for pips where a
    #: reading is checked against its rank's layout, and are never counted.
    faint: tuple[tuple[float, float], ...] = ()


def _ink_masks(middle: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Print against the card's paper, blind to slow shading and the light's colour; and
    how pale each pixel is (its darkest channel's share) against the paper closed over it.

    Print is sought against the paper near it, and pip-sized print also against the paper
    closed over it (:func:`vision.pixels.ink_levels`), so that a pip printed pale is found
    whole. Larger print is not: closed over, the dealer's skin, lighter than any ink but
    darker than the paper, showed as print (a thumb over the middle a picture)."""
    near = _inked(*ink_levels(middle))
    lo, hi = ink_levels(middle, _PAPER_REACH, closed=True)
    labels, pip_sized = _pip_sized_blobs(_inked(lo, hi))
    return near | pip_sized[labels].astype(np.uint8), lo


def _pip_sized_blobs(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The blobs of a mask of the middle, labelled, and which of them are of pip size: no
    larger than _HIGH of the middle's height either way (a flag per label; the paper's
    False)."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    largest = _HIGH * mask.shape[0]
    pip_sized = (stats[:, cv2.CC_STAT_WIDTH] <= largest) & (stats[:, cv2.CC_STAT_HEIGHT] <= largest)
    pip_sized[0] = False  # the paper
    return labels, pip_sized


def _inked(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Dark or coloured pixels, specks of one pixel left out."""
    mask = ((lo < DARK) | (hi - lo > 0.3)).astype(np.uint8)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))


def look_at_middle(card: np.ndarray) -> Middle:
    """Measure the middle of a straightened (CARD_H x CARD_W) card."""
    if card.shape[:2] != (CARD_H, CARD_W):
        raise ValueError(f"expected a straightened card {CARD_H}x{CARD_W}, got {card.shape}")
    middle = card[round(_Y0 * CARD_H):round(_Y1 * CARD_H), round(_X0 * CARD_W):round(_X1 * CARD_W)]
    return _measure(*_ink_masks(middle))


def _measure(ink: np.ndarray, paleness: np.ndarray) -> Middle:
    # Thin strokes (a frame line, a glare's edge) must not join pips into one "picture".
    mask = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    h, w = mask.shape
    mask = cv2.bitwise_or(mask, _whole_small_print(ink, mask))
    _, labels, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    stats, centres = stats[1:], centres[1:]
    # The box past the edge of a card located a little too large: a thin strip across the
    # middle, neither picture nor pip (it kept the pips of some 1 in 400 hard frames of
    # number cards from being counted), or, located far too large, a band from side to side.
    tops, widths, heights = stats[:, 1:4].T
    # A thumb may cut the strip short: a kde-ancient-egyptians 9D's was 0.57 of the width,
    # kept its pips from being counted and placed, and the 9 read as a 6 from one corner
    # stood (0.987), though a 6 has no pip between its rows. The box shows from the
    # middle's edge; a court picture's frame line, within it, is print.
    at_edge = (tops == 0) | (tops + heights >= h)
    thin = (heights <= _STRIP * h) & (
        (widths >= _WIDER_THAN_PIPS * w) | (at_edge & (widths >= _PIP_WIDEST * w)))
    band = (widths == w) & ~thin & (heights < _HIGH * h)
    strip = thin | band
    # The dealer's thumb comes in from below (the hand runs off the picture's bottom): a
    # tall blob rising from the middle's lower edge no higher than its lower part is the
    # thumb over the card, not print (a court card's picture reaches up past it).
    thumb = ((tops + heights >= h - 1) & (tops >= _THUMB_TOP * h) & (heights >= _HIGH * h))
    # A pip the thumb covers in part is smaller than the rest and stands off its place: it
    # still counts, but neither its size nor its place is measured (beside a dark thumb, a
    # 6D's pip cut to a third kept the pips from counting as of one size, and their places
    # from holding a 9 read).
    kept = ~strip & ~thumb
    thumbed = bool(thumb.any())
    cut = _beside(labels, thumb)[kept]
    stats, centres = stats[kept], centres[kept]
    areas = stats[:, cv2.CC_STAT_AREA]
    banded = bool(band.any())
    if len(areas) == 0:
        return Middle(0.0, 0.0, 0, False, 0.0, banded=banded, thumbed=thumbed)
    tallest = float(stats[:, cv2.CC_STAT_HEIGHT].max()) / h
    widest = float(stats[:, cv2.CC_STAT_WIDTH].max()) / w
    high = stats[:, cv2.CC_STAT_HEIGHT] >= _HIGH * h
    broadest = float(stats[high, cv2.CC_STAT_WIDTH].max()) / w if high.any() else 0.0
    # Pips: blobs at least a third the size of the largest (specks and stray lines are not).
    is_big = areas >= max(areas.max() / 3.0, 40)
    whole = is_big & ~cut
    # A pip the middle's top or bottom edge cuts is lower than the rest, as wide, and smaller:
    # where two or more stand clear of the edge, they say whether the pips are of one size,
    # and a blob the edge cuts so is left out (a shaken orell 6H, its lower row cut to half a
    # pip, went uncounted, and its 6 read as 5 at 0.97 stood). As wide (within _CUT_WIDTH)
    # and smaller: a court picture broken into pieces by glare is cut by the edge too. Not
    # the middle's sides: some decks print their side columns out to them (orell's).
    edge, width = at_edge[kept], widths[kept]
    clear = whole & ~edge
    sized = whole
    if clear.sum() >= 2:
        pip_width = float(np.median(width[clear]))
        cut_pip = (edge & (np.abs(width / pip_width - 1.0) <= _CUT_WIDTH)
                   & (areas < areas[clear].min()))
        sized = whole & ~cut_pip
    alike = bool(sized.sum() >= 2 and areas[sized].min() >= 0.5 * areas[sized].max())
    faint = np.empty((0, 2))
    if alike:
        counted = kept.copy()
        counted[kept] = whole
        faint = _faint_pips(paleness, _blob_mask(labels, counted), stats[sized])
    return Middle(tallest, widest, int(is_big.sum()), alike, broadest,
                  _places(centres[whole], w, h), banded, thumbed, _places(faint, w, h))


def _places(centres: np.ndarray, w: int, h: int) -> tuple[tuple[float, float], ...]:
    """Blob centres in the middle (pixels) as shares of the card's width and height."""
    return tuple((_X0 + (_X1 - _X0) * float(x) / w, _Y0 + (_Y1 - _Y0) * float(y) / h)
                 for x, y in centres)


def _faint_pips(paleness: np.ndarray, counted: np.ndarray, pips: np.ndarray) -> np.ndarray:
    """The centres of the pale blobs (_FAINT) darker still (_FAINT_CORE) over _CORE_SHARE
    of them, clear of the counted pips (``counted``, a mask) and of the middle's edges, of a
    pip's size (``pips``: the counted pips' stats)."""
    paleness = cv2.blur(paleness, _SMOOTHING)
    # The smoothing spreads each pip's ink a little past its edge: a core there belongs to a
    # blob that touches the pip. Most middles show no core elsewhere, and are done here.
    core = (paleness < _FAINT_CORE) & (cv2.dilate(counted.astype(np.uint8), _TWO_PIXELS) == 0)
    if not core.any():
        return np.empty((0, 2))
    pale = (paleness < _FAINT).astype(np.uint8)
    _, labels, stats, centres = cv2.connectedComponentsWithStats(pale, connectivity=8)
    left, top, width, height, area = stats[1:].T
    h, w = pale.shape
    pip_w, pip_h, pip_area = (float(np.median(pips[:, i])) for i in
                              (cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT, cv2.CC_STAT_AREA))
    cored = np.bincount(labels[core], minlength=len(stats))[1:] >= _CORE_SHARE * area
    on_pips = np.zeros(len(stats), bool)
    on_pips[labels[counted]] = True
    clear = cored & ~on_pips[1:]
    sized = ((_FAINT_WIDTH[0] * pip_w <= width) & (width <= _FAINT_WIDTH[1] * pip_w)
             & (_FAINT_HEIGHT[0] * pip_h <= height) & (height <= _FAINT_HEIGHT[1] * pip_h)
             & (area >= _FAINT_AREA * pip_area))
    inside = (left > 0) & (top > 0) & (left + width < w) & (top + height < h)
    return centres[1:][clear & sized & inside]


def _whole_small_print(ink: np.ndarray, opened: np.ndarray) -> np.ndarray:
    """The print of ``ink`` in blobs of pip size that the opening (``opened``) left
    something of, whole again: the opening cuts a small pip at its narrow necks too. Under
    hard light ornamental's clubs fell into three leaves and a stem, and a 2C's middle
    showed 8 pips, "more than its rank has". A thin stroke that joins pips makes a blob
    larger than a pip, and stays cut."""
    labels, pip_sized = _pip_sized_blobs(ink)
    kept = np.zeros(len(pip_sized), bool)
    kept[labels[opened > 0]] = True
    return (pip_sized & kept)[labels].astype(np.uint8)


def _blob_mask(labels: np.ndarray, which: np.ndarray) -> np.ndarray:
    """The pixels of the blobs (labels 1..n) flagged in ``which`` (a flag per blob)."""
    return np.append(False, which)[labels]


def _beside(labels: np.ndarray, which: np.ndarray) -> np.ndarray:
    """Which blobs (labels 1..n) touch one of ``which`` (a flag per blob) or lie within
    two pixels of it."""
    near = np.zeros(len(which), bool)
    if which.any():
        grown = cv2.dilate(_blob_mask(labels, which).astype(np.uint8), _TWO_PIXELS)
        touched = np.unique(labels[grown > 0])
        near[touched[touched > 0] - 1] = True
    return near


def _is_picture(m: Middle) -> bool:
    """A court card's picture: one blob spanning much of the middle."""
    return m.tallest > 0.45 and m.widest > 0.5


def no_number(m: Middle) -> bool:
    """A picture, or a blob of print broader than a number card's pips stand: no number
    card's middle, though an ace's large ornament may look so."""
    return _is_picture(m) or m.broadest > _WIDER_THAN_PIPS


def only_small_blobs(m: Middle) -> bool:
    """Print in blobs no bigger than pips, no picture."""
    return m.blobs > 0 and m.tallest < PIP_TALLEST and m.widest < _PIP_WIDEST


def counts_pips(m: Middle) -> bool:
    """Separated pips of one size, none of them big: a number card, surely."""
    return m.alike and only_small_blobs(m)


def contradicts(rank: Rank, m: Middle) -> bool:
    """The middle clearly says the card is not of this rank."""
    if rank == Rank.ACE:
        return False  # an ace's one pip may be a large ornament
    if rank >= Rank.JACK:
        return counts_pips(m)
    # Pips merge under blur (fewer blobs) and glare may split one (a blob more); far more
    # pips than the rank has is a contradiction all the same, and so are a third as many
    # where there are many (a 7 to 10 showed 5 blobs at the fewest, 14 decks, hard light).
    too_few = rank >= Rank.SEVEN and 0 < m.blobs <= int(rank) // 3
    return (no_number(m) or too_few
            or (counts_pips(m) and m.blobs >= int(rank) + _EXTRA_PIPS))


def check(reading: Reading, card: np.ndarray, glyphs: GlyphNet,
          middle: Middle | None = None,
          indices: tuple[IndexBlobs | None, IndexBlobs | None] | None = None,
          evidence: BlackSuitEvidence | None = None) -> Reading:
    """The reading, its confidence capped below the threshold if the middle (as measured by
    :func:`look_at_middle`, if not given) or the index corners (:func:`find_indices`, if
    not given) contradict it. ``evidence`` is the glyphs' word on a black suit
    (:func:`black_suit_evidence`), where it is already known. The rank and the suit are
    checked apart, each capped by its own rules: a blue diamond read as a spade under the
    dealer's thumb, its rank held by the middle, kept a sure spade for the audit while the
    suit's rules went unasked."""
    if reading.rank is None or max(reading.confidence, reading.rank_confidence,
                                   reading.suit_confidence) < CAP:
        return reading
    if smeared(card):
        # Smeared print (a camera shaken during the exposure) was read surely wrong.
        return cap_suit(cap_rank(reading))
    if colour_lost(card):
        # The suit alone: the middle is not measured right in such light either (an anglo
        # 8C's pips ran together into two columns, a picture, under candle light).
        return cap_suit(reading)
    middle = middle if middle is not None else look_at_middle(card)
    court, black = reading.rank in (Rank.JACK, Rank.KING), reading.suit in (Suit.SPADES, Suit.CLUBS)
    queen, diamond = reading.rank is Rank.QUEEN, reading.suit is Suit.DIAMONDS
    blank = middle.blobs == 0
    # The corners, for the rules below (a red number card's may spare cutting out its pips).
    indices = indices if indices is not None else find_indices(card)
    # A heart printed on its head, which the network never learned, may be named a diamond.
    # Its index is printed unturned, its rank upside down, and a 6 so reads as a 9: a
    # kde-ancient-egyptians 9H, read from that corner alone, was 6D, its 6 at 0.97. (Other
    # ranks upside down read as none, and an upside-down 7 may pass for such a heart.)
    upturned_heart = diamond and heart_on_its_head(indices)
    rank_held = (
        contradicts(reading.rank, middle)
        or (upturned_heart and reading.rank in (Rank.SIX, Rank.NINE))
        # No print found anywhere: none in the middle, no index in either corner. In an
        # empty box, the box's own frame round its dark floor was located as a card, and its
        # corners were read as 10C at up to 0.98 (5 of 600 simulated empty boxes). A card's
        # print may fade from the middle (pale pips out of focus), but then its index is
        # still found.
        or (blank and indices == (None, None))
        # A J or K read from a rank that encloses a counter: a German queen's D, or a Q.
        or (court and any(map(rank_encloses_counter, indices)))
        # A Q that shows none, on blurred print (a shaken JC was read as QC).
        or (queen and _blurred_without_counter(card, indices)))
    checked = cap_rank(reading) if rank_held else reading
    suit_held = (upturned_heart
                 or (black and not glyphs_confirm(reading, card, glyphs, indices, evidence))
                 or pips_deny(reading, card, indices))
    return cap_suit(checked) if suit_held else checked


def _blurred_without_counter(card: np.ndarray, indices: Sequence[IndexBlobs | None]) -> bool:
    """Whether no index corner's rank encloses a counter across its middle, as a Q's print
    does on 92% of the tuning decks' queens under hard light, on print blurred past what the
    index network learned (:data:`vision.printstate.SHARP_ENOUGH`). A Q read so is held:
    past RIG.md's ranges the network read a shaken bellot JC as QC at 0.90, and its rank,
    run into the picture, was found in neither corner."""
    return (not any(map(rank_encloses_counter, indices))
            and print_blur(card) > SHARP_ENOUGH)


def cap_rank(reading: Reading) -> Reading:
    """The reading with its rank's confidence (and so its own) capped at CAP."""
    return replace(reading, confidence=min(reading.confidence, CAP),
                   rank_confidence=min(reading.rank_confidence, CAP))


def cap_suit(reading: Reading) -> Reading:
    """The reading with its suit's confidence (and so its own) capped at CAP."""
    return replace(reading, confidence=min(reading.confidence, CAP),
                   suit_confidence=min(reading.suit_confidence, CAP))
