"""Typed reads from one TOML table: each bad value is one ConfigError line naming its key,
the value and what was expected, and a key the table does not know is an error too."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from shoe.cards import FaroError

__all__ = ["ConfigError", "Pin", "Table", "is_pin", "resolve"]

# Raspberry Pi header names as gpiozero spells them (BCM, BOARD and J8 numbering).
_PIN_NAME = re.compile(r"^(GPIO|BCM)([0-9]|1[0-9]|2[0-7])$|^(BOARD|J8:)([1-9]|[1-3][0-9]|40)$")


class ConfigError(FaroError, ValueError):
    """A config file that cannot be read, or a key with a value it cannot take."""


Pin = int | str


def resolve(value: str, base: Path | None) -> Path:
    path = Path(value).expanduser()
    return path if path.is_absolute() or base is None else base / path


class Table:
    """One TOML table with typed, range-checked getters; unknown keys are an error."""

    def __init__(self, data: Any, prefix: str) -> None:
        self.data: dict[str, Any] = data
        self.prefix = prefix
        self.seen: set[str] = set()

    def key(self, name: str) -> str:
        return f"{self.prefix}{name}"

    def fail(self, name: str, expected: str, value: Any) -> ConfigError:
        return ConfigError(f"{self.key(name)}: expected {expected}, got {value!r}")

    def get(self, name: str, default: Any) -> Any:
        self.seen.add(name)
        return self.data.get(name, default)

    def table(self, name: str) -> Table:
        value = self.get(name, {})
        if not isinstance(value, dict):
            raise self.fail(name, f"a table [{self.key(name)}]", value)
        return Table(value, f"{self.key(name)}.")

    def string(self, name: str, default: str) -> str:
        value = self.get(name, default)
        if not isinstance(value, str):
            raise self.fail(name, "a string", value)
        return value

    def path(self, name: str, default: str, base: Path | None) -> Path:
        value = self.string(name, default)
        if not value:
            raise self.fail(name, "a path", value)
        return resolve(value, base)

    def choice(self, name: str, default: str, choices: tuple[str, ...]) -> str:
        value = self.get(name, default)
        if value not in choices:
            raise self.fail(name, "one of " + ", ".join(repr(c) for c in choices), value)
        return str(value)

    def choice_int(self, name: str, default: int, choices: tuple[int, ...]) -> int:
        value = self.get(name, default)
        if type(value) is not int or value not in choices:
            raise self.fail(name, "one of " + ", ".join(map(str, choices)), value)
        return value

    def flag(self, name: str, default: bool) -> bool:
        value = self.get(name, default)
        if not isinstance(value, bool):
            raise self.fail(name, "true or false", value)
        return value

    def integer(self, name: str, default: int, low: int, high: int) -> int:
        value = self.get(name, default)
        if type(value) is not int or not low <= value <= high:
            raise self.fail(name, f"a whole number from {low} to {high}", value)
        return value

    def number(self, name: str, default: float, low: float, high: float) -> float:
        value = self.get(name, default)
        if type(value) not in (int, float) or not low <= value <= high:
            raise self.fail(name, f"a number from {low:g} to {high:g}", value)
        return float(value)

    def float_list(self, name: str, default: list[float], low: float, high: float,
                   length: int) -> list[float]:
        value = self.get(name, default)
        ok = isinstance(value, list) and len(value) == length and all(
            type(v) in (int, float) and low <= v <= high for v in value)
        if not ok:
            raise self.fail(name, f"a list of {length} numbers from {low:g} to {high:g}", value)
        return [float(v) for v in value]

    def int_list(self, name: str, low: int, high: int, length: int) -> list[int]:
        value = self.get(name, [])
        ok = isinstance(value, list) and len(value) in (0, length) and all(
            type(v) is int and low <= v <= high for v in value)
        if not ok or len(set(value)) != len(value):
            raise self.fail(name, f"{length} different whole numbers from {low} to {high}", value)
        return list(value)

    def pin(self, name: str, default: Pin | None) -> Any:
        value = self.get(name, default)
        if value is None or is_pin(value):
            return value
        raise self.fail(name, "a GPIO pin: a BCM number 0–27 or a name like 'GPIO17' or 'BOARD11'",
                        value)

    def pins(self, name: str, length: int | None) -> list[Pin]:
        value = self.get(name, [])
        if not isinstance(value, list) or (value and length is not None and len(value) != length):
            raise self.fail(name, f"a list of {length or 'the'} GPIO pins (ace to king)", value)
        for i, pin in enumerate(value):
            if not is_pin(pin):
                raise ConfigError(f"{self.key(name)}[{i}]: expected a GPIO pin: a BCM number "
                                  f"0–27 or a name like 'GPIO17', got {pin!r}")
        return value

    def done(self) -> None:
        unknown = sorted(set(self.data) - self.seen)
        if unknown:
            name = unknown[0]
            known = ", ".join(sorted(self.seen)) or "none"
            raise ConfigError(f"{self.key(name)}: unknown key (set to {self.data[name]!r}); "
                              f"expected one of: {known}")


def is_pin(value: Any) -> bool:
    if type(value) is int:
        return 0 <= value <= 27
    return isinstance(value, str) and bool(_PIN_NAME.match(value.upper()))
