"""Measure, rank by rank, how often a card's index shows a counter that spans its rank's
middle (vision.indices.rank_encloses_counter, in either corner): the figures that
vision.courtcards' COUNTER_ON_JK and COUNTER_ON_NUMBERS rest on.

Reproducible: a fixed seed, the 15 standard-indexed dev decks the reader is tuned on (not
tango_nuevo, whose huge indices are not read), each card shot once a session by the rig's
simulated camera under hard light (RIG.md's full ranges; tools.augment.located_shots:
upside down half the time, the dealer's thumb on 30%), located and straightened by the
firmware's own code. About ten minutes on one core:

    OPENBLAS_NUM_THREADS=1 .venv/bin/python tools/measure_rank_counters.py
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shoe.cards import FULL_DECK, Rank
from tools.augment import located_shots
from vision import corpus
from vision.indices import find_indices, rank_encloses_counter


def tuning_decks() -> list[str]:
    """The standard-indexed dev decks but tango_nuevo (its indices are not read)."""
    return [deck for deck in corpus.standard_dev_decks() if deck != "tango_nuevo"]


def measure(decks: list[str], sessions: int, seed: int
            ) -> tuple[Counter[tuple[str, Rank]], Counter[tuple[str, Rank]]]:
    """Cards located with an index found in a corner, and those of them with a counter that
    spans the rank's middle in a corner, by deck and rank."""
    indexed: Counter[tuple[str, Rank]] = Counter()
    countered: Counter[tuple[str, Rank]] = Counter()
    rng = np.random.default_rng(seed)
    for n, deck in enumerate(decks, 1):
        faces = corpus.render_deck(deck, 350, alpha=True)
        for card, straight in located_shots(faces, FULL_DECK, sessions, rng):
            indices = find_indices(straight)
            if any(found is not None for found in indices):
                indexed[deck, card.rank] += 1
                countered[deck, card.rank] += any(map(rank_encloses_counter, indices))
        print(f"  [{n}/{len(decks)}] {deck}", file=sys.stderr, flush=True)
    return indexed, countered


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--sessions", type=int, default=10,
                        help="each card shot once a session (a new box, camera and light)")
    parser.add_argument("--decks", nargs="+", default=None,
                        help="these decks instead of the 15 tuning decks")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    decks = args.decks or tuning_decks()
    indexed, countered = measure(decks, args.sessions, args.seed)
    print("| rank | cards with an index found | a counter spans the rank's middle | share | "
          "the most of one deck | the least | to a queen's share on one deck, at the most |")
    print("|---|---|---|---|---|---|---|")

    def share(deck: str, rank: Rank) -> float:
        return countered[deck, rank] / max(indexed[deck, rank], 1)

    def against_queens(deck: str, rank: Rank) -> float:
        return share(deck, rank) / max(share(deck, Rank.QUEEN), 0.01)

    for rank in Rank:
        found = sum(indexed[deck, rank] for deck in decks)
        shown = sum(countered[deck, rank] for deck in decks)
        by_share = sorted(decks, key=lambda deck: share(deck, rank))
        most, least = (f"{countered[deck, rank]} of {indexed[deck, rank]} ({deck})"
                       for deck in (by_share[-1], by_share[0]))
        highest = max(decks, key=lambda deck: against_queens(deck, rank))
        print(f"| {rank} | {found} | {shown} | {shown / max(found, 1):.1%} | {most} | {least} | "
              f"{against_queens(highest, rank):.2f} ({highest}) |")


if __name__ == "__main__":
    main()
