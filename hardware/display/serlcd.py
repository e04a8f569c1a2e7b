"""An HD44780 2×20 LCD behind a SparkFun SerLCD / OpenLCD serial backpack (9600 8N1).

Sources: SparkFun "SerLCD Arduino library" (SerLCD.h/.cpp: SETTING_COMMAND 0x7C,
SPECIAL_COMMAND 0xFE, CLEAR_COMMAND '-', createChar = 0x7C, 27+n, 8 bytes; writeChar =
0x7C, 35+n; setCursor = 0xFE, 0x80 | (col + row offset 0x00/0x40)), the OpenLCD command
cheat sheet (0x7C '/' disables system messages) and the Hitachi HD44780U datasheet (Table 6,
"Display on/off control" 0b00001DCB; CGRAM rows are 5 dots in bits 4..0).

OpenLCD keeps custom characters in EEPROM, and each takes ~50 ms to store: the model's
``settle`` makes the writer pause after each startup chunk. The old SerLCD v2.5 firmware
has no custom-character command: use letters (``glyphs=False``) there. ``|`` is the
setting-command byte, so a literal ``|`` is shown as ``!``.
"""

from __future__ import annotations

from shoe.events import Event

from .encoding import as_screen, draw
from .glyphs import SUIT_ORDER, SUIT_SYMBOLS, row_bytes
from .layout import Screen

__all__ = ["SETTLE", "brightness", "encode", "render", "startup"]

SETTING = b"\x7c"  # '|': the next byte is an OpenLCD setting
SPECIAL = b"\xfe"  # the next byte goes to the HD44780 as an instruction
CLEAR = SETTING + b"-"  # 0x7C 0x2D: clear display, cursor home
NO_SYSTEM_MESSAGES = SETTING + b"/"  # 0x7C 0x2F: do not print "Contrast: 5" etc.
DISPLAY_ON_CURSOR_OFF = SPECIAL + b"\x0c"  # HD44780 0b00001100: display on, cursor/blink off
ROW_ADDRESS = (0x00, 0x40)  # HD44780 DDRAM address of each row's first cell
SETTLE = 0.05  # seconds per stored custom character (SerLCD.cpp: delay(50))

#: Custom character n is shown by 0x7C, 35+n (writeChar).
GLYPH_CODES: dict[str, bytes] = {
    sym: SETTING + bytes([35 + i]) for i, sym in enumerate(SUIT_SYMBOLS)}
_SUBSTITUTES = {"|": "!"}


def move_to(column: int, row: int) -> bytes:
    """0xFE, 0x80 | address: HD44780 "Set DDRAM address"; column and row count from 0."""
    return SPECIAL + bytes([0x80 | (ROW_ADDRESS[row] + column)])


def brightness(level: int) -> bytes:
    """0x7C, 128+level: primary backlight 0 (off) to 29 (100%); OpenLCD stores it in EEPROM."""
    if not 0 <= level <= 29:
        raise ValueError(f"SerLCD backlight is 0..29, got {level}")
    return SETTING + bytes([128 + level])


def define_suit(slot: int) -> bytes:
    """0x7C, 27+slot, then the eight CGRAM row bytes."""
    return SETTING + bytes([27 + slot]) + row_bytes(SUIT_ORDER[slot])


def startup() -> tuple[bytes, ...]:
    """Quiet, display on without cursor, the four suits (one chunk each), a clear screen."""
    return (
        NO_SYSTEM_MESSAGES + DISPLAY_ON_CURSOR_OFF,
        *(define_suit(slot) for slot in range(len(SUIT_ORDER))),
        CLEAR,
    )


def render(screen: Screen, *, glyphs: bool = True) -> bytes:
    return draw(screen, lambda row: move_to(0, row), GLYPH_CODES if glyphs else None, _SUBSTITUTES)


def encode(item: Event | Screen, *, glyphs: bool = True) -> bytes:
    return render(as_screen(item), glyphs=glyphs)
