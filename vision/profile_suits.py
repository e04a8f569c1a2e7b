"""The profile reader's suit check (vision.profile): its rank read, a card's suit is told
from the other learned cards of that rank by the ink's colour or the pips' shapes
(vision.suits), where the learning pass's glare lay on each card unknown."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from shoe.cards import FULL_DECK, Rank
from vision.descriptors import Seen
from vision.pairwise import colour_distance, ink_colour
from vision.profile_checks import beaten_out, capped, shortfall
from vision.reading import Reading
from vision.stored import DeckProfile
from vision.suits import COLOURS_APART, Candidate, solid, suit_tournament

__all__ = ["COURT", "SuitCheck"]

#: Court cards (a picture, no pips to count).
COURT = [c.rank >= Rank.JACK for c in FULL_DECK]

#: How far below the best match the ink may pick another court card of its rank: on 3 328
#: reads of 8 dev decks (seed 2024, both conditions, with and without indices) it did 4
#: times, rightly, from at most 0.024 below.
_COURT_OVERRULE = 0.05
#: As _COURT_OVERRULE, for the pips' shapes alone (two cards of one ink, under COLOURS_APART),
#: in shares of what the best match falls short of 1 (as the softmax's temperature). A pip
#: wider than the paper's closing has a hollow fine ink map: tango's pip-only AS in dim
#: light fitted the club's shape, 0.92 below the spade (0.057 of 0.062), and was read AC at
#: 1.000 but for its leftover index. On the 23 pip-only dev decks (hard, seeds 5 and 13:
#: tools/measure_suit_pairs.py) the shapes picked the truth so 5 times, from at most 0.38.
_SHAPES_OVERRULE = 0.6

#: A reading of card i (FULL_DECK order) from similarities: the reader's softmax.
Match = Callable[[np.ndarray, int], Reading]


class SuitCheck:
    """Tells a read rank's suit for one learned deck; ``far_suits``: a court card's suit is
    held where one of its rank further off fits better (:meth:`_far_suit_fits`)."""

    def __init__(self, profile: DeckProfile, far_suits: bool = True) -> None:
        self.profile = profile
        self.far_suits = far_suits
        # Each card's ink colour, to tell a rank's red suits from its black ones.
        self.colours = [ink_colour(w, k) for w, k in zip(profile.whole, profile.ink,
                                                         strict=True)]
        # Each card's fine ink with its pips' hollows filled: made the first time its suit
        # is in question (all 52 at once took some 40 ms to start).
        self._solid: dict[int, np.ndarray] = {}

    def glare_on(self, card: int) -> np.ndarray | None:
        """Where the learning pass's glare lay on learned card ``card``'s broad print."""
        return None if self.profile.glare is None else self.profile.glare[card]

    def read(self, seen: Seen, scores: np.ndarray, card: int, close_by: float,
             match: Match) -> Reading:
        """The reading of ``card``'s rank, its suit told from the rivals of its rank within
        ``close_by`` of it: the rivals beaten leave the softmax (``match``); when nothing
        decides, the suit's confidence is capped. A court card's suit is held too where one
        of its rank further off fits better (:meth:`_far_suit_fits`)."""
        rank = FULL_DECK[card].rank
        same = [int(j) for j in np.argsort(-scores) if j != card and FULL_DECK[j].rank == rank
                and self.profile.learned[j]]
        close = [card, *(j for j in same if scores[j] >= scores[card] - close_by)]
        far = [j for j in same if j not in close] if COURT[card] and self.far_suits else []
        if len(close) == 1:
            reading = match(scores, card)
        else:
            winner = suit_tournament(*_view(seen), [self._candidate(c) for c in close],
                                     court=COURT[card], glare=seen.glare)
            # Court cards' pictures differ all over, not only in their pips: there the ink
            # may overrule only a near tie (on a blind deck whose kings are different
            # pharaohs it named KH for KC at 0.998, 0.136 below the best match). So may the
            # shapes alone.
            if winner is None or not self._may_overrule(scores, card, close[winner]):
                return capped(match(scores, card), rank=False, suit=True)
            card = close[winner]
            reading = match(beaten_out(scores, close, winner), card)
        if self._far_suit_fits(seen, card, far):
            return capped(reading, rank=False, suit=True)
        return reading

    def _candidate(self, card: int) -> Candidate:
        """Learned card ``card`` for the suit check (vision.suits.suit_tournament)."""
        # Where the pass's light glared, broad print (a court picture, an ace's big pip) was
        # learned fainter, with no paper round it to scale it back by as a small pip has
        # (vision.pairwise): two cards learned opposite ways up differ there by the light
        # (vision.learn.learning_glare). A blind deck's pip-only AS, its spade learned
        # under the pass's glare, fitted the AC's solid club better, at 1.000.
        if card not in self._solid:
            self._solid[card] = solid(self.profile.fine[card])
        return Candidate(self.profile.fine[card], self.colours[card], self.glare_on(card),
                         self._solid[card])

    def _far_suit_fits(self, seen: Seen, card: int, far: list[int]) -> bool:
        """Whether the suit check prefers one of ``far``, court cards of ``card``'s rank
        that the correlation put further below it, to ``card``. A court card's suit is a
        small part of its face, and the correlation weighs its picture: a blind deck's
        single-headed KS, its index painted out, fitted the KC learned the way up it was
        seen better than its own learned the other way (0.19 below), and was read as KC at
        0.999. This witness only holds the suit, never changes it."""
        if not far:
            return False
        view = _view(seen)
        mine = self._candidate(card)
        return any(suit_tournament(*view, [mine, self._candidate(j)], court=True) == 1
                   for j in far)

    def _may_overrule(self, scores: np.ndarray, card: int, other: int) -> bool:
        """Whether the suit check may pick ``other`` over ``card``, its rank's best match."""
        below = float(scores[card] - scores[other])
        if COURT[card]:
            return below <= _COURT_OVERRULE
        if colour_distance(self.colours[card], self.colours[other]) >= COLOURS_APART:
            return True  # red against black
        return below <= _SHAPES_OVERRULE * shortfall(float(scores[card]))


def _view(seen: Seen) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The card in view as the suit check takes it: its fine ink, where that is unknown,
    and its ink's colour."""
    ink, _, fine, fine_unknown = seen.ink()
    return fine, fine_unknown, ink_colour(seen.whole, ink)
