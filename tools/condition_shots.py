"""Frames for the measuring tools: random cards of a deck through the rig's simulated camera
under hard light, or past one of RIG.md's ranges as ``bench/vision_accuracy.py --beyond``
draws them, located and straightened by the firmware's own code.

Each deck and condition draws from a generator of its own (:func:`deck_rng`), so a run over
fewer decks or conditions measures the same frames of those it keeps.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Sequence
from dataclasses import replace

import numpy as np

from bench.vision_accuracy import BEYOND
from shoe.cards import Card
from vision.locate import locate
from vision.quad import straighten
from vision.simulator import SceneParams
from vision.stills import render_frame

#: Hard light, then each condition past RIG.md's ranges.
CONDITIONS = ("hard", *sorted(BEYOND))


def add_arguments(parser: argparse.ArgumentParser, seed: int) -> None:
    """The tools' common options: --decks, --conditions, --frames and --seed."""
    parser.add_argument("--decks", nargs="*", help="these decks (default: the dev decks)")
    parser.add_argument("--conditions", nargs="*", choices=CONDITIONS,
                        help="hard light, and each condition past the ranges (default: all)")
    parser.add_argument("--frames", type=int, default=40, help="frames a deck and condition")
    parser.add_argument("--seed", type=int, default=seed)


def deck_rng(seed: int, deck: str, condition: str) -> np.random.Generator:
    """The generator of one deck's frames under one condition."""
    return np.random.default_rng([seed, sum(map(ord, deck)), sum(map(ord, condition))])


def shots(faces: dict[Card, np.ndarray], cards: Sequence[Card], frames: int, condition: str,
          rng: np.random.Generator) -> Iterator[tuple[Card, np.ndarray]]:
    """``frames`` cards drawn from ``cards``, each upside down on half of them, shot under
    hard light and past ``condition``'s range (unless "hard"): (card, straightened card)
    for each frame located."""
    for _ in range(frames):
        card = cards[int(rng.integers(len(cards)))]
        params = replace(SceneParams.random(rng, "hard"), upside_down=bool(rng.random() < 0.5))
        if condition != "hard":
            params = BEYOND[condition](params, rng)
        frame = render_frame(faces[card], params, rng, offset_px=float(rng.uniform(0, 3)))
        quad = locate(frame)
        if quad is not None:
            yield card, straighten(frame, quad)
