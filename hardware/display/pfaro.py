"""The ``$PFARO`` sentence stream: one NMEA 0183-style sentence per deal event.

``$PFARO,<TYPE>,<field>,…*HH\\r\\n``: printable ASCII, at most 82 bytes with ``$`` and
CRLF, ``HH`` the XOR of every character between ``$`` and ``*`` in two upper-case hex
digits. docs/PROTOCOL.md is the specification; this module writes and parses it.

>>> from shoe.cards import Card
>>> from shoe.events import Turn
>>> sentence(Turn(3, Card.parse("QH"), Card.parse("QS"), split=True))
'$PFARO,TURN,3,QH,QS,1*62'
>>> decode(parse('$PFARO,TURN,3,QH,QS,1*62'))
Turn(number=3, loser=Card.parse('QH'), winner=Card.parse('QS'), split=True)
"""

from __future__ import annotations

from dataclasses import dataclass

from shoe.cards import Card, FaroError, Rank
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
from shoe.settings import Variant

from .layout import Screen

__all__ = [
    "MAX_LENGTH",
    "TALKER",
    "BadChecksumError",
    "InvalidSentenceError",
    "Sentence",
    "checksum",
    "decode",
    "encode",
    "parse",
    "sentence",
    "startup",
]

TALKER = "PFARO"  # "P": proprietary, as NMEA 0183 reserves for makers' own sentences
MAX_LENGTH = 82  # NMEA 0183: at most 82 characters, "$" and CRLF included
RESERVED = "$*,!\\^~\r\n"  # NMEA delimiters: never inside a field

_KINDS = {CallKind.PLAIN: "PLAIN", CallKind.CAT_HOP: "CATHOP", CallKind.THREE_OF_A_KIND: "TRIPS"}
_REASONS = {
    FlagReason.DUPLICATE: "DUP",
    FlagReason.FIFTH_OF_RANK: "FIFTH",
    FlagReason.UNSURE: "UNSURE",
    FlagReason.UNREAD: "UNREAD",
}


class InvalidSentenceError(FaroError, ValueError):
    """A line that is not a well-formed ``$PFARO`` sentence."""


class BadChecksumError(InvalidSentenceError):
    """A sentence whose checksum does not match its characters (a garbled line)."""


@dataclass(frozen=True, slots=True)
class Sentence:
    """A parsed sentence: its type (``TURN``) and its fields, as text."""

    kind: str
    fields: tuple[str, ...]


def checksum(body: str) -> str:
    """XOR of the characters of ``body`` (what lies between ``$`` and ``*``), as ``HH``."""
    value = 0
    for ch in body:
        value ^= ord(ch)
    return f"{value:02X}"


def _card(card: Card | None) -> str:
    return card.code if card is not None else ""


def _flag(value: bool) -> str:
    return "1" if value else "0"


def _text(line: str) -> str:
    """Screen text as a field: suits as letters, NMEA delimiters as spaces, no trailing blanks."""
    letters = Screen(line).with_letters().top
    return "".join(" " if ch in RESERVED else ch for ch in letters).rstrip()


def _fields(item: Event | Screen) -> tuple[str, ...]:
    match item:
        case Screen(top=top, bottom=bottom):
            return ("TXT", _text(top), _text(bottom))
        case DeckStarted(variant=variant):
            return ("NEW", variant.value.upper())
        case Soda(card=card):
            return ("SODA", card.code)
        case Loser(number=n, card=card):
            return ("LOSE", str(n), card.code)
        case Turn(number=n, loser=loser, winner=winner, split=split):
            return ("TURN", str(n), loser.code, winner.code, _flag(split))
        case LastTurn(number=n, loser=loser, winner=winner, split=split):
            return ("LAST", str(n), loser.code, winner.code, _flag(split))
        case CallWindow(ranks=ranks, kind=kind, orders=orders, pays=pays):
            odds = ":".join(str(p) for p in pays) if pays is not None else ""
            return ("CALL", *(r.code for r in ranks), _KINDS[kind], str(orders), odds)
        case Hock(card=card):
            return ("HOCK", card.code)
        case Pocket(cards=cards):
            return ("POCKET", *(c.code for c in cards))
        case DeckFinished(cards=cards, splits=splits):
            unread = sum(c is None for c in cards)
            return ("END", str(splits), str(len(cards)), str(unread))
        case CardFlagged(exposure=i, card=card, reason=reason, conflict=conflict):
            return ("FLAG", str(i), _card(card), _REASONS[reason],
                    "" if conflict is None else str(conflict))
        case CardCorrected(exposure=i, card=card, was=was):
            return ("FIX", str(i), card.code, _card(was))
        case CardWithdrawn(exposure=i, card=card, held=held):
            return ("UNDO", str(i), _card(card), _flag(held))
        case DeckVoided(exposed=exposed):
            return ("VOID", str(exposed))
    raise TypeError(f"not a deal event or screen: {item!r}")  # pragma: no cover


def sentence(item: Event | Screen) -> str:
    """The sentence for an event (or a Screen, as ``TXT``), without the CRLF."""
    body = ",".join((TALKER, *_fields(item)))
    return f"${body}*{checksum(body)}"


def encode(item: Event | Screen) -> bytes:
    """The sentence as it goes on the wire, CRLF included."""
    line = sentence(item) + "\r\n"
    if len(line) > MAX_LENGTH:  # pragma: no cover - the tests prove every type fits
        raise AssertionError(f"sentence longer than {MAX_LENGTH} bytes: {line!r}")
    return line.encode("ascii")


def startup() -> tuple[bytes, ...]:
    """Nothing to set up: a line stream has no state to initialize."""
    return ()


def parse(line: str | bytes) -> Sentence:
    """Parse one sentence (with or without CRLF); raise on a bad shape or checksum."""
    if isinstance(line, bytes):
        try:
            line = line.decode("ascii")
        except UnicodeDecodeError:
            raise InvalidSentenceError(f"not ASCII: {line!r}") from None
    text = line.removesuffix("\n").removesuffix("\r")
    if len(text) + 2 > MAX_LENGTH:
        raise InvalidSentenceError(f"longer than {MAX_LENGTH} bytes: {line!r}")
    if not text.startswith("$") or "*" not in text:
        raise InvalidSentenceError(f"expected '$PFARO,…*HH': {line!r}")
    body, _, given = text[1:].rpartition("*")
    if any(not " " <= ch <= "~" for ch in text):
        raise InvalidSentenceError(f"not printable ASCII: {line!r}")
    if len(given) != 2 or any(ch not in "0123456789ABCDEFabcdef" for ch in given):
        raise InvalidSentenceError(f"checksum must be two hex digits, got {given!r}: {line!r}")
    expected = checksum(body)
    if given.upper() != expected:
        raise BadChecksumError(
            f"bad checksum {given.upper()}, the line sums to {expected}: {line!r}")
    talker, *rest = body.split(",")
    if talker != TALKER or not rest or not rest[0]:
        raise InvalidSentenceError(f"not a {TALKER} sentence: {line!r}")
    return Sentence(rest[0], tuple(rest[1:]))


def _want(s: Sentence, n: int) -> tuple[str, ...]:
    if len(s.fields) != n:
        raise InvalidSentenceError(f"{s.kind}: expected {n} fields, got {len(s.fields)}: {s!r}")
    return s.fields


def _opt_card(text: str) -> Card | None:
    return Card.parse(text) if text else None


def _bool(text: str) -> bool:
    if text not in ("0", "1"):
        raise InvalidSentenceError(f"expected 0 or 1, got {text!r}")
    return text == "1"


def decode(s: Sentence) -> Event | Screen:
    """The event (or, for ``TXT``, the Screen) a parsed sentence stands for.

    ``END`` carries counts, not the 52 cards (they would not fit in 82 bytes): it decodes
    to a DeckFinished with ``cards=()``.
    """
    try:
        return _decode(s)
    except (ValueError, KeyError, IndexError) as exc:
        if isinstance(exc, InvalidSentenceError):
            raise
        raise InvalidSentenceError(f"{s.kind}: bad fields {s.fields!r}: {exc}") from None


def _decode(s: Sentence) -> Event | Screen:
    f = s.fields
    match s.kind:
        case "TXT":
            top, bottom = _want(s, 2)
            return Screen(top, bottom)
        case "NEW":
            return DeckStarted(Variant(_want(s, 1)[0].lower()))
        case "SODA":
            return Soda(Card.parse(_want(s, 1)[0]))
        case "LOSE":
            n, card = _want(s, 2)
            return Loser(int(n), Card.parse(card))
        case "TURN" | "LAST":
            n, loser, winner, split = _want(s, 4)
            cls = Turn if s.kind == "TURN" else LastTurn
            return cls(int(n), Card.parse(loser), Card.parse(winner), _bool(split))
        case "CALL":
            *ranks, kind, orders, odds = _want(s, 6)
            kinds = {v: k for k, v in _KINDS.items()}
            pays = tuple(int(p) for p in odds.split(":")) if odds else None
            return CallWindow(tuple(Rank.parse(r) for r in ranks), kinds[kind], int(orders), pays)
        case "HOCK":
            return Hock(Card.parse(_want(s, 1)[0]))
        case "POCKET":
            return Pocket(tuple(Card.parse(c) for c in f))
        case "END":
            splits, _exposed, _unread = _want(s, 3)
            return DeckFinished((), int(splits))
        case "FLAG":
            i, card, reason, conflict = _want(s, 4)
            reasons = {v: k for k, v in _REASONS.items()}
            return CardFlagged(int(i), _opt_card(card), reasons[reason],
                               int(conflict) if conflict else None)
        case "FIX":
            i, card, was = _want(s, 3)
            return CardCorrected(int(i), Card.parse(card), _opt_card(was))
        case "UNDO":
            i, card, held = _want(s, 3)
            return CardWithdrawn(int(i), _opt_card(card), _bool(held))
        case "VOID":
            return DeckVoided(int(_want(s, 1)[0]))
    raise InvalidSentenceError(f"unknown sentence type {s.kind!r}: {s!r}")
