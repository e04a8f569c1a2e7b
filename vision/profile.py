"""Deck profiles: what one deck looks like, learned from a pass in a known order.

A profile holds the box's window (where the card lay during the pass) and, for each of the
52 cards, two small colour descriptors of the straightened card (vision.descriptors): the
whole face, and its index corner; and its ink, on the face's grid and finer. Reading with a
profile compares the card in view (both ways up) with all 52; no index is needed, so it reads
pip-only period decks, foreign letters and odd typefaces. Close rivals are then told apart on
the ink where they differ: ranks by pips there or not (vision.pairwise), suits by colour or
the pips' shapes (vision.suits).

The file and its format are vision.stored's (:class:`~vision.stored.DeckProfile`).

>>> profile = DeckProfile.load("my-deck.faro-profile")     # doctest: +SKIP
>>> ProfileReader(profile).read(frame)                     # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from shoe.cards import FULL_DECK, Card, Rank
from vision.descriptors import (
    SHIFT,
    describe,
    describe_ink,
    middles,
    shifted_views,
)
from vision.locate import locate
from vision.pairwise import (
    Placed,
    colour_distance,
    compare,
    ink_colour,
    place,
    tournament,
)
from vision.profile_checks import capped, cross_check, settles, shortfall, softmax_reading
from vision.quad import straighten
from vision.reader import CornerReader
from vision.reading import Reading
from vision.stored import DeckProfile
from vision.suits import (
    COLOURS_APART,
    SEEN_ENOUGH,
    SHAPE_EVIDENCE,
    Aligned,
    Candidate,
    align,
    corners_only,
    each_corner,
    shape_verdict,
    solid,
    suit_tournament,
)

__all__ = ["ProfileReader"]

#: A similarity this good through the learned window needs no search for the card.
_GOOD_MATCH = 0.8
#: Below this similarity the card in view is none of the deck's (an empty box, a stranger).
MIN_SIMILARITY = 0.2
#: The pairwise check (vision.pairwise): rivals of another rank within _CLOSE of the best
#: similarity (at most _RIVALS of them) are ruled out by the ink where they differ, by at
#: least _EVIDENCE (fitted on dev decks), or the confidence is capped (profile_checks.CAP).
#: Rivals of the same rank within _CLOSE are told apart by vision.suits, or the suit is.
_CLOSE = 0.15
_RIVALS = 3
_EVIDENCE = 0.1
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
        # Each card's fine ink with its pips' hollows filled, for the suit check: made the
        # first time its suit is in question (all 52 at once took some 40 ms to start).
        self._solid: dict[int, np.ndarray] = {}
        # Each card's ink colour, to tell a rank's red suits from its black ones.
        self._colours = [ink_colour(w, k) for w, k in zip(profile.whole, profile.ink,
                                                          strict=True)]
        self._corners = corners if corners is not None or not profile.index_check else (
            CornerReader())

    def read(self, frame: np.ndarray) -> Reading:
        seen = self._frame_seen(frame)
        if seen is None:
            return Reading(None, 0.0)
        return self._read_seen(seen)

    def frame_scores(self, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """(the straightened card, its similarities to the 52) for a frame, or None."""
        seen = self._frame_seen(frame)
        return None if seen is None else (seen.card, seen.scores)

    def _frame_seen(self, frame: np.ndarray) -> _Seen | None:
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

    def _seen(self, card: np.ndarray) -> _Seen:
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
        return _Seen(card, scores, np.stack(shifts), whole)

    def read_card(self, card: np.ndarray) -> Reading:
        """Read a straightened card."""
        return self._read_seen(self._seen(card))

    def _read_seen(self, seen: _Seen) -> Reading:
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

    def _court_rival_fits_better(self, seen: _Seen, card: Card) -> bool:
        """Whether the fine ink, where court card ``card`` and a close court card of another
        rank differ, fits that rival better (vision.suits.shape_verdict).

        The correlation alone decides between court cards of two ranks (_decide), and a
        small difference moves it little: kde-oxygen-air's single-headed jack and queen, one
        silhouette but for the queen's crown, were read one for the other at up to 1.000
        with their indices painted out. This witness only holds an answer, never changes it.
        """
        i = FULL_DECK.index(card)
        if not _COURT[i]:
            return False
        s = seen.scores
        rivals = [j for j in np.argsort(-s) if _COURT[j] and FULL_DECK[j].rank != card.rank
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

    def _fine_ink_confirms(self, seen: _Seen, close: list[int],
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

    def _corners_prefer(self, seen: _Seen, mine: Aligned, other: int,
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
        return align(fine, self.profile.fine[card], self._glare_on(card))

    def _filled(self, card: int) -> np.ndarray:
        """Learned card ``card``'s fine ink map made solid (vision.suits.solid), once."""
        if card not in self._solid:
            self._solid[card] = solid(self.profile.fine[card])
        return self._solid[card]

    def _glare_on(self, card: int) -> np.ndarray | None:
        """Where the learning pass's glare lay on learned card ``card``'s broad print."""
        return None if self.profile.glare is None else self.profile.glare[card]

    def _decide(self, seen: _Seen) -> Reading:
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
        for j in np.argsort(-s):
            if s[j] < s[top] - _CLOSE or len(rivals) == _RIVALS:
                break
            if _COURT[top] and _COURT[j]:
                continue
            if FULL_DECK[j].rank not in ranks:
                ranks.add(FULL_DECK[j].rank)
                rivals.append(int(j))
        close = [top, *rivals]
        if len(close) == 1:
            return self._suit(seen, s, top)
        side = 2 * SHIFT + 1

        def both_ways(card: int) -> tuple[Placed, Placed]:
            ink = self.profile.ink[card]
            at = [divmod(int(seen.shift[o, self._rows[card]]), side) for o in (0, 1)]
            return place(ink, at[0], False, SHIFT), place(ink, at[1], True, SHIFT)

        ink, unknown = seen.ink()[:2]
        ways = [both_ways(c) for c in close]
        winner = tournament(ink, unknown, ways, _EVIDENCE)
        if winner is None and self._fine_ink_confirms(seen, close, ways):
            return self._suit(seen, _beaten_out(s, close, 0), top)
        # The ink may overrule the best match, not where the corners' index says it: the ink
        # map named tango_nuevo's 2D a 9D at 0.93, its big 2 plain in its corner.
        if winner not in (None, 0) and self._corners_prefer(
                seen, self._aligned(seen.ink()[2], top), close[winner], one=True):
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
        beaten = set() if _COURT[close[winner]] else {
            FULL_DECK[c].rank for c in close if FULL_DECK[c].rank < winning.rank}
        out = _beaten_out(s, close, winner)
        out[[j for j, c in enumerate(FULL_DECK) if c.rank in beaten]] = -np.inf
        return self._suit(seen, out, close[winner])

    def _suit(self, seen: _Seen, scores: np.ndarray, card: int) -> Reading:
        """The reading of ``card``'s rank, its suit told from its close same-rank rivals by
        the ink's colour or the pips' shapes (vision.suits): the rivals beaten leave the
        softmax; when nothing decides, the suit's confidence is capped."""
        rank = FULL_DECK[card].rank
        close = [card, *(j for j in np.argsort(-scores) if j != card
                         and FULL_DECK[j].rank == rank
                         and scores[j] >= scores[card] - _CLOSE)]
        if len(close) == 1:
            return self._match(scores, card)
        ink, unknown = seen.ink()[2:]
        # Where the pass's light glared, a court picture's broad print was learned fainter,
        # with no paper round it to scale it back by as a pip has (vision.pairwise): two
        # court cards learned opposite ways up differ there by the light
        # (vision.learn.learning_glare).
        candidates = [Candidate(self.profile.fine[c], self._colours[c],
                                self._glare_on(c) if _COURT[card] else None, self._filled(c))
                      for c in close]
        winner = suit_tournament(ink, unknown, ink_colour(seen.whole, seen.ink()[0]),
                                 candidates, court=_COURT[card])
        # Court cards' pictures differ all over, not only in their pips: there the ink may
        # overrule only a near tie (on a blind deck whose kings are different pharaohs it
        # named KH for KC at 0.998, 0.136 below the best match). So may the shapes alone.
        if winner is None or not self._may_overrule(scores, card, close[winner]):
            return capped(self._match(scores, card), rank=False, suit=True)
        return self._match(_beaten_out(scores, close, winner), close[winner])

    def _may_overrule(self, scores: np.ndarray, card: int, other: int) -> bool:
        """Whether the suit check may pick ``other`` over ``card``, its rank's best match."""
        below = float(scores[card] - scores[other])
        if _COURT[card]:
            return below <= _COURT_OVERRULE
        if colour_distance(self._colours[card], self._colours[other]) >= COLOURS_APART:
            return True  # red against black
        return below <= _SHAPES_OVERRULE * shortfall(float(scores[card]))

    def _match(self, scores: np.ndarray, i: int | None = None) -> Reading:
        """The softmax reading of card ``i`` (default: the best match)."""
        i = int(scores.argmax()) if i is None else i
        if scores[i] < MIN_SIMILARITY:
            return Reading(None, 0.0)
        return softmax_reading(scores, i, self.profile.temperature)


def _beaten_out(scores: np.ndarray, close: list[int], winner: int) -> np.ndarray:
    """The similarities with the rivals that ``close[winner]`` beat left out of the softmax;
    the rest of the deck keeps its own."""
    out = scores.copy()
    out[[c for c in close if c != close[winner]]] = -np.inf
    return out


@dataclass(slots=True)
class _Seen:
    """A straightened card, its similarities (52, FULL_DECK order), the best shift of each
    learned card (rows in the reader's order) upright and turned, and its face descriptor."""

    card: np.ndarray
    scores: np.ndarray
    shift: np.ndarray  # 2 x learned
    whole: np.ndarray  # the upright face descriptor
    maps: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None

    def ink(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The card's (ink, unknown, fine ink, fine unknown) maps, made once and only when
        asked for."""
        if self.maps is None:
            self.maps = describe_ink(self.card)
        return self.maps


#: Court cards (a picture, no pips to count).
_COURT = [c.rank >= Rank.JACK for c in FULL_DECK]
