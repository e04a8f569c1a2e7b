"""The shape every display encoder shares: a model that turns events or screens into bytes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from shoe.events import Event

from .layout import Screen, screen_for

__all__ = ["DisplayModel", "as_screen", "cells", "draw"]


def as_screen(item: Event | Screen) -> Screen:
    return item if isinstance(item, Screen) else screen_for(item)


def cells(line: str, glyphs: Mapping[str, bytes], substitutes: Mapping[str, str]) -> bytes:
    """One line as display bytes: suits as their glyph bytes, reserved characters swapped.

    ``substitutes`` replaces characters the display would take as a command or has given
    to a glyph, with a look-alike; nothing is dropped.
    """
    out = bytearray()
    for ch in line:
        if ch in glyphs:
            out += glyphs[ch]
        else:
            out += substitutes.get(ch, ch).encode("ascii")
    return bytes(out)


def draw(screen: Screen, line_start: Callable[[int], bytes],
         glyph_codes: Mapping[str, bytes] | None, substitutes: Mapping[str, str]) -> bytes:
    """Both lines in full, each after ``line_start(row)`` (row 0 is the top line).

    20 cells a line overwrite whatever was there, so nothing flickers. ``glyph_codes`` None:
    the suits are drawn as letters.
    """
    if glyph_codes is None:
        screen, glyph_codes = screen.with_letters(), {}
    return b"".join(line_start(row) + cells(line, glyph_codes, substitutes)
                    for row, line in enumerate(screen.lines))


@dataclass(frozen=True, slots=True)
class DisplayModel:
    """One kind of display: its default line settings and its pure encoders.

    - ``startup()``: chunks sent after every (re)connect, each followed by ``settle``
      seconds' pause (the SerLCD needs ~50 ms to store a custom character);
    - ``encode(item)``: the bytes that show an event or a Screen;
    - ``keeps_log``: False for screens (only the latest matters: a writer may drop stale
      ones), True for the ``$PFARO`` stream (a log: every sentence is sent, in order).
    """

    name: str
    title: str
    default_baudrate: int
    startup: Callable[[], tuple[bytes, ...]]
    encode: Callable[[Event | Screen], bytes]
    keeps_log: bool = False
    settle: float = 0.0
