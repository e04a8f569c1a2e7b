"""``faro-shoe stats``: deal many random decks and compare the counts with the exact odds."""

from __future__ import annotations

import argparse
import json
import secrets
from collections import Counter
from fractions import Fraction
from math import comb

from casekeeper.case import Case
from shoe.cards import shuffled_deck
from shoe.commands.common import add_variant_option, settings_from_args
from shoe.deal import Deal
from shoe.events import CallKind
from shoe.progress import Progress
from shoe.settings import Settings, Variant

#: The chance that a turn is a split: its second card matches the first's rank.
SPLIT_CHANCE = Fraction(3, 51)


def exact_odds(settings: Settings) -> dict[str, Fraction]:
    """What the rules give exactly: splits per deal, and how the last three cards fall."""
    three = comb(52, 3)
    exact = {"splits_per_deal": settings.turns * SPLIT_CHANCE}
    if settings.variant is Variant.FARO and settings.call_the_turn:
        exact["cat_hop"] = Fraction(13 * comb(4, 2) * 48, three)
        exact["three_of_a_kind"] = Fraction(13 * comb(4, 3), three)
        exact["plain"] = 1 - exact["cat_hop"] - exact["three_of_a_kind"]
    return exact


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "stats", help="deal many random decks; count splits and call-the-turn endings",
        description="Deal N random decks through the rules and the case, and report how "
                    "often splits, cat-hops and three-of-a-kind endings came, beside the "
                    "exact values the rules give. The sources say about three splits in two "
                    "deals.",
        epilog="example:\n  faro-shoe stats --deals 100000 --seed 1",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--deals", type=positive_int, required=True, metavar="N",
                        help="decks to deal")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the first deck (deck i uses seed+i); default random")
    add_variant_option(parser)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(func=run)


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text}")
    return value


def run(args: argparse.Namespace) -> int:
    settings = settings_from_args(args)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
    splits: Counter[int] = Counter()
    calls: Counter[CallKind] = Counter()
    with Progress(args.deals, "dealing") as progress:
        for i in range(args.deals):
            deal = Deal.from_cards(shuffled_deck(seed + i), settings)
            case = Case.from_events(deal.events)
            splits[deal.splits] += 1
            if case.call is not None:
                calls[case.call.kind] += 1
            if i % 1000 == 999:
                progress.advance(1000)
        progress.done = args.deals
    report = build_report(args.deals, seed, settings, splits, calls)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    return 0


def build_report(n: int, seed: int, settings: Settings, splits: Counter[int],
                 calls: Counter[CallKind]) -> dict[str, object]:
    exact = exact_odds(settings)
    measured = {"splits_per_deal": sum(k * v for k, v in splits.items()) / n}
    if "cat_hop" in exact:
        for kind in CallKind:
            measured[kind.value] = calls[kind] / n
    return {
        "deals": n,
        "seed": seed,
        "variant": settings.variant.value,
        "measured": measured,
        "exact": {k: float(v) for k, v in exact.items()},
        "exact_fraction": {k: str(v) for k, v in exact.items()},
        "splits_histogram": {str(k): splits[k] for k in sorted(splits)},
    }


def print_report(report: dict) -> None:
    measured, exact = report["measured"], report["exact"]
    print(f"{report['deals']} {report['variant']} deals from seed {report['seed']}\n")
    print(f"{'':24}{'measured':>10}{'exact':>10}   exact fraction")
    for key, label, pct in (("splits_per_deal", "splits per deal", False),
                            ("plain", "call: three ranks", True),
                            ("cat_hop", "call: cat-hop", True),
                            ("three_of_a_kind", "call: three of a kind", True)):
        if key not in exact:
            continue
        fmt = (lambda v: f"{v:9.3%}") if pct else (lambda v: f"{v:9.4f}")
        print(f"{label:24}{fmt(measured[key]):>10}{fmt(exact[key]):>10}   "
              f"{report['exact_fraction'][key]}")
    n = report["deals"]
    print("\nsplits in a deal:  " + "  ".join(
        f"{k}: {v / n:.1%}" for k, v in report["splits_histogram"].items()))
