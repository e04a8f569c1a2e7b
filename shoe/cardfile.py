"""Card codes as text: what ``replay`` reads and ``shuffle`` writes.

Codes are separated by whitespace or newlines; ``#`` starts a comment to the end of the line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from shoe.cards import Card, InvalidCardError

__all__ = ["CardTextError", "PlacedCode", "format_cards", "parse_cards"]

_TOKEN = re.compile(r"\S+")


class CardTextError(InvalidCardError):
    """A code in a card list that is not a card; the message gives its line and column."""


@dataclass(frozen=True, slots=True)
class PlacedCode:
    """A card and where its code stood (1-based line and column)."""

    card: Card
    line: int
    column: int


def parse_cards(text: str, source: str = "<input>") -> list[PlacedCode]:
    """Read card codes in order; raise CardTextError naming ``source:line:column``."""
    out: list[PlacedCode] = []
    for line_no, line in enumerate(text.splitlines(), start=1):
        for match in _TOKEN.finditer(line.split("#", 1)[0]):
            try:
                card = Card.parse(match.group())
            except InvalidCardError:
                raise CardTextError(
                    f"{source}:{line_no}:{match.start() + 1}: not a card: {match.group()!r}"
                ) from None
            out.append(PlacedCode(card, line_no, match.start() + 1))
    return out


def format_cards(cards: Iterable[Card], header: str = "") -> str:
    """One code a line, after an optional ``#`` comment header."""
    lines = [f"# {h}" for h in header.splitlines()] if header else []
    lines.extend(card.code for card in cards)
    return "\n".join(lines) + "\n"
