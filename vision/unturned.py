"""A deck may print its lower index unturned: in the corner turned to read it, it stands
upside down, and the network sees no index there. Such a corner, read turned back, is a
witness to the rank the other corner names (:class:`TurnedBack`, :func:`check_unturned`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from shoe.cards import Rank
from vision.crosscheck import cap_rank
from vision.indices import IndexBlobs, find_indices, turn_glyphs
from vision.reading import ACCEPT_THRESHOLD, Reading

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["TurnedBack", "check_unturned", "turned_witness"]


class TurnedBack:
    """The corners (0 top-left, 1 bottom-right) the network sees no index in (``no_index``
    0.5 or more, by corner) where the glyph search finds a rank over a suit glyph (an index
    printed unturned, it may be), each read turned back (:func:`vision.indices.turn_glyphs`:
    its glyphs turned half round each where it stands, or as one block) at most once a card:
    the doubtful outline's hold and :func:`check_unturned` both ask. ``indices`` (both
    corners' glyphs, :func:`vision.indices.find_indices`) are kept for the reader's checks."""

    def __init__(self, sure_rank: Callable[[np.ndarray, int], Rank | None], card: np.ndarray,
                 no_index: np.ndarray, indices: tuple[IndexBlobs | None, IndexBlobs | None]
                 ) -> None:
        self._sure_rank, self._card, self.indices = sure_rank, card, indices
        self.corners = {corner: found for corner, found in enumerate(indices)
                        if no_index[corner] >= 0.5 and found is not None
                        and found.suit is not None}
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
    probabilities each, "no index" last) surely and the network sees no index in the other,
    which turned back (:class:`TurnedBack`) names the same rank surely: the corners turned
    back, and the sure corner. A J on its head was read as a 4 at 0.15
    (kde-ancient-egyptians' lower index), which held the J the other corner named at 1.0."""
    sure = int(ranks[:, -1].argmin())
    if ranks[1 - sure, -1] < 0.5 or ranks[sure, rank_i] < ACCEPT_THRESHOLD:
        return None, None
    turned = TurnedBack(sure_rank, card, ranks[:, -1], find_indices(card))
    return turned, sure if turned.names(Rank(rank_i + 1)) else None
