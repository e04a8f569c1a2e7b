"""CD5220 pole displays (2×20 VFD, 9600 8N1): the CD5220 standard-mode command set.

Source: "User's Manual, Models CD5220 / CD6220, Vacuum Fluorescent Customer Display",
§6.1 "CD5220 standard mode command list" and §9.26 "Character font format" (the Epson-branded
edition numbers it §7.2). Suits are download characters at codes 0x7B–0x7E (``{|}~``), which
the layout never uses; literal ``{|}~`` are shown as look-alikes.
"""

from __future__ import annotations

from shoe.events import Event

from .encoding import as_screen, draw
from .glyphs import DOWNLOAD_CODES, DOWNLOAD_SUBSTITUTES, download_suits
from .layout import Screen

__all__ = ["GLYPH_CODES", "brightness", "encode", "render", "startup"]

ESC = b"\x1b"
INIT = ESC + b"@"  # ESC @ 1B 40: initialize display (clears it)
OVERWRITE = ESC + b"\x11"  # ESC DC1 1B 11: overwrite mode (no scrolling)
CURSOR_OFF = ESC + b"_\x00"  # ESC _ n 1B 5F n: cursor on/off, n=0 off
CLEAR = b"\x0c"  # CLR 0C: clear display screen, and clear string mode
SELECT_DOWNLOADED = ESC + b"%\x01"  # ESC % n 1B 25 n: n=1 select download character set

GLYPH_CODES = DOWNLOAD_CODES


def move_to(column: int, row: int) -> bytes:
    """ESC l x y (1B 6C x y): cursor to column 1–20, row 1–2."""
    return ESC + b"l" + bytes([column, row])


def brightness(level: int) -> bytes:
    """ESC * n (1B 2A n): brightness 1 (dim) to 4 (bright)."""
    if not 1 <= level <= 4:
        raise ValueError(f"CD5220 brightness is 1..4, got {level}")
    return ESC + b"*" + bytes([level])


def startup() -> tuple[bytes, ...]:
    """Initialize, overwrite mode, cursor off, full brightness, the suits, a clear screen."""
    return (INIT + OVERWRITE + CURSOR_OFF + brightness(4) + download_suits()
            + SELECT_DOWNLOADED + CLEAR,)


def render(screen: Screen, *, glyphs: bool = True) -> bytes:
    return draw(screen, lambda row: move_to(1, row + 1), GLYPH_CODES if glyphs else None,
                DOWNLOAD_SUBSTITUTES)


def encode(item: Event | Screen, *, glyphs: bool = True) -> bytes:
    return render(as_screen(item), glyphs=glyphs)
