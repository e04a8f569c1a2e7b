"""The case on a 52-pixel WS2812 ("NeoPixel") strip, driven from the SPI bus's MOSI.

Why SPI: ``rpi_ws281x`` (PWM/PCM/DMA) does not run on the Pi 5, whose GPIO sits behind the
RP1 chip. Adafruit's ``adafruit-circuitpython-neopixel-spi`` encodes the strip's bits as an
SPI byte stream, so it works wherever Linux has ``/dev/spidev0.0``: Pi 3, 4, 5 and Zero 2 W,
through Blinka. It is imported only when this driver is built (install it by hand or with
the ``ws2812`` note in docs/HARDWARE.md). On a Pi 4 the SPI clock follows the VPU's core
clock; set ``core_freq_min=500`` in config.txt if the colours flicker.

Pixel ``4·(rank − 1) + k`` is the rank's ``k``-th card gone (the one-colour shift-register
order): green won, red lost, amber settled no bet (soda, hock, split); a card still in the
box is off. Blinking ranks go dark every other ``blink_interval``.
"""

from __future__ import annotations

import importlib
import threading
from typing import TYPE_CHECKING, Any

from hardware.errors import HardwareError, InvalidSettingError
from hardware.leds import CARDS_PER_RANK, _Blinker
from shoe.cards import Rank

if TYPE_CHECKING:
    from casekeeper import Case, Mark

__all__ = ["PIXELS", "Ws2812Strip", "pixel_colours"]

PIXELS = 52
Colour = tuple[int, int, int]
OFF: Colour = (0, 0, 0)


def _colour(mark: Mark, level: int) -> Colour:
    from casekeeper import Mark

    if mark is Mark.WINNER:
        return (0, level, 0)
    if mark is Mark.LOSER:
        return (level, 0, 0)
    return (level, level * 3 // 5, 0)  # amber


def pixel_colours(
    case: Case, *, level: int = 255, dark: frozenset[Rank] = frozenset()
) -> list[Colour]:
    """The 52 pixels' (r, g, b) for ``case``; ranks in ``dark`` are off."""
    pixels = [OFF] * PIXELS
    for rank in Rank:
        if rank in dark:
            continue
        for card, mark in enumerate(case.marks(rank)):
            pixels[(rank - 1) * CARDS_PER_RANK + card] = _colour(mark, level)
    return pixels


class Ws2812Strip:
    """A case-keeper on 52 WS2812 pixels on SPI0 MOSI (GPIO10).

    ``brightness`` 0–1 scales every colour (the strip draws up to 60 mA a pixel at full
    white: 52 pixels want their own 5 V supply); ``spi`` defaults to ``board.SPI()``.
    """

    def __init__(
        self,
        *,
        brightness: float = 0.3,
        blink_interval: float = 0.5,
        pixel_order: str = "GRB",
        spi: Any = None,
    ) -> None:
        if not 0 < brightness <= 1:
            raise InvalidSettingError(f"keeper.brightness: {brightness} must be in (0, 1]")
        try:
            neopixel_spi = importlib.import_module("neopixel_spi")  # optional: untyped
        except ImportError as error:
            raise HardwareError(
                "keeper.driver = ws2812 needs adafruit-circuitpython-neopixel-spi"
            ) from error
        if spi is None:
            import board

            spi = board.SPI()
        self.level = max(1, round(255 * brightness))
        self.strip = neopixel_spi.NeoPixel_SPI(
            spi, PIXELS, pixel_order=pixel_order, auto_write=False
        )
        self._lock = threading.Lock()
        self._case: Case | None = None
        self._blinker = _Blinker(self._draw, blink_interval, "ws2812-blink")

    def show(self, case: Case) -> None:
        """Set all 52 pixels to ``case`` at once; blink ``case.blinking`` until the next."""
        with self._lock:
            self._case = case
            self._write(pixel_colours(case, level=self.level))
        self._blinker.restart(bool(case.blinking))

    def close(self) -> None:
        self._blinker.close()
        with self._lock:
            self._write([OFF] * PIXELS)
        deinit = getattr(self.strip, "deinit", None)
        if deinit is not None:
            deinit()

    def _draw(self, on: bool) -> None:
        with self._lock:
            if self._case is None:
                return
            dark = frozenset() if on else self._case.blinking
            self._write(pixel_colours(self._case, level=self.level, dark=dark))

    def _write(self, pixels: list[Colour]) -> None:
        for index, colour in enumerate(pixels):
            self.strip[index] = colour
        self.strip.show()
