"""The servo-bead keeper on gpiozero's MockPWMPin: pulses, calibration, staggering, errors."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable
from types import ModuleType
from unittest.mock import MagicMock

import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory
from pytest_mock import MockerFixture

from casekeeper import Case
from hardware import open_keeper
from hardware.errors import (
    CalibrationError,
    HardwareError,
    InvalidPinError,
    InvalidSettingError,
    PinInUseError,
    UnknownDriverError,
)
from hardware.pca9685 import pca9685_bead, pca9685_grid
from hardware.servos import PulseGrid, ServoBead, ServoCalibration, Stagger
from shoe.cards import Rank

PINS = [4, 5, 6, 12, 13, 16, 17, 18, 19, 20, 21, 22, 23]  # ace … king
LGPIO = PulseGrid(frame=0.020, steps=100, truncates=True)


class FakeTime:
    """A clock that only moves when slept on, recording each sleep."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def lgpio_percent(state: float) -> int:
    """The duty lgpio would produce for a pin state: gpiozero hands it int(state * 100)."""
    return int(state * 100)


def test_default_calibration_maps_five_positions_onto_distinct_whole_percents() -> None:
    pulses = ServoCalibration().pulses(LGPIO)
    # 1000, 1250, 1500, 1750, 2000 µs are 5, 6.25, 7.5, 8.75, 10 % of 20 ms: nearest whole
    # percents 5, 6, 8 (a tie goes up), 9, 10.
    assert [round(p * 1e6) for p in pulses] == [1000, 1200, 1600, 1800, 2000]


def test_every_whole_percent_survives_the_pin_factorys_truncation() -> None:
    for step in range(1, 100):
        value = LGPIO.value_for(step * 0.0002)
        assert lgpio_percent(value / LGPIO.frame) == step


def test_end_positions_round_toward_the_middle_on_a_tie() -> None:
    pulses = ServoCalibration(500, 2500).pulses(LGPIO)
    assert round(pulses[-1] * 1e6) == 2400  # 2500 µs is 12.5 %: 12, not 13 past the stop
    assert round(pulses[0] * 1e6) == 600


def test_trim_moves_one_position_to_another_producible_pulse() -> None:
    trimmed = ServoCalibration(trim_us=(0, 0, -150, 0, 0)).pulses(LGPIO)
    assert round(trimmed[2] * 1e6) == 1400  # 1350 µs → 6.75 % → 7 %


def test_calibration_whose_positions_collapse_is_refused_naming_the_servo(
    pwm_factory: MockFactory,
) -> None:
    calibrations = [ServoCalibration()] * 13
    calibrations[6] = ServoCalibration(1200, 1800)  # 6, 6.75, 7.5, 8.25, 9 % → 6 7 8 8 9
    setting = r"keeper\.pulse_us/trim_us\[6\] \(rank 7\).*positions 2 and 3"
    with pytest.raises(CalibrationError, match=setting):
        ServoBead.on_gpio(PINS, calibrations, pwm_steps=100, background=False)


def test_wrong_number_of_trims_is_refused() -> None:
    with pytest.raises(CalibrationError, match="trim_us"):
        ServoCalibration(trim_us=(0, 0)).pulses(LGPIO, "keeper.trim_us[0]")


def test_show_sets_each_servo_to_its_ranks_cards_gone(
    pwm_factory: MockFactory, case_of: Callable[[str], Case]
) -> None:
    bead = ServoBead.on_gpio(PINS, pwm_steps=100, background=False, interval=0)
    case = case_of("5D KH KS 7C 7D 2H 9S")  # soda 5; K split; 7 split; 2 loses, 9 wins
    bead.show(case)
    expected = ServoCalibration().pulses(LGPIO)
    for rank, pin in zip(Rank, PINS, strict=True):
        state = pwm_factory.pin(pin).state
        assert pwm_factory.pin(pin).frequency == 50
        assert lgpio_percent(state) * 200e-6 == pytest.approx(expected[case.gone(rank)])
    bead.close()


def test_servo_pin_goes_through_the_positions_as_cards_go(
    pwm_factory: MockFactory, case_of: Callable[[str], Case]
) -> None:
    bead = ServoBead.on_gpio(PINS, pwm_steps=100, background=False, interval=0)
    king = pwm_factory.pin(PINS[Rank.KING - 1])
    deals = ["5D", "5D KH 3S", "5D KH 3S 2C KS", "5D KH 3S 2C KS 4C KD 6H KC"]
    for codes in deals:
        bead.show(case_of(codes))
    percents = [lgpio_percent(s.state) for s in king.states if s.state]
    assert percents == [5, 6, 8, 10]  # 0, 1, 2, then 4 kings gone
    bead.close()


def test_a_restarted_keeper_shows_the_same_as_one_that_followed_the_deal(
    pwm_factory: MockFactory, case_of: Callable[[str], Case]
) -> None:
    codes = "5D KH KS 7C 7D 2H 9S AC AD"
    followed = ServoBead.on_gpio(PINS, pwm_steps=100, background=False, interval=0)
    for n in range(1, len(codes.split()) + 1):
        followed.show(case_of(" ".join(codes.split()[:n])))
    states = [pwm_factory.pin(p).state for p in PINS]
    followed.close()
    restarted = ServoBead.on_gpio(PINS, pwm_steps=100, background=False, interval=0)
    restarted.show(case_of(codes))
    assert [pwm_factory.pin(p).state for p in PINS] == states
    restarted.close()


def test_moves_are_staggered_at_most_per_step_servos_per_interval(
    case_of: Callable[[str], Case],
) -> None:
    time = FakeTime()
    moves: list[tuple[float, int, int]] = []
    stagger = Stagger(
        lambda i, pos: moves.append((time.now, i, pos)), 13, per_step=3, interval=0.2,
        sleep=time.sleep, clock=time.clock, background=False,
    )
    stagger.request([0] * 13)
    starts = sorted({t for t, _, _ in moves})
    assert len(moves) == 13
    assert len(starts) == 5  # ceil(13 / 3)
    assert all(sum(1 for t, _, _ in moves if t == s) <= 3 for s in starts)
    assert all(b - a >= 0.2 - 1e-9 for a, b in itertools.pairwise(starts))
    moves.clear()
    stagger.request([0] * 12 + [2])  # only the changed servo moves
    assert [(i, pos) for _, i, pos in moves] == [(12, 2)]


def test_background_keeper_settles_without_blocking_show(
    pwm_factory: MockFactory, case_of: Callable[[str], Case]
) -> None:
    bead = ServoBead.on_gpio(PINS, pwm_steps=100, per_step=4, interval=0.01)
    bead.show(case_of("5D KH KS"))
    assert bead.wait(timeout=5)
    assert bead.settled
    assert lgpio_percent(pwm_factory.pin(PINS[Rank.KING - 1]).state) == 8
    bead.close()


def test_invalid_pin_is_refused_naming_the_setting(pwm_factory: MockFactory) -> None:
    pins: list[int | str] = list(PINS)
    pins[3] = 99
    with pytest.raises(InvalidPinError, match=r"keeper\.pins\[3\]"):
        ServoBead.on_gpio(pins)


def test_pin_given_twice_is_refused_naming_both_settings(pwm_factory: MockFactory) -> None:
    pins = list(PINS)
    pins[5] = pins[0]
    with pytest.raises(PinInUseError, match=r"keeper\.pins\[0\] and by keeper\.pins\[5\]"):
        ServoBead.on_gpio(pins)


def test_pin_held_by_another_device_is_refused_and_nothing_is_left_claimed(
    pwm_factory: MockFactory,
) -> None:
    button = Button(PINS[4], pin_factory=pwm_factory)
    with pytest.raises(PinInUseError, match=r"keeper\.pins\[4\]"):
        ServoBead.on_gpio(PINS)
    button.close()
    ServoBead.on_gpio(PINS, background=False).close()  # the first four were released


def fake_pca9685(mocker: MockerFixture) -> MagicMock:
    """Adafruit's driver replaced at the library boundary: one chip, 16 channels."""
    chip = MagicMock(name="PCA9685()")
    chip.channels = [MagicMock(name=f"channel {n}") for n in range(16)]
    chip.prescale_reg = 122  # what the driver writes for 50 Hz from 25 MHz
    module = ModuleType("adafruit_pca9685")
    driver = MagicMock(name="PCA9685", return_value=chip)
    module.PCA9685 = driver  # type: ignore[attr-defined]
    mocker.patch.dict(sys.modules, {"adafruit_pca9685": module})
    return driver


def test_pca9685_bead_writes_12_bit_ticks_for_each_position(
    mocker: MockerFixture, case_of: Callable[[str], Case]
) -> None:
    driver = fake_pca9685(mocker)
    bus = object()
    channels = [15 - n for n in range(13)]  # wired in reverse, to see the mapping
    bead = pca9685_bead(channels, i2c=bus, address=0x41, background=False, interval=0)
    driver.assert_called_once_with(bus, address=0x41, reference_clock_speed=25_000_000)
    chip = driver.return_value
    assert chip.frequency == 50.0
    grid = pca9685_grid(122)
    assert grid.frame == pytest.approx(0.0201523)  # 4096 · 123 / 25 MHz
    case = case_of("5D KH KS 7C 7D 2H 9S")
    bead.show(case)
    calibration = ServoCalibration().pulses(grid)
    for rank, channel in zip(Rank, channels, strict=True):
        duty = chip.channels[channel].duty_cycle
        ticks = (duty + 1) >> 4  # what the driver sends to the chip
        assert duty == ticks << 4
        assert ticks * grid.frame / 4096 == pytest.approx(calibration[case.gone(rank)], abs=2.5e-6)
    king = (chip.channels[channels[Rank.KING - 1]].duty_cycle + 1) >> 4
    assert king == round(1500e-6 / (123 / 25e6))  # two kings gone: 1.5 ms, 305 ticks
    bead.close()
    assert all(chip.channels[c].duty_cycle == 0 for c in channels)


def test_pca9685_channel_settings_are_checked(mocker: MockerFixture) -> None:
    fake_pca9685(mocker)
    with pytest.raises(InvalidSettingError, match=r"keeper\.channels\[2\]: 16"):
        pca9685_bead([0, 1, 16, *range(3, 13)], i2c=object())
    with pytest.raises(InvalidSettingError, match=r"by keeper\.channels\[0\] and by keeper"):
        pca9685_bead([0, *range(12)], i2c=object())
    with pytest.raises(InvalidSettingError, match="needs 13"):
        pca9685_bead(range(12), i2c=object())


def test_pca9685_missing_library_or_chip_is_a_clear_error(mocker: MockerFixture) -> None:
    mocker.patch.dict(sys.modules, {"adafruit_pca9685": None})
    with pytest.raises(HardwareError, match="adafruit-circuitpython-pca9685"):
        pca9685_bead(i2c=object())
    driver = fake_pca9685(mocker)
    driver.side_effect = ValueError("No I2C device at address: 0x40")
    with pytest.raises(HardwareError, match=r"keeper\.i2c_address: no PCA9685 answers at 0x40"):
        pca9685_bead(i2c=object())


def test_open_keeper_builds_the_servo_bead_from_the_config_section(
    pwm_factory: MockFactory, case_of: Callable[[str], Case]
) -> None:
    from shoe.config import KeeperConfig

    trims = [(0.0,) * 5] * 13
    trims[Rank.KING - 1] = (0.0, 0.0, -150.0, 0.0, 0.0)
    settings = KeeperConfig(driver="servo", pins=tuple(PINS), trim_us=tuple(trims),
                            per_step=13, interval=0.0)
    bead = open_keeper(settings, pin_factory=pwm_factory)
    assert isinstance(bead, ServoBead)
    bead.show(case_of("5D KH KS"))
    assert bead.wait(timeout=5)
    # the king's trimmed position 2 asks 1350 µs: 6.75 % of the frame on the mock pins
    assert pwm_factory.pin(PINS[Rank.KING - 1]).state == pytest.approx(0.0675)
    bead.close()


def test_open_keeper_refuses_an_unknown_driver_naming_the_setting() -> None:
    from shoe.config import KeeperConfig

    with pytest.raises(UnknownDriverError, match=r"keeper\.driver: 'abacus'"):
        open_keeper(KeeperConfig(driver="abacus"))
    assert open_keeper(KeeperConfig(driver="none")) is None
