"""Cards, ranks and suits, with parse/format pairs that round-trip.

>>> Card.parse("10♥")
Card.parse('10H')
>>> Card.parse("qs").code
'QS'
"""

from __future__ import annotations

import enum
import functools
import random
from dataclasses import dataclass, field
from typing import ClassVar

__all__ = ["FULL_DECK", "Card", "FaroError", "InvalidCardError", "Rank", "Suit", "shuffled_deck"]


class FaroError(Exception):
    """Base of every error this project raises on purpose."""


class InvalidCardError(FaroError, ValueError):
    """A card code that does not name a card."""


class Rank(enum.IntEnum):
    """A card's rank, ace low (1) to king high (13), as faro ranks them."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def code(self) -> str:
        """``A``, ``2`` … ``10``, ``J``, ``Q``, ``K``."""
        return _RANK_CODES[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse ``A``, ``2`` … ``10`` (or ``T``), ``J``, ``Q``, ``K``, any case."""
        try:
            return _RANK_BY_TEXT[text.strip().upper()]
        except KeyError:
            raise InvalidCardError(f"not a rank: {text!r}") from None

    def __repr__(self) -> str:
        return f"Rank.parse({self.code!r})"

    def __str__(self) -> str:
        return self.code


class Suit(enum.Enum):
    """A card's suit. Faro settles on rank alone; the suit is for the audit trail."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def code(self) -> str:
        return self.value

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``S H D C`` (any case) or ``♠ ♥ ♦ ♣`` (also the white forms)."""
        try:
            return _SUIT_BY_TEXT[text.strip().upper()]
        except KeyError:
            raise InvalidCardError(f"not a suit: {text!r}") from None

    def __repr__(self) -> str:
        return f"Suit.parse({self.code!r})"

    def __str__(self) -> str:
        return self.code


_RANK_CODES = {r: str(int(r)) for r in Rank} | {
    Rank.ACE: "A", Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K"}
_RANK_BY_TEXT = {code: r for r, code in _RANK_CODES.items()} | {"T": Rank.TEN, "1": Rank.ACE}
_SUIT_ORDER = {s: i for i, s in enumerate(Suit)}
_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_BY_TEXT = (
    {s.value: s for s in Suit}
    | {sym: s for s, sym in _SUIT_SYMBOLS.items()}
    | {"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}
)


@functools.total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """One card of a standard 52-card deck. Ordered by rank, then suit order S H D C."""

    rank: Rank
    suit: Suit
    # Enum hashing is slow and the deal hashes every card it checks, so hash once.
    _hash: int = field(init=False, repr=False, compare=False)

    ALL: ClassVar[tuple[Card, ...]]

    def __post_init__(self) -> None:
        if not isinstance(self.rank, Rank) or not isinstance(self.suit, Suit):
            raise InvalidCardError(f"not a card: rank={self.rank!r}, suit={self.suit!r}")
        object.__setattr__(self, "_hash", int(self.rank) * 4 + _SUIT_ORDER[self.suit])

    def __hash__(self) -> int:
        return self._hash

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse a code: rank then suit, e.g. ``10H``, ``TH``, ``10♥``, ``qs``, ``Q♠``."""
        code = text.strip()
        if len(code) < 2:
            raise InvalidCardError(f"not a card: {text!r}")
        try:
            return cls(Rank.parse(code[:-1]), Suit.parse(code[-1]))
        except InvalidCardError:
            raise InvalidCardError(f"not a card: {text!r}") from None

    @property
    def code(self) -> str:
        """The canonical code: ``10H``, ``QS``, ``AC``."""
        return self.rank.code + self.suit.code

    @property
    def label(self) -> str:
        """The code with the suit's symbol, for people: ``10♥``."""
        return self.rank.code + self.suit.symbol

    @property
    def is_red(self) -> bool:
        return self.suit.is_red

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._key() < other._key()

    def _key(self) -> tuple[int, int]:
        return int(self.rank), _SUIT_ORDER[self.suit]

#: The 52 cards, in new-deck order: spades A–K, hearts, diamonds, clubs.
FULL_DECK: tuple[Card, ...] = tuple(Card(r, s) for s in Suit for r in Rank)
Card.ALL = FULL_DECK


def shuffled_deck(seed: int) -> list[Card]:
    """The deck shuffled by ``seed``: the same seed always gives the same order."""
    deck = list(FULL_DECK)
    random.Random(seed).shuffle(deck)
    return deck
