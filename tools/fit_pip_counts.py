"""Measure how the middle of an ace or a number card counts its pips, and where it shows
them, per rank: the tables that vision/pipcount.py weighs the index network's rank by.

Reproducible: a fixed seed, the dev decks only (never the held-out or blind ones), each
deck's aces and number cards shot by the rig's simulated camera under hard light (a new
box, camera and light each session, the dealer's thumb on some as in the index network's
training, where it may cover a pip), located, straightened and measured by the firmware's
own code (vision.locate, vision.crosscheck). Hard light is the pessimistic choice: glare
and blur merge and hide pips, so a count one short of the rank is as common as it gets.
Writes vision/data/pip_counts.json. About 3 minutes on one core:

    OPENBLAS_NUM_THREADS=1 .venv/bin/python tools/fit_pip_counts.py
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shoe.cards import FULL_DECK
from tools.augment import located_shots
from vision import corpus
from vision.crosscheck import look_at_middle
from vision.pipcount import FORMAT, MEASURED, PLACES, layout_places, pip_key, placed

Counts = dict[int, dict[str, int]]
Places = dict[str, dict[int, float]]
#: A deck's share of a rank's frames with a pip in a place counts once this many frames of
#: it were placed (fewer say little: one split pip would be a fifth of five).
MIN_FRAMES = 5


def measure(decks: list[str], sessions: int, rng: np.random.Generator) -> tuple[Counts, Places]:
    """{rank: {key: frames}}, the keys as vision.pipcount.pip_key gives them, and
    {place: {rank: the largest share, over the decks, of that rank's frames whose pips were
    placed that show a pip there}} (vision.pipcount.pip_places)."""
    table: Counts = {int(r): {} for r in MEASURED}
    places: Places = {place: {int(r): 0.0 for r in MEASURED} for place in PLACES}
    numbers = [c for c in FULL_DECK if c.rank in MEASURED]
    for n, deck in enumerate(decks, 1):
        started = time.monotonic()
        faces = corpus.render_deck(deck, 300, alpha=True)
        placed_frames: Counter[int] = Counter()
        shown: Counter[tuple[str, int]] = Counter()
        for card, straight in located_shots(faces, numbers, sessions, rng):
            middle = look_at_middle(straight)
            row = table[int(card.rank)]
            key = pip_key(middle)
            row[key] = row.get(key, 0) + 1
            placed_frames[int(card.rank)] += placed(middle)
            shown.update((place, int(card.rank)) for place in layout_places(middle))
        for (place, rank), frames in shown.items():
            if placed_frames[rank] >= MIN_FRAMES:
                places[place][rank] = max(places[place][rank], frames / placed_frames[rank])
        print(f"  [{n}/{len(decks)}] {deck}: {time.monotonic() - started:.0f}s", flush=True)
    return table, places


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="vision/data/pip_counts.json")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--sessions", type=int, default=12,
                        help="times each deck's aces and number cards are shot, each time "
                             "in a new session")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    decks = list(corpus.DEV_DECKS)
    table, places = measure(decks, args.sessions, np.random.default_rng(args.seed))
    for rank, row in table.items():
        total = sum(row.values())
        shown = ", ".join(f"{place} {places[place][rank]:.2f}" for place in PLACES)
        print(f"{rank:>2}: {total} frames, counted right {row.get(str(rank), 0) / total:.2f}, "
              f"one short {row.get(str(rank - 1), 0) / total:.2f}; a pip at (most on a "
              f"deck) {shown}")
    doc = {"format": FORMAT, "seed": args.seed, "sessions": args.sessions,
           "difficulty": "hard", "decks": decks,
           "counts": {str(r): dict(sorted(row.items())) for r, row in table.items()},
           "places": {place: {str(r): round(share, 3) for r, share in row.items()}
                      for place, row in places.items()}}
    Path(args.out).write_text(json.dumps(doc, indent=1) + "\n")
    print("written", args.out)


if __name__ == "__main__":
    main()
