"""Operator inputs: the panel's buttons and the slot's infrared break-beam, through gpiozero.

Buttons wire between the GPIO and ground (the Pi's pull-ups hold them high). Undo, confirm
and close-box act on the press; new-deck and void destroy a deal's state, so they act only
after being held for ``hold_time``. Each button is debounced twice: gpiozero's
``bounce_time`` (done by the pin driver where it can) and, because not every pin factory
honours that, here too: a second press within ``bounce_time`` of the last is ignored.

>>> panel = OperatorPanel(undo=17, confirm=27, new_deck=22, on_action=print)  # doctest: +SKIP
"""

from __future__ import annotations

import enum
import functools
import threading
import time
from collections.abc import Callable
from typing import Any

from hardware.errors import InvalidSettingError, check_pins, claim_device

__all__ = ["HOLD_ACTIONS", "OperatorAction", "OperatorPanel", "SlotBeam"]


class OperatorAction(enum.Enum):
    """What the operator asked for."""

    NEW_DECK = "new-deck"  # the shuffle is done: start a deal
    UNDO = "undo"  # take back the last card (a misread)
    CONFIRM = "confirm"  # accept a flagged read as it stands
    CLOSE_BOX = "close-box"  # pause between turns
    VOID = "void"  # abandon the deal


#: Actions that need the button held for ``hold_time``.
HOLD_ACTIONS = frozenset({OperatorAction.NEW_DECK, OperatorAction.VOID})


class _Debounce:
    """Drops an edge that comes within ``window`` s of the previous edge of the same source
    (either way: contacts chatter on release as much as on press)."""

    def __init__(self, window: float, clock: Callable[[], float]) -> None:
        self._window = window
        self._clock = clock
        self._last: dict[object, float] = {}
        self._lock = threading.Lock()

    def edge(self, source: object) -> tuple[bool, float]:
        """Record an edge; True if it is the first for ``window`` s."""
        now = self._clock()
        with self._lock:
            last = self._last.get(source)
            self._last[source] = now
        return last is None or now - last >= self._window, now


class OperatorPanel:
    """The operator's buttons: each wired one is a gpiozero Button; ``on_action(action)`` is
    called (from gpiozero's pin thread: keep it quick, e.g. put it on a queue) once per
    press, or once per hold for :data:`HOLD_ACTIONS`. Unwired buttons are ``None``."""

    def __init__(
        self,
        *,
        on_action: Callable[[OperatorAction], None],
        new_deck: int | str | None = None,
        undo: int | str | None = None,
        confirm: int | str | None = None,
        close_box: int | str | None = None,
        void: int | str | None = None,
        pull_up: bool = True,
        bounce_time: float = 0.05,
        hold_time: float = 1.5,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        from gpiozero import Button

        if bounce_time < 0:
            raise InvalidSettingError(f"buttons.bounce_time: {bounce_time} must not be negative")
        if hold_time <= bounce_time:
            raise InvalidSettingError(
                f"buttons.hold_time: {hold_time} must be longer than bounce_time ({bounce_time})"
            )
        wanted = {
            OperatorAction.NEW_DECK: new_deck,
            OperatorAction.UNDO: undo,
            OperatorAction.CONFIRM: confirm,
            OperatorAction.CLOSE_BOX: close_box,
            OperatorAction.VOID: void,
        }
        setting = {action: f"buttons.{action.name.lower()}" for action in wanted}
        numbers = check_pins({setting[a]: pin for a, pin in wanted.items()})
        self.on_action = on_action
        self._debounce = _Debounce(bounce_time, clock)
        self.buttons: dict[OperatorAction, Any] = {}
        try:
            for action, pin in wanted.items():
                if pin is None:
                    continue
                button = claim_device(
                    setting[action],
                    functools.partial(
                        Button, numbers[setting[action]], pull_up=pull_up,
                        bounce_time=bounce_time or None, hold_time=hold_time,
                        pin_factory=pin_factory,
                    ),
                )
                if action in HOLD_ACTIONS:
                    button.when_held = functools.partial(self.on_action, action)
                else:
                    button.when_pressed = functools.partial(self._pressed, action)
                    button.when_released = functools.partial(self._debounce.edge, action)
                self.buttons[action] = button
        except BaseException:
            self.close()
            raise

    def _pressed(self, action: OperatorAction) -> None:
        if self._debounce.edge(action)[0]:
            self.on_action(action)

    def close(self) -> None:
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()


class SlotBeam:
    """The infrared break-beam across the slot: ``on_card_left(t)`` once per card leaving,
    ``t`` from ``clock`` (``time.monotonic``, the live cameras' frame clock).

    A typical receiver is open-collector, pulled up, and pulls low while the beam is
    broken: hence ``pull_up=True`` and "active" meaning broken. A break less than
    ``bounce_time`` after the beam came back is the same card's edge flickering, not a card.
    """

    def __init__(
        self,
        pin: int | str,
        *,
        on_card_left: Callable[[float], None],
        pull_up: bool = True,
        bounce_time: float = 0.03,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        from gpiozero import DigitalInputDevice

        if bounce_time < 0:
            raise InvalidSettingError(
                f"buttons.bounce_time: {bounce_time} must not be negative (break-beam)"
            )
        number = check_pins({"buttons.break_beam": pin})["buttons.break_beam"]
        self.on_card_left = on_card_left
        self._debounce = _Debounce(bounce_time, clock)
        self.cards = 0
        self.sensor = claim_device(
            "buttons.break_beam",
            functools.partial(
                DigitalInputDevice, number, pull_up=pull_up, pin_factory=pin_factory
            ),
        )
        self.sensor.when_activated = self._broken
        self.sensor.when_deactivated = functools.partial(self._debounce.edge, self)

    @property
    def is_broken(self) -> bool:
        """Something is in the beam now."""
        return bool(self.sensor.is_active)

    def _broken(self) -> None:
        allowed, now = self._debounce.edge(self)
        if allowed:
            self.cards += 1
            self.on_card_left(now)

    def close(self) -> None:
        self.sensor.close()
