"""The ``faro-shoe`` command: one subcommand a module in :mod:`shoe.commands`.

Each command module has ``register(subparsers)``, which adds its parser and sets
``func`` to a function taking the parsed arguments and returning the exit status.
Modules import their heavy libraries (OpenCV, gpiozero, pyserial) inside that function,
so ``faro-shoe --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

# One BLAS thread: the reader's small matrix products are slower spread over a thread pool,
# and on a Pi the camera loop needs the other cores. Set before numpy is first imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from shoe.cards import FaroError

#: Exit statuses shared by every command.
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_FLAGGED = 3

#: Command modules in shoe/commands, in the order --help lists them.
COMMAND_MODULES = (
    "demo",
    "run",
    "replay",
    "shuffle",
    "stats",
    "classify",
    "learn",
    "read",
    "display_test",
    "hw_test",
    "history",
    "operator",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="faro-shoe",
        description=(
            "Firmware for a faro dealing box: reads each card the box exposes, runs the deal "
            "by faro's rules, keeps the case and announces every turn."
        ),
        epilog="Run 'faro-shoe COMMAND --help' for the options of one command.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"shoe.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"shoe.commands.{name}":
                raise
            continue  # not built yet
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
    except FaroError as exc:
        print(f"faro-shoe {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
