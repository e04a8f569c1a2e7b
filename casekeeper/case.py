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
from typing import NamedTuple

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


class Placed(NamedTuple):
    """One card gone: where it came in the deal and how it went.

    A named tuple: the case makes one per card, and tuples are the cheapest immutable value.
    """

    exposure: int
    card: Card
    mark: Mark
    turn: int | None


_NONE: frozenset[Rank] = frozenset()


@dataclass(frozen=True, slots=True)
class Case:
    """The whole state of the case-keeper at one moment.

    ``placed`` lists every card gone, in exposure order; ``blinking`` the ranks a driver
    should draw attention to (a split just dealt, or the ranks left at the call window).
    """

    variant: Variant
    placed: tuple[Placed, ...]
    blinking: frozenset[Rank] = _NONE
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
        blinking: frozenset[Rank] = _NONE
        call: CallWindow | None = None
        # Most frequent first: this runs for every card of every deal that stats deals.
        for event in events:
            blinking = _NONE
            if isinstance(event, Loser):
                placed.append(Placed(len(placed), event.card, Mark.LOSER, event.number))
            elif isinstance(event, Turn | LastTurn):
                loser, winner, number = event.loser, event.winner, event.number
                loser_placed = bool(placed) and placed[-1].card == loser  # by its Loser event
                if event.split:  # both cards of the pair take the split's mark
                    if loser_placed:
                        placed.pop()
                    n = len(placed)
                    placed.append(Placed(n, loser, Mark.SPLIT, number))
                    placed.append(Placed(n + 1, winner, Mark.SPLIT, number))
                    blinking = frozenset((loser.rank,))
                else:
                    if not loser_placed:
                        placed.append(Placed(len(placed), loser, Mark.LOSER, number))
                    placed.append(Placed(len(placed), winner, Mark.WINNER, number))
            elif isinstance(event, Soda):
                placed.append(Placed(len(placed), event.card, Mark.SODA, None))
            elif isinstance(event, Hock):
                placed.append(Placed(len(placed), event.card, Mark.HOCK, None))
            elif isinstance(event, CallWindow):
                call = event
                blinking = frozenset(event.ranks)
            elif isinstance(event, Pocket):
                placed.extend(Placed(len(placed) + i, c, Mark.HOCK, None)
                              for i, c in enumerate(event.cards))
            elif isinstance(event, DeckStarted):
                variant, placed, call = event.variant, [], None
            elif isinstance(event, CardWithdrawn) and not event.held:
                placed = [p for p in placed if p.exposure < event.exposure]
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
