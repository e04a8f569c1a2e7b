"""The middle's pips as a witness to the rank of an ace or a number card.

Under hard light the index network may be torn between two ranks of a small, blurred index
(a 3 and an 8), or between a deck's two corners (a 6 and a 9 where one index stands turned
round). The middle of a number card shows its pips, large and apart, and how many there are
is a second witness. How often the middle counts each number of pips on each rank, ace to
ten, was measured on the dev decks under hard light (``tools/fit_pip_counts.py`` writes
``vision/data/pip_counts.json``); the network's rank probabilities are weighed by it with
Bayes' rule. Where the dealer's thumb lies over the middle, as "at least this many pips": a
count weighs against the ranks with fewer pips, never against those with up to HIDDEN more.
Elsewhere as measured (glare hides pips at times too). Where the middle counts no pips,
nothing changes.

Where the pips stand says more than how many there are. A thumb hides pips but puts none
where the rank has none: a pip at mid-height in a side column is no 9's or 10's (their side
columns have four rows, none in the middle), one at the end of the centre column only a
2's or a 3's (or a 7's, on a deck that puts its odd pip there), one high in the centre
column no 4's, 5's or 6's. The same measurement says in which places (:data:`PLACES`)
each dev deck shows a pip on each rank; a rank no dev deck shows a pip on where one stands
is weighed down as a count never seen on it is (but not a court rank the index weighs
highest: a picture may break into blobs of pip size anywhere).
Only the pips seen count: a missing one may be under the thumb. A lone pip at the card's
centre is an ace's (or a 3's, 5's, 7's or 9's with the rest hidden), never an even number's
nor a court card's: such a rank read on it is held (a 4 read from an ace's index smeared by
a shaken camera; a J from a foreign ace's "1").

A court card's own witnesses, its picture and a queen's counter, are in
:mod:`vision.courtcards`.

>>> counts = PipCounts.load()                                # doctest: +SKIP
>>> counts.weigh(rank_p, look_at_middle(card))               # doctest: +SKIP
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path

import numpy as np

from shoe.cards import Rank
from vision.crosscheck import PIP_TALLEST, Middle, counts_pips, no_number, only_small_blobs
from vision.reading import ModelError

__all__ = ["FLOOR", "FORMAT", "HIDDEN", "INDEX_SHARE", "LAYOUT_SHARE", "NO_COUNT", "PLACES",
           "PipCounts", "counts_exactly", "layout_places", "pip_key", "pip_places", "placed",
           "weighed_by"]

FORMAT = "faro-shoe pip counts"
#: The table's key for frames whose middle shows no pips to count (a picture, or nothing).
NO_COUNT = "none"
#: A count never (or seldom) seen for a rank on the dev decks is taken to happen this often:
#: a deck unlike them may lay its pips out otherwise. It bounds how much a count can say:
#: a count that is right two times in three on the dev decks favours its rank over one it
#: was never seen for by 33 to one at most.
FLOOR = 0.02
#: The index must give the rank with as many pips as counted at least this probability.
INDEX_SHARE = 0.2
#: Pips fewer than a rank has that are never held against it: what one thumb mostly hides
#: (it presses near the card's middle over one side column: on a 10 its two inner pips and
#: the centre one beside them). More are held against it as measured: on the dev decks
#: under hard light (the thumb on 30% of frames) a count was 4 or more short on 0.6% of 6s
#: to 3.5% of 9s and 10s.
HIDDEN = 3
#: The ranks whose middles were measured: the ace's one pip and the number cards'.
MEASURED = tuple(r for r in Rank if r <= Rank.TEN)
#: The places a pip may stand, by its centre's distance from the middle of the card (shares
#: of its width and height): in the centre column (within _CENTRE across) or a side one
#: (_SIDE or more); at mid-height (within _MID), between the middle and an end (a 9's and
#: a 10's inner side rows: _BETWEEN, sides only) or near an end (_END or more). A 9's side
#: rows stand 0.1 from a 6's middle one; a 10's centre pips stand out to 0.27 on some
#: decks, a 2's and a 3's end pips from 0.28. "centre-upper" and "side-upper" name the
#: column alone, of a pip higher than _CLEAR_OF_THUMB.
PLACES = ("centre-middle", "centre-end", "side-middle", "side-between", "side-end",
          "centre-upper", "side-upper")
_CENTRE, _SIDE = 0.04, 0.1
_MID, _BETWEEN, _END = 0.035, (0.07, 0.13), 0.275
#: A side pip's twin in the other side column stands within this of where it is looked for:
#: half the least that two rows stand apart (a 9's side rows from a 6's middle one).
_TWIN = 0.05
#: A pip higher than this share of the card's height stands clear of the thumb, which
#: comes from below with its tip up to the card's middle (the simulator's: 0.5-0.65).
_CLEAR_OF_THUMB = 0.4
#: Places are measured from halfway between the outermost pips, where that is within this
#: of the card's middle both ways: half the least that an end row hidden moves it (0.1,
#: a 9's or a 10's rows standing 0.2 apart).
_OFF_CENTRE = 0.05
#: A place fits a rank if on some dev deck this share of that rank's frames whose pips were
#: placed (:func:`placed`) show a pip there either way up (:func:`layout_places`): a layout
#: puts one there on 67-100% of them (the least where the thumb often covers it), glare
#: splitting a pip or a card located off on 10% at most of a number card's, a third of the
#: few placed frames of one deck's aces (tools/fit_pip_counts.py).
LAYOUT_SHARE = 0.5


def pip_key(middle: Middle) -> str:
    """How the middle counts: ``"6"`` for six pips of one size, ``"6?"`` for six blobs of
    unlike sizes (a pip split by glare, two run together by blur, an ace's one pip), or
    NO_COUNT."""
    if not only_small_blobs(middle):
        return NO_COUNT
    return str(middle.blobs) if middle.alike else f"{middle.blobs}?"


def placed(middle: Middle) -> bool:
    """Whether :func:`pip_places` looks where the middle's pips stand: pips of one size
    (:func:`vision.crosscheck.counts_pips`), or a lone one (one blob of pip size and
    nothing bigger: an ace's pip, or the one pip of a number card not hidden)."""
    return counts_pips(middle) or (middle.blobs == 1 and only_small_blobs(middle))


def pip_places(middle: Middle) -> frozenset[str]:
    """The :data:`PLACES` where the middle shows a pip; none unless it shows pips of one
    size or a lone one (:func:`placed`) standing symmetric across the card's middle (a lone
    pip: at it), and no rows unless they stand symmetric up and down too."""
    if not placed(middle) or not middle.places:
        return frozenset()
    # A number card's pips stand symmetric about its middle. Where the outermost rows do
    # not (a thumb over an end row, or the card located off: the hand cut its outline
    # short, and a 6's middle row stood where a 10's inner one does), a pip's row says
    # nothing sure. Its column still does where it stands clear of the thumb, which
    # presses on the card's lower half: a lone pip left high in the centre column is no
    # 4's or 6's (an upside-down 2C whose index, cut short, was read as 4 at 0.94). Lower
    # down, the thumb's edge joined to a pip stood in the centre column (a 6's, a 4's).
    rows_centred = _rows_centred(middle)
    pips = [(x, y) for x, y in middle.places if rows_centred or y < _CLEAR_OF_THUMB]
    if not pips:
        return frozenset()
    xs, ys = zip(*pips, strict=True)
    middle_x, middle_y = _halfway(xs), _halfway(ys)
    if abs(middle_x - 0.5) > _OFF_CENTRE:
        return frozenset()
    found = set()
    for x, y in pips:
        across, down = abs(x - middle_x), abs(y - middle_y)
        column = "centre" if across < _CENTRE else "side" if across >= _SIDE else None
        row = ("middle" if down < _MID else "end" if down >= _END
               else "between" if _BETWEEN[0] <= down < _BETWEEN[1] and column == "side"
               else None)
        if column and y < _CLEAR_OF_THUMB:
            found.add(f"{column}-upper")
        if column and row and rows_centred:
            found.add(f"{column}-{row}")
    return frozenset(found)


def layout_places(middle: Middle) -> frozenset[str]:
    """The places where the middle's layout shows a pip either way up: as it shows them
    (:func:`pip_places`), and, where its rows stand centred (the whole layout in view), as
    the card turned half round would. A card is dealt either way up, and a layout that is
    not symmetric up and down shows a high pip only one way: bellot's 9 prints its centre
    pip at 0.27 of the card's height, so on half its frames a 9 showed one high in the
    centre column, which then fitted a 9 or not by a frame or two."""
    places = pip_places(middle)
    if not middle.places or not _rows_centred(middle):
        return places
    turned = replace(middle, places=tuple((1.0 - x, 1.0 - y) for x, y in middle.places))
    return places | pip_places(turned)


def _halfway(values: Sequence[float]) -> float:
    """Halfway between the least and the greatest of ``values``: where the outermost pips'
    middle stands, along one direction."""
    return (min(values) + max(values)) / 2


def _rows_centred(middle: Middle) -> bool:
    """Whether the outermost pips stand symmetric about the card's middle, up and down, as
    every number card's do (within _OFF_CENTRE)."""
    return abs(_halfway([y for _, y in middle.places]) - 0.5) <= _OFF_CENTRE


def _paired(middle: Middle) -> bool:
    """Whether each pip in a side column has a twin in the other, at its height (within
    _TWIN both ways): every dev deck's layouts are symmetric so, side to side."""
    xs = [x for x, _ in middle.places]
    middle_x = _halfway(xs)
    return all(abs(x - middle_x) < _SIDE
               or any(abs(2 * middle_x - x - u) < _TWIN and abs(y - v) < _TWIN
                      for u, v in middle.places)
               for x, y in middle.places)


def centre_column_only(middle: Middle) -> bool:
    """Whether two or more blobs of a pip's height, no thumb over the middle and the
    outermost standing symmetric about it, all stand in its centre column: an ace's, a 2's
    or a 3's layout. A 4 to a 10 puts pips in side columns, on every dev deck."""
    # Not only pips of one size and a pip's width, as counted: past RIG.md's ranges a shaken
    # camera smeared a 3's pips wider than pips are counted (0.47 of the middle), or doubled
    # each into two blobs of unlike sizes, and the 3s were read as 2C at 0.97 and 5C at 0.92.
    if (middle.thumbed or len(middle.places) < 2 or middle.tallest >= PIP_TALLEST
            or no_number(middle)):
        return False
    xs = [x for x, _ in middle.places]
    middle_x = _halfway(xs)
    # At the card's middle: glare over one side column left the other, standing alone.
    return (_rows_centred(middle) and abs(middle_x - 0.5) <= _OFF_CENTRE
            and all(abs(x - middle_x) < _CENTRE for x in xs))


def _one_at_mid_height(middle: Middle) -> bool:
    """Whether a blob stands at mid-height (within _MID of halfway between the outermost)."""
    heights = [y for _, y in middle.places]
    middle_y = _halfway(heights)
    return any(abs(y - middle_y) < _MID for y in heights)


def counts_exactly(rank: Rank, middle: Middle) -> bool:
    """Whether the middle shows as many blobs of pip size as ``rank`` has pips."""
    key = pip_key(middle)
    return key != NO_COUNT and _blobs(key) == rank


def _blobs(key: str) -> int:
    """The number of blobs a key counts (0 for NO_COUNT)."""
    return 0 if key == NO_COUNT else int(key.rstrip("?"))


@dataclass(frozen=True)
class PipCounts:
    """How likely each count is on each rank as measured (``likelihood[key][rank - 1]``)
    and under a thumb that may hide pips (``thumbed``), and which ranks show a pip in each
    place (``fits[place][rank - 1]``)."""

    likelihood: dict[str, np.ndarray]
    thumbed: dict[str, np.ndarray]
    fits: dict[str, np.ndarray]

    @classmethod
    def from_counts(cls, counts: dict[int, dict[str, int]],
                    places: dict[str, dict[int, float]] | None = None) -> PipCounts:
        """From ``{rank: {key: frames}}`` and ``{place: {rank: the largest share of a dev
        deck's counted frames of that rank with a pip there}}``; ranks and keys not
        measured get FLOOR, and a place fits the ranks with LAYOUT_SHARE there.

        Under a thumb, up to HIDDEN pips fewer than a rank has are never held against it
        more than against the rank with that many: the thumb may hide pips of any card. (A
        thumb hid a 3's third pip, and the count of 2 made a 2 of it, surely.) More are
        held against it as measured.
        """
        likelihood: dict[str, np.ndarray] = {}
        for rank, row in counts.items():
            total = sum(row.values())
            for key, frames in row.items():
                column = likelihood.setdefault(key, np.full(len(Rank), FLOOR))
                column[rank - 1] = max(frames / total, FLOOR)
        thumbed = {key: column.copy() for key, column in likelihood.items()}
        for key, column in thumbed.items():
            seen = _blobs(key)
            if 1 <= seen < Rank.TEN:
                hidden = slice(seen, min(seen + HIDDEN, Rank.TEN))
                column[hidden] = np.maximum(column[hidden], column[seen - 1])
        fits = {place: np.array([shares.get(r, 0.0) >= LAYOUT_SHARE for r in range(1, 14)])
                for place, shares in (places or {}).items()}
        return cls(likelihood, thumbed, fits)

    @classmethod
    def load(cls, path: Path | None = None) -> PipCounts:
        """Load ``pip_counts.json`` (default: the packaged one)."""
        try:
            packaged = resources.files("vision") / "data" / "pip_counts.json"
            doc = json.loads((packaged if path is None else path).read_text())
            if doc.get("format") != FORMAT:
                raise ValueError("not a pip count table")
            return cls.from_counts({int(r): {str(k): int(n) for k, n in row.items()}
                                    for r, row in doc["counts"].items()},
                                   {str(place): {int(r): float(n) for r, n in row.items()}
                                    for place, row in doc["places"].items()})
        except (OSError, KeyError, ValueError, AttributeError) as exc:
            raise ModelError(f"cannot load the pip count table: {exc}") from exc

    def weigh(self, rank_p: np.ndarray, middle: Middle) -> np.ndarray:
        """Rank probabilities (the 13 ranks, then "no index") weighed by the middle's count
        and by where its pips stand; not where the box showed across it (an outline that
        took in the box may take in an index's suit with the pips: a 5C was read as 6C)."""
        if middle.banded:
            return rank_p
        return self._by_places(self._by_count(rank_p, middle), middle)

    def _by_count(self, rank_p: np.ndarray, middle: Middle) -> np.ndarray:
        """Weighed by how many pips the middle counts.

        Only a middle of pip-sized blobs is weighed by: a picture's look varies too much
        from deck to deck (and the court cards were not measured). "No index" keeps its
        probability; the ranks share the rest.
        """
        key = pip_key(middle)
        if key == NO_COUNT or key not in self.likelihood:
            return rank_p
        # The count picks between ranks the index already weighs; it never brings up one
        # the index does not. Blobs that are no pips (a thumb's nail, an ornament, the
        # next card showing past a sliding one) would otherwise name a rank of their own.
        counted = _blobs(key)
        if counted > Rank.TEN or rank_p[counted - 1] < INDEX_SHARE:
            return rank_p
        # Never zero: the counted rank has INDEX_SHARE at least, each likelihood FLOOR.
        # With no thumb over the middle, pips short of the rank weigh as often as the dev
        # decks showed them so (the table's frames include thumbs, so this is generous):
        # kde-ancient-egyptians' 4, its lower index upright and read upside down as 7,
        # was torn between 4 and 7 with four pips in a 4's places in plain view.
        # Pips whose outermost rows stand off the card's middle are not all of its pips
        # either, whatever hid the rest: glare washed out a shaken kde-standard 3S's top pip
        # (past RIG.md's ranges), and the two left made it a 2S at 0.92.
        # So are pips one of which stands in a side column with no twin in the other (out of
        # focus, under glare, a 10's pip broken into pieces, and the nine left made it a 9
        # at 0.92).
        # So are pips beside a pale blob of a pip's size (Middle.faint).
        hidden = middle.thumbed or bool(middle.faint) or (
            bool(middle.places) and not (_rows_centred(middle) and _paired(middle)))
        table = self.thumbed if hidden else self.likelihood
        return weighed_by(rank_p, table[key])

    def layout_fits(self, rank: Rank, middle: Middle) -> bool:
        """Whether some dev deck's layout of ``rank`` shows a pip in each place where the
        middle shows one, and, for a 4 to a 10, not only in the centre column
        (:func:`centre_column_only`: a shaken npm 3S, its 3 smeared into a 7, was read as
        7S at 0.91, the places of its three pips each fitting a 7), and, for a 2, not there
        with one at mid-height (a 3's middle pip). A pale blob of a pip's size stands for a
        pip here (past RIG.md's ranges a shaken paris 3C, its middle pip under glare, was
        read as 2C at 0.90 from the two pips left)."""
        middle = replace(middle, places=middle.places + middle.faint)
        if centre_column_only(middle) and (
                rank >= Rank.FOUR or (rank == Rank.TWO and _one_at_mid_height(middle))):
            return False
        return bool(self._fitting(middle)[rank - 1])

    def _fitting(self, middle: Middle) -> np.ndarray:
        fits = np.ones(len(Rank), bool)
        for place in pip_places(middle):
            fits &= self.fits.get(place, True)
        return fits

    def _by_places(self, rank_p: np.ndarray, middle: Middle) -> np.ndarray:
        """Weighed down (FLOOR, once) on the ranks that show no pip in some place where the
        middle shows one; as for the count, only where a rank that fits every place has
        INDEX_SHARE of the index's probability."""
        # A lone pip weighs nothing here; it only holds an even number (CornerReader). It is
        # mostly an ace's, but it fits a 3, 5, 7 or 9 alike: weighed, it lifted the 7 read
        # from foreign aces' indices (Атласные, a dev deck) from 0.5-0.8 to where only the
        # count of too few pips held it.
        if not counts_pips(middle):
            return rank_p
        fits = self._fitting(middle)
        if fits.all() or not (rank_p[:-1][fits] >= INDEX_SHARE).any():
            return rank_p
        # A court rank the index weighs highest is not weighed down: a picture may break
        # into blobs of pip size anywhere. Blurred past RIG.md's range, orell's pale QH did,
        # some where only a 9's or a 10's pips stand, and a QH read Q at 0.70 against a 9 at
        # 0.24 by both corners was read as 9H at 0.93. (Where the index leans to a number,
        # its court ranks' share is mostly a thumb's or a blur's on its index.)
        if rank_p[:-1].argmax() >= Rank.JACK - 1:
            fits[Rank.JACK - 1:] = True  # fits is _fitting's own, fresh each call
        return weighed_by(rank_p, np.where(fits, 1.0, FLOOR))


def weighed_by(rank_p: np.ndarray, likelihood: np.ndarray) -> np.ndarray:
    """The ranks' probabilities times a likelihood each (Bayes' rule), "no index" kept."""
    weighted = rank_p[:-1] * likelihood
    return np.append((1.0 - rank_p[-1]) * weighted / weighted.sum(), rank_p[-1])
