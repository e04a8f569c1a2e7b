"""The servo-bead on a PCA9685 16-channel PWM board over I2C (Adafruit's CircuitPython driver).

Install with the ``pi`` extra (``adafruit-circuitpython-pca9685``, which brings Blinka's
``board``/``busio``); it is imported only when this driver is built.

The chip counts 4096 ticks per PWM period, one tick every ``(prescale + 1) / 25 MHz``. The
driver writes ``prescale = round(25 MHz / 4096 / frequency)``: 122 at 50 Hz, so a tick is
123 / 25 MHz = 4.92 µs and a period 20.15 ms (datasheet: update rate = osc / (4096 ·
(prescale + 1))). A 1–2 ms servo range spans about 203 ticks: every position is producible
to within 2.5 µs. The internal oscillator is only good to a few per cent; measure a pulse
and set ``reference_clock_hz`` if the servos end up off.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hardware.errors import HardwareError, InvalidSettingError
from hardware.servos import PulseGrid, ServoBead, ServoCalibration
from shoe.cards import Rank

__all__ = ["Pca9685Channel", "pca9685_bead", "pca9685_grid"]

TICKS = 4096


def pca9685_grid(prescale: int, reference_clock_hz: float = 25_000_000) -> PulseGrid:
    """The pulses a PCA9685 with this prescale register can make (4096 ticks a period)."""
    return PulseGrid(frame=TICKS * (prescale + 1) / reference_clock_hz, steps=TICKS)


class Pca9685Channel:
    """One PCA9685 output (a ``PWMChannel`` of the driver) as a servo channel."""

    def __init__(self, channel: Any, grid: PulseGrid) -> None:
        self.channel = channel
        self._grid = grid

    @property
    def grid(self) -> PulseGrid:
        return self._grid

    def set_pulse(self, pulse: float) -> None:
        # The driver takes 16-bit duty and keeps (value + 1) >> 4: ticks << 4 is exact.
        self.channel.duty_cycle = self._grid.step_of(pulse) << 4

    def close(self) -> None:
        self.channel.duty_cycle = 0  # no pulses: the servo goes limp, nothing hums


def pca9685_bead(
    channels: Sequence[int] = tuple(range(13)),
    calibrations: Sequence[ServoCalibration] | None = None,
    *,
    address: int = 0x40,
    i2c: Any = None,
    frequency: float = 50.0,
    reference_clock_hz: int = 25_000_000,
    **stagger: Any,
) -> ServoBead:
    """A :class:`~hardware.servos.ServoBead` on a PCA9685: ``channels`` are the board's
    outputs (0–15) for ace … king; ``i2c`` defaults to the Pi's I2C bus (``board.I2C()``).
    ``stagger``: ``per_step``, ``interval``, ``sleep``, ``clock``, ``background``."""
    channels = list(channels)
    if len(channels) != len(Rank):
        raise InvalidSettingError(
            f"keeper.channels: needs {len(Rank)} channels (ace to king), got {len(channels)}"
        )
    seen: dict[int, int] = {}
    for n, channel in enumerate(channels):
        if not 0 <= channel < 16:
            raise InvalidSettingError(f"keeper.channels[{n}]: {channel} is not a channel 0–15")
        if channel in seen:
            raise InvalidSettingError(
                f"keeper.channels: channel {channel} is used twice: by keeper.channels"
                f"[{seen[channel]}] and by keeper.channels[{n}]"
            )
        seen[channel] = n
    if not 0x40 <= address <= 0x7F:
        raise InvalidSettingError(f"keeper.i2c_address: {address:#x} is not a PCA9685 address")
    try:
        from adafruit_pca9685 import PCA9685
    except ImportError as error:
        raise HardwareError(
            "keeper.driver = pca9685 needs adafruit-circuitpython-pca9685 (the 'pi' extra)"
        ) from error
    if i2c is None:
        import board

        i2c = board.I2C()
    try:
        pca = PCA9685(i2c, address=address, reference_clock_speed=reference_clock_hz)
        pca.frequency = frequency
        grid = pca9685_grid(pca.prescale_reg, reference_clock_hz)
    except (OSError, ValueError) as error:
        raise HardwareError(
            f"keeper.i2c_address: no PCA9685 answers at {address:#x} ({error})"
        ) from error
    outputs = [Pca9685Channel(pca.channels[c], grid) for c in channels]
    return ServoBead(outputs, calibrations, **stagger)
