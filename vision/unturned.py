"""A deck may print its lower index unturned: in the corner turned to read it, it stands
upside down, and the network sees no index there, or another rank. Such a corner, read
turned back, is a witness to the rank the other corner names (:class:`TurnedBack`,
:func:`check_unturned`, :func:`turned_witness`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from shoe.cards import Rank
from vision.crosscheck import cap_rank
from vision.indices import IndexBlobs, find_indices, turn_glyphs
from vision.reading import ACCEPT_THRESHOLD, Reading

if TYPE_CHECKING:
    from collections.abc import Callable, Collection

__all__ = ["TURNED_PAIR", "TurnedBack", "check_unturned", "turned_witness", "unseen"]

#: Two numerals each the other turned half round, in most typefaces.
TURNED_PAIR = (Rank.SIX, Rank.NINE)


class TurnedBack:
    """The ``doubted`` corners (0 top-left, 1 bottom-right) where the glyph search finds a
    rank over a suit glyph (an index printed unturned, it may be), each read turned back
    (:func:`vision.indices.turn_glyphs`: its glyphs turned half round each where it stands,
    or as one block) at most once a card: the doubtful outline's hold and
    :func:`check_unturned` both ask. ``indices`` (both corners' glyphs,
    :func:`vision.indices.find_indices`) are kept for the reader's checks."""

    def __init__(self, sure_rank: Callable[[np.ndarray, int], Rank | None], card: np.ndarray,
                 doubted: Collection[int],
                 indices: tuple[IndexBlobs | None, IndexBlobs | None]) -> None:
        self._sure_rank, self._card, self.indices = sure_rank, card, indices
        self.corners = {corner: found for corner, found in enumerate(indices)
                        if corner in doubted and found is not None and found.suit is not None}
        self._read: dict[tuple[int, bool], Rank | None] = {}

    def rank(self, corner: int, together: bool = False) -> Rank | None:
        """The rank the network names surely in ``corner`` (one of :attr:`corners`) turned
        back, if any."""
        if (corner, together) not in self._read:
            self._read[corner, together] = self._sure_rank(
                turn_glyphs(self._card, corner, self.corners[corner], together), corner)
        return self._read[corner, together]

    def names(self, rank: Rank) -> bool:
        """Whether such a corner, turned back either way, names ``rank``."""
        return any(self.rank(corner, together) == rank
                   for corner in self.corners for together in (False, True))


def check_unturned(turned: TurnedBack, reading: Reading) -> Reading:
    """The reading, held where a corner the network sees no index in shows one that, its
    glyphs turned half round where they stand (:class:`TurnedBack`), names another rank
    surely. A deck that prints its lower index unturned is read from one corner alone,
    which nothing else witnesses: kde-ancient-egyptians' 2S, its 2 cut short by the
    outline, was read as 4S at 0.97, while the other corner, so turned, read 2 at 1.0. Only
    a sure rank counts: glyphs found in part (a blurred 10's 1 broken up) turn into print
    the network may misread at 0.77. An index printed unturned just as the upper one is (its
    glyph over its rank once turned) turns back as one block; its glyphs each turned were
    read surely as another rank (a 3 as 9 at 0.94), so the block naming the reading's rank
    lets it stand. The suit, so turned, was misread more often than its other witnesses
    miss."""
    for corner in turned.corners:
        each = turned.rank(corner)
        if each is None or each == reading.rank:
            continue
        if turned.rank(corner, together=True) != reading.rank:
            return cap_rank(reading)
    return reading


def turned_witness(sure_rank: Callable[[np.ndarray, int], Rank | None], card: np.ndarray,
                   ranks: np.ndarray, rank_i: int) -> tuple[TurnedBack | None, int | None]:
    """Where one corner names rank ``rank_i`` (an index of ``ranks``' rows, a corner's rank
    probabilities each, "no index" last) surely and the other, turned back
    (:class:`TurnedBack`), names the same rank surely: the corners turned back, and the sure
    corner. The other corner may show no index to the network, or an index on its head
    that passes for another rank: a J on its head was read as a 4 at 0.15, and at 0.75
    (kde-ancient-egyptians' lower index), which held the J the other corner named at 1.0;
    that deck's A on its head was read as a J at 0.98. Not a 6 and a 9: the one turned half
    round is the other, in whichever corner the index printed the right way up stands."""
    sure = int(ranks[:, rank_i].argmax())
    other = 1 - sure
    if ranks[sure, rank_i] < ACCEPT_THRESHOLD:
        return None, None
    rank = Rank(rank_i + 1)
    shows_index = other not in unseen(ranks)
    named = {rank, Rank(int(ranks[other, :-1].argmax()) + 1)}
    # A corner that names the same rank as it stands does not show it on its head (blur
    # may leave a round glyph alike either way up: a blurred Q read as 4 in both corners).
    if shows_index and (len(named) == 1 or named == set(TURNED_PAIR)):
        return None, None
    turned = TurnedBack(sure_rank, card, (other,), find_indices(card))
    if turned.names(rank):
        return turned, sure
    # A corner that shows an index is turned back only to witness, never to hold: its
    # index may be printed the right way up and misread.
    return (None if shows_index else turned), None


def unseen(ranks: np.ndarray) -> tuple[int, ...]:
    """The corners the network sees no index in ("no index", the last of each row of rank
    probabilities, 0.5 or more)."""
    return tuple(int(corner) for corner in np.flatnonzero(ranks[:, -1] >= 0.5))
