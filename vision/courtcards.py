"""A court card's own witnesses to its rank: its picture against the numbers, and a queen's
counter against the jack, the king and most numbers.

The middle's pips witness a number card's rank (:mod:`vision.pipcount`); a court card's
picture witnesses against the numbers in turn (:func:`weigh_picture`): where the middle
shows print no number card's pips make (:func:`vision.crosscheck.no_number`) and both
corners name the same court rank likeliest (one of them surely), the numbers the index still
weighs are weighed down as seldom as a number card's middle looks so. It does not tell a
queen from a jack; the rank's own print may (:func:`weigh_counter`): a counter spanning its
middle, a Q's bowl, weighs the jack, the king and most numbers down where that leaves the
queen likeliest.

>>> weigh_picture(rank_p, look_at_middle(card), corner_ranks)   # doctest: +SKIP
"""

from __future__ import annotations

import numpy as np

from shoe.cards import Rank
from vision.crosscheck import Middle, no_number
from vision.pipcount import weighed_by

__all__ = ["COUNTER_ON_JK", "COUNTER_ON_NUMBERS", "PICTURE_ON_NUMBERS", "REFUTED_BY_COUNTER",
           "SURE_CORNER", "weigh_counter", "weigh_picture"]

#: How much less likely a middle that shows no number (:func:`vision.crosscheck.no_number`)
#: is on a number card than on a court card, as tools/measure_picture_middles.py measures it
#: on the 16 standard-indexed dev decks (hard and normal light, the thumb on 30% of frames;
#: 1 744 number cards and 512 court cards located): 3.9% of the number cards (63 of the 68
#: tango_nuevo's, which prints a scene behind its pips) against 84% of the court cards.
PICTURE_ON_NUMBERS = 0.046
#: The picture weighs only where one corner names the court rank at least this surely: the
#: doubt it settles is then the other corner's (blur, glare), not a letter the network does
#: not know. Foreign letters were doubtful in both corners (a German jack's B read as K at
#: 0.92 and 0.85, torn with an 8; an Italian jack's as K at 0.55 and 0.83; a German queen's
#: D as J at 0.88 and 0.32), and weighed they were read as a K at 0.96, or came within 0.01
#: of it; the standard court cards it settled showed one corner at 0.96-1.00.
SURE_CORNER = 0.95
#: How much likelier a rank that encloses a counter is to be a J or a K than any other
#: rank, at the most. Measured over hard frames and the thumb on half (13 decks, with a
#: counter as tall as 0.6 of the rank): such a counter showed in none of 2 227 jacks' and
#: kings' index corners (under 3 in 2 227, at 95%) and in 70% of 1 161 queens': a ratio
#: under 0.002, taken ten times as large. The counter that spans the rank's middle
#: (vision.indices._COUNTER_TOP) showed in none of 2 705 and in 79-84% of 1 359 on the
#: tuning decks.
COUNTER_ON_JK = 0.02
#: How much likelier such a rank is to be an ace or a number that REFUTED_BY_COUNTER holds
#: than a queen, at the most. Measured by tools/measure_rank_counters.py (the 15 tuning decks
#: under hard light, the thumb on 30%; a counter in either corner): a 9's bowl closed so on
#: 3.9% of 591 nines, a queen's print on 91.6% of 583 queens (a ratio of 0.04), and on one
#: deck (gnomangelo_bitmap) the nines' share was 0.24 of the queens': taken a little larger.
#: The ace's, the 2's, 3's, 5's, 6's and 7's print never did. A 4's closed triangle did on
#: 40% of one deck's fours (dondorf), a 10's 0 on 64% of all tens: they are not weighed.
COUNTER_ON_NUMBERS = 0.3
#: The rank classes (ace first) of the numbers, and of the court cards.
_NUMBERS = slice(Rank.TWO - 1, Rank.TEN)
_COURTS = range(Rank.JACK - 1, Rank.KING)
#: The ranks a counter across the rank's middle speaks against (COUNTER_ON_JK,
#: COUNTER_ON_NUMBERS): all but the queen, the 4 and the 10, and the 8. An 8's print closed
#: one on 2 of 598 eights only, but a foreign jack's B or В has an 8's two bowls, and the
#: network reads it partly as an 8: blurred, its bowls ran into one counter, and with the 8
#: weighed down atlasnye_skat's JD under the dealer's thumb was read as QD at 0.91.
REFUTED_BY_COUNTER = frozenset(Rank) - {Rank.FOUR, Rank.EIGHT, Rank.TEN, Rank.QUEEN}


def weigh_picture(rank_p: np.ndarray, middle: Middle, corner_ranks: np.ndarray,
                  counter: bool = False) -> np.ndarray:
    """Rank probabilities (the 13 ranks, then "no index") weighed down on the numbers by
    PICTURE_ON_NUMBERS where the middle shows no number and both corners' rank probabilities
    (``corner_ranks``, a row each, "no index" last) name the same court rank likeliest, one
    of them at SURE_CORNER or more, or either where the rank's print encloses a ``counter``
    (:func:`vision.indices.rank_encloses_counter`).

    Under hard light the index network may be torn between a court rank and a number whose
    blurred numeral looks like it (a simplistic QD read Q 0.73 against 10 0.26 in one corner,
    Q 0.99 in the other). The middle settles that, but not which court rank: the court ranks
    and the ace (whose ornament may look like a picture) keep their weights. Both corners
    must name it, as a middle that shows no number is on some decks' number cards too
    (tango_nuevo's 8C, its middle a scene, was read as a court rank at 0.53 in one corner).
    Not where the box showed across the middle (:meth:`vision.pipcount.PipCounts.weigh`).

    A counter makes the letter a Q's or a foreign queen's D, no jack's or king's that the
    network does not know (SURE_CORNER): orell's queens, in a typeface it never learned,
    were torn with a 9 or a 10 in both corners under hard light (Q at 0.52-0.91).
    """
    named = corner_ranks.argmax(axis=1)
    unsure = corner_ranks[:, named[0]].max() < SURE_CORNER and not counter
    if (middle.banded or named[0] != named[1] or named[0] not in _COURTS or unsure
            or not no_number(middle)):
        return rank_p
    likelihood = np.ones(len(Rank))
    likelihood[_NUMBERS] = PICTURE_ON_NUMBERS
    return weighed_by(rank_p, likelihood)


def weigh_counter(rank_p: np.ndarray) -> np.ndarray:
    """Rank probabilities (the 13 ranks, then "no index") as where an index corner's rank
    encloses a counter (:func:`vision.indices.rank_encloses_counter`), as a Q's does
    and no J's or K's: the jack's and the king's weighed down by COUNTER_ON_JK, the ace's
    and the numbers' in REFUTED_BY_COUNTER by COUNTER_ON_NUMBERS, if the queen so comes out
    likeliest; else as they were.

    A queen in a typeface the index network never learned may be torn with a jack or a 9
    (orell's, read Q 0.59-0.88 against J under hard light, or 0.75-0.90 against a 9); the
    picture does not tell a Q from a J, nor a pale picture broken into pieces under glare
    from a 9's pips. Only a queen gains: a 10's 0 encloses a counter too, and foreign
    queens' letters the network took for a 10 or a J (tarocco's D, Атласные's Д) were read
    as 10 at up to 0.985.
    """
    likelihood = np.ones(len(Rank))
    for rank in REFUTED_BY_COUNTER:
        likelihood[rank - 1] = COUNTER_ON_JK if rank >= Rank.JACK else COUNTER_ON_NUMBERS
    weighed = weighed_by(rank_p, likelihood)
    return weighed if weighed.argmax() == Rank.QUEEN - 1 else rank_p
