"""Faro's bets as values, settled by pure rules on the deal's turns.

Money is whole units (chips). A :class:`Bet` is what a player has on the layout: *what* it
is on (a :class:`Flat` rank, a :class:`Multi` shape, the :class:`HighCard` bar,
:class:`EvenOdd`, or :class:`CallTheTurn`) and its stake, copper, bar and half-goes flags.
:func:`settle` says what one turn does to it.

>>> five = Bet.flat(Rank.FIVE, 10)
>>> settle(five, Turn(1, Card.parse("5H"), Card.parse("9S"), split=False))
Outcome(result=<Result.LOSE: 'lose'>, amount=10)
>>> settle(Bet.flat(Rank.FIVE, 5), Turn(2, Card.parse("5C"), Card.parse("5D"), split=True)).net
-3
"""

from __future__ import annotations

import enum
import math
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from shoe.cards import Card, FaroError, Rank
from shoe.events import CallKind, CallWindow, LastTurn, Turn
from shoe.layout import GRAND_SQUARE, JACK_SQUARE, POT, InvalidBetError, Multi, Shape, shape_of
from shoe.settings import MixedOutcome, OddUnit, Settings, SplitRule

__all__ = [
    "GRAND_SQUARE",
    "JACK_SQUARE",
    "POT",
    "RUNNING_LIMIT_FACTOR",
    "Bet",
    "CallTheTurn",
    "EvenOdd",
    "Flat",
    "HighCard",
    "InvalidBetError",
    "LimitExceededError",
    "Limits",
    "Multi",
    "Outcome",
    "Parity",
    "Result",
    "SettlementError",
    "Shape",
    "Target",
    "dead_ranks",
    "forfeit",
    "is_sleeper",
    "parlee",
    "pay_broken_bank",
    "settle",
    "shape_of",
]

#: A parlee may ride up to this many times the plain limit (the *running limit*).
RUNNING_LIMIT_FACTOR = 4


class LimitExceededError(FaroError, ValueError):
    """A stake over the table's plain or running limit."""


class SettlementError(FaroError, ValueError):
    """A bet settled against a turn it cannot settle on (a call on an ordinary turn)."""


# -- what a bet is on --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Flat:
    """One rank: wins when it comes as winner, loses when it comes as loser."""

    rank: Rank


@dataclass(frozen=True, slots=True)
class HighCard:
    """The high-card bar: the winner outranks the loser. Action every turn.

    On a split the setting ``high_card_on_split`` rules: the bank takes half (stuss too,
    as the setting says half) or it is a push.
    """


class Parity(enum.Enum):
    EVEN = "even"
    ODD = "odd"


@dataclass(frozen=True, slots=True)
class EvenOdd:
    """The winner's rank is even / odd (A=1, J=11, Q=12, K=13).

    The sources say nothing of a split here, so a split settles on the winner's rank too.
    """

    parity: Parity


@dataclass(frozen=True, slots=True)
class CallTheTurn:
    """The exact order (loser, winner, hock) of the last three cards, at the window's odds."""

    order: tuple[Rank, Rank, Rank]
    kind: CallKind
    pays: tuple[int, int]


Target = Flat | Multi | HighCard | EvenOdd | CallTheTurn

_COPPERABLE = (Flat, Multi, HighCard)


@dataclass(frozen=True, slots=True)
class Bet:
    """A stake on the layout.

    ``coppered`` reverses it (wins on the loser); ``barred`` keeps it out of play until it
    goes; ``half_goes`` risks half the stake (the stake must then be even).
    """

    on: Target
    stake: int
    coppered: bool = False
    barred: bool = False
    half_goes: bool = False

    def __post_init__(self) -> None:
        if type(self.stake) is not int or self.stake <= 0:
            raise InvalidBetError(f"a stake is a positive whole number of units: {self.stake!r}")
        if self.coppered and not isinstance(self.on, _COPPERABLE):
            raise InvalidBetError(f"a copper reverses a rank or the high card, not {self.on!r}")
        if self.half_goes and self.stake % 2:
            raise InvalidBetError(f"half goes needs an even stake, got {self.stake}")

    @classmethod
    def flat(cls, rank: Rank, stake: int, *, coppered: bool = False) -> Bet:
        return cls(Flat(rank), stake, coppered)

    @classmethod
    def multi(cls, ranks: str | Iterable[Rank], stake: int, *, coppered: bool = False) -> Bet:
        """A multi-card bet: ``Bet.multi("5-6", 10)`` or ``Bet.multi([Rank.FIVE, ...], 10)``."""
        on = Multi.parse(ranks) if isinstance(ranks, str) else Multi.of(ranks)
        return cls(on, stake, coppered)

    @classmethod
    def high_card(cls, stake: int, *, coppered: bool = False) -> Bet:
        return cls(HighCard(), stake, coppered)

    @classmethod
    def even(cls, stake: int) -> Bet:
        return cls(EvenOdd(Parity.EVEN), stake)

    @classmethod
    def odd(cls, stake: int) -> Bet:
        return cls(EvenOdd(Parity.ODD), stake)

    @classmethod
    def call(cls, window: CallWindow, order: str | Iterable[Rank], stake: int) -> Bet:
        """Call the turn: ``order`` names the loser, winner and hock, e.g. ``"3-8-K"``."""
        if isinstance(order, str):
            try:
                called = tuple(Rank.parse(part) for part in order.split("-"))
            except ValueError:
                raise InvalidBetError(f"not a call of the turn: {order!r}") from None
        else:
            called = tuple(order)
        text = "-".join(r.code for r in called)
        if window.kind is CallKind.THREE_OF_A_KIND or window.pays is None:
            raise InvalidBetError(f"no bets are taken on three of a kind: {text!r}")
        if len(called) != 3 or tuple(sorted(called)) != tuple(sorted(window.ranks)):
            left = "-".join(r.code for r in window.ranks)
            raise InvalidBetError(f"not an order of the last three ({left}): {text!r}")
        pays, per = window.pays
        return cls(CallTheTurn((called[0], called[1], called[2]), window.kind, (pays, per)), stake)

    @property
    def at_risk(self) -> int:
        """What the turn can win or lose: the stake, or half of it when half goes."""
        return self.stake // 2 if self.half_goes else self.stake

    @property
    def ranks(self) -> frozenset[Rank]:
        """The ranks the bet stands on (empty for the bars that take action every turn)."""
        if isinstance(self.on, Flat):
            return frozenset({self.on.rank})
        if isinstance(self.on, Multi):
            return frozenset(self.on.ranks)
        return frozenset()

    def bar(self) -> Bet:
        """Out of play until it goes."""
        return replace(self, barred=True)

    def goes(self) -> Bet:
        """Back in play ("it goes")."""
        return replace(self, barred=False)

    def half(self, goes: bool = True) -> Bet:
        """Declare (or revoke) half goes."""
        return replace(self, half_goes=goes)


# -- settlement -------------------------------------------------------------------------------


class Result(enum.Enum):
    WIN = "win"  # the bank pays ``amount``
    LOSE = "lose"  # the bank takes ``amount``
    SPLIT = "split"  # the bank takes its share of the stake as ``amount``
    PUSH = "push"  # settled, nothing changes hands
    NO_ACTION = "no_action"  # the turn did not touch the bet; it stands
    FORFEIT = "forfeit"  # the house takes the whole stake (sleeper, left after the last card)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one turn did to a bet; ``amount`` is whole units, never negative."""

    result: Result
    amount: int = 0

    @property
    def net(self) -> int:
        """The player's gain (negative: loss)."""
        return self.amount if self.result is Result.WIN else -self.amount

    @property
    def is_settled(self) -> bool:
        return self.result is not Result.NO_ACTION


_NO_ACTION = Outcome(Result.NO_ACTION)
_DEFAULT = Settings()


def settle(bet: Bet, turn: Turn | LastTurn, settings: Settings | None = None) -> Outcome:
    """What ``turn`` does to ``bet`` under ``settings`` (the defaults of FARO_RULES.md)."""
    settings = settings or _DEFAULT
    if bet.barred:
        return _NO_ACTION
    loser, winner = turn.loser.rank, turn.winner.rank
    on, risk = bet.on, bet.at_risk
    if isinstance(on, Flat | Multi):
        return _settle_on_ranks(bet, loser, winner, settings)
    if isinstance(on, HighCard):
        if loser is winner:
            if settings.high_card_on_split is SplitRule.PUSH:
                return Outcome(Result.PUSH)
            return Outcome(Result.SPLIT, _take(risk, Fraction(1, 2), settings.odd_unit_on_split))
        return _win_or_lose((winner > loser) != bet.coppered, risk)
    if isinstance(on, EvenOdd):
        is_even = winner % 2 == 0
        return _win_or_lose(is_even == (on.parity is Parity.EVEN), risk)
    if not isinstance(turn, LastTurn):
        raise SettlementError(f"a call settles on the last turn only, not turn {turn.number}")
    if (loser, winner) != on.order[:2]:
        return Outcome(Result.LOSE, risk)
    pays, per = on.pays
    return Outcome(Result.WIN, risk * pays // per)  # a broken unit stays with the bank


def _settle_on_ranks(bet: Bet, loser: Rank, winner: Rank, settings: Settings) -> Outcome:
    covered = bet.ranks
    lost, won = loser in covered, winner in covered
    if not (lost or won):
        return _NO_ACTION
    if loser is winner:  # a split; a copper does not change it
        taken = _take(bet.at_risk, settings.split_share, settings.odd_unit_on_split)
        return Outcome(Result.SPLIT, taken)
    if lost and won:  # one covered rank lost, another won
        if settings.mixed_multi_card is MixedOutcome.PUSH:
            return Outcome(Result.PUSH)
        return Outcome(Result.LOSE, bet.at_risk)
    return _win_or_lose(won != bet.coppered, bet.at_risk)


def _win_or_lose(player_wins: bool, risk: int) -> Outcome:
    return Outcome(Result.WIN if player_wins else Result.LOSE, risk)


def _take(stake: int, share: Fraction, odd_unit: OddUnit) -> int:
    """The bank's share of a stake in whole units; the odd unit goes as the setting says."""
    exact = stake * share
    return math.ceil(exact) if odd_unit is OddUnit.DEALER else math.floor(exact)


# -- sleepers, forfeits, limits, a broken bank --------------------------------------------------


def dead_ranks(cards: Iterable[Card]) -> frozenset[Rank]:
    """The ranks with all four cards gone among ``cards`` (every exposure, soda included)."""
    return frozenset(rank for rank, n in Counter(c.rank for c in cards).items() if n >= 4)


def is_sleeper(bet: Bet, dead: Collection[Rank]) -> bool:
    """True for a bet left on dead ranks only: it can never settle and is forfeit.

    A multi-card bet that still covers a live rank can still settle, so it is not a sleeper.
    """
    return bool(bet.ranks) and all(rank in dead for rank in bet.ranks)


def forfeit(bet: Bet) -> Outcome:
    """The house takes the whole stake: a sleeper, or a bet left after the last card."""
    return Outcome(Result.FORFEIT, bet.stake)


@dataclass(frozen=True, slots=True)
class Limits:
    """The table's limits: ``plain`` per initial bet, four times it for a parlee."""

    plain: int

    def __post_init__(self) -> None:
        if type(self.plain) is not int or self.plain <= 0:
            raise InvalidBetError(f"a limit is a positive whole number of units: {self.plain!r}")

    @property
    def running(self) -> int:
        return RUNNING_LIMIT_FACTOR * self.plain

    def check(self, bet: Bet, *, parlee: bool = False) -> None:
        """Raise LimitExceededError if ``bet`` is over the limit (running limit if a parlee)."""
        limit, name = (self.running, "running") if parlee else (self.plain, "plain")
        if bet.stake > limit:
            raise LimitExceededError(f"stake {bet.stake} is over the {name} limit of {limit}")


def parlee(bet: Bet, outcome: Outcome, limits: Limits) -> Bet:
    """Let a won bet ride: the stake and the winnings, all of it going, within the running limit."""
    if outcome.result is not Result.WIN:
        raise InvalidBetError(f"only a won bet can ride, not a {outcome.result.value}")
    riding = replace(bet, stake=bet.stake + outcome.amount, half_goes=False)
    limits.check(riding, parlee=True)
    return riding


def pay_broken_bank(owed: Sequence[tuple[Bet, int]], bank: int) -> tuple[int, ...]:
    """What each winning bet gets when the bank holds less than it owes.

    Coppered bets are paid first, then the largest stakes (ties: in the order given), until
    the bank is out; the bet the money runs out on gets what is left. Returns the payments
    in the order of ``owed``.
    """
    if bank < 0 or any(amount < 0 for _, amount in owed):
        raise InvalidBetError(f"a bank and its debts are not negative: bank {bank}")
    order = sorted(range(len(owed)), key=lambda i: (not owed[i][0].coppered, -owed[i][0].stake, i))
    paid = [0] * len(owed)
    for i in order:
        paid[i] = min(owed[i][1], bank)
        bank -= paid[i]
    return tuple(paid)
