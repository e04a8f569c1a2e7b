"""The deal's events: small frozen values with a JSON form that round-trips.

Every consumer (journal, case-keeper, display, log) reads these; docs/EVENTS.md is their
schema. ``to_json(event)`` gives a dict with an ``"event"`` key naming the type;
``from_json(d)`` builds the event back.

>>> line = dumps(Turn(3, Card.parse("QH"), Card.parse("QS"), split=True))
>>> line
'{"event": "turn", "number": 3, "loser": "QH", "winner": "QS", "split": true}'
>>> loads(line)
Turn(number=3, loser=Card.parse('QH'), winner=Card.parse('QS'), split=True)
"""

from __future__ import annotations

import enum
import json
import types
import typing
from dataclasses import MISSING, dataclass, fields
from typing import Any

from shoe.cards import Card, FaroError, Rank
from shoe.settings import Variant

__all__ = [
    "EVENT_TYPES",
    "CallKind",
    "CallWindow",
    "CardCorrected",
    "CardFlagged",
    "CardWithdrawn",
    "DeckFinished",
    "DeckStarted",
    "DeckVoided",
    "Event",
    "FlagReason",
    "Hock",
    "InvalidEventError",
    "LastTurn",
    "Loser",
    "Pocket",
    "Soda",
    "Turn",
    "dumps",
    "from_json",
    "loads",
    "to_json",
]


class InvalidEventError(FaroError, ValueError):
    """JSON that is not one of the deal's events."""


class CallKind(enum.Enum):
    """What the last three cards allow when the dealer calls the turn."""

    PLAIN = "plain"  # three ranks: 6 orders
    CAT_HOP = "cat_hop"  # a pair among them: 3 orders
    THREE_OF_A_KIND = "three_of_a_kind"  # one order: no bets taken


class FlagReason(enum.Enum):
    """Why the deal held a read instead of accepting it."""

    DUPLICATE = "duplicate"  # that card was already exposed in this deal
    FIFTH_OF_RANK = "fifth_of_rank"  # a duplicate that would be a fifth of its rank
    UNSURE = "unsure"  # the reader named a card but is not sure of it
    UNREAD = "unread"  # the reader could not name the card at all


@dataclass(frozen=True, slots=True)
class DeckStarted:
    """A new deal: the shuffled deck is in the box."""

    variant: Variant


@dataclass(frozen=True, slots=True)
class Soda:
    """Faro's first card, burned: no bet settles on it."""

    card: Card


@dataclass(frozen=True, slots=True)
class Loser:
    """A turn's first card shows: the bank takes the bets on its rank. Its Turn follows."""

    number: int
    card: Card


@dataclass(frozen=True, slots=True)
class Turn:
    """A loser then a winner. ``split``: both of one rank; the bank takes its share."""

    number: int
    loser: Card
    winner: Card
    split: bool


@dataclass(frozen=True, slots=True)
class CallWindow:
    """Faro, after turn 24: three cards remain, known by rank from the case.

    ``ranks`` are sorted; ``orders`` is how many distinct orders they can come in;
    ``pays`` the odds as ``(pays, per)``, or None when no bets are taken.
    """

    ranks: tuple[Rank, ...]
    kind: CallKind
    orders: int
    pays: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class LastTurn:
    """Faro's called last turn (turn 25): its loser and winner; the hock follows."""

    number: int
    loser: Card
    winner: Card
    split: bool


@dataclass(frozen=True, slots=True)
class Hock:
    """Faro's last card, never played."""

    card: Card


@dataclass(frozen=True, slots=True)
class Pocket:
    """Stuss with a pocket: the four hidden cards, shown when the box is opened."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DeckFinished:
    """The deal is over. ``cards``: all 52 in exposure order (None: a card not read)."""

    cards: tuple[Card | None, ...]
    splits: int


@dataclass(frozen=True, slots=True)
class CardFlagged:
    """A read the deal holds: nothing more is accepted until the operator resolves it.

    ``exposure`` is the index (0–51) the card would take; ``conflict`` the exposure that
    already holds that same card (a duplicate, or a fifth of its rank).
    """

    exposure: int
    card: Card | None
    reason: FlagReason
    conflict: int | None = None


@dataclass(frozen=True, slots=True)
class CardCorrected:
    """The operator named the card at ``exposure``; ``was`` is what the reader said."""

    exposure: int
    card: Card
    was: Card | None


@dataclass(frozen=True, slots=True)
class CardWithdrawn:
    """The operator took back the read at ``exposure`` (undo).

    Either the held read (``held``; the deal waits for that exposure again) or the last
    accepted card (the deal is one card shorter).
    """

    exposure: int
    card: Card | None
    held: bool = False


@dataclass(frozen=True, slots=True)
class DeckVoided:
    """The operator ended the deal after ``exposed`` cards; it settles nothing more."""

    exposed: int


Event = (
    DeckStarted | Soda | Loser | Turn | CallWindow | LastTurn | Hock | Pocket | DeckFinished
    | CardFlagged | CardCorrected | CardWithdrawn | DeckVoided
)

#: JSON name → event class.
EVENT_TYPES: dict[str, type] = {
    "deck_started": DeckStarted,
    "soda": Soda,
    "loser": Loser,
    "turn": Turn,
    "call_window": CallWindow,
    "last_turn": LastTurn,
    "hock": Hock,
    "pocket": Pocket,
    "deck_finished": DeckFinished,
    "card_flagged": CardFlagged,
    "card_corrected": CardCorrected,
    "card_withdrawn": CardWithdrawn,
    "deck_voided": DeckVoided,
}
_NAMES = {cls: name for name, cls in EVENT_TYPES.items()}


def event_name(event: Event) -> str:
    """The event's JSON name: ``"turn"``, ``"deck_finished"`` …"""
    return _NAMES[type(event)]


def to_json(event: Event) -> dict[str, Any]:
    """The event as plain JSON values: cards and ranks as codes, enums as their values."""
    out: dict[str, Any] = {"event": event_name(event)}
    for f in fields(event):
        out[f.name] = _plain(getattr(event, f.name))
    return out


def from_json(data: dict[str, Any]) -> Event:
    """Build an event from :func:`to_json`'s form; raise InvalidEventError if it is not one."""
    try:
        cls = EVENT_TYPES[data["event"]]
    except (KeyError, TypeError):
        raise InvalidEventError(f"not an event: {data!r}") from None
    hints = typing.get_type_hints(cls)
    kwargs = {}
    for f in fields(cls):
        if f.name not in data:
            if f.default is not MISSING:
                continue
            raise InvalidEventError(f"{data['event']}: missing {f.name!r} in {data!r}")
        try:
            kwargs[f.name] = _typed(hints[f.name], data[f.name])
        except (ValueError, TypeError) as exc:
            raise InvalidEventError(f"{data['event']}: bad {f.name!r} in {data!r}: {exc}") from None
    return typing.cast(Event, cls(**kwargs))


def dumps(event: Event) -> str:
    """One JSON line (no newline)."""
    return json.dumps(to_json(event), ensure_ascii=False)


def loads(line: str) -> Event:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InvalidEventError(f"not JSON: {line!r} ({exc})") from None
    return from_json(data)


def _plain(value: Any) -> Any:
    if isinstance(value, Card | Rank):
        return value.code
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _typed(hint: Any, value: Any) -> Any:
    """Convert a plain JSON value back to the type a field is annotated with."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        (hint,) = [t for t in options if t is not type(None)]
        return _typed(hint, value)
    if origin is tuple:
        if not isinstance(value, list):
            raise TypeError(f"expected a list, got {value!r}")
        (item, _) = typing.get_args(hint)
        return tuple(_typed(item, v) for v in value)
    if hint is Card:
        return Card.parse(value)
    if hint is Rank:
        return Rank.parse(value)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(value)
    if hint is bool or hint is int:
        if type(value) is not hint:
            raise TypeError(f"expected {hint.__name__}, got {value!r}")
        return value
    raise TypeError(f"cannot read {hint!r}")  # pragma: no cover
