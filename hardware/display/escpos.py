"""Epson ESC/POS customer displays (DM-D series and the many 2×20 VFDs in "Epson mode").

Source: Epson "DM-D110 Specification (STANDARD)", §5 commands ESC @, ESC &, ESC %, US $,
US X, US C, US MD1; the same codes are in the POSX XP8200 manual §4.1.2 "EPSON Command
Mode". User-defined characters: ESC & s n m [a p1..pa] with s=1 (one byte a column), row 1
in bit 0 as in the CD5220 font format; suits at codes 0x7B–0x7E, which the layout never uses.
"""

from __future__ import annotations

from shoe.events import Event

from .encoding import as_screen, draw
from .glyphs import DOWNLOAD_CODES, DOWNLOAD_SUBSTITUTES, download_suits
from .layout import Screen

__all__ = ["GLYPH_CODES", "brightness", "encode", "render", "startup"]

ESC = b"\x1b"
US = b"\x1f"
INIT = ESC + b"@"  # ESC @ 1B 40: initialize display (clears it, cursor home)
OVERWRITE = US + b"\x01"  # US MD1 1F 01: overwrite mode
CURSOR_OFF = US + b"C\x00"  # US C n 1F 43 n: cursor display, n=0 off
CLEAR = b"\x0c"  # CLR 0C: clear display screen
SELECT_USER_DEFINED = ESC + b"%\x01"  # ESC % n 1B 25 n: n=1 select user-defined set

GLYPH_CODES = DOWNLOAD_CODES


def move_to(column: int, row: int) -> bytes:
    """US $ n m (1F 24 n m): cursor to column 1–20, row 1–2."""
    return US + b"$" + bytes([column, row])


def brightness(level: int) -> bytes:
    """US X n (1F 58 n): brightness 1 (20%) to 4 (100%)."""
    if not 1 <= level <= 4:
        raise ValueError(f"ESC/POS display brightness is 1..4, got {level}")
    return US + b"X" + bytes([level])


def startup() -> tuple[bytes, ...]:
    return (INIT + OVERWRITE + CURSOR_OFF + brightness(4) + download_suits()
            + SELECT_USER_DEFINED + CLEAR,)


def render(screen: Screen, *, glyphs: bool = True) -> bytes:
    return draw(screen, lambda row: move_to(1, row + 1), GLYPH_CODES if glyphs else None,
                DOWNLOAD_SUBSTITUTES)


def encode(item: Event | Screen, *, glyphs: bool = True) -> bytes:
    return render(as_screen(item), glyphs=glyphs)
