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
from vision.hearts import DIAMOND_SHAPE, HEART_SHAPE, RED_INK, ink_colour, top_less_bottom
from vision.indices import find_indices


def measure(decks: list[str], sessions: int, seed: int
            ) -> tuple[dict[Suit, list[float]], dict[str, list[float]]]:
    """Each red suit's glyphs, as top_less_bottom measures them (glyphs too small left out),
    and the ink's colour (ink_colour) of the red glyphs and of the black ones (the black
    suits of the two-colour decks, shot with a generator of their own)."""
    shapes: dict[Suit, list[float]] = {Suit.HEARTS: [], Suit.DIAMONDS: []}
    colours: dict[str, list[float]] = {"red": [], "black": []}
    red = [c for c in FULL_DECK if c.suit in shapes]
    black = [c for c in FULL_DECK if c.suit not in shapes]
    rng, black_rng = np.random.default_rng(seed), np.random.default_rng(seed + 1)
    for n, deck in enumerate(decks, 1):
        faces = corpus.render_deck(deck, 300, alpha=True)
        for card, straight in located_shots(faces, red, sessions, rng):
            for found in find_indices(straight):
                if found is not None and found.suit is not None:
                    colours["red"].append(ink_colour(found))
                    shape = top_less_bottom(found.labels == found.suit)
                    if shape is not None:
                        shapes[card.suit].append(shape)
        if not corpus.deck_info(deck).four_colour:
            for _, straight in located_shots(faces, black, sessions, black_rng):
                colours["black"].extend(ink_colour(found) for found in find_indices(straight)
                                        if found is not None and found.suit is not None)
        print(f"  [{n}/{len(decks)}] {deck}", file=sys.stderr, flush=True)
    return shapes, colours


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--sessions", type=int, default=2)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    shapes, colours = measure(list(corpus.DEV_DECKS), args.sessions, args.seed)
    for suit, values in shapes.items():
        v = np.array(values)
        print(f"{suit.name.lower()}: {len(v)} glyphs; as hearts (>= {HEART_SHAPE}) "
              f"{np.mean(v >= HEART_SHAPE):.1%}, as diamonds (within {DIAMOND_SHAPE} of 0) "
              f"{np.mean(np.abs(v) <= DIAMOND_SHAPE):.1%}, as turned hearts (<= "
              f"{-HEART_SHAPE}) {np.mean(v <= -HEART_SHAPE):.1%}; percentiles 1/50/99: "
              f"{' / '.join(f'{x:.2f}' for x in np.percentile(v, [1, 50, 99]))}")
    for ink, values in colours.items():
        v = np.array(values)
        print(f"{ink} glyphs' ink colour: {len(v)} glyphs; as red (>= {RED_INK}) "
              f"{np.mean(v >= RED_INK):.1%}; percentiles 0.1/1/50/99/99.9: "
              f"{' / '.join(f'{x:.2f}' for x in np.percentile(v, [0.1, 1, 50, 99, 99.9]))}")


if __name__ == "__main__":
    main()
