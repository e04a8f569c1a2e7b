"""CD5220 pole displays (2×20 VFD, 9600 8N1): the CD5220 standard-mode command set.

Source: "User's Manual, Models CD5220 / CD6220, Vacuum Fluorescent Customer Display",
§6.1 "CD5220 standard mode command list" and §9.26 "Character font format" (the Epson-branded
edition numbers it §7.2). Suits are download characters at codes 0x7B–0x7E (``{|}~``), which
the layout never uses; literal ``{|}~`` are shown as look-alikes.
"""

from __future__ import annotations

from shoe.events import Event

from .encoding import as_screen, cells
from .glyphs import SUIT_ORDER, SUIT_SYMBOLS, column_bytes
from .layout import Screen

__all__ = ["GLYPH_CODES", "brightness", "encode", "render", "startup"]

ESC = b"\x1b"
INIT = ESC + b"@"  # ESC @ 1B 40: initialize display (clears it)
OVERWRITE = ESC + b"\x11"  # ESC DC1 1B 11: overwrite mode (no scrolling)
CURSOR_OFF = ESC + b"_\x00"  # ESC _ n 1B 5F n: cursor on/off, n=0 off
CLEAR = b"\x0c"  # CLR 0C: clear display screen, and clear string mode
SELECT_DOWNLOADED = ESC + b"%\x01"  # ESC % n 1B 25 n: n=1 select download character set

#: The character code each suit's download character takes (32 ≤ n ≤ 126 in the manual).
GLYPH_CODES: dict[str, bytes] = {sym: bytes([0x7B + i]) for i, sym in enumerate(SUIT_SYMBOLS)}
_SUBSTITUTES = {"{": "(", "|": "!", "}": ")", "~": "-"}


def move_to(column: int, row: int) -> bytes:
    """ESC l x y (1B 6C x y): cursor to column 1–20, row 1–2."""
    return ESC + b"l" + bytes([column, row])


def brightness(level: int) -> bytes:
    """ESC * n (1B 2A n): brightness 1 (dim) to 4 (bright)."""
    if not 1 <= level <= 4:
        raise ValueError(f"CD5220 brightness is 1..4, got {level}")
    return ESC + b"*" + bytes([level])


def define_suits() -> bytes:
    """ESC & s n m [a p1..p5]…: download the four suits, 5 columns each, s=1, a=5."""
    first, last = 0x7B, 0x7B + len(SUIT_ORDER) - 1
    data = b"".join(bytes([5]) + column_bytes(suit) for suit in SUIT_ORDER)
    return ESC + b"&" + bytes([1, first, last]) + data


def startup() -> tuple[bytes, ...]:
    """Initialize, overwrite mode, cursor off, full brightness, the suits, a clear screen."""
    return (INIT + OVERWRITE + CURSOR_OFF + brightness(4) + define_suits()
            + SELECT_DOWNLOADED + CLEAR,)


def render(screen: Screen, *, glyphs: bool = True) -> bytes:
    """Both lines in full (20 cells each overwrite whatever was there: no flicker)."""
    if not glyphs:
        screen = screen.with_letters()
    codes = GLYPH_CODES if glyphs else {}
    top, bottom = (cells(line, codes, _SUBSTITUTES) for line in screen.lines)
    return move_to(1, 1) + top + move_to(1, 2) + bottom


def encode(item: Event | Screen, *, glyphs: bool = True) -> bytes:
    return render(as_screen(item), glyphs=glyphs)
