"""Every real device of the rig: cameras, the case-keeper drivers, operator inputs, displays.

This is the only package that imports gpiozero, serial, picamera2 or the Adafruit
libraries, and it imports them inside the functions that need them, so that importing
:mod:`hardware` costs nothing on a laptop. The composition root builds the devices from the
config and hands them to the service loop; tests build the same objects over the libraries'
own fakes (gpiozero's ``MockFactory``, pyserial URLs, video files).

A case-keeper driver is anything with ``show(case)`` that sets the whole state and
``close()``: :class:`hardware.servos.ServoBead`, :class:`hardware.pca9685` beads,
:class:`hardware.leds.ShiftRegisterLeds`, :class:`hardware.leds.RankLeds`,
:class:`hardware.terminal.TerminalCase`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from casekeeper import Case

__all__ = ["CaseKeeper"]


class CaseKeeper(Protocol):
    """A driver that shows the whole case: after ``show(case)`` the device shows exactly
    ``case``, whatever it showed before (so a restart replays into the right state)."""

    def show(self, case: Case) -> None: ...

    def close(self) -> None: ...
