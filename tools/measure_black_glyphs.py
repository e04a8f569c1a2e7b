"""Measure what the glyph network says of spades against clubs, deck by deck: the figures
behind vision.glyphs's GLYPHS_CONFIRM and its weighing of the black suits.

Reproducible: fixed seeds; each deck's black cards shot by the rig's simulated camera under
hard light in two sessions (the dealer's thumb on some, as for tools/fit_pip_counts.py),
located, straightened and cut out by the firmware's own code. For each deck: how often the
glyphs say the card's own suit (``BlackSuitEvidence.says``), say the other one, or show no
glyph shaped like a spade or a club; and the evidence for the truth (1st percentile and
median). Held-out and blind decks are marked: they are measured, never tuned on. About a
minute a deck on one core:

    OPENBLAS_NUM_THREADS=1 .venv/bin/python tools/measure_black_glyphs.py --decks anglo plastic
    OPENBLAS_NUM_THREADS=1 .venv/bin/python tools/measure_black_glyphs.py --net OLD_FOLDER
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
from vision.glyphs import GlyphNet, black_suit_evidence

BLACK = [c for c in FULL_DECK if c.suit in (Suit.SPADES, Suit.CLUBS)]


def measure(deck: str, net: GlyphNet, sessions: int, rng: np.random.Generator
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each located frame of the deck's black cards: the glyphs' log-odds for the
    card's own suit, whether they say a suit, and whether any glyph was shaped."""
    faces = corpus.render_deck(deck, 300, alpha=True)
    truth, says, shaped = [], [], []
    for card, straight in located_shots(faces, BLACK, sessions, rng):
        evidence = black_suit_evidence(straight, net, card.rank)
        truth.append(evidence.total if card.suit == Suit.CLUBS else -evidence.total)
        says.append(evidence.says)
        shaped.append(evidence.shaped > 0)
    return np.array(truth), np.array(says), np.array(shaped)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decks", nargs="*", help="these decks (default: every French-suited "
                        "deck with indices on its court cards, and the blind ones)")
    parser.add_argument("--net", type=Path, help="a folder holding glyph_net.onnx and .json "
                        "(default: the packaged network)")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--sessions", type=int, default=2)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    net = GlyphNet.load(args.net)
    decks = args.decks or [d.name for d in corpus.list_decks()
                           if d.index_style in ("standard", "foreign")]
    print("| deck | frames | says its suit % | says the other % | no glyph % "
          "| evidence for the truth: 1st percentile / median |")
    print("|---|---|---|---|---|---|")
    for deck in decks:
        truth, says, shaped = measure(deck, net, args.sessions,
                                      np.random.default_rng([args.seed, sum(map(ord, deck))]))
        kind = (" (held-out)" if deck in corpus.HELD_OUT_DECKS
                else " (blind)" if deck in corpus.BLIND_DECKS else "")
        right, wrong = says & (truth > 0), says & (truth < 0)
        print(f"| {deck}{kind} | {len(truth)} | {right.mean():.1%} | {wrong.mean():.1%} "
              f"| {(~shaped).mean():.1%} | {np.percentile(truth, 1):.1f} / "
              f"{np.median(truth):.1f} |", flush=True)


if __name__ == "__main__":
    main()
