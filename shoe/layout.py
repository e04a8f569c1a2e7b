"""The faro layout's geometry: which sets of ranks a multi-card bet may cover.

The thirteen spades lie in two rows of six with the seven at the end::

    A    2    3    4    5    6
                                  7
    K    Q    J    10   9    8

>>> shape_of([Rank.FIVE, Rank.NINE])
<Shape.ACROSS: 'across'>
>>> Multi.parse("J-10-4-3").shape
<Shape.SQUARE: 'square'>
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from shoe.cards import FaroError, Rank

__all__ = ["GRAND_SQUARE", "JACK_SQUARE", "POT", "InvalidBetError", "Multi", "Shape", "shape_of"]


class InvalidBetError(FaroError, ValueError):
    """A bet the layout or the rules cannot take (a shape that is not one, a bad stake)."""


# -- the layout -------------------------------------------------------------------------------

# (column, row) of each spade on the table: A..6 on the top row (row 0) and K..8 facing them
# on the bottom row (row 2); the 7 sits at the end between the rows (row 1), beside 6 and 8.
_SPOT: dict[Rank, tuple[int, int]] = {
    **{Rank(c + 1): (c, 0) for c in range(6)},
    **{Rank(13 - c): (c, 2) for c in range(6)},
    Rank.SEVEN: (6, 1),
}


class Shape(enum.Enum):
    """The layout shapes a multi-card bet may take."""

    PAIR = "pair"  # side by side along a row, or the 7 with the 6 or the 8: 5-6, 9-10, 6-7
    ACROSS = "across"  # facing across the rows: 5-9, A-K
    DIAGONAL = "diagonal"  # corner to corner of a 2×2 block: 5-8, 6-9
    CORNER = "corner"  # skipping one card along the board's flow (rank order): 5-7, K-J
    POT = "pot"  # 6-7-8
    SQUARE = "square"  # a 2×2 block: Jack square 3-4-10-J, Grand square A-2-Q-K


def shape_of(ranks: Iterable[Rank]) -> Shape:
    """The layout shape that exactly these ranks make; InvalidBetError if they make none.

    Two ranks that make several shapes (6-8 faces across *and* skips the 7) are named by the
    first of PAIR, ACROSS, DIAGONAL, CORNER; all of them are legal bets.
    """
    given = list(ranks)
    covered = set(given)
    text = "-".join(r.code for r in given)
    if len(covered) != len(given):
        raise InvalidBetError(f"a rank twice in a multi-card bet: {text!r}")
    if len(covered) == 2:
        a, b = sorted(covered)
        (xa, ya), (xb, yb) = _SPOT[a], _SPOT[b]
        dx, dy = abs(xa - xb), abs(ya - yb)
        if dx == 1 and (dy == 0 or Rank.SEVEN in covered):
            return Shape.PAIR
        if dx == 0:
            return Shape.ACROSS
        if dx == 1 and dy == 2:
            return Shape.DIAGONAL
        if b - a == 2:
            return Shape.CORNER
    elif len(covered) == 3 and covered == {Rank.SIX, Rank.SEVEN, Rank.EIGHT}:
        return Shape.POT
    elif len(covered) == 4 and Rank.SEVEN not in covered:
        columns = sorted({_SPOT[r][0] for r in covered})
        rows = {_SPOT[r][1] for r in covered}
        if len(columns) == 2 and columns[1] - columns[0] == 1 and rows == {0, 2}:
            return Shape.SQUARE
    raise InvalidBetError(
        f"not a multi-card bet on the layout: {text!r} (two ranks side by side, across, "
        "diagonal or one apart; the pot 6-7-8; or a 2×2 square)"
    )


@dataclass(frozen=True, slots=True)
class Multi:
    """Several ranks in a layout shape; the whole stake rides on every one of them.

    >>> Multi.parse("J-10-4-3")
    Multi.parse('3-4-10-J')
    """

    ranks: tuple[Rank, ...]
    shape: Shape

    def __post_init__(self) -> None:
        if tuple(sorted(self.ranks)) != self.ranks or shape_of(self.ranks) is not self.shape:
            raise InvalidBetError(f"not a {self.shape.value} in rank order: {self.code!r}")

    @classmethod
    def of(cls, ranks: Iterable[Rank]) -> Multi:
        """The bet on these ranks, in any order; InvalidBetError if they make no shape."""
        given = tuple(ranks)
        return cls(tuple(sorted(given)), shape_of(given))

    @classmethod
    def parse(cls, text: str) -> Multi:
        """Parse ranks joined by ``-``: ``5-6``, ``6-7-8``, ``j-10-4-3``."""
        try:
            ranks = [Rank.parse(part) for part in text.split("-")]
        except ValueError:
            raise InvalidBetError(f"not a multi-card bet: {text!r}") from None
        return cls.of(ranks)

    @property
    def code(self) -> str:
        return "-".join(r.code for r in self.ranks)

    def __repr__(self) -> str:
        return f"Multi.parse({self.code!r})"


JACK_SQUARE = Multi.parse("3-4-10-J")
GRAND_SQUARE = Multi.parse("A-2-Q-K")
POT = Multi.parse("6-7-8")
