"""The four suit symbols as 5×7 dot patterns, the one source every encoder draws from.

No display ROM has faro's suits (♠♥♦♣), so each encoder defines them as custom characters
from these patterns, in the byte order its own datasheet asks for: HD44780 CGRAM (SerLCD,
Matrix Orbital) takes eight row bytes, five dots in the low bits; the CD5220 and ESC/POS
customer displays take five column bytes, row 1 in bit 0.
"""

from __future__ import annotations

from shoe.cards import Suit

__all__ = ["SUIT_LETTERS", "SUIT_ORDER", "SUIT_SYMBOLS", "column_bytes", "row_bytes"]

#: The glyph slots: custom character n draws SUIT_ORDER[n].
SUIT_ORDER: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
SUIT_SYMBOLS: tuple[str, ...] = tuple(s.symbol for s in SUIT_ORDER)
#: What a display without custom characters shows instead.
SUIT_LETTERS: dict[str, str] = {s.symbol: s.code for s in SUIT_ORDER}

# Seven rows of five dots, left dot = bit 4; an eighth, blank row is the cursor line.
_PATTERNS: dict[Suit, tuple[str, ...]] = {
    Suit.SPADES: ("..#..", ".###.", "#####", "#####", "#.#.#", "..#..", ".###."),
    Suit.HEARTS: (".....", ".#.#.", "#####", "#####", "#####", ".###.", "..#.."),
    Suit.DIAMONDS: ("..#..", ".###.", ".###.", "#####", ".###.", ".###.", "..#.."),
    Suit.CLUBS: (".###.", ".###.", "#.#.#", "#####", "#.#.#", "..#..", ".###."),
}


def row_bytes(suit: Suit) -> bytes:
    """Eight HD44780 CGRAM row bytes, top row first, dots in bits 4..0 (left to right)."""
    rows = [int(row.replace("#", "1").replace(".", "0"), 2) for row in _PATTERNS[suit]]
    return bytes([*rows, 0])


def column_bytes(suit: Suit) -> bytes:
    """Five column bytes, left column first, the top row in bit 0 (CD5220 font format)."""
    pattern = _PATTERNS[suit]
    return bytes(
        sum(1 << r for r, row in enumerate(pattern) if row[c] == "#") for c in range(5)
    )


#: Where the displays that download 5-column characters (CD5220, ESC/POS) put the suits:
#: codes 0x7B-0x7E, which no layout uses; those four characters are drawn as look-alikes.
DOWNLOAD_CODES: dict[str, bytes] = {sym: bytes([0x7B + i]) for i, sym in enumerate(SUIT_SYMBOLS)}
DOWNLOAD_SUBSTITUTES: dict[str, str] = {"{": "(", "|": "!", "}": ")", "~": "-"}


def download_suits() -> bytes:
    """ESC & 1 n m [5 p1..p5]…: the four suits as user-defined characters 0x7B-0x7E.

    One format on both sets: CD5220 manual, "ESC & s n m"; Epson DM-D110 §5, "ESC &".
    """
    first, last = 0x7B, 0x7B + len(SUIT_ORDER) - 1
    data = b"".join(bytes([5]) + column_bytes(suit) for suit in SUIT_ORDER)
    return b"\x1b&" + bytes([1, first, last]) + data
