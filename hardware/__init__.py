"""Every real device of the rig: cameras, the case-keeper drivers, operator inputs, displays.

This is the only package that imports gpiozero, serial, picamera2 or the Adafruit
libraries, and it imports them inside the functions that need them, so that importing
:mod:`hardware` costs nothing on a laptop. The composition root builds the devices from the
config and hands them to the service loop; tests build the same objects over the libraries'
own fakes (gpiozero's ``MockFactory``, pyserial URLs, video files).

A case-keeper driver is anything with ``show(case)`` that sets the whole state and
``close()``: :class:`hardware.servos.ServoBead`, :class:`hardware.pca9685` beads,
:class:`hardware.leds.ShiftRegisterLeds`, :class:`hardware.leds.RankLeds`,
:class:`hardware.ws2812.Ws2812Strip`, :class:`hardware.terminal.TerminalCase`;
:func:`open_keeper` builds the one the config names.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from casekeeper import Case

__all__ = ["KEEPER_DRIVERS", "CaseKeeper", "open_keeper"]


class CaseKeeper(Protocol):
    """A driver that shows the whole case: after ``show(case)`` the device shows exactly
    ``case``, whatever it showed before (so a restart replays into the right state)."""

    def show(self, case: Case) -> None: ...

    def close(self) -> None: ...


#: The ``keeper.driver`` names :func:`open_keeper` builds.
KEEPER_DRIVERS = ("servo", "pca9685", "shift-register", "ledboard", "ws2812", "terminal", "none")


def open_keeper(settings: Any, *, pin_factory: Any = None) -> CaseKeeper | None:
    """The case-keeper the config's ``[keeper]`` section names (None for ``none``).

    Reads ``driver`` and what that driver needs: ``pins``, ``channels``, ``i2c_address``,
    ``pulse_us``, ``trim_us``, ``per_step``, ``interval``, ``data``, ``clock``, ``latch``,
    ``two_colour``, and if present ``blink_interval``, ``brightness``, ``pwm_steps``.
    Raises :class:`~hardware.errors.UnknownDriverError` for a driver it does not have.
    """
    from hardware.errors import UnknownDriverError

    driver = settings.driver
    option = functools.partial(getattr, settings)
    blink = {"blink_interval": option("blink_interval", 0.5)}
    if driver == "none":
        return None
    if driver in ("servo", "pca9685"):
        from hardware.servos import POSITIONS, ServoBead, ServoCalibration

        low, high = settings.pulse_us
        trims = list(settings.trim_us) or [(0.0,) * POSITIONS] * 13
        calibrations = [ServoCalibration(low, high, tuple(trim)) for trim in trims]
        stagger = {"per_step": settings.per_step, "interval": settings.interval}
        if driver == "servo":
            return ServoBead.on_gpio(
                settings.pins, calibrations, pwm_steps=option("pwm_steps", None),
                pin_factory=pin_factory, **stagger,
            )
        from hardware.pca9685 import pca9685_bead

        return pca9685_bead(
            settings.channels or tuple(range(13)), calibrations,
            address=settings.i2c_address, **stagger,
        )
    if driver == "shift-register":
        from hardware.leds import ShiftRegisterLeds

        return ShiftRegisterLeds(
            clock_pin=settings.clock, data_pin=settings.data, latch_pin=settings.latch,
            two_colour=settings.two_colour, pin_factory=pin_factory, **blink,
        )
    if driver == "ledboard":
        from hardware.leds import RankLeds

        return RankLeds(settings.pins, pin_factory=pin_factory, **blink)
    if driver == "ws2812":
        from hardware.ws2812 import Ws2812Strip

        return Ws2812Strip(brightness=option("brightness", 0.3), **blink)
    if driver == "terminal":
        from hardware.terminal import TerminalCase

        return TerminalCase()
    raise UnknownDriverError(
        f"keeper.driver: {driver!r} is not a case-keeper (use {', '.join(KEEPER_DRIVERS)})"
    )
