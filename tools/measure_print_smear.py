"""Measure the print's smear (vision.printstate.print_smear, both ways as
vision.printstate.smeared takes it: the sharper counts) on frames within RIG.md's ranges and
on frames of a camera shaken during the exposure: the figures that vision.printstate.SMEARED
rests on.

Reproducible: the standard-indexed dev decks only, the benchmark's own frames
(bench/vision_accuracy.py's zero-shot stream, 104 a deck: hard light, normal light, and hard
light with `--beyond shake`), located and straightened by the firmware's own code. The
shaken frames are read by the zero-shot reader with the hold on smeared print taken off,
which shows the readings the hold is for: those read surely wrong. About ten minutes a
seed on one core:

    OPENBLAS_NUM_THREADS=1 .venv/bin/python tools/measure_print_smear.py --seed 2024
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.vision_accuracy import draw_shots
from vision import corpus, crosscheck
from vision.locate import locate
from vision.printstate import SMEARED, print_smear
from vision.quad import straighten
from vision.reader import CornerReader

CONDITIONS = ("hard", "normal", "shake")


def measure(decks: list[str], frames: int, seed: int
            ) -> tuple[list[tuple[str, str, float]], list[tuple[str, str, float]]]:
    """The smear of each located frame within the ranges, and of each shaken frame read
    surely wrong without the hold, as (deck, card, smear)."""
    crosscheck.smeared = lambda card: False  # the reader without the hold
    reader = CornerReader()
    within, wrong = [], []
    for n, deck in enumerate(decks, 1):
        faces = corpus.render_deck(deck, 350, alpha=True)
        for condition in CONDITIONS:
            shaken = condition == "shake"
            # The benchmark's zero-shot stream: the frames `--seed SEED` reads.
            rng = np.random.default_rng([seed, sum(map(ord, deck)), sum(map(ord, "zero"))])
            shots = draw_shots(faces, frames, rng, "normal" if condition == "normal" else "hard",
                               beyond="shake" if shaken else None)
            for card, frame in shots:
                quad = locate(frame)
                if quad is None:
                    continue
                card_seen = straighten(frame, quad)
                smear = min(print_smear(card_seen), print_smear(card_seen, past_box=True))
                if not shaken:
                    within.append((deck, str(card), smear))
                    continue
                reading = reader.read(frame)
                if reading.is_sure and reading.card != card:
                    wrong.append((deck, f"{card} read as {reading.card}", smear))
        print(f"  [{n}/{len(decks)}] {deck}", file=sys.stderr, flush=True)
    return within, wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=2024,
                        help="the benchmark's seed (--seed of bench/vision_accuracy.py)")
    parser.add_argument("--frames", type=int, default=104, help="frames a deck and condition")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    within, wrong = measure(corpus.standard_dev_decks(), args.frames, args.seed)
    over = [w for w in within if w[2] > SMEARED]
    print(f"within the ranges (hard and normal): {len(over)} of {len(within)} located frames "
          f"measure over SMEARED ({SMEARED}); the most {max(w[2] for w in within):.2f}")
    for deck, card, smear in over:
        print(f"  {deck} {card}: {smear:.2f}")
    print(f"shaken, read surely wrong without the hold: {len(wrong)}; "
          f"{sum(w[2] <= SMEARED for w in wrong)} of them measure SMEARED or under")
    for deck, card, smear in wrong:
        print(f"  {deck} {card}: {smear:.2f}")


if __name__ == "__main__":
    main()
