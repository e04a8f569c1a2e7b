"""How fast the corpus renders and the simulator draws frames (one core; noisy on a busy box).

    .venv/bin/python bench/simulator.py [--deck anglo] [--cards 52] [--difficulty normal]

Prints: a deck's cold render (empty cache) and cached load, the built-in deck, and the
milliseconds per simulated 640×480 frame over a whole deal, split into frames that build a
card's layers (once per card) and the rest.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

import cv2
import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", default="anglo")
    parser.add_argument("--cards", type=int, default=52)
    parser.add_argument("--difficulty", default="normal", choices=["easy", "normal", "hard"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--prefetch", action="store_true",
                        help="build the next card's layers on a second thread, as the live "
                             "source does (default: everything on one core)")
    args = parser.parse_args()
    cv2.setNumThreads(1)

    from shoe.cards import FULL_DECK
    from vision import corpus
    from vision.faces import builtin_deck
    from vision.simulator import DealTiming, SimulatedShoe

    with tempfile.TemporaryDirectory() as cache:
        old = os.environ.get("XDG_CACHE_HOME")
        os.environ["XDG_CACHE_HOME"] = cache
        try:
            t0 = time.perf_counter()
            corpus.render_deck(args.deck, 350)
            cold = time.perf_counter() - t0
            t0 = time.perf_counter()
            faces = corpus.render_deck(args.deck, 350, alpha=True)
            cached = time.perf_counter() - t0
        finally:
            if old is None:
                del os.environ["XDG_CACHE_HOME"]
            else:
                os.environ["XDG_CACHE_HOME"] = old
    t0 = time.perf_counter()
    builtin_deck(350)
    builtin = time.perf_counter() - t0
    print(f"render_deck({args.deck!r}, 350): cold {cold:.2f} s, cached {cached:.3f} s")
    print(f"builtin_deck(350): {builtin:.2f} s")

    rng = np.random.default_rng(args.seed)
    order = list(FULL_DECK)
    rng.shuffle(order)
    t0 = time.perf_counter()
    shoe = SimulatedShoe([faces[c] for c in order[: args.cards]], seed=args.seed,
                         timing=DealTiming.fast(), difficulty=args.difficulty,
                         prefetch=args.prefetch)
    setup = time.perf_counter() - t0
    times: list[float] = []
    builds: list[float] = []
    cpu: list[float] = []
    n = int(shoe.duration * 30) + 1
    for k in range(n):
        built_before = shoe.layers_built
        t0, c0 = time.perf_counter(), time.thread_time()
        shoe.frame_at(k / 30)
        dt = (time.perf_counter() - t0) * 1000
        cpu.append((time.thread_time() - c0) * 1000)
        (builds if shoe.layers_built > built_before else times).append(dt)
    shoe.close()
    every = sorted(times + builds)
    print(f"SimulatedShoe setup: {setup * 1000:.0f} ms; {n} frames, {args.cards} cards, "
          f"{args.difficulty}")
    print(f"ms/frame over the deal (wall): mean {statistics.fmean(every):.2f}, "
          f"median {statistics.median(every):.2f}, p95 {every[int(0.95 * len(every))]:.2f}")
    print(f"  CPU ms/frame of the rendering thread (less sensitive to a busy machine): "
          f"mean {statistics.fmean(cpu):.2f}, median {statistics.median(cpu):.2f}")
    resting = [any(c.rest[0] <= k / 30 < c.rest[1] for c in shoe.truth) for k in range(n)]
    rest_cpu = [c for c, r in zip(cpu, resting, strict=True) if r]
    moving_cpu = [c for c, r in zip(cpu, resting, strict=True) if not r]
    print(f"  CPU ms/frame at rest {statistics.fmean(rest_cpu):.2f} ({len(rest_cpu)} frames), "
          f"with the thumb or a moving card {statistics.fmean(moving_cpu):.2f} "
          f"({len(moving_cpu)} frames)")
    print(f"  frames without a layer build: mean {statistics.fmean(times):.2f}, "
          f"p95 {sorted(times)[int(0.95 * len(times))]:.2f}")
    print(f"  frames that build a card's layers ({len(builds)}): "
          f"mean {statistics.fmean(builds):.1f}, max {max(builds):.1f}")


if __name__ == "__main__":
    main()
