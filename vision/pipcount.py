"""The middle's pips as a witness to the rank of an ace or a number card.

Under hard light the index network may be torn between two ranks of a small, blurred index
(a 3 and an 8), or between a deck's two corners (a 6 and a 9 where one index stands turned
round). The middle of a number card shows its pips, large and apart, and how many there are
is a second witness. How often the middle counts each number of pips on each rank, ace to
ten, was measured on the dev decks under hard light (``tools/fit_pip_counts.py`` writes
``vision/data/pip_counts.json``); the network's rank probabilities are weighed by it with
Bayes' rule, as "at least this many pips" (a thumb or a glare may hide some): a count
weighs against the ranks with fewer pips, never against those with more. Where the middle
counts no pips, nothing changes.

>>> counts = PipCounts.load()                                # doctest: +SKIP
>>> counts.weigh(rank_p, look_at_middle(card))               # doctest: +SKIP
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from shoe.cards import Rank
from vision.crosscheck import Middle, only_small_blobs
from vision.reading import ModelError

__all__ = ["FLOOR", "FORMAT", "INDEX_SHARE", "NO_COUNT", "PipCounts", "pip_key"]

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
#: The ranks whose middles were measured: the ace's one pip and the number cards'.
MEASURED = tuple(r for r in Rank if r <= Rank.TEN)


def pip_key(middle: Middle) -> str:
    """How the middle counts: ``"6"`` for six pips of one size, ``"6?"`` for six blobs of
    unlike sizes (a pip split by glare, two run together by blur, an ace's one pip), or
    NO_COUNT."""
    if not only_small_blobs(middle):
        return NO_COUNT
    return str(middle.blobs) if middle.alike else f"{middle.blobs}?"


def _blobs(key: str) -> int:
    """The number of blobs a key counts (0 for NO_COUNT)."""
    return 0 if key == NO_COUNT else int(key.rstrip("?"))


@dataclass(frozen=True)
class PipCounts:
    """How likely each count is on each rank: ``likelihood[key][rank - 1]``."""

    likelihood: dict[str, np.ndarray]

    @classmethod
    def from_counts(cls, counts: dict[int, dict[str, int]]) -> PipCounts:
        """From ``{rank: {key: frames}}``; ranks and keys not measured get FLOOR.

        Fewer pips than a rank has are never held against it more than against the rank
        with that many: the dealer's thumb or a glare may hide pips of any card. (A thumb
        hid a 3's third pip, and the count of 2 made a 2 of it, surely.)
        """
        likelihood: dict[str, np.ndarray] = {}
        for rank, row in counts.items():
            total = sum(row.values())
            for key, frames in row.items():
                column = likelihood.setdefault(key, np.full(len(Rank), FLOOR))
                column[rank - 1] = max(frames / total, FLOOR)
        for key, column in likelihood.items():
            seen = _blobs(key)
            if 1 <= seen < Rank.TEN:
                column[seen:Rank.TEN] = np.maximum(column[seen:Rank.TEN], column[seen - 1])
        return cls(likelihood)

    @classmethod
    def load(cls, path: Path | None = None) -> PipCounts:
        """Load ``pip_counts.json`` (default: the packaged one)."""
        try:
            packaged = resources.files("vision") / "data" / "pip_counts.json"
            doc = json.loads((packaged if path is None else path).read_text())
            if doc.get("format") != FORMAT:
                raise ValueError("not a pip count table")
            return cls.from_counts({int(r): {str(k): int(n) for k, n in row.items()}
                                    for r, row in doc["counts"].items()})
        except (OSError, KeyError, ValueError, AttributeError) as exc:
            raise ModelError(f"cannot load the pip count table: {exc}") from exc

    def weigh(self, rank_p: np.ndarray, middle: Middle) -> np.ndarray:
        """Rank probabilities (the 13 ranks, then "no index") weighed by the middle's count.

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
        weighted = rank_p[:-1] * self.likelihood[key]
        return np.append((1.0 - rank_p[-1]) * weighted / weighted.sum(), rank_p[-1])
