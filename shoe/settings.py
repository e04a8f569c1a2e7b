"""The deal's settings: the variant and every point where the sources disagree.

Defaults are the ones named in FARO_RULES.md ("Where sources disagree").
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any

from shoe.cards import FaroError

__all__ = ["InvalidSettingError", "MixedOutcome", "OddUnit", "Settings", "SplitRule", "Variant"]


class InvalidSettingError(FaroError, ValueError):
    """A setting with a value it cannot take."""


class Variant(enum.Enum):
    FARO = "faro"
    STUSS = "stuss"


class OddUnit(enum.Enum):
    """Who gets the odd unit when a split halves an odd stake."""

    DEALER = "dealer"  # Howard
    PLAYER = "player"


class MixedOutcome(enum.Enum):
    """A multi-card bet whose covered ranks win and lose in the same turn."""

    PUSH = "push"  # Denexa
    BANK = "bank"


class SplitRule(enum.Enum):
    """The high-card bar on a split."""

    BANK_HALF = "bank_half"  # Riverboat
    PUSH = "push"


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything a deal needs to know that the sources do not agree on.

    ``call_pays`` and ``cat_hop_pays`` are odds as ``(pays, per)``: ``(4, 1)`` is 4 to 1.
    """

    variant: Variant = Variant.FARO
    call_the_turn: bool = True  # False: "play through the turn", 25 ordinary turns
    call_pays: tuple[int, int] = (4, 1)  # Hoyle's "four for one" read literally is (3, 1)
    cat_hop_pays: tuple[int, int] = (2, 1)  # some modern games pay (1, 1)
    odd_unit_on_split: OddUnit = OddUnit.DEALER
    mixed_multi_card: MixedOutcome = MixedOutcome.PUSH
    high_card_on_split: SplitRule = SplitRule.BANK_HALF
    stuss_pocket: bool = False  # stuss with the four-card pocket: 24 turns

    def __post_init__(self) -> None:
        for name in ("call_pays", "cat_hop_pays"):
            pays, per = getattr(self, name)
            if pays <= 0 or per <= 0:
                raise InvalidSettingError(
                    f"{name}: expected positive odds like (4, 1), got {(pays, per)}"
                )

    @property
    def split_share(self) -> Fraction:
        """The share of a bet on a split rank that the bank takes: half in faro, all in stuss."""
        return Fraction(1) if self.variant is Variant.STUSS else Fraction(1, 2)

    @property
    def turns(self) -> int:
        """Loser/winner pairs in one deal, the last (called) turn included."""
        if self.variant is Variant.FARO:
            return 25
        return 24 if self.stuss_pocket else 26

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, enum.Enum):
                value = value.value
            elif isinstance(value, tuple):
                value = f"{value[0]}:{value[1]}"
            out[f.name] = value
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        """Build settings from plain values (as in a TOML table or the journal).

        Odds are written ``"4:1"``; enums by their value. Unknown keys are an error.
        """
        known = {f.name: f for f in fields(cls)}
        kwargs: dict[str, Any] = {}
        defaults = cls()
        for key, value in data.items():
            if key not in known:
                raise InvalidSettingError(f"unknown setting {key!r}; known: {', '.join(known)}")
            default = getattr(defaults, key)
            kwargs[key] = _convert(key, value, default)
        return cls(**kwargs)


def _convert(key: str, value: Any, default: Any) -> Any:
    if isinstance(default, enum.Enum):
        try:
            return type(default)(value)
        except ValueError:
            choices = ", ".join(repr(m.value) for m in type(default))
            raise InvalidSettingError(f"{key}: expected one of {choices}, got {value!r}") from None
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise InvalidSettingError(f"{key}: expected true or false, got {value!r}")
        return value
    if isinstance(default, tuple):
        try:
            pays, per = (int(part) for part in str(value).split(":"))
        except ValueError:
            raise InvalidSettingError(f"{key}: expected odds like \"4:1\", got {value!r}") from None
        return (pays, per)
    raise InvalidSettingError(f"{key}: cannot set {value!r}")  # pragma: no cover
