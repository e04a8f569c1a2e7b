"""Measure how the suit glyphs under the indices of hearts and diamonds measure on
vision.hearts's scale (top fifth's width less the bottom fifth's): the figures that
vision/hearts.py's thresholds rest on.

Reproducible: fixed seeds, the dev decks only, each deck's red cards shot by the rig's
simulated camera under hard light in two sessions (the dealer's thumb on some, as for
tools/fit_pip_counts.py), located, straightened and cut out by the firmware's own code.
About a minute on one core:

    OPENBLAS_NUM_THREADS=1 .venv/bin/python tools/measure_red_glyphs.py
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shoe.cards import FULL_DECK, Suit
from tools.augment import located_shots
from vision import corpus
from vision.glyphs import find_indices
from vision.hearts import DIAMOND_SHAPE, HEART_SHAPE, top_less_bottom


def measure(decks: list[str], sessions: int, rng: np.random.Generator
            ) -> dict[Suit, list[float]]:
    """Each red suit's glyphs, as top_less_bottom measures them (glyphs too small left out)."""
    shapes: dict[Suit, list[float]] = {Suit.HEARTS: [], Suit.DIAMONDS: []}
    red = [c for c in FULL_DECK if c.suit in shapes]
    for n, deck in enumerate(decks, 1):
        faces = corpus.render_deck(deck, 300, alpha=True)
        for card, straight in located_shots(faces, red, sessions, rng):
            for found in find_indices(straight):
                if found is not None and found.suit is not None:
                    shape = top_less_bottom(found.labels == found.suit)
                    if shape is not None:
                        shapes[card.suit].append(shape)
        print(f"  [{n}/{len(decks)}] {deck}", file=sys.stderr, flush=True)
    return shapes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--sessions", type=int, default=2)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    shapes = measure(list(corpus.DEV_DECKS), args.sessions, np.random.default_rng(args.seed))
    for suit, values in shapes.items():
        v = np.array(values)
        print(f"{suit.name.lower()}: {len(v)} glyphs; as hearts (>= {HEART_SHAPE}) "
              f"{np.mean(v >= HEART_SHAPE):.1%}, as diamonds (within {DIAMOND_SHAPE} of 0) "
              f"{np.mean(np.abs(v) <= DIAMOND_SHAPE):.1%}, as turned hearts (<= "
              f"{-HEART_SHAPE}) {np.mean(v <= -HEART_SHAPE):.1%}; percentiles 1/50/99: "
              f"{' / '.join(f'{x:.2f}' for x in np.percentile(v, [1, 50, 99]))}")


if __name__ == "__main__":
    main()
