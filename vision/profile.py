"""Deck profiles: what one deck looks like, learned from a pass in a known order.

A profile holds the box's window (where the card lay during the pass) and, for each of the
52 cards, two small colour descriptors of the straightened card (vision.descriptors): the
whole face, and its index corner; and its ink, on the face's grid and finer. Reading with a
profile compares the card in view (both ways up) with all 52; no index is needed, so it reads
pip-only period decks, foreign letters and odd typefaces. Close rivals are then told apart on
the ink where they differ: ranks by pips there or not (vision.pairwise), suits by colour or
the pips' shapes (vision.profile_suits).

The file and its format are vision.stored's (:class:`~vision.stored.DeckProfile`).

>>> profile = DeckProfile.load("my-deck.faro-profile")     # doctest: +SKIP
>>> ProfileReader(profile).read(frame)                     # doctest: +SKIP
"""

from __future__ import annotations

import cv2
import numpy as np

from shoe.cards import FULL_DECK, Card
from vision.descriptors import SHIFT, Seen, describe, middles, shifted_views
from vision.locate import locate
from vision.pairwise import Placed, compare, place, tournament
from vision.profile_checks import (
    beaten_out,
    capped,
    cross_check,
    settles,
    softmax_reading,
)
from vision.profile_suits import COURT, SuitCheck
from vision.quad import straighten
from vision.reader import CornerReader
from vision.reading import Reading
from vision.stored import DeckProfile
from vision.suits import (
    SEEN_ENOUGH,
    SHAPE_EVIDENCE,
    Aligned,
    align,
    corners_only,
    each_corner,
    shape_verdict,
)

__all__ = ["ProfileReader"]

#: A similarity this good through the learned window needs no search for the card.
_GOOD_MATCH = 0.8
#: Below this similarity the card in view is none of the deck's (an empty box, a stranger).
MIN_SIMILARITY = 0.2
#: The pairwise check (vision.pairwise): rivals of another rank within _CLOSE of the best
#: similarity (the best _RIVALS of them against each other, any further one against the
#: winner alone) are ruled out by the ink where they differ, by at least _EVIDENCE (fitted
#: on dev decks), or the confidence is capped (profile_checks.CAP).
#: Rivals of the same rank within _CLOSE are told apart by vision.profile_suits, or the
#: suit is.
_CLOSE = 0.15
_RIVALS = 3
_EVIDENCE = 0.1


class ProfileReader:
    """Reads one learned deck by comparing the card in view with its 52 descriptors.

    When the profile says the deck's indices are standard (``index_check``), the zero-shot
    reader reads the corners too: a sure rank or suit that disagrees turns the answer into
    an abstention, and agreement makes it surer. Where the profile is held between close
    rivals, a sure reading of one of them stands.
    """

    def __init__(self, profile: DeckProfile, corners: CornerReader | None = None) -> None:
        self.profile = profile
        self._learned = np.flatnonzero(profile.learned)
        self._whole = middles(profile.whole[self._learned])
        # The learned faces turned half round, for a card seen the other way up: its face
        # is not described again, since its descriptor turned round is the face's own and
        # its two corners are the same two swapped (see _seen).
        self._whole_turned = middles(profile.whole[self._learned][:, ::-1, ::-1])
        self._corners_of = [middles(profile.corner[self._learned, k]) for k in (0, 1)]
        # Where each card's row lies among the learned ones (the best shifts of _seen).
        self._rows = {int(card): row for row, card in enumerate(self._learned)}
        # Where the pass's glare lay on each card, on the ink map's grid (a cell any of it).
        self._glare_cells = None if profile.glare is None else np.stack([
            cv2.resize(g.astype(np.float32), profile.ink.shape[:0:-1],
                       interpolation=cv2.INTER_AREA) > 0 for g in profile.glare]).astype(
            np.float32)
        self._corners = corners if corners is not None or not profile.index_check else (
            CornerReader())
        # Where the zero-shot reader reads the indices, it checks the suit too: a court
        # card's suits further off need not be weighed (some 3 ms a court card).
        self.suits = SuitCheck(profile, far_suits=self._corners is None)

    def read(self, frame: np.ndarray) -> Reading:
        seen = self._frame_seen(frame)
        if seen is None:
            return Reading(None, 0.0)
        return self._read_seen(seen)

    def frame_scores(self, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """(the straightened card, its similarities to the 52) for a frame, or None."""
        seen = self._frame_seen(frame)
        return None if seen is None else (seen.card, seen.scores)

    def _frame_seen(self, frame: np.ndarray) -> Seen | None:
        # The card lies where the pass showed it (the spring holds it against the window).
        each = []
        if self.profile.window is not None:
            each.append(self._seen(straighten(frame, self.profile.window)))
        # Only when that matches poorly (the camera moved since?), look for the card itself.
        if not each or each[0].scores.max() < _GOOD_MATCH:
            quad = locate(frame)
            if quad is not None:
                each.append(self._seen(straighten(frame, quad)))
        if not each:
            return None
        return max(each, key=lambda s: float(s.scores.max()))

    def scores(self, card: np.ndarray) -> np.ndarray:
        """Similarity (-1..1) of a straightened card to each of the 52, either way up."""
        return self._seen(card).scores

    def _seen(self, card: np.ndarray) -> Seen:
        """The card's similarities to the 52, and where each learned card matched best
        either way up (for the pairwise check)."""
        whole, corners = describe(card)
        views = shifted_views(whole)
        corner_views = [shifted_views(c) for c in corners]
        best = np.full(len(self._learned), -1.0, np.float32)
        shifts = []
        # The card turned half round at the shift (dy, dx) is its face at (2 SHIFT - dy,
        # 2 SHIFT - dx) turned round: the same dot product with the learned face turned.
        # So the shift index k (row-major over the shifts) turned round is the last - k.
        for faces, corner_order, turned in ((self._whole, (0, 1), False),
                                            (self._whole_turned, (1, 0), True)):
            by_shift = views @ faces.T
            at = by_shift.argmax(axis=0)
            shifts.append(len(views) - 1 - at if turned else at)
            corner = sum((corner_views[i] @ t.T).max(axis=0)
                         for i, t in zip(corner_order, self._corners_of, strict=True)) / 2
            best = np.maximum(best, 0.6 * by_shift.max(axis=0) + 0.4 * corner)
        scores = np.full(52, -1.0, np.float32)
        scores[self._learned] = best
        return Seen(card, scores, np.stack(shifts), whole)

    def read_card(self, card: np.ndarray) -> Reading:
        """Read a straightened card."""
        return self._read_seen(self._seen(card))

    def _read_seen(self, seen: Seen) -> Reading:
        reading = self._decide(seen)
        if reading.card is not None and self._court_rival_fits_better(seen, reading.card):
            reading = capped(reading, rank=True, suit=False)
        if self._corners is None or reading.card is None:
            return reading
        corners = self._corners.read_card(seen.card)
        # A sure index settles a hold between close rivals (atlasnye's 7C, held as its 8C).
        if settles(reading, corners) and seen.scores[
                FULL_DECK.index(corners.card)] >= seen.scores.max() - _CLOSE:
            return corners
        return cross_check(reading, corners)

    def _court_rival_fits_better(self, seen: Seen, card: Card) -> bool:
        """Whether the fine ink, where court card ``card`` and a close court card of another
        rank differ, fits that rival better (vision.suits.shape_verdict).

        The correlation alone decides between court cards of two ranks (_decide), and a
        small difference moves it little: kde-oxygen-air's single-headed jack and queen, one
        silhouette but for the queen's crown, were read one for the other at up to 1.000
        with their indices painted out. This witness only holds an answer, never changes it.
        """
        i = FULL_DECK.index(card)
        if not COURT[i]:
            return False
        s = seen.scores
        rivals = [j for j in np.argsort(-s) if COURT[j] and FULL_DECK[j].rank != card.rank
                  and s[j] >= s[i] - _CLOSE][:_RIVALS]
        if not rivals:
            return False
        fine, unknown = seen.ink()[2:]
        mine = self._aligned(fine, i)
        for j in rivals:
            evidence, visible = shape_verdict(fine, unknown, mine, self._aligned(fine, j))
            if evidence <= -SHAPE_EVIDENCE and visible >= SEEN_ENOUGH:
                return True
        return False

    def _fine_ink_confirms(self, seen: Seen, close: list[int],
                           ways: list[tuple[Placed, Placed]]) -> bool:
        """Whether the best match ``close[0]`` beats each close rival of another rank: on
        the ink map (vision.pairwise.tournament), or where that decides nothing between
        them, on the fine ink of the corners (:meth:`_corners_prefer`).

        tango_nuevo prints one picture on its two to nine of a suit, their big numerals
        apart: on the 36 x 50 map a 3 and an 8 lie within a pixel of each other, and its
        number cards were held (some 55% of hard frames). The fine ink only confirms the
        best match.
        """
        ink, unknown = seen.ink()[:2]
        best: Aligned | None = None
        for j, rival in zip(close[1:], ways[1:], strict=True):
            coarse = tournament(ink, unknown, [ways[0], rival], _EVIDENCE)
            if coarse == 0:
                continue
            if coarse == 1:
                return False
            best = best or self._aligned(seen.ink()[2], close[0])
            if not self._corners_prefer(seen, best, j):
                return False
        return True

    def _corners_prefer(self, seen: Seen, mine: Aligned, other: int,
                        one: bool = False) -> bool:
        """Whether the view's fine ink in the card's corners, where an index is printed
        (``one``: in any one corner), prefers the learned card aligned as ``mine`` to card
        ``other``: the pairwise check (vision.pairwise.compare) on the fine maps, by
        SHAPE_EVIDENCE with SEEN_ENOUGH of the difference seen, the learning pass's glare
        unknown. Print both share, a pixel apart, is no difference (the rims of a pip-only
        deck's suit sign, learned a pixel apart, had named a 5H for an 8H by the suits'
        shape_verdict)."""
        fine, fine_unknown = seen.ink()[2:]
        theirs = self._aligned(fine, other)
        hidden = np.maximum(fine_unknown, np.maximum(mine.hidden, theirs.hidden))
        regions = each_corner(fine.shape) if one else [corners_only(fine.shape)]
        for region in regions:
            verdict = compare(fine, hidden, Placed(mine.ink, mine.cover * region),
                              Placed(theirs.ink, theirs.cover * region))
            if verdict.evidence >= SHAPE_EVIDENCE and verdict.visible >= SEEN_ENOUGH:
                return True
        return False

    def _aligned(self, fine: np.ndarray, card: int) -> Aligned:
        """Learned card ``card``'s fine ink map over the view's, with the pass's glare."""
        return align(fine, self.profile.fine[card], self.suits.glare_on(card))

    def _decide(self, seen: Seen) -> Reading:
        """The best match, unless close rivals exist: then the pairwise check decides
        between them, or caps the confidence when the print that would decide is hidden."""
        s = seen.scores
        top = int(s.argmax())
        if s[top] < MIN_SIMILARITY:
            return Reading(None, 0.0)
        # Rivals of another rank, the best matching card of each: the ink decides ranks;
        # then the winner's rivals of the same rank: the pips' shapes decide suits. Two
        # court cards are left to the correlation: their pictures differ all over, which it
        # judges well, while the ink's verdict (a pip there or not) overruled it wrongly on
        # dev decks (a king read as a queen at 1.000).
        ranks = {FULL_DECK[top].rank}
        rivals: list[int] = []
        further: list[int] = []
        for j in np.argsort(-s):
            if s[j] < s[top] - _CLOSE:
                break
            if COURT[top] and COURT[j]:
                continue
            if FULL_DECK[j].rank not in ranks:
                ranks.add(FULL_DECK[j].rank)
                (rivals if len(rivals) < _RIVALS else further).append(int(j))
        close = [top, *rivals]
        if len(close) == 1:
            return self.suits.read(seen, s, top, _CLOSE, self._match)
        side = 2 * SHIFT + 1

        def both_ways(card: int) -> tuple[Placed, Placed]:
            ink = self.profile.ink[card]
            glare = None if self._glare_cells is None else self._glare_cells[card]
            at = [divmod(int(seen.shift[o, self._rows[card]]), side) for o in (0, 1)]
            return place(ink, at[0], False, SHIFT, glare), place(ink, at[1], True, SHIFT, glare)

        def beats_further(i: int) -> bool:
            # Close ranks past the _RIVALS the tournament weighs must be beaten too, or the
            # softmax reads the winner surely over them by a hundredth of similarity (the
            # pip-only tango_nuevo's two to nine of a suit are one picture: its 4H was read
            # as 9H at 1.000, the 4H sixth).
            return not further or self._fine_ink_confirms(
                seen, [close[i], *further], [ways[i], *(both_ways(c) for c in further)])

        ink, unknown = seen.ink()[:2]
        ways = [both_ways(c) for c in close]
        winner = tournament(ink, unknown, ways, _EVIDENCE)
        if winner is None and self._fine_ink_confirms(seen, close, ways) and beats_further(0):
            return self.suits.read(seen, beaten_out(s, close, 0), top, _CLOSE,
                                    self._match)
        # The ink may overrule the best match, not where the corners' index says it: the ink
        # map named tango_nuevo's 2D a 9D at 0.93, its big 2 plain in its corner.
        if winner not in (None, 0) and self._corners_prefer(
                seen, self._aligned(seen.ink()[2], top), close[winner], one=True):
            winner = None
        if winner is not None and not beats_further(winner):
            winner = None
        if winner is None:
            reading = self._match(s)
            return capped(reading, rank=True,
                           suit=any(FULL_DECK[c].suit != FULL_DECK[top].suit for c in rivals))
        # A number rank with fewer pips than the winner is beaten in every suit (its pips lie
        # alike in all four): the winner's extra pips were seen, and ink seen is there, or
        # a six of another suit left in the softmax would outweigh the seven found. A rank
        # beaten for pips missing leaves only the card compared: a candle's cast faded an
        # eight's pips, and with the other eights gone a 4D was read surely.
        winning = FULL_DECK[close[winner]]
        beaten = set() if COURT[close[winner]] else {
            FULL_DECK[c].rank for c in close if FULL_DECK[c].rank < winning.rank}
        out = beaten_out(s, close, winner)
        out[[j for j, c in enumerate(FULL_DECK) if c.rank in beaten]] = -np.inf
        return self.suits.read(seen, out, close[winner], _CLOSE, self._match)

    def _match(self, scores: np.ndarray, i: int | None = None) -> Reading:
        """The softmax reading of card ``i`` (default: the best match)."""
        i = int(scores.argmax()) if i is None else i
        if scores[i] < MIN_SIMILARITY:
            return Reading(None, 0.0)
        return softmax_reading(scores, i, self.profile.temperature)
