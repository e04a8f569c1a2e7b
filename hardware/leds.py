"""LED case-keepers: 52 LEDs on chained 74HC595s over SPI, or 13 LEDs on an LEDBoard.

The shift-register chain (``docs/HARDWARE.md`` has the wiring): the Pi's MOSI feeds the
first register's SER, SCLK drives every SRCLK, and the chip select (CE0) drives every RCLK,
so the outputs change together when the select rises at the end of a transfer.

Bit ``b`` of the chain is output ``Q(b % 8)`` (QA = 0 … QH = 7) of register ``b // 8``,
register 0 being the one on MOSI. The word is clocked most significant bit first, so the
first bit sent ends up furthest along the chain.

- one colour (7 registers, 56 bits): bit ``4·(rank − 1) + k`` lights for the rank's
  ``k``-th card gone (k = 0…3), so ace is bits 0–3 and king bits 48–51; 52–55 are spare.
- two colours (13 registers, 104 bits): each position has a green and a red LED (or one
  bicolour LED); green is bit ``2·(4·(rank − 1) + k)``, red the bit above. A winner lights
  green, a loser red, and a card that settled no bet (soda, hock, either card of a split)
  both: amber on a bicolour LED.

>>> from casekeeper import Case
>>> f"{case_bits(Case.empty()):056b}" == "0" * 56
True
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hardware.errors import InvalidSettingError, check_pins, claim_device
from shoe.cards import Rank

if TYPE_CHECKING:
    from casekeeper import Case, Mark

__all__ = [
    "CARDS_PER_RANK",
    "RankLeds",
    "ShiftRegisterLeds",
    "case_bits",
    "chain_bits",
    "led_bit",
]

CARDS_PER_RANK = 4


def chain_bits(two_colour: bool) -> int:
    """Bits in the chain: 56 (7 registers) or 104 (13 registers)."""
    return 104 if two_colour else 56


def led_bit(rank: Rank, card: int, *, red: bool | None = None) -> int:
    """The chain bit of the ``card``-th card gone (0–3) of ``rank``: on a one-colour chain
    if ``red`` is None, else its green (``red=False``) or red LED on a two-colour chain."""
    position = (rank - 1) * CARDS_PER_RANK + card
    return position if red is None else 2 * position + int(red)


def _colours(mark: Mark) -> tuple[bool, bool]:
    """(green, red) for a mark on a two-colour chain."""
    from casekeeper import Mark

    if mark is Mark.WINNER:
        return True, False
    if mark is Mark.LOSER:
        return False, True
    return True, True  # soda, hock, split: no bet won or lost by this card


def case_bits(
    case: Case, *, two_colour: bool = False, dark: frozenset[Rank] = frozenset()
) -> int:
    """The whole chain as an integer (bit ``b`` = chain bit ``b``); ranks in ``dark`` are
    off (the off half of a blink)."""
    bits = 0
    for rank in Rank:
        if rank in dark:
            continue
        for card, mark in enumerate(case.marks(rank)):
            if not two_colour:
                bits |= 1 << led_bit(rank, card)
                continue
            green, red = _colours(mark)
            bits |= green << led_bit(rank, card, red=False)
            bits |= red << led_bit(rank, card, red=True)
    return bits


class _Blinker:
    """A thread that alternates a keeper's on and off frames while something blinks."""

    def __init__(self, redraw: Any, interval: float, name: str) -> None:
        if interval <= 0:
            raise InvalidSettingError(f"keeper.blink_interval: {interval} must be above 0")
        self._redraw = redraw
        self._interval = interval
        self._wake = threading.Event()
        self._stop = threading.Event()
        self.active = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def restart(self, active: bool) -> None:
        """Start the blink over from its on phase (``active``) or stop it."""
        self.active = active
        self._wake.set()

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        on = True
        while not self._stop.is_set():
            woken = self._wake.wait(self._interval if self.active else None)
            if self._stop.is_set():
                return
            if woken:
                self._wake.clear()
                on = True
                if self.active:  # again: an off phase may have landed just after show()
                    self._redraw(True)
                continue
            on = not on
            self._redraw(on)


class ShiftRegisterLeds:
    """52 LEDs (or 104 for two colours) on chained 74HC595s, driven over SPI.

    Defaults are SPI0 with CE0 as the latch: ``clock_pin=11`` (SCLK), ``data_pin=10``
    (MOSI), ``latch_pin=8`` (CE0). Other pins give gpiozero's software SPI.
    """

    def __init__(
        self,
        clock_pin: int | str = 11,
        data_pin: int | str = 10,
        latch_pin: int | str = 8,
        *,
        two_colour: bool = False,
        blink_interval: float = 0.5,
        pin_factory: Any = None,
    ) -> None:
        from gpiozero import SPIDevice

        pins = check_pins(
            {"keeper.clock": clock_pin, "keeper.data": data_pin, "keeper.latch": latch_pin}
        )
        self.two_colour = two_colour
        self.bits = chain_bits(two_colour)
        self._spi = claim_device(
            "keeper.clock/data/latch",
            lambda: SPIDevice(
                clock_pin=pins["keeper.clock"], mosi_pin=pins["keeper.data"],
                miso_pin=None, select_pin=pins["keeper.latch"], pin_factory=pin_factory,
            ),
        )
        self._lock = threading.Lock()
        self._case: Case | None = None
        self.frame: int | None = None
        self._blinker = _Blinker(self._draw, blink_interval, "led-blink")

    def show(self, case: Case) -> None:
        """Latch the whole case at once; blink ``case.blinking`` ranks until the next show."""
        with self._lock:
            self._case = case
            self._write(case_bits(case, two_colour=self.two_colour))
        self._blinker.restart(bool(case.blinking))

    def clear(self) -> None:
        """All LEDs off."""
        with self._lock:
            self._case = None
            self._write(0)
        self._blinker.restart(False)

    def close(self) -> None:
        self._blinker.close()
        self._spi.close()

    def _draw(self, on: bool) -> None:
        with self._lock:
            if self._case is None:
                return
            dark = frozenset() if on else self._case.blinking
            self._write(case_bits(self._case, two_colour=self.two_colour, dark=dark))

    def _write(self, bits: int) -> None:
        self.frame = bits
        data = list(bits.to_bytes(self.bits // 8, "big"))
        # SPIDevice keeps its interface private; its subclasses (e.g. MCP3008) use it too.
        self._spi._spi.transfer(data)


class RankLeds:
    """13 LEDs on a gpiozero LEDBoard (ace first): lit while the rank has cards left,
    blinking for ``case.blinking``."""

    def __init__(
        self,
        pins: Sequence[int | str],
        *,
        active_high: bool = True,
        blink_interval: float = 0.5,
        pin_factory: Any = None,
    ) -> None:
        from gpiozero import LEDBoard

        numbers = check_pins({f"keeper.pins[{i}]": p for i, p in enumerate(pins)})
        if len(numbers) != len(Rank):
            raise InvalidSettingError(
                f"keeper.pins: needs {len(Rank)} pins (ace to king), got {len(numbers)}"
            )
        if blink_interval <= 0:
            raise InvalidSettingError(f"keeper.blink_interval: {blink_interval} must be above 0")
        self.blink_interval = blink_interval
        self.board = claim_device(
            "keeper.pins",
            lambda: LEDBoard(
                *numbers.values(), active_high=active_high, pin_factory=pin_factory
            ),
        )
        self._blinking: set[Rank] = set()

    def show(self, case: Case) -> None:
        """Set every LED: blinking, lit (rank alive) or off (rank dead)."""
        for rank, led in zip(Rank, self.board, strict=True):
            if rank in case.blinking:
                if rank not in self._blinking:  # keep a running blink's rhythm
                    led.blink(self.blink_interval, self.blink_interval)
                    self._blinking.add(rank)
                continue
            self._blinking.discard(rank)
            if case.is_dead(rank):
                led.off()
            else:
                led.on()

    def close(self) -> None:
        self.board.close()
