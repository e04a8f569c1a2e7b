"""Errors raised by the hardware adapters, and the checks of pin settings that raise them.

Every configuration error names the setting it came from, so the service can print one line
that tells the person at the Pi which line of the config to fix:

>>> check_pins({"servo.pins[0]": 17, "buttons.undo": 17})
Traceback (most recent call last):
...
hardware.errors.PinInUseError: pin GPIO17 is used twice: by servo.pins[0] and by buttons.undo
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TypeVar

from shoe.cards import FaroError

__all__ = [
    "BCM_PINS",
    "HEADER_PINS",
    "CalibrationError",
    "CameraConfigError",
    "CameraUnavailableError",
    "HardwareConfigError",
    "HardwareError",
    "InvalidPinError",
    "InvalidSettingError",
    "PinInUseError",
    "UnknownDriverError",
    "check_pins",
    "claim_device",
    "parse_pin",
]

#: The GPIO numbers on the Pi's 40-pin header (BCM numbering).
BCM_PINS = range(28)


class HardwareConfigError(FaroError, ValueError):
    """A hardware setting that cannot work; the message names the setting."""


class InvalidPinError(HardwareConfigError):
    """A pin setting that is not a GPIO on the Pi's header."""


class PinInUseError(HardwareConfigError):
    """One GPIO given to two settings (or already claimed by another device)."""


class UnknownDriverError(HardwareConfigError):
    """A driver, backend or model name that this firmware does not have."""


class CalibrationError(HardwareConfigError):
    """A servo calibration that the output cannot produce (e.g. two positions collapse)."""


class InvalidSettingError(HardwareConfigError):
    """Any other setting out of range (an interval, a count, a colour, a size)."""


class CameraConfigError(HardwareConfigError):
    """A camera source or size that cannot be opened as configured."""


class HardwareError(FaroError):
    """A device that failed while running (not a configuration mistake)."""


class CameraUnavailableError(HardwareError):
    """A camera that cannot give frames now (unplugged, busy, end of a file)."""


_PIN_NAME = re.compile(r"^(?:(GPIO|BCM)?(\d+)|(BOARD|J8:)(\d+))$", re.IGNORECASE)

#: The 40-pin header's physical pin numbers that carry a GPIO, and its BCM number.
HEADER_PINS = {
    3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24, 19: 10,
    21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19,
    36: 16, 37: 26, 38: 20, 40: 21,
}


def parse_pin(setting: str, value: object) -> int:
    """The BCM GPIO number of ``value``: ``17``, ``"17"``, ``"GPIO17"``, ``"BCM17"``, or a
    physical header pin ``"BOARD11"`` / ``"J8:11"`` (both GPIO17).

    Raises :class:`InvalidPinError` naming ``setting`` for anything else: a number off the
    header (0–27), or a header pin that is power or ground.
    """
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and (match := _PIN_NAME.match(value.strip())):
        if match.group(2) is not None:
            number = int(match.group(2))
        else:
            number = HEADER_PINS.get(int(match.group(4)), -1)
    if number is None or number not in BCM_PINS:
        raise InvalidPinError(
            f"{setting}: {value!r} is not a GPIO pin (use a BCM number 0–27 such as 17 or "
            f"'GPIO17', or a header pin with a GPIO such as 'BOARD11')"
        )
    return number


def check_pins(pins: Mapping[str, object]) -> dict[str, int]:
    """Parse every pin setting and refuse a GPIO given twice; returns setting → GPIO number.

    ``None`` values are optional inputs left unwired and are skipped.
    """
    numbers: dict[str, int] = {}
    owner: dict[int, str] = {}
    for setting, value in pins.items():
        if value is None:
            continue
        number = parse_pin(setting, value)
        if number in owner:
            raise PinInUseError(
                f"pin GPIO{number} is used twice: by {owner[number]} and by {setting}"
            )
        owner[number] = setting
        numbers[setting] = number
    return numbers


T = TypeVar("T")


def claim_device(setting: str, build: Callable[[], T]) -> T:
    """Build a gpiozero device, turning its pin errors into ours naming ``setting``."""
    from gpiozero.exc import GPIOPinInUse, PinInvalidPin, PinPWMUnsupported

    try:
        return build()
    except GPIOPinInUse as error:
        raise PinInUseError(f"{setting}: pin already used by another device ({error})") from None
    except PinInvalidPin as error:
        raise InvalidPinError(f"{setting}: {error}") from None
    except PinPWMUnsupported:
        raise InvalidSettingError(f"{setting}: this pin factory has no PWM on that pin") from None
