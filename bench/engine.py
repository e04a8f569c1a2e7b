"""Deals per second through the rules engine and the case, on one core.

    python bench/engine.py [--deals 20000]

Shuffles are made before the clock starts: this measures Deal.from_cards (every card
checked against the deck, every event built) plus Case.from_events, per deal.
"""

from __future__ import annotations

import argparse
import os
import time

from casekeeper.case import Case
from shoe.cards import shuffled_deck
from shoe.deal import Deal
from shoe.settings import Settings, Variant


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=3, help="best of this many runs")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    decks = [shuffled_deck(seed) for seed in range(args.deals)]
    print(f"{'variant':8}{'deals/s':>10}{'µs/deal':>10}")
    for settings in (Settings(), Settings(variant=Variant.STUSS)):
        best = float("inf")
        for _ in range(args.repeats):
            start = time.perf_counter()
            for deck in decks:
                Case.from_events(Deal.from_cards(deck, settings).events)
            best = min(best, time.perf_counter() - start)
        rate = args.deals / best
        print(f"{settings.variant.value:8}{rate:10.0f}{1e6 / rate:10.1f}")


if __name__ == "__main__":
    main()
