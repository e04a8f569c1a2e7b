"""Fixtures for the hardware tests: gpiozero's own mock pins, restored after each test."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from casekeeper import Case
from shoe.cards import Card
from shoe.deal import Deal


@pytest.fixture
def mock_factory(monkeypatch: pytest.MonkeyPatch) -> Iterator[MockFactory]:
    """A fresh MockFactory as gpiozero's default, the previous one restored afterwards."""
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    previous = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = previous


@pytest.fixture
def pwm_factory(mock_factory: MockFactory) -> MockFactory:
    """The mock factory handing out PWM-capable pins (for servos)."""
    mock_factory.pin_class = MockPWMPin
    return mock_factory


def _case_of(codes: str) -> Case:
    deal = Deal.from_cards(Card.parse(code) for code in codes.split())
    return Case.from_events(deal.events)


@pytest.fixture
def case_of() -> Callable[[str], Case]:
    """``case_of("5D KH KS")``: the case after dealing those cards from the top."""
    return _case_of
