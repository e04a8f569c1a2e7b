"""What the 2×20 screen says: a :class:`Screen` value for each deal event.

The screen is whole state, not a delta: :func:`screen_for` gives both lines for the latest
event, and an encoder turns a Screen into a clear-and-draw byte sequence, so a writer can
redraw "the current screen" after a display comes back.

>>> from shoe.events import Turn
>>> from shoe.cards import Card
>>> screen_for(Turn(12, Card.parse("10H"), Card.parse("KS"), split=False)).lines
('TURN 12             ', 'LOSER 10♥ WINNER K♠ ')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shoe.cards import Card, FaroError
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

from .glyphs import SUIT_LETTERS, SUIT_SYMBOLS

__all__ = [
    "WIDTH",
    "InvalidScreenError",
    "Screen",
    "pattern_screens",
    "screen_for",
    "screen_for_batch",
]

WIDTH = 20


class InvalidScreenError(FaroError, ValueError):
    """Text that does not fit a 2×20 character display."""


def _check_line(line: str) -> str:
    if len(line) > WIDTH:
        raise InvalidScreenError(f"line longer than {WIDTH} characters: {line!r}")
    bad = [ch for ch in line if not (" " <= ch <= "~" or ch in SUIT_SYMBOLS)]
    if bad:
        raise InvalidScreenError(f"characters a display cannot show: {bad!r} in {line!r}")
    return line.ljust(WIDTH)


@dataclass(frozen=True, slots=True)
class Screen:
    """Two lines of exactly 20 characters: printable ASCII plus the suits ♠♥♦♣.

    Shorter lines are padded with spaces; longer ones are an error, never cut silently.
    """

    top: str
    bottom: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "top", _check_line(self.top))
        object.__setattr__(self, "bottom", _check_line(self.bottom))

    @property
    def lines(self) -> tuple[str, str]:
        return (self.top, self.bottom)

    @property
    def glyphs(self) -> frozenset[str]:
        """The suit symbols on screen (drawn as custom characters where possible)."""
        return frozenset(ch for ch in self.top + self.bottom if ch in SUIT_SYMBOLS)

    def with_letters(self) -> Screen:
        """The same screen with S H D C in place of the suit symbols."""
        table = str.maketrans(SUIT_LETTERS)
        return Screen(self.top.translate(table), self.bottom.translate(table))


def _card(card: Card | None) -> str:
    """A card in three cells: ``10♥``, ``K♠ ``; ``?? `` when it was not read."""
    return (card.label if card is not None else "??").ljust(3)


def _number(exposure: int) -> int:
    """People count cards from 1; the events count exposures from 0."""
    return exposure + 1


def _split_right(left: str, right: str) -> str:
    return left + right.rjust(WIDTH - len(left)) if right else left


def _turn(title: str, loser: Card, winner: Card, split: bool) -> Screen:
    return Screen(
        _split_right(title, "SPLIT" if split else ""),
        f"LOSER {_card(loser)} WINNER {_card(winner)}",
    )


def _call(event: CallWindow) -> Screen:
    ranks = " ".join(r.code for r in event.ranks)
    if event.kind is CallKind.THREE_OF_A_KIND or event.pays is None:
        return Screen(f"CALL {ranks}", "THREE ALIKE: NO BET")
    odds = f"{event.pays[0]}:{event.pays[1]}"
    kind = "CAT-HOP" if event.kind is CallKind.CAT_HOP else f"{event.orders} WAYS"
    return Screen(f"CALL {ranks}", _split_right(kind, f"PAYS {odds}"))


def _flag(event: CardFlagged) -> Screen:
    top = f"CHECK CARD {_number(event.exposure)}: {_card(event.card)}"
    conflict = _number(event.conflict) if event.conflict is not None else None
    if event.reason is FlagReason.DUPLICATE:
        bottom = f"SAME AS CARD {conflict}" if conflict else "SEEN BEFORE"
    elif event.reason is FlagReason.FIFTH_OF_RANK:
        rank = event.card.rank.code if event.card else "?"
        bottom = f"5TH {rank}; 4TH: CARD {conflict}" if conflict else f"FIFTH {rank}"
    elif event.reason is FlagReason.UNSURE:
        bottom = "UNSURE: CONFIRM/FIX"
    else:
        bottom = "NOT READ: NAME IT"
    return Screen(top, bottom)


def screen_for(event: Event) -> Screen:
    """The screen that announces ``event``."""
    match event:
        case DeckStarted(variant=variant):
            return Screen(f"{variant.value.upper()}: NEW DECK", "PLACE YOUR BETS")
        case Soda(card=card):
            return Screen(f"SODA {_card(card)}", "FIRST CARD: NO BETS")
        case Loser(number=n, card=card):
            return Screen(f"TURN {n}", f"LOSER {_card(card)} WINNER")
        case Turn(number=n, loser=loser, winner=winner, split=split):
            return _turn(f"TURN {n}", loser, winner, split)
        case LastTurn(number=n, loser=loser, winner=winner, split=split):
            return _turn(f"LAST TURN {n}", loser, winner, split)
        case CallWindow():
            return _call(event)
        case Hock(card=card):
            return Screen(f"HOCK {_card(card)}", "LAST CARD: NO BETS")
        case Pocket(cards=cards):
            return Screen("POCKET", " ".join(_card(c).strip() for c in cards))
        case DeckFinished(cards=cards, splits=splits):
            unread = sum(card is None for card in cards)
            bottom = f"{splits} SPLIT" + ("" if splits == 1 else "S")
            counts = _split_right(bottom, f"{unread} UNREAD" if unread else "")
            return Screen("DEAL FINISHED", counts)
        case CardFlagged():
            return _flag(event)
        case CardCorrected(exposure=i, card=card, was=was):
            return Screen(f"CARD {_number(i)} CORRECTED",
                          f"READ {_card(was).strip()} IS {_card(card).strip()}")
        case CardWithdrawn(exposure=i, card=card, held=held):
            what = "HELD READ" if held else "CARD"
            return Screen(f"CARD {_number(i)} TAKEN BACK", f"{what} {_card(card).strip()} UNDONE")
        case DeckVoided(exposed=exposed):
            return Screen("DEAL VOIDED", f"AFTER {exposed} CARDS")
    raise TypeError(f"not a deal event: {event!r}")  # pragma: no cover


def _fit(*candidates: str) -> str:
    """The first candidate that fits a line (the last one always does)."""
    return next((c for c in candidates if len(c) <= WIDTH), candidates[-1])


def _turn_line(event: Turn | LastTurn) -> str:
    """A whole turn in one line: ``T24 LOSE 10♥ WIN K♠``, ``T13 SPLIT Q♣/Q♦``."""
    loser, winner = event.loser.label, event.winner.label
    if event.split:
        return f"T{event.number} SPLIT {loser}/{winner}"
    return f"T{event.number} LOSE {loser} WIN {winner}"


def _call_line(event: CallWindow) -> str:
    ranks = " ".join(r.code for r in event.ranks)
    if event.pays is None:
        return _fit(f"CALL {ranks} NO BET", f"CALL {ranks}")
    odds = f"{event.pays[0]}:{event.pays[1]}"
    kind = " CAT" if event.kind is CallKind.CAT_HOP else ""
    return _fit(f"CALL {ranks}{kind} {odds}", f"{ranks}{kind} {odds}", f"CALL {ranks}")


def _over_line(event: DeckFinished) -> str:
    return f"DEAL OVER, {event.splits} SPLIT" + ("" if event.splits == 1 else "S")


def screen_for_batch(events: Sequence[Event]) -> Screen:
    """One screen for the events one deal action made, so none flashes past unseen.

    The pairs a single card can cause share the screen: a turn and the call window after
    it, the last card and the end of the deal. A correction shows what the corrected card
    did, if it did anything. Otherwise the last event's screen.
    """
    if not events:
        raise ValueError("no events to show")
    *rest, last = events
    before = rest[-1] if rest else None
    match before, last:
        case (Turn() | LastTurn()) as turn, CallWindow():
            return Screen(_turn_line(turn), _call_line(last))
        case (Turn() | LastTurn()) as turn, DeckFinished():
            return Screen(_turn_line(turn), _over_line(last))
        case Hock(card=card), DeckFinished():
            return Screen(f"HOCK {card.label}", _over_line(last))
        case Pocket(cards=cards), DeckFinished():
            labels = " ".join(c.label for c in cards)
            return Screen(_fit(f"POCKET {labels}", f"PKT {labels}"), _over_line(last))
    return screen_for(last)


def pattern_screens() -> list[Screen]:
    """Screens for a freshly wired display: every printable character, the suits, both lines."""
    ascii_chars = "".join(chr(c) for c in range(0x20, 0x7F))
    chunks = [ascii_chars[i : i + 2 * WIDTH] for i in range(0, len(ascii_chars), 2 * WIDTH)]
    screens = [Screen(chunk[:WIDTH], chunk[WIDTH:]) for chunk in chunks]
    suits = " ".join(SUIT_SYMBOLS)
    screens.append(Screen(f"SUITS {suits}", f"A{SUIT_SYMBOLS[0]} 10{SUIT_SYMBOLS[1]} "
                          f"Q{SUIT_SYMBOLS[2]} K{SUIT_SYMBOLS[3]}"))
    screens.append(Screen("1" * WIDTH, "2" * WIDTH))
    screens.append(Screen("<" + "-" * (WIDTH - 2) + ">", "LINE 2 OF 2"))
    return screens
