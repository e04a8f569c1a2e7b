"""Whether the suit glyphs confirm a black suit read (:func:`glyphs_confirm`), for
:func:`vision.crosscheck.check`.

The index network reads a whole corner, and a deck unlike those it learned from may sway its
suit: a diamond printed blue or black read as a spade, a club as a spade on blurred print.
The glyphs cut out alone (:mod:`vision.glyphs`) are asked; where they show no spade's or
club's shape, the network's word stands only on print as clean as it learned from, in black
ink, and not where both corners show glyphs of some other shape.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from shoe.cards import Rank, Suit
from vision.glyphs import BlackSuitEvidence, GlyphNet, black_suit_evidence
from vision.indices import IndexBlobs, index_corners, speckled
from vision.printstate import SHARP_ENOUGH, print_blur
from vision.reading import Reading

__all__ = ["COLOURED_INK", "glyphs_confirm"]

#: An index's ink (the median IndexBlobs.colour of its rank, or of its suit glyph) is
#: coloured, not black, at this or more; RED_INK tells red ink, and a diamond printed dark
#: blue measured under it. Over 204 hard frames of eight dev decks' black cards the most
#: coloured of those blobs measured 0.116 at the 99th percentile (0.16 at most); their
#: diamonds printed dark blue, 0.14 at the 1st.
COLOURED_INK = 0.12


def glyphs_confirm(reading: Reading, card: np.ndarray, glyphs: GlyphNet,
                   indices: Sequence[IndexBlobs | None],
                   evidence: BlackSuitEvidence | None) -> bool:
    """The suit glyphs (under the indices, and the middle's pips on a number card) say the
    black suit read, or show no spade or club shape to judge by (or only lean to the suit
    read) on print clean enough for the index network alone (a club's, blurred or not), in
    ink that is black (on a number card, found in a corner or its pips), and not in both
    corners glyphs nor in the middle pips of another shape (two spades whose stems the blur
    took confirm a spade)."""
    assert reading.rank is not None
    if evidence is None:
        evidence = black_suit_evidence(card, glyphs, reading.rank, indices)
    said = evidence.total if reading.suit == Suit.CLUBS else -evidence.total
    # Glyphs that lean to the suit read, none of them against it, but short of saying it
    # (GLYPHS_CONFIRM), are judged as no glyph: anglo's QS under hard light, its spade
    # found in one corner only and blurred (2.2 for a spade), was held where a QS with no
    # glyph found stood.
    leaning = said > 0 and evidence.dissent == 0.0 and not evidence.says
    if evidence.shaped == 0 or leaning:
        # Nothing to judge by: the network's word stands alone only on print as clean as
        # it learned from, neither blurred past its range (where it reads a spade) nor
        # speckled by the sensor's noise, and where the index is printed in black. A
        # four-colour deck may print its diamonds blue, as the dev decks' four-colour ones
        # print their spades: the network read them as spades at up to 1.0, while the
        # glyph network saw no spade or club.
        # Nor where both corners show a glyph and neither is a spade's or a club's shape: a
        # heart or a diamond in black ink. A deck printed in one ink had its hearts read as
        # clubs, its diamonds as spades, at up to 0.998; a black suit's glyph cut out wrong
        # (run into a picture, under the thumb) leaves one corner at most, nearly always:
        # two right readings of 11 232 frames within RIG.md's ranges showed two. Nor where
        # the middle's pips were cut out and named, none a spade or a club: that deck's 4D
        # and 9D, no glyph found in their corners, were read as spades at 0.93. A black
        # suit's pips cut out are named as such: over 28 decks this held no right reading
        # of 17 472 frames within RIG.md's ranges, and one of 17 472 past them.
        # Only glyphs and pips of no black suit's shape count so: plastic's 4S, its two
        # corners' glyphs and four pips all leaning to a spade, together short of saying it
        # (3.3), was held. Nor do two glyphs shaped as spades whose stems the blur took
        # (:func:`vision.glyphs.stemless_spade`), where a spade is read: a heart or a
        # diamond under an index is so shaped hardly ever. anglo_bitmap's QS under hard
        # light, both its spades named neither (0.53 and 0.90), was held. Over the 15
        # tuning decks and eight of them printed in one ink (21 528 frames, within RIG.md's
        # ranges and past them) this released 7 right readings and let none wrong through.
        # Past the ranges a club's leaves, blurred or smeared, run together into that shape
        # too (8 clubs read as spades); the rules on blurred and smeared print hold those.
        # Nor on a number card whose index was found in neither corner and none of whose
        # pips was cut out: nothing measured its ink. In a dark room past RIG.md's range an
        # npm four-colour deck's 9D, its dark blue ink too faint on the dim paper for either
        # search, was read as 9S at 0.98. (A court card has no pips to look at, and its
        # index may go unfound where its picture runs into it: bellot's JC and KS under hard
        # light, read right.)
        glyphs_found = sum(found is not None and found.suit is not None for found in indices)
        shapeless_glyphs = glyphs_found - (evidence.shaped - evidence.pips_shaped)
        shapeless_pips = evidence.pips_seen > 0 and evidence.pips_shaped == 0
        stemless = evidence.stemless if reading.suit is Suit.SPADES else 0
        unseen = (reading.rank <= Rank.TEN and evidence.pips_seen == 0
                  and all(found is None for found in indices))
        # Blur runs a club's leaves together into a spade's shape, never a spade into
        # leaves: every black suit read surely wrong out of focus was a club's read as a
        # spade (docs/READER.md, the suit glyphs), so a club read on blurred print stands.
        return (not unseen
                and not any(map(speckled, index_corners(card)))
                and (reading.suit is Suit.CLUBS or print_blur(card) <= SHARP_ENOUGH)
                and not any(map(_coloured, filter(None, indices)))
                and (shapeless_glyphs < 2 or stemless == shapeless_glyphs)
                and not shapeless_pips)
    # A number card's pips, cut out and none of them a spade or a club, say no black suit
    # against one corner's glyph: a deck printed in one ink, its diamond in a corner under
    # broad glare or askew named a spade (log-odds 6.4-7.0), was read as 8S and 9S at up
    # to 0.98. Two corners' glyphs that agree outweigh them: pips cut in part (a middle
    # faded, its pips' edges left) are named neither. (An ace's one pip may be an
    # ornament: not counted.)
    pips_say_neither = (evidence.pips_seen >= 2 and evidence.pips_shaped == 0
                        and evidence.shaped == 1)
    return evidence.says and said > 0 and not pips_say_neither


def _coloured(found: IndexBlobs) -> bool:
    """Whether an index is printed in coloured ink: its suit glyph, or its rank (a court
    card's glyph may run into the picture beside it and go unfound)."""
    return any(found.ink_colour(label) >= COLOURED_INK
               for label in (found.rank, found.suit) if label is not None)
