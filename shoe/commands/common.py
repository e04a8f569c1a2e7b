"""Options and helpers that several commands share."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from shoe.cards import FaroError
from shoe.settings import Settings, Variant

__all__ = ["InputFileError", "add_variant_option", "read_text_input", "settings_from_args"]


class InputFileError(FaroError, ValueError):
    """An input file that cannot be read."""


def add_variant_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant", choices=[v.value for v in Variant], default=Variant.FARO.value,
        help="faro (soda, 24 turns, the called last turn, the hock) or stuss (no soda; "
             "26 turns, 24 with --pocket); default: faro",
    )
    parser.add_argument(
        "--play-through", action="store_true",
        help="faro: deal the last turn as an ordinary 25th turn instead of calling it",
    )
    parser.add_argument(
        "--pocket", action="store_true",
        help="stuss: the box's pocket hides the last four cards (24 turns)",
    )


def settings_from_args(args: argparse.Namespace) -> Settings:
    return Settings(
        variant=Variant(args.variant),
        call_the_turn=not args.play_through,
        stuss_pocket=args.pocket,
    )


def read_text_input(name: str) -> str:
    """The text of a file, or of standard input for ``-``."""
    if name == "-":
        return sys.stdin.read()
    try:
        return Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputFileError(f"cannot read {name}: {exc}") from None
