"""Events as one line of text for people: the replay's listing, logs, the headless demo."""

from __future__ import annotations

from shoe.cards import Card
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

__all__ = ["describe"]

_REASONS = {
    FlagReason.DUPLICATE: "already exposed at exposure {conflict}",
    FlagReason.FIFTH_OF_RANK: "a fifth of its rank, and already exposed at exposure {conflict}",
    FlagReason.UNSURE: "the reader is not sure of it",
    FlagReason.UNREAD: "the reader could not name it",
}


def describe(event: Event, *, symbols: bool = True) -> str:
    """One line for an event, e.g. ``Turn  3   loser Q♥   winner 7♠``."""

    def name(card: Card | None) -> str:
        if card is None:
            return "?"
        return card.label if symbols else card.code

    match event:
        case DeckStarted(variant=variant):
            return f"New deck: {variant.value}"
        case Soda(card=card):
            return f"Soda      {name(card)}"
        case Loser(number=number, card=card):
            return f"Turn {number:>2}   loser {name(card)}"
        case Turn() | LastTurn():
            tag = "  SPLIT" if event.split else ""
            last = "  (last turn)" if isinstance(event, LastTurn) else ""
            line = (f"Turn {event.number:>2}   loser {name(event.loser):<4} "
                    f"winner {name(event.winner):<4}{tag}{last}")
            return line.rstrip()
        case CallWindow(ranks=ranks, kind=kind, orders=orders, pays=pays):
            left = " ".join(r.code for r in ranks)
            if kind is CallKind.THREE_OF_A_KIND:
                return f"Call the turn: {left}, three of a kind, no bets"
            label = "cat-hop" if kind is CallKind.CAT_HOP else "three ranks"
            odds = f"pays {pays[0]} to {pays[1]}" if pays else "no bets"
            return f"Call the turn: {left}, {label}, {orders} orders, {odds}"
        case Hock(card=card):
            return f"Hock      {name(card)}"
        case Pocket(cards=cards):
            return "Pocket    " + " ".join(name(c) for c in cards)
        case DeckFinished(cards=cards, splits=splits):
            unread = sum(1 for c in cards if c is None)
            extra = f", {unread} not read" if unread else ""
            return f"Deck finished: {len(cards)} cards, {splits} split{'s' * (splits != 1)}{extra}"
        case CardFlagged(exposure=exposure, card=card, reason=reason, conflict=conflict):
            why = _REASONS[reason].format(conflict=conflict)
            return f"CHECK CARD: exposure {exposure} read as {name(card)}: {why}"
        case CardCorrected(exposure=exposure, card=card, was=was):
            return f"Corrected exposure {exposure}: {name(was)} -> {name(card)}"
        case CardWithdrawn(exposure=exposure, card=card, held=held):
            what = "held read" if held else "card"
            return f"Undone: {what} {name(card)} at exposure {exposure}"
        case DeckVoided(exposed=exposed):
            return f"Deal void after {exposed} cards"
    raise TypeError(f"not an event: {event!r}")  # pragma: no cover
