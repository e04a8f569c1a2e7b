from __future__ import annotations

from fractions import Fraction

import pytest

from shoe.settings import (
    InvalidSettingError,
    MixedOutcome,
    OddUnit,
    Settings,
    SplitRule,
    Variant,
)


def test_defaults_are_the_ones_the_rules_name() -> None:
    settings = Settings()
    assert settings.variant is Variant.FARO
    assert settings.call_the_turn
    assert settings.call_pays == (4, 1)
    assert settings.cat_hop_pays == (2, 1)
    assert settings.odd_unit_on_split is OddUnit.DEALER
    assert settings.mixed_multi_card is MixedOutcome.PUSH
    assert settings.high_card_on_split is SplitRule.BANK_HALF
    assert settings.turns == 25


def test_bank_takes_half_a_split_in_faro_and_all_of_it_in_stuss() -> None:
    assert Settings().split_share == Fraction(1, 2)
    assert Settings(variant=Variant.STUSS).split_share == 1


def test_stuss_deals_26_turns_or_24_with_the_pocket() -> None:
    assert Settings(variant=Variant.STUSS).turns == 26
    assert Settings(variant=Variant.STUSS, stuss_pocket=True).turns == 24


def test_json_round_trip() -> None:
    settings = Settings(variant=Variant.STUSS, call_pays=(3, 1), odd_unit_on_split=OddUnit.PLAYER,
                        stuss_pocket=True, high_card_on_split=SplitRule.PUSH)
    assert Settings.from_json(settings.to_json()) == settings
    assert settings.to_json()["call_pays"] == "3:1"


@pytest.mark.parametrize(
    ("data", "message"),
    [({"variant": "poker"}, "variant: expected one of 'faro', 'stuss', got 'poker'"),
     ({"call_pays": "four"}, "call_pays: expected odds like"),
     ({"call_pays": "0:1"}, "positive odds"),
     ({"call_the_turn": "yes"}, "call_the_turn: expected true or false"),
     ({"spilt_share": 1}, "unknown setting 'spilt_share'")],
)
def test_bad_values_name_the_key_and_what_was_expected(data: dict, message: str) -> None:
    with pytest.raises(InvalidSettingError, match=message.replace("(", r"\(")):
        Settings.from_json(data)
