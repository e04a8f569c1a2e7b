"""Matrix Orbital character modules (LCD2041, VFD2041, LK202 …; 19200 8N1 by default).

Source: Matrix Orbital LCD2041 / VFD2041 / VK204-25 user manuals, command summary: every
command starts with 0xFE; Clear screen FE 58, Set cursor position FE 47 col row (from 1),
Auto scroll off FE 52, Auto line wrap off FE 44, Cursor underline off FE 4B, Cursor
blinking off FE 54, Define custom character FE 4E c [8 bytes] (c = 0..7, shown by sending
byte c), Set brightness FE 99 n (LCD backlight, 0..255).
"""

from __future__ import annotations

from shoe.events import Event

from .encoding import as_screen, draw
from .glyphs import SUIT_ORDER, SUIT_SYMBOLS, row_bytes
from .layout import Screen

__all__ = ["GLYPH_CODES", "brightness", "encode", "render", "startup"]

PREFIX = b"\xfe"
CLEAR = PREFIX + b"X"  # FE 58
AUTO_SCROLL_OFF = PREFIX + b"R"  # FE 52: the last cell must not scroll the screen up
LINE_WRAP_OFF = PREFIX + b"D"  # FE 44
UNDERLINE_OFF = PREFIX + b"K"  # FE 4B
BLOCK_OFF = PREFIX + b"T"  # FE 54

GLYPH_CODES: dict[str, bytes] = {sym: bytes([i]) for i, sym in enumerate(SUIT_SYMBOLS)}


def move_to(column: int, row: int) -> bytes:
    """FE 47 col row: cursor to column 1–20, row 1–2."""
    return PREFIX + b"G" + bytes([column, row])


def brightness(level: int) -> bytes:
    """FE 99 n: backlight 0 (dim) to 255 (bright); VFD modules use FE 59 n instead."""
    if not 0 <= level <= 255:
        raise ValueError(f"Matrix Orbital brightness is 0..255, got {level}")
    return PREFIX + b"\x99" + bytes([level])


def define_suits() -> bytes:
    return b"".join(
        PREFIX + b"N" + bytes([slot]) + row_bytes(suit) for slot, suit in enumerate(SUIT_ORDER)
    )


def startup() -> tuple[bytes, ...]:
    return (AUTO_SCROLL_OFF + LINE_WRAP_OFF + UNDERLINE_OFF + BLOCK_OFF + define_suits()
            + CLEAR,)


def render(screen: Screen, *, glyphs: bool = True) -> bytes:
    return draw(screen, lambda row: move_to(1, row + 1), GLYPH_CODES if glyphs else None, {})


def encode(item: Event | Screen, *, glyphs: bool = True) -> bytes:
    return render(as_screen(item), glyphs=glyphs)
