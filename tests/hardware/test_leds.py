"""LED keepers: the exact bits clocked into the 74HC595 chain, the 13-LED board, WS2812."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from types import ModuleType

import pytest
from gpiozero.pins.mock import MockFactory, MockSPIDevice
from pytest_mock import MockerFixture

from casekeeper import Case
from hardware import open_keeper
from hardware.errors import HardwareError, InvalidPinError, InvalidSettingError, PinInUseError
from hardware.leds import RankLeds, ShiftRegisterLeds, case_bits, led_bit
from hardware.ws2812 import Ws2812Strip
from shoe.cards import Rank

BOARD_PINS = [4, 5, 6, 12, 13, 16, 17, 18, 19, 20, 21, 22, 23]


class ShiftRegisterChain(MockSPIDevice):
    """The chain's far side: records the bits clocked in before each latch (select rising)."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(11, 10, None, 8, **kwargs)
        self.rx_buf: list[bool] = []
        self.latched: list[list[int]] = []

    def on_select(self) -> None:
        super().on_select()
        if self.select_pin.state != self.select_high and self.rx_buf:
            self.latched.append([int(bit) for bit in self.rx_buf])
            self.rx_buf = []

    def outputs(self, index: int = -1) -> list[int]:
        """Output b of the chain (register b // 8, Q(b % 8)) after latch ``index``: the
        first bit clocked is the one pushed furthest along."""
        return list(reversed(self.latched[index]))


@pytest.fixture
def chain(mock_factory: MockFactory) -> ShiftRegisterChain:
    return ShiftRegisterChain()


def lit(outputs: list[int]) -> set[int]:
    return {b for b, v in enumerate(outputs) if v}


def test_empty_case_clocks_in_56_dark_bits(chain: ShiftRegisterChain) -> None:
    leds = ShiftRegisterLeds()
    leds.show(Case.empty())
    assert chain.latched == [[0] * 56]
    leds.close()


def test_each_card_gone_lights_its_ranks_next_led_in_documented_order(
    chain: ShiftRegisterChain, case_of: Callable[[str], Case]
) -> None:
    leds = ShiftRegisterLeds()
    leds.show(case_of("AD KH 2S KC 3D"))  # soda A; K loses, 2 wins; K loses, 3 wins
    # A: bit 0 (register 0 QA); 2: bit 4 (register 0 QE); 3: bit 8 (register 1 QA);
    # K: bits 48, 49 (register 6 QA, QB)
    assert lit(chain.outputs()) == {0, 4, 8, 48, 49}
    assert chain.latched[-1][0] == 0 and chain.latched[-1][-1] == 1  # ace clocked last
    leds.close()


def test_chain_bits_follow_every_rank_of_a_whole_deal(
    chain: ShiftRegisterChain, case_of: Callable[[str], Case]
) -> None:
    codes = "5D 9C 2H 7S 7H 10D JD 3C QS KC AS 4H 6D 8C 9H"
    leds = ShiftRegisterLeds()
    case = case_of(codes)
    leds.show(case)
    expected = {led_bit(r, k) for r in Rank for k in range(case.gone(r))}
    assert lit(chain.outputs()) == expected
    assert len(chain.latched[-1]) == 56
    leds.close()


def test_two_colour_chain_clocks_104_bits_green_winner_red_loser_both_for_soda(
    chain: ShiftRegisterChain, case_of: Callable[[str], Case]
) -> None:
    leds = ShiftRegisterLeds(two_colour=True)
    leds.show(case_of("AD KH 2S"))  # soda A, K loses, 2 wins
    expected = {
        led_bit(Rank.ACE, 0, red=False), led_bit(Rank.ACE, 0, red=True),
        led_bit(Rank.KING, 0, red=True),
        led_bit(Rank.TWO, 0, red=False),
    }
    assert expected == {0, 1, 97, 8}
    assert len(chain.latched[-1]) == 104
    assert lit(chain.outputs()) == expected
    leds.close()


def test_split_rank_blinks_and_the_rest_stay_lit(
    chain: ShiftRegisterChain, case_of: Callable[[str], Case]
) -> None:
    leds = ShiftRegisterLeds(blink_interval=0.03)
    case = case_of("5D KH KS")  # soda 5, K split
    assert case.blinking == {Rank.KING}
    leds.show(case)
    deadline = time.monotonic() + 5
    while len({tuple(f) for f in chain.latched}) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    frames = {frozenset(lit(list(reversed(f)))) for f in chain.latched}
    assert frames == {frozenset({16, 48, 49}), frozenset({16})}
    # the next show (no split) stops the blink with the kings lit
    leds.show(case_of("5D KH KS 3C 4D"))
    time.sleep(0.15)
    assert {48, 49} <= lit(chain.outputs())
    leds.close()


def test_whole_state_after_a_withdrawn_card_is_what_a_fresh_keeper_shows(
    chain: ShiftRegisterChain, case_of: Callable[[str], Case]
) -> None:
    leds = ShiftRegisterLeds()
    leds.show(case_of("5D KH KS 3C 4D"))
    leds.show(case_of("5D KH KS"))
    assert case_bits(case_of("5D KH KS")) == int("".join(map(str, chain.latched[-1])), 2)
    leds.close()


def test_latch_on_a_pin_given_twice_is_refused(mock_factory: MockFactory) -> None:
    with pytest.raises(PinInUseError, match=r"keeper\.clock and by keeper\.latch"):
        ShiftRegisterLeds(clock_pin=11, data_pin=10, latch_pin=11)


def test_rank_board_lights_live_ranks_and_darkens_dead_ones(
    mock_factory: MockFactory, case_of: Callable[[str], Case]
) -> None:
    leds = RankLeds(BOARD_PINS)
    leds.show(case_of("5D KH KS 3C KD 4C KC"))  # all four kings gone
    states = {r: mock_factory.pin(p).state for r, p in zip(Rank, BOARD_PINS, strict=True)}
    assert not states[Rank.KING]
    assert all(states[r] for r in Rank if r is not Rank.KING)
    leds.close()


def test_rank_board_blinks_the_split_rank(
    mock_factory: MockFactory, case_of: Callable[[str], Case]
) -> None:
    leds = RankLeds(BOARD_PINS, blink_interval=0.02)
    leds.show(case_of("5D KH KS"))
    time.sleep(0.2)
    king = mock_factory.pin(BOARD_PINS[Rank.KING - 1])
    assert sum(1 for s in king.states if s.state) >= 3  # switched on again and again
    queen = mock_factory.pin(BOARD_PINS[Rank.QUEEN - 1])
    assert [s.state for s in queen.states][-1]
    leds.close()


def test_rank_board_refuses_a_bad_pin_and_a_short_list(mock_factory: MockFactory) -> None:
    with pytest.raises(InvalidPinError, match=r"keeper\.pins\[2\]"):
        RankLeds([4, 5, "GPIO40", *BOARD_PINS[3:]])
    with pytest.raises(InvalidSettingError, match="needs 13"):
        RankLeds(BOARD_PINS[:12])


class FakeNeoPixelSpi(list[tuple[int, int, int]]):
    """``neopixel_spi.NeoPixel_SPI`` at the library boundary: pixels, and each frame shown."""

    def __init__(self, spi: object, n: int, **options: object) -> None:
        super().__init__([(0, 0, 0)] * n)
        self.spi, self.options = spi, options
        self.shown: list[list[tuple[int, int, int]]] = []

    def show(self) -> None:
        self.shown.append(list(self))


def fake_neopixel_spi(mocker: MockerFixture) -> None:
    module = ModuleType("neopixel_spi")
    module.NeoPixel_SPI = FakeNeoPixelSpi  # type: ignore[attr-defined]
    mocker.patch.dict(sys.modules, {"neopixel_spi": module})


def test_ws2812_strip_shows_each_card_gone_in_its_role_colour(
    mocker: MockerFixture, case_of: Callable[[str], Case]
) -> None:
    fake_neopixel_spi(mocker)
    bus = object()
    strip = Ws2812Strip(spi=bus, brightness=1.0)
    assert isinstance(strip.strip, FakeNeoPixelSpi)
    assert strip.strip.spi is bus and strip.strip.options["auto_write"] is False
    strip.show(case_of("AD KH 2S"))  # soda A, K loses, 2 wins
    frame = strip.strip.shown[-1]
    assert len(frame) == 52
    lit = {i: c for i, c in enumerate(frame) if c != (0, 0, 0)}
    assert lit == {0: (255, 153, 0), 4: (0, 255, 0), 48: (255, 0, 0)}
    strip.close()
    assert strip.strip.shown[-1] == [(0, 0, 0)] * 52


def test_ws2812_strip_blinks_a_split(
    mocker: MockerFixture, case_of: Callable[[str], Case]
) -> None:
    fake_neopixel_spi(mocker)
    strip = Ws2812Strip(spi=object(), blink_interval=0.02)
    strip.show(case_of("5D KH KS"))
    time.sleep(0.15)
    kings = {tuple(frame[48:50]) for frame in strip.strip.shown}
    assert len(kings) == 2 and ((0, 0, 0), (0, 0, 0)) in kings
    strip.close()


def test_ws2812_without_its_library_is_a_clear_error(mocker: MockerFixture) -> None:
    mocker.patch.dict(sys.modules, {"neopixel_spi": None})
    with pytest.raises(HardwareError, match="adafruit-circuitpython-neopixel-spi"):
        Ws2812Strip(spi=object())


def test_open_keeper_builds_the_two_colour_chain_from_the_config_section(
    chain: ShiftRegisterChain, case_of: Callable[[str], Case]
) -> None:
    from shoe.config import KeeperConfig

    leds = open_keeper(KeeperConfig(driver="shift-register", two_colour=True))
    assert isinstance(leds, ShiftRegisterLeds)
    leds.show(case_of("AD KH 2S"))
    assert len(chain.latched[-1]) == 104
    leds.close()
