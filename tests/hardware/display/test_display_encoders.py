"""Each encoder's bytes, written out here from the command sets' manuals (named per test)."""

from __future__ import annotations

import pytest
from hypothesis import given

from hardware.display import cd5220, escpos, matrix_orbital, serlcd
from hardware.display.glyphs import column_bytes, row_bytes
from hardware.display.layout import Screen
from hardware.display.models import MODELS, DisplayConfigError, model_named
from shoe.cards import Card, Suit
from shoe.commands.display_test import MODEL_HELP
from shoe.events import Event, Turn

from .conftest import events

SCREEN = Screen("TURN 12", "LOSER 10♥ WINNER K♠")
TOP = b"TURN 12" + b" " * 13


def bottom(heart: bytes, spade: bytes) -> bytes:
    return b"LOSER 10" + heart + b" WINNER K" + spade + b" "


def test_spade_glyph_rows_are_the_hd44780_cgram_pattern() -> None:
    # HD44780U datasheet: one byte a row, top first, dots in bits 4..0, row 8 the cursor.
    assert row_bytes(Suit.SPADES) == bytes([0x04, 0x0E, 0x1F, 0x1F, 0x15, 0x04, 0x0E, 0x00])


def test_spade_glyph_columns_put_row_one_in_bit_zero() -> None:
    # CD5220 manual §9.26: byte n is column n, R1 in bit 0 … R7 in bit 6, bit 7 zero.
    assert column_bytes(Suit.SPADES) == bytes([0x1C, 0x4E, 0x7F, 0x4E, 0x1C])


def test_every_glyph_differs_and_fits_its_cell() -> None:
    rows = {row_bytes(s) for s in Suit}
    columns = {column_bytes(s) for s in Suit}
    assert len(rows) == len(columns) == 4
    assert all(b < 0x20 for r in rows for b in r)
    assert all(b < 0x80 for c in columns for b in c)


def test_cd5220_positions_each_line_with_esc_l_and_draws_suits_as_download_chars() -> None:
    # ESC l x y = 1B 6C x y; suits downloaded at 7B (♠) 7C (♥).
    expected = (b"\x1b\x6c\x01\x01" + TOP + b"\x1b\x6c\x01\x02" + bottom(b"\x7c", b"\x7b"))
    assert cd5220.render(SCREEN) == expected


def test_cd5220_startup_initialises_and_downloads_the_four_suits() -> None:
    (chunk,) = cd5220.startup()
    # ESC @, ESC DC1 (overwrite), ESC _ 0 (cursor off), ESC * 4 (brightest)
    assert chunk.startswith(b"\x1b\x40\x1b\x11\x1b\x5f\x00\x1b\x2a\x04")
    # ESC & 1 n=7B m=7E, then per character a=5 and five column bytes
    define = b"\x1b\x26\x01\x7b\x7e" + b"\x05" + bytes([0x1C, 0x4E, 0x7F, 0x4E, 0x1C])
    assert define in chunk
    assert chunk.endswith(b"\x1b\x25\x01\x0c")  # ESC % 1 (select them), CLR
    assert len(chunk) == 10 + 5 + 4 * 6 + 4


def test_escpos_positions_each_line_with_us_dollar() -> None:
    # US $ n m = 1F 24 n m (DM-D110 specification)
    expected = b"\x1f\x24\x01\x01" + TOP + b"\x1f\x24\x01\x02" + bottom(b"\x7c", b"\x7b")
    assert escpos.render(SCREEN) == expected


def test_escpos_startup_uses_us_commands_for_mode_cursor_and_brightness() -> None:
    (chunk,) = escpos.startup()
    # ESC @, US MD1 (1F 01), US C 0 (1F 43 00), US X 4 (1F 58 04)
    assert chunk.startswith(b"\x1b\x40\x1f\x01\x1f\x43\x00\x1f\x58\x04\x1b\x26\x01\x7b\x7e")
    assert chunk.endswith(b"\x1b\x25\x01\x0c")


def test_serlcd_sets_ddram_address_per_row_and_writes_suits_with_pipe_35_plus_n() -> None:
    # 0xFE 0x80|addr, rows at 0x00 and 0x40; writeChar(n) = 0x7C, 35+n
    expected = b"\xfe\x80" + TOP + b"\xfe\xc0" + bottom(b"\x7c\x24", b"\x7c\x23")
    assert serlcd.render(SCREEN) == expected


def test_serlcd_startup_stores_each_suit_with_pipe_27_plus_n_in_its_own_chunk() -> None:
    chunks = serlcd.startup()
    assert chunks[0] == b"\x7c\x2f\xfe\x0c"  # system messages off; display on, cursor off
    assert chunks[1] == b"\x7c\x1b" + bytes([0x04, 0x0E, 0x1F, 0x1F, 0x15, 0x04, 0x0E, 0x00])
    assert [c[:2] for c in chunks[1:5]] == [b"\x7c\x1b", b"\x7c\x1c", b"\x7c\x1d", b"\x7c\x1e"]
    assert chunks[-1] == b"\x7c\x2d"  # '|' '-': clear
    assert MODELS["serlcd"].settle >= 0.05  # SerLCD.cpp waits 50 ms after createChar


def test_serlcd_never_sends_a_literal_pipe_that_would_start_a_setting() -> None:
    assert serlcd.render(Screen("A|B")).count(b"\x7c") == 0


def test_matrix_orbital_uses_fe_47_and_custom_characters_zero_to_three() -> None:
    expected = b"\xfe\x47\x01\x01" + TOP + b"\xfe\x47\x01\x02" + bottom(b"\x01", b"\x00")
    assert matrix_orbital.render(SCREEN) == expected


def test_matrix_orbital_startup_defines_the_suits_with_fe_4e() -> None:
    (chunk,) = matrix_orbital.startup()
    assert chunk.startswith(b"\xfe\x52\xfe\x44\xfe\x4b\xfe\x54")  # scroll, wrap, cursors off
    assert b"\xfe\x4e\x00" + bytes([0x04, 0x0E, 0x1F, 0x1F, 0x15, 0x04, 0x0E, 0x00]) in chunk
    assert chunk.endswith(b"\xfe\x58")  # clear screen


def test_brightness_commands_match_the_manuals() -> None:
    assert cd5220.brightness(2) == b"\x1b\x2a\x02"
    assert escpos.brightness(3) == b"\x1f\x58\x03"
    assert serlcd.brightness(29) == b"\x7c\x9d"
    assert matrix_orbital.brightness(200) == b"\xfe\x99\xc8"
    with pytest.raises(ValueError):
        cd5220.brightness(5)


def test_letters_mode_shows_s_h_d_c_instead_of_glyph_codes() -> None:
    assert cd5220.render(SCREEN, glyphs=False).endswith(b"LOSER 10H WINNER KS ")
    assert matrix_orbital.render(SCREEN, glyphs=False).endswith(b"LOSER 10H WINNER KS ")


def test_download_char_codes_never_appear_as_text_on_vfds() -> None:
    out = cd5220.render(Screen("{|}~"))
    assert out[4:8] == b"(!)-"


def test_an_event_encodes_as_the_screen_that_announces_it() -> None:
    turn: Event = Turn(12, Card.parse("10H"), Card.parse("KS"), split=False)
    for model in (cd5220, escpos, serlcd, matrix_orbital):
        assert model.encode(turn) == model.render(Screen("TURN 12", "LOSER 10♥ WINNER K♠"))


@given(events)
def test_every_event_fills_exactly_forty_cells_on_every_display(event: Event) -> None:
    # Positioning commands are 4 bytes (2 on SerLCD); a suit costs 2 bytes on SerLCD.
    assert len(cd5220.encode(event)) == 8 + 40
    assert len(escpos.encode(event)) == 8 + 40
    assert len(matrix_orbital.encode(event)) == 8 + 40
    screen_bytes = serlcd.encode(event)
    assert len(screen_bytes) - screen_bytes.count(b"\x7c") == 4 + 40


def test_unknown_model_names_the_setting_and_the_known_models() -> None:
    with pytest.raises(DisplayConfigError, match=r"display\.model: unknown display model 'vfd'"):
        model_named("vfd")


def test_the_command_help_lists_exactly_the_registered_models() -> None:
    assert list(MODEL_HELP) == list(MODELS)
    for name, model in MODELS.items():
        assert f"{model.default_baudrate} 8N1" in MODEL_HELP[name]
