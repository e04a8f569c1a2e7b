"""Measure the two rules of vision.glyphs that rest on the corners' suit glyphs alone: the
figures behind CORNERS_SETTLE and the cut at a neck.

* **Settled by the corners**: on a black number card whose two corners both show a glyph,
  how often both say one suit by CORNERS_SETTLE or more (the pips are then left alone),
  whether that suit was ever the wrong one, the most that two corners both saying the
  wrong suit said (the weaker and the stronger), and how often the pips, looked at anyway,
  said the other suit against such corners (by GLYPHS_CONFIRM / 2, enough to hold it).
* **Cut at a neck**: on every black card, the glyphs found only by cutting the print under
  the rank at its thinnest column (a court glyph run into the big suit beside it), and how
  many said their own suit, or the other one, by 2 or more in log-odds.

Reproducible: fixed seeds; random black cards of each deck through the rig's simulated
camera under hard light, then again with each condition past RIG.md's ranges that
``bench/vision_accuracy.py --beyond`` uses, located, straightened and cut out by the
firmware's own code. The dev decks only, by default: these rules were set on them. About
20 minutes on one core for the 24 dev decks and every condition:

    OPENBLAS_NUM_THREADS=1 .venv/bin/python tools/measure_corner_glyphs.py
    OPENBLAS_NUM_THREADS=1 .venv/bin/python tools/measure_corner_glyphs.py --conditions hard blur
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shoe.cards import FULL_DECK, Card, Rank, Suit
from tools.condition_shots import CONDITIONS, add_arguments, deck_rng, shots
from vision import corpus
from vision.glyphs import (
    CORNERS_SETTLE,
    GLYPHS_CONFIRM,
    GlyphNet,
    club_odds,
    glyph_input,
    pip_glyphs,
)
from vision.indices import IndexBlobs, find_indices

BLACK = [c for c in FULL_DECK if c.suit in (Suit.SPADES, Suit.CLUBS)]
_NEIGHBOURS = np.ones((3, 3), np.uint8)


@dataclass
class Tally:
    """What one condition showed over every deck."""

    frames: int = 0
    both_corners: int = 0
    settled: int = 0
    settled_wrong: int = 0
    pips_against: list[str] = field(default_factory=list)
    wrong_pairs: list[tuple[float, float, str]] = field(default_factory=list)
    cut: int = 0
    cut_right: int = 0
    cut_wrong: list[str] = field(default_factory=list)

    def row(self, condition: str) -> str:
        weaker, stronger, where = max(self.wrong_pairs, default=(0.0, 0.0, "none"))
        return (f"| {condition} | {self.frames} | {self.both_corners} | {self.settled} "
                f"| {self.settled_wrong} | {weaker:.1f} / {stronger:.1f} ({where}) "
                f"| {len(self.pips_against)} {' '.join(self.pips_against)} | {self.cut} "
                f"| {self.cut_right} | {len(self.cut_wrong)} {' '.join(self.cut_wrong)} |")


def was_cut(found: IndexBlobs) -> bool:
    """Whether the corner's suit glyph was cut from print around it: a whole blob touches
    no other print, a piece cut off touches what it was cut from."""
    glyph = (found.labels == found.suit).astype(np.uint8)
    rim = (cv2.dilate(glyph, _NEIGHBOURS) > 0) & (glyph == 0)
    return bool((found.labels[rim] != 0).any())


def measure(deck: str, condition: str, frames: int, net: GlyphNet, rng: np.random.Generator,
            tally: Tally) -> None:
    faces = corpus.render_deck(deck, 350, alpha=True)
    for card, straight in shots(faces, BLACK, frames, condition, rng):
        tally.frames += 1
        toward_truth = 1.0 if card.suit == Suit.CLUBS else -1.0
        indices = [f for f in find_indices(straight) if f is not None and f.suit is not None]
        glyphs = [glyph_input(f.level, f.labels == f.suit) for f in indices]
        shapes = net.shapes(glyphs)
        said = toward_truth * club_odds(shapes)
        for found, says in zip(indices, said, strict=True):
            if was_cut(found):
                tally.cut += 1
                tally.cut_right += says >= 2
                if says <= -2:
                    tally.cut_wrong.append(f"{deck}:{card}")
        if Rank.TWO <= card.rank <= Rank.TEN and len(indices) == 2 and (shapes[:, 2] < 0.5).all():
            _settle(deck, card, straight, toward_truth, said, net, tally)


def _settle(deck: str, card: Card, straight: np.ndarray, toward_truth: float, said: np.ndarray,
            net: GlyphNet, tally: Tally) -> None:
    """``said``: each corner's club log-odds times ``toward_truth`` (+1 for a club, -1 for a
    spade), so that positive is the true suit."""
    tally.both_corners += 1
    if (said < 0).all():
        tally.wrong_pairs.append((float(-said.max()), float(-said.min()), f"{deck}:{card}"))
    if not (np.abs(said) >= CORNERS_SETTLE).all() or said[0] * said[1] <= 0:
        return
    tally.settled += 1
    tally.settled_wrong += bool(said[0] < 0)
    pips = pip_glyphs(straight)
    if pips:
        pip_says = toward_truth * float(np.median(net.club_log_odds(pips)))
        if -np.sign(said[0]) * pip_says >= GLYPHS_CONFIRM / 2:
            right = "right" if pip_says > 0 else "wrongly"
            tally.pips_against.append(f"{deck}:{card}({right})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser, seed=13)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    net = GlyphNet.load()
    decks = args.decks or list(corpus.DEV_DECKS)
    print("| condition | black frames located | number cards, glyph in both corners | settled "
          "| settled wrongly | two corners both wrong: the most (weaker / stronger) "
          "| pips against settled corners | glyphs cut at a neck | saying their suit by 2+ "
          "| saying the other by 2+ |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for condition in args.conditions or CONDITIONS:
        tally = Tally()
        for deck in decks:
            measure(deck, condition, args.frames, net, deck_rng(args.seed, deck, condition),
                    tally)
        print(tally.row(condition), flush=True)


if __name__ == "__main__":
    main()
