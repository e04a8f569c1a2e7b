"""``faro-shoe shuffle``: a shuffled deck as card codes, reproducible from its seed."""

from __future__ import annotations

import argparse
import secrets

from shoe.cardfile import format_cards
from shoe.cards import shuffled_deck


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "shuffle", help="print a shuffled deck as card codes",
        description="Print a shuffled 52-card deck, one code a line, in the format 'replay' "
                    "reads. The first line names the seed, so the same deck can be made again.",
        epilog="example:\n  faro-shoe shuffle --seed 7 | faro-shoe replay -",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--seed", type=int, default=None,
                        help="the shuffle's seed (default: a random one, printed)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
    print(format_cards(shuffled_deck(seed), f"faro-shoe shuffle --seed {seed}"), end="")
    return 0
