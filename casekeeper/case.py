"""The case: what the case-keeper's thirteen wires show, built from the deal's events.

>>> from shoe.deal import Deal
>>> from shoe.cards import Card
>>> deal = Deal.from_cards(Card.parse(c) for c in "5D KH KS".split())
>>> case = Case.from_events(deal.events)
>>> case.gone(Rank.KING), case.marks(Rank.KING)
(2, (<Mark.SPLIT: 'X'>, <Mark.SPLIT: 'X'>))
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from shoe.cards import Card, Rank
from shoe.events import (
    CallWindow,
    CardWithdrawn,
    DeckStarted,
    Event,
    Hock,
    LastTurn,
    Loser,
    Pocket,
    Soda,
    Turn,
)
from shoe.settings import Variant

__all__ = ["BEADS_PER_WIRE", "Case", "Mark", "Placed"]

BEADS_PER_WIRE = 4


class Mark(enum.Enum):
    """How a card went, in the cue sheet's period notation."""

    WINNER = "|"
    LOSER = "0"
    SODA = "•"
    HOCK = "–"  # also the stuss pocket's cards: never played
    SPLIT = "X"  # both cards of a split pair


@dataclass(frozen=True, slots=True)
class Placed:
    """One card gone: where it came in the deal and how it went."""

    exposure: int
    card: Card
    mark: Mark
    turn: int | None


@dataclass(frozen=True, slots=True)
class Case:
    """The whole state of the case-keeper at one moment.

    ``placed`` lists every card gone, in exposure order; ``blinking`` the ranks a driver
    should draw attention to (a split just dealt, or the ranks left at the call window).
    """

    variant: Variant
    placed: tuple[Placed, ...]
    blinking: frozenset[Rank] = frozenset()
    call: CallWindow | None = None

    @classmethod
    def empty(cls, variant: Variant = Variant.FARO) -> Case:
        return cls(variant, ())

    @classmethod
    def from_events(cls, events: Iterable[Event]) -> Case:
        """Build the case from a deal's events (``deal.events``), in order.

        A loser shows as a loser as soon as it is exposed (its ``Loser`` event); when its
        winner comes and the turn is a split, both become the split's one mark.
        """
        variant = Variant.FARO
        placed: list[Placed] = []
        blinking: frozenset[Rank] = frozenset()
        call: CallWindow | None = None
        for event in events:
            blinking = frozenset()
            match event:
                case DeckStarted(variant=v):
                    variant, placed, call = v, [], None
                case Soda(card=card):
                    placed.append(Placed(len(placed), card, Mark.SODA, None))
                case Loser(number=number, card=card):
                    placed.append(Placed(len(placed), card, Mark.LOSER, number))
                case Turn() | LastTurn():
                    # The loser is already placed (its own event); a split marks both.
                    mark = Mark.SPLIT if event.split else Mark.WINNER
                    if placed and placed[-1].card == event.loser:
                        placed.pop()
                    n = len(placed)
                    placed.append(Placed(n, event.loser, mark if event.split else Mark.LOSER,
                                         event.number))
                    placed.append(Placed(n + 1, event.winner, mark, event.number))
                    if event.split:
                        blinking = frozenset({event.loser.rank})
                case CallWindow():
                    call = event
                    blinking = frozenset(event.ranks)
                case Hock(card=card):
                    placed.append(Placed(len(placed), card, Mark.HOCK, None))
                case Pocket(cards=cards):
                    placed.extend(Placed(len(placed) + i, c, Mark.HOCK, None)
                                  for i, c in enumerate(cards))
                case CardWithdrawn(held=False, exposure=exposure):
                    placed = [p for p in placed if p.exposure < exposure]
        return cls(variant, tuple(placed), blinking, call)

    # -- per rank ------------------------------------------------------------------------

    def marks(self, rank: Rank) -> tuple[Mark, ...]:
        """The marks of the cards of ``rank`` gone, in order (one per bead moved)."""
        return tuple(p.mark for p in self.placed if p.card.rank is rank)

    def gone(self, rank: Rank) -> int:
        """Beads moved on the rank's wire: 0–4."""
        return sum(1 for p in self.placed if p.card.rank is rank)

    def left(self, rank: Rank) -> int:
        return BEADS_PER_WIRE - self.gone(rank)

    def is_dead(self, rank: Rank) -> bool:
        """All four of the rank are gone: a bet left on it is a sleeper."""
        return self.gone(rank) == BEADS_PER_WIRE

    # -- the whole case -------------------------------------------------------------------

    @property
    def wires(self) -> Mapping[Rank, tuple[Mark, ...]]:
        """Every rank's marks, ace to king."""
        return {rank: self.marks(rank) for rank in Rank}

    @property
    def dead_ranks(self) -> tuple[Rank, ...]:
        return tuple(r for r in Rank if self.is_dead(r))

    @property
    def cards_left(self) -> int:
        return 52 - len(self.placed)

    def remaining_ranks(self) -> tuple[Rank, ...]:
        """The ranks of the cards still in the box, with repeats, sorted."""
        return tuple(r for r in Rank for _ in range(self.left(r)))

    def possible_orders(self) -> list[tuple[Rank, ...]]:
        """The distinct orders the cards still in the box can come in (the call's bets).

        Meant for the call window: three cards give 6, 3 or 1 orders.
        """
        if self.cards_left > 4:
            raise ValueError(f"{self.cards_left} cards are left; orders are for the last few")
        return sorted(set(itertools.permutations(self.remaining_ranks())))
