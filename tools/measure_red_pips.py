"""Measure how a red number card's pips, cut out of its middle, measure on vision.hearts's
scale (top fifth's width less the bottom fifth's, either way up): the figures behind
PIPS_TO_SAY, the rule that holds a red suit read where the pips are shaped as the other.

For each red number card shot, its pips of red ink are measured as
:func:`vision.hearts.red_pips_say` measures them, and judged as it does, then again as if
two pips were enough. Each says the card's own suit, the other red suit, or nothing (too
few pips, or pips of mixed shapes). It also counts the frames whose two corners' glyphs are
both shaped as the card's suit, where the pips are not looked at, and the pips cut out
that are of red ink (RED_INK): blobs of the sensor's noise in the dark are not.

Reproducible: fixed seeds; random red number cards of each deck through the rig's
simulated camera under hard light, then again with each condition past RIG.md's ranges
that ``bench/vision_accuracy.py --beyond`` uses, located, straightened and cut out by the
firmware's own code. The dev decks only, by default. About half an hour on one core for the
24 dev decks and every condition:

    OPENBLAS_NUM_THREADS=1 .venv/bin/python tools/measure_red_pips.py
    OPENBLAS_NUM_THREADS=1 .venv/bin/python tools/measure_red_pips.py --conditions hard glare
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shoe.cards import FULL_DECK, Rank, Suit
from tools.condition_shots import CONDITIONS, add_arguments, deck_rng, shots
from vision import corpus
from vision.glyphs import cut_pips
from vision.hearts import (
    EVIDENCE,
    PIPS_TO_SAY,
    RED_INK,
    pip_shapes,
    red_suit_log_odds,
    shaped_suit,
)
from vision.indices import find_indices

RED_NUMBERS = [c for c in FULL_DECK
               if c.suit in (Suit.HEARTS, Suit.DIAMONDS) and Rank.TWO <= c.rank <= Rank.TEN]


@dataclass
class Tally:
    """What one condition showed over every deck: for PIPS_TO_SAY pips and for two, how
    often the pips said the card's suit, and where they said the other."""

    frames: int = 0
    corners_settle: int = 0
    pips: int = 0
    red_pips: int = 0
    right: dict[int, int] = field(default_factory=lambda: {PIPS_TO_SAY: 0, 2: 0})
    wrong: dict[int, list[str]] = field(default_factory=lambda: {PIPS_TO_SAY: [], 2: []})

    def row(self, condition: str) -> str:
        def said(least: int) -> str:
            wrong = self.wrong[least]
            return f"{self.right[least]} | {' '.join([str(len(wrong)), *wrong])}"
        return (f"| {condition} | {self.frames} | {self.corners_settle} "
                f"| {self.red_pips} of {self.pips} | {said(PIPS_TO_SAY)} | {said(2)} |")


def measure(deck: str, condition: str, frames: int, rng: np.random.Generator,
            tally: Tally) -> None:
    faces = corpus.render_deck(deck, 350, alpha=True)
    for card, straight in shots(faces, RED_NUMBERS, frames, condition, rng):
        tally.frames += 1
        toward_truth = 1.0 if card.suit is Suit.HEARTS else -1.0
        tally.corners_settle += toward_truth * red_suit_log_odds(find_indices(straight)) >= (
            2 * EVIDENCE)
        pips = cut_pips(straight)
        tally.pips += len(pips)
        tally.red_pips += sum(pip.colour >= RED_INK for pip in pips)
        shapes = pip_shapes(pips)
        for least in (PIPS_TO_SAY, 2):
            shown = shaped_suit(shapes, least)
            tally.right[least] += shown is card.suit
            if shown is not None and shown is not card.suit:
                tally.wrong[least].append(f"{deck}:{card}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser, seed=17)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    decks = args.decks or list(corpus.DEV_DECKS)
    least = PIPS_TO_SAY
    print(f"| condition | red number frames located | both corners shaped as the suit "
          f"| pips cut out of red ink | {least}+ pips say the suit | {least}+ pips say the other "
          f"| 2+ pips say the suit | 2+ pips say the other |")
    print("|---|---|---|---|---|---|---|---|")
    for condition in args.conditions or CONDITIONS:
        tally = Tally()
        for deck in decks:
            measure(deck, condition, args.frames, deck_rng(args.seed, deck, condition), tally)
        print(tally.row(condition), flush=True)


if __name__ == "__main__":
    main()
