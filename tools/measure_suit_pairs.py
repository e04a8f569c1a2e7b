"""Measure how the suit check (vision.suits.suit_tournament) judges each true number card
against each other card of its rank, on the dev decks' pip-only variants: the figures that
vision.suits' thresholds rest on.

Reproducible: the benchmark's own pip-only frames (bench/vision_accuracy.py --modes pip-only
--pip-only-dev: one learning pass under normal light, then 104 frames in other light), each
read by the firmware's profile reader up to its suit check. A pair counts where the other card
comes close enough to the truth's similarity to be compared. About 25 minutes on one core:

    OPENBLAS_NUM_THREADS=1 .venv/bin/python tools/measure_suit_pairs.py
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.vision_accuracy import draw_shots, profile_reader
from shoe.cards import FULL_DECK, Card, Rank
from vision import corpus
from vision.pairwise import colour_distance, ink_colour
from vision.pip_only import paint_out_deck
from vision.profile import _CLOSE as CLOSE
from vision.profile import ProfileReader
from vision.profile_checks import shortfall
from vision.suits import COLOURS_APART, Candidate, colour_verdict, suit_tournament

FRAMES = 104


def deck_frames(deck: str, seed: int, difficulty: str
                ) -> tuple[ProfileReader, list[tuple[Card, np.ndarray]]]:
    """The benchmark's pip-only reader and frames of ``deck``, from its random stream."""
    faces = paint_out_deck(corpus.render_deck(deck, 350, alpha=True))
    rng = np.random.default_rng([seed, sum(map(ord, deck)), sum(map(ord, "pip-only"))])
    reader, base, _ = profile_reader(faces, rng, (640, 480))
    return reader, draw_shots(faces, FRAMES, rng, difficulty, base)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="*", default=[5, 11, 13])
    parser.add_argument("--difficulty", default="hard", choices=["normal", "hard"])
    parser.add_argument("--decks", nargs="*", default=list(corpus.DEV_DECKS))
    args = parser.parse_args()
    compared = preferred = undecided = 0
    wrong: list[str] = []
    two_dark_leanings: list[float] = []
    # Pairs of one ink where the check went against the correlation's order: how far below
    # the other card the truth was when picked, and the other card below the truth (in
    # shares of what the better of the two falls short of a similarity of 1).
    rightly_over: list[float] = []
    wrongly_over: list[float] = []
    for seed in args.seeds:
        for deck in args.decks:
            reader, shots = deck_frames(deck, seed, args.difficulty)
            for n, (card, frame) in enumerate(shots):
                if card.rank >= Rank.JACK:
                    continue
                seen = reader._frame_seen(frame)
                if seen is None:
                    continue
                truth = FULL_DECK.index(card)
                ink, unknown = seen.ink()[2:]
                colour = ink_colour(seen.whole, seen.ink()[0])
                mine = Candidate(reader.profile.fine[truth], reader.suits.colours[truth])
                for other, rival in enumerate(FULL_DECK):
                    if (rival == card or rival.rank != card.rank
                            or seen.scores[other] < seen.scores[truth] - CLOSE):
                        continue
                    theirs = Candidate(reader.profile.fine[other], reader.suits.colours[other])
                    apart = colour_distance(mine.colour, theirs.colour)
                    if 0.1 <= apart < 0.3:
                        two_dark_leanings.append(colour_verdict(colour, mine.colour,
                                                                theirs.colour))
                    winner = suit_tournament(ink, unknown, colour, [mine, theirs])
                    # The margin in shares of what the pair's best falls short of 1, as
                    # vision.profile_suits._SHAPES_OVERRULE.
                    margin = float(seen.scores[truth] - seen.scores[other]) / shortfall(
                        float(max(seen.scores[truth], seen.scores[other])))
                    if apart < COLOURS_APART:  # one ink: the shapes decide
                        if winner == 0 and margin < 0:
                            rightly_over.append(-margin)
                        if winner == 1 and margin > 0:
                            wrongly_over.append(margin)
                    compared += 1
                    preferred += winner == 0
                    undecided += winner is None
                    if winner == 1:
                        wrong.append(f"{deck} seed {seed} frame {n}: {card} lost to {rival}")
            print(f"  seed {seed} {deck}: {compared} pairs so far", file=sys.stderr, flush=True)
    print(f"{compared} close pairs of a true number card and another of its rank: "
          f"the truth preferred {preferred}, undecided {undecided}, the other {len(wrong)}")
    for line in wrong:
        print("   ", line)
    print(f"of one ink, picked against the correlation: the truth {len(rightly_over)} times, "
          f"from at most {max(rightly_over, default=0.0):.2f} below; the other card "
          f"{len(wrongly_over)} times, from "
          + (f"{min(wrongly_over):.2f}-{max(wrongly_over):.2f} below" if wrongly_over else "-")
          + " (in shares of what the better of the two falls short of 1)")
    if two_dark_leanings:
        print(f"inks 0.1-0.3 apart: {len(two_dark_leanings)} pairs, the truth's colour "
              f"leaning at worst {min(two_dark_leanings):+.2f}")


if __name__ == "__main__":
    main()
