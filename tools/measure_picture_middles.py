"""Measure how often a card's middle shows no number (vision.crosscheck.no_number: a picture,
or print broader than pips stand) on number cards, court cards and aces: the figure that
vision.courtcards.PICTURE_ON_NUMBERS rests on.

Reproducible: a fixed seed, the standard-indexed dev decks only, random cards of each shot
by the rig's simulated camera (hard light on two frames in three, normal on the third, the
dealer's thumb on 30%), located and straightened by the firmware's own code. About three
minutes on one core:

    OPENBLAS_NUM_THREADS=1 .venv/bin/python tools/measure_picture_middles.py
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shoe.cards import FULL_DECK, Card, Rank
from vision import corpus
from vision.crosscheck import look_at_middle, no_number
from vision.locate import locate
from vision.quad import straighten
from vision.simulator import SceneParams
from vision.stills import Thumb, render_frame

#: The share of frames with the dealer's thumb on the card, as tools/fit_pip_counts.py has.
THUMB_SHARE = 0.3


def kind(card: Card) -> str:
    return ("ace" if card.rank == Rank.ACE else "court" if card.rank >= Rank.JACK
            else "number")


def measure(decks: list[str], frames: int, seed: int) -> tuple[Counter[str], Counter[str]]:
    """Frames located, and frames whose middle shows no number (the box not across it), by
    kind of card."""
    located: Counter[str] = Counter()
    no_numbers: Counter[str] = Counter()
    for n, deck in enumerate(decks, 1):
        before = no_numbers["number"]
        faces = corpus.render_deck(deck, 350, alpha=True)
        rng = np.random.default_rng([seed, sum(map(ord, deck)), 7])
        for k in range(frames):
            card = FULL_DECK[int(rng.integers(52))]
            params = SceneParams.random(rng, "hard" if k % 3 else "normal")
            params = replace(params, upside_down=bool(rng.random() < 0.5))
            thumb = Thumb.random(rng) if rng.random() < THUMB_SHARE else None
            frame = render_frame(faces[card], params, rng, thumb=thumb,
                                 offset_px=float(rng.uniform(0, 3)))
            quad = locate(frame)
            if quad is None:
                continue
            middle = look_at_middle(straighten(frame, quad))
            located[kind(card)] += 1
            no_numbers[kind(card)] += not middle.banded and no_number(middle)
        print(f"  [{n}/{len(decks)}] {deck}: {no_numbers['number'] - before} number cards "
              "showing no number", file=sys.stderr, flush=True)
    return located, no_numbers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--frames", type=int, default=156, help="frames a deck")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    located, no_numbers = measure(corpus.standard_dev_decks(), args.frames, args.seed)
    for name in ("number", "court", "ace"):
        print(f"{name} cards: {no_numbers[name]} of {located[name]} located show no number "
              f"({no_numbers[name] / max(located[name], 1):.1%})")
    ratio = (no_numbers["number"] / located["number"]) / (no_numbers["court"] / located["court"])
    print(f"likelihood ratio, number cards to court cards: {ratio:.3f}")


if __name__ == "__main__":
    main()
