"""The operator's buttons and the slot's break-beam, driven through gpiozero's mock pins."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.buttons import OperatorAction, OperatorPanel, SlotBeam
from hardware.errors import InvalidPinError, InvalidSettingError, PinInUseError

UNDO, CONFIRM, NEW_DECK, CLOSE_BOX, VOID, BEAM = 17, 27, 22, 23, 24, 25


def wait_until(condition: Callable[[], object], timeout: float = 2.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.005)


@pytest.fixture
def actions() -> list[OperatorAction]:
    return []


@pytest.fixture
def panel(mock_factory: MockFactory, actions: list[OperatorAction]) -> OperatorPanel:
    return OperatorPanel(
        undo=UNDO, confirm=CONFIRM, new_deck=NEW_DECK, close_box=CLOSE_BOX, void=VOID,
        on_action=actions.append, bounce_time=0.04, hold_time=0.15,
    )


def test_a_press_gives_one_action(
    panel: OperatorPanel, mock_factory: MockFactory, actions: list[OperatorAction]
) -> None:
    pin = mock_factory.pin(CONFIRM)
    pin.drive_low()
    pin.drive_high()
    assert actions == [OperatorAction.CONFIRM]
    panel.close()


def test_chattering_contacts_give_one_action_per_press(
    panel: OperatorPanel, mock_factory: MockFactory, actions: list[OperatorAction]
) -> None:
    pin = mock_factory.pin(UNDO)
    for _ in range(3):  # press with bounce
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    time.sleep(0.1)  # held steady
    for _ in range(3):  # release with bounce
        pin.drive_high()
        pin.drive_low()
    pin.drive_high()
    assert actions == [OperatorAction.UNDO]
    time.sleep(0.06)  # a second, clean press after the bounce window
    pin.drive_low()
    pin.drive_high()
    assert actions == [OperatorAction.UNDO, OperatorAction.UNDO]
    panel.close()


def test_new_deck_needs_a_hold_and_a_tap_does_nothing(
    panel: OperatorPanel, mock_factory: MockFactory, actions: list[OperatorAction]
) -> None:
    pin = mock_factory.pin(NEW_DECK)
    pin.drive_low()
    time.sleep(0.05)
    pin.drive_high()
    time.sleep(0.25)
    assert actions == []
    pin.drive_low()
    wait_until(lambda: actions)
    time.sleep(0.2)  # still held: no repeat
    pin.drive_high()
    assert actions == [OperatorAction.NEW_DECK]
    panel.close()


def test_void_needs_a_hold_too(
    panel: OperatorPanel, mock_factory: MockFactory, actions: list[OperatorAction]
) -> None:
    pin = mock_factory.pin(VOID)
    pin.drive_low()
    wait_until(lambda: actions)
    pin.drive_high()
    assert actions == [OperatorAction.VOID]
    panel.close()


def test_unwired_buttons_are_left_out(
    mock_factory: MockFactory, actions: list[OperatorAction]
) -> None:
    panel = OperatorPanel(undo=UNDO, on_action=actions.append)
    assert set(panel.buttons) == {OperatorAction.UNDO}
    panel.close()


def test_one_pin_for_two_buttons_is_refused_naming_both(mock_factory: MockFactory) -> None:
    with pytest.raises(PinInUseError, match=r"buttons\.undo and by buttons\.confirm"):
        OperatorPanel(undo=5, confirm=5, on_action=print)


def test_a_pin_off_the_header_is_refused_naming_the_button(mock_factory: MockFactory) -> None:
    with pytest.raises(InvalidPinError, match=r"buttons\.close_box"):
        OperatorPanel(close_box=41, on_action=print)


def test_hold_shorter_than_debounce_is_refused(mock_factory: MockFactory) -> None:
    with pytest.raises(InvalidSettingError, match=r"buttons\.hold_time"):
        OperatorPanel(undo=UNDO, on_action=print, bounce_time=0.2, hold_time=0.1)


def test_beam_reports_each_card_leaving_with_its_time_and_ignores_flicker(
    mock_factory: MockFactory,
) -> None:
    times: list[float] = []
    beam = SlotBeam(BEAM, on_card_left=times.append, bounce_time=0.03)
    pin = mock_factory.pin(BEAM)
    before = time.monotonic()
    pin.drive_low()  # first card breaks the beam
    assert beam.is_broken
    time.sleep(0.05)
    pin.drive_high()
    pin.drive_low()  # its trailing edge flickers
    pin.drive_high()
    time.sleep(0.08)
    pin.drive_low()  # second card
    pin.drive_high()
    assert len(times) == 2 and beam.cards == 2
    assert before <= times[0] < times[1] <= time.monotonic()
    assert times[1] - times[0] >= 0.1
    beam.close()


def test_beam_on_a_buttons_pin_is_refused_naming_the_beam(mock_factory: MockFactory) -> None:
    panel = OperatorPanel(undo=UNDO, on_action=print)
    with pytest.raises(PinInUseError, match=r"buttons\.break_beam"):
        SlotBeam(UNDO, on_card_left=print)
    panel.close()
