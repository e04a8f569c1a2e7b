"""The deal: a state machine fed one exposed card at a time, in the box's order.

Rules are pure and synchronous: each call returns the events it caused. Nothing is ever
guessed: a duplicate card, a fifth of a rank, or a read the reader is unsure of is *held*
(``deal.flag``) and nothing more is accepted until the operator resolves it with
:meth:`Deal.correct`, :meth:`Deal.confirm`, :meth:`Deal.undo` or :meth:`Deal.void`.

Every call is recorded as an :class:`Action`; replaying the actions rebuilds the deal
exactly, events and all (that is how the service recovers after a power cut).

>>> deal = Deal()
>>> deal.expose(Card.parse("5D"))
[Soda(card=Card.parse('5D'))]
>>> deal.expose(Card.parse("KH"))
[Loser(number=1, card=Card.parse('KH'))]
>>> deal.expose(Card.parse("KS"))
[Turn(number=1, loser=Card.parse('KH'), winner=Card.parse('KS'), split=True)]
"""

from __future__ import annotations

import enum
import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from shoe.actions import Action, ActionKind, InvalidActionError
from shoe.cards import FULL_DECK, Card, FaroError, Rank
from shoe.events import (
    CallKind,
    CallWindow,
    CardCorrected,
    CardFlagged,
    CardWithdrawn,
    DeckFinished,
    DeckStarted,
    DeckVoided,
    Event,
    FlagReason,
    Hock,
    LastTurn,
    Loser,
    Pocket,
    Soda,
    Turn,
)
from shoe.settings import Settings, Variant

__all__ = [
    "Action",
    "ActionKind",
    "Deal",
    "DealStateError",
    "Flag",
    "IllegalCorrectionError",
    "InvalidActionError",
    "Role",
    "Status",
]

DECK_SIZE = 52
#: Faro: the call window opens once this many cards are exposed (soda + 24 turns).
CALL_AFTER = 49


class DealStateError(FaroError, RuntimeError):
    """A call the deal cannot take in its present state (paused, over, nothing to undo)."""


class IllegalCorrectionError(FaroError, ValueError):
    """An operator's correction that the deck cannot hold (a card already exposed)."""


class Status(enum.IntFlag):
    """The deal's state, in the style of python-chess's ``Board.status()``."""

    VALID = 0
    FLAGGED = enum.auto()  # a read is held; see Deal.flag
    FINISHED = enum.auto()
    VOIDED = enum.auto()


class Role(enum.Enum):
    """What an exposure is in the deal."""

    SODA = "soda"
    LOSER = "loser"
    WINNER = "winner"
    HOCK = "hock"
    POCKET = "pocket"


@dataclass(frozen=True, slots=True)
class Flag:
    """A held read: the card the reader gave (None: unread) for ``exposure``, and why."""

    exposure: int
    card: Card | None
    reason: FlagReason
    conflict: int | None = None

    @property
    def event(self) -> CardFlagged:
        return CardFlagged(self.exposure, self.card, self.reason, self.conflict)


class Deal:
    """One deal of faro or stuss, from the shuffled deck to the last card."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self.flag: Flag | None = None
        # Every call, as plain (kind, card, sure) tuples: one per card, so kept cheap.
        self._log: list[tuple[ActionKind, Card | None, bool]] = []
        self._is_voided = False
        self._cards: list[Card] = []
        self._exposure_of: dict[Card, int] = {}
        self._rank_count = [0] * (len(Rank) + 1)  # by int(rank)
        self._splits = 0
        self._roles, self._turns = _layout(self.settings)
        calls = self.settings.variant is Variant.FARO and self.settings.call_the_turn
        self._called_turn = self.settings.turns if calls else 0  # 0: no turn is called
        self._call_after = CALL_AFTER if calls else 0
        self._started = DeckStarted(self.settings.variant)
        self._events_by_card: list[list[Event]] = []  # make/unmake stack, one entry a card

    # -- reading the state --------------------------------------------------------------

    @property
    def cards(self) -> tuple[Card, ...]:
        """The accepted cards, in exposure order."""
        return tuple(self._cards)

    @property
    def events(self) -> list[Event]:
        """The events of the accepted cards: what a fresh deal fed these cards would emit."""
        return [self._started, *(e for evs in self._events_by_card for e in evs)]

    @property
    def actions(self) -> list[Action]:
        """Every call made on this deal, in order: what the journal records."""
        return [Action._make(entry) for entry in self._log]

    @property
    def last_action(self) -> Action | None:
        """The latest call, for a journal that records each as it happens."""
        return Action._make(self._log[-1]) if self._log else None

    @property
    def exposed(self) -> int:
        return len(self._cards)

    @property
    def is_finished(self) -> bool:
        return len(self._cards) == DECK_SIZE

    @property
    def is_voided(self) -> bool:
        return self._is_voided

    @property
    def is_paused(self) -> bool:
        """True while a read is held for the operator."""
        return self.flag is not None

    @property
    def status(self) -> Status:
        status = Status.VALID
        if self.flag:
            status |= Status.FLAGGED
        if self.is_finished:
            status |= Status.FINISHED
        if self._is_voided:
            status |= Status.VOIDED
        return status

    @property
    def splits(self) -> int:
        return self._splits

    @property
    def remaining(self) -> tuple[Card, ...]:
        """The cards not yet exposed (known from the deck), in new-deck order."""
        return tuple(c for c in FULL_DECK if c not in self._exposure_of)

    def role(self, exposure: int) -> Role:
        """The role of the card at ``exposure`` (0–51) under this deal's variant."""
        if not 0 <= exposure < DECK_SIZE:
            raise IndexError(f"exposure {exposure} is outside 0–51")
        return self._roles[exposure]

    def turn_of(self, exposure: int) -> int | None:
        """The turn number an exposure belongs to (None for soda, hock and pocket)."""
        self.role(exposure)
        return self._turns[exposure]

    # -- the calls ----------------------------------------------------------------------

    def expose(self, card: Card | None, *, sure: bool = True) -> list[Event]:
        """The next card shows in the box. ``None``: it could not be read.

        Returns the events it caused, or a ``CardFlagged`` if the deal holds it.
        """
        if self._is_voided or len(self._cards) == DECK_SIZE:
            self._check_open()  # raises
        if self.flag:
            raise DealStateError(
                f"a read is held at exposure {self.flag.exposure}; resolve it first"
            )
        self._log.append((ActionKind.EXPOSE, card, sure))
        flag = self._check(card)
        if flag is None and not sure:
            flag = Flag(self.exposed, card, FlagReason.UNSURE)
        if flag:
            self.flag = flag
            return [flag.event]
        assert card is not None
        return self._accept(card)

    def correct(self, card: Card) -> list[Event]:
        """The operator names the held card. The deck must be able to hold it."""
        flag = self._held()
        problem = self._check(card)
        if problem:
            raise IllegalCorrectionError(
                f"cannot correct exposure {flag.exposure} to {card.code}: "
                f"{problem.reason.value.replace('_', ' ')} of exposure {problem.conflict}"
            )
        self._log.append((ActionKind.CORRECT, card, True))
        self.flag = None
        return [CardCorrected(flag.exposure, card, flag.card), *self._accept(card)]

    def confirm(self) -> list[Event]:
        """The operator accepts a held read the reader was unsure of, as it was read."""
        flag = self._held()
        if flag.reason is not FlagReason.UNSURE or flag.card is None:
            raise IllegalCorrectionError(
                f"exposure {flag.exposure} is held as {flag.reason.value.replace('_', ' ')}; "
                "only an unsure read can be confirmed, correct it instead"
            )
        self._log.append((ActionKind.CONFIRM, None, True))
        self.flag = None
        return self._accept(flag.card)

    def undo(self) -> list[Event]:
        """Take back the last thing read: the held read if there is one, else the last card."""
        if self._is_voided:
            raise DealStateError("the deal is void")
        if self.flag:
            flag, self.flag = self.flag, None
            self._log.append((ActionKind.UNDO, None, True))
            return [CardWithdrawn(flag.exposure, flag.card, held=True)]
        if not self._cards:
            raise DealStateError("no card to undo")
        self._log.append((ActionKind.UNDO, None, True))
        card = self._cards.pop()
        del self._exposure_of[card]
        self._rank_count[card.rank] -= 1
        self._splits -= sum(1 for e in self._events_by_card.pop()
                            if isinstance(e, Turn | LastTurn) and e.split)
        return [CardWithdrawn(len(self._cards), card)]

    def void(self) -> list[Event]:
        """End the deal where it stands: it settles nothing more."""
        self._check_open()
        self._log.append((ActionKind.VOID, None, True))
        self.flag = None
        self._is_voided = True
        return [DeckVoided(self.exposed)]

    def apply(self, action: Action) -> list[Event]:
        """Make one recorded call again."""
        match action.kind:
            case ActionKind.EXPOSE:
                return self.expose(action.card, sure=action.sure)
            case ActionKind.CORRECT:
                assert action.card is not None
                return self.correct(action.card)
            case ActionKind.CONFIRM:
                return self.confirm()
            case ActionKind.UNDO:
                return self.undo()
            case ActionKind.VOID:
                return self.void()

    @classmethod
    def replay(cls, actions: Iterable[Action], settings: Settings | None = None) -> Deal:
        """Rebuild a deal from its recorded actions."""
        deal = cls(settings)
        for action in actions:
            deal.apply(action)
        return deal

    @classmethod
    def from_cards(cls, cards: Iterable[Card], settings: Settings | None = None) -> Deal:
        """Deal these cards in order; stops at the first held read (see ``deal.flag``)."""
        deal = cls(settings)
        for card in cards:
            deal.expose(card)
            if deal.flag:
                break
        return deal

    # -- inside -------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._is_voided:
            raise DealStateError("the deal is void")
        if self.is_finished:
            raise DealStateError("the deal is finished: all 52 cards are exposed")

    def _held(self) -> Flag:
        self._check_open()
        if self.flag is None:
            raise DealStateError("no read is held")
        return self.flag

    def _check(self, card: Card | None) -> Flag | None:
        """Check a card against the deck; a Flag says why the deck cannot hold it."""
        exposure = len(self._cards)
        if card is None:
            return Flag(exposure, None, FlagReason.UNREAD)
        if card in self._exposure_of:
            # With whole cards a fifth of a rank is always also a card seen twice; say
            # "fifth" when it is, as the table would ("a fifth seven!").
            fifth = self._rank_count[card.rank] >= 4
            reason = FlagReason.FIFTH_OF_RANK if fifth else FlagReason.DUPLICATE
            return Flag(exposure, card, reason, self._exposure_of[card])
        return None

    def _accept(self, card: Card) -> list[Event]:
        exposure = len(self._cards)
        self._cards.append(card)
        self._exposure_of[card] = exposure
        self._rank_count[card.rank] += 1
        events = self._rules_events(exposure, card)
        self._events_by_card.append(events)
        if exposure == DECK_SIZE - 1:
            events.append(DeckFinished(tuple(self._cards), self.splits))
        return events[:]

    def _rules_events(self, exposure: int, card: Card) -> list[Event]:
        """The events one accepted card causes, by its place in the deal."""
        role = self._roles[exposure]
        events: list[Event] = []
        if role is Role.SODA:
            events.append(Soda(card))
        elif role is Role.LOSER:
            number = self._turns[exposure]
            assert number is not None
            events.append(Loser(number, card))
        elif role is Role.WINNER:
            loser = self._cards[exposure - 1]
            number = self._turns[exposure]
            assert number is not None
            split = loser.rank is card.rank
            self._splits += split
            is_called = number == self._called_turn
            events.append((LastTurn if is_called else Turn)(number, loser, card, split))
            if exposure + 1 == self._call_after:
                events.append(self._call_window())
        elif role is Role.HOCK:
            events.append(Hock(card))
        elif role is Role.POCKET and exposure == DECK_SIZE - 1:
            events.append(Pocket(tuple(self._cards[2 * self.settings.turns :])))
        return events

    def _call_window(self) -> CallWindow:
        ranks = tuple(sorted(c.rank for c in self.remaining))
        distinct = len(set(ranks))
        orders = math.factorial(3) // math.prod(math.factorial(n) for n in Counter(ranks).values())
        if distinct == 3:
            return CallWindow(ranks, CallKind.PLAIN, orders, self.settings.call_pays)
        if distinct == 2:
            return CallWindow(ranks, CallKind.CAT_HOP, orders, self.settings.cat_hop_pays)
        return CallWindow(ranks, CallKind.THREE_OF_A_KIND, orders, None)



@cache
def _layout(settings: Settings) -> tuple[tuple[Role, ...], tuple[int | None, ...]]:
    """Each exposure's role and turn number under ``settings``, worked out once."""
    roles: list[Role] = []
    turns: list[int | None] = []
    for exposure in range(DECK_SIZE):
        if settings.variant is Variant.FARO:
            if exposure in (0, DECK_SIZE - 1):
                role = Role.SODA if exposure == 0 else Role.HOCK
            else:
                role = Role.LOSER if exposure % 2 else Role.WINNER
            first = 1
        else:
            if exposure >= 2 * settings.turns:
                role = Role.POCKET
            else:
                role = Role.WINNER if exposure % 2 else Role.LOSER
            first = 0
        roles.append(role)
        playing = role in (Role.LOSER, Role.WINNER)
        turns.append((exposure - first) // 2 + 1 if playing else None)
    return tuple(roles), tuple(turns)
