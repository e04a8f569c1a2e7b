"""Fit the temperature that turns deck-profile similarities into honest probabilities
(vision.stored.DEFAULT_TEMPERATURE; the softmax is warmed for poorly matching frames by
vision.profile_checks.effective_temperature).

On dev decks only: learn each from a simulated 52-still pass, read simulated frames of the
same rig under other light, and pick the temperature minimising the negative log-likelihood
of the true card. Prints the fit and the highest probability any wrong card got.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python tools/calibrate_profile.py
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shoe.cards import FULL_DECK
from vision.corpus import render_deck
from vision.learn import learn_profile
from vision.pip_only import paint_out_deck
from vision.profile import ProfileReader
from vision.simulator import SceneParams
from vision.stills import render_frame

DECKS = ("anglo", "paris", "bellot", "neoclassical", "gnomangelo", "anglo_modern")


def collect(deck: str, frames: int, rng: np.random.Generator, pip_only: bool
            ) -> tuple[np.ndarray, np.ndarray]:
    faces = render_deck(deck, 350, alpha=True)
    if pip_only:
        faces = paint_out_deck(faces)
    base = SceneParams.random(rng, "normal")
    views = [(c, [render_frame(faces[c], replace(base, upside_down=bool(rng.random() < 0.5)),
                               rng)]) for c in FULL_DECK]
    reader = ProfileReader(learn_profile(views).profile)
    scores, truth = [], []
    for k in range(frames):
        card = FULL_DECK[k % 52]
        p = replace(base.relit(rng, "hard"), upside_down=bool(rng.random() < 0.5))
        frame = render_frame(faces[card], p, rng, offset_px=float(rng.uniform(0, 3)))
        seen = reader.frame_scores(frame)
        if seen is None:
            continue
        scores.append(seen[1])
        truth.append(k % 52)
    return np.array(scores), np.array(truth)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=52)
    parser.add_argument("--decks", nargs="*", default=list(DECKS))
    parser.add_argument("--dump", help="save the similarities and truths to this .npz")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    parts = [collect(d, args.frames, rng, pip_only=i % 2 == 1) for i, d in enumerate(args.decks)]
    scores = np.concatenate([p[0] for p in parts])
    truth = np.concatenate([p[1] for p in parts])
    if args.dump:
        np.savez(args.dump, scores=scores, truth=truth)
    best = scores.max(axis=1, keepdims=True)
    quality = np.maximum(1 - best, 0.02) / 0.1  # as vision.profile_checks.effective_temperature
    best_t, best_nll = 0.005, np.inf
    for t in np.exp(np.linspace(np.log(0.0005), np.log(0.1), 100)):
        z = (scores - best) / (t * quality)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        nll = -logp[np.arange(len(truth)), truth].mean()
        if nll < best_nll:
            best_t, best_nll = float(t), float(nll)
    z = (scores - best) / (best_t * quality)
    p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    top = p.argmax(axis=1)
    wrong = top != truth
    print(f"{len(truth)} reads: temperature {best_t:.4f} (nll {best_nll:.3f}); "
          f"top-1 right {np.mean(~wrong):.3f}; highest probability of a wrong top card "
          f"{p[np.arange(len(top)), top][wrong].max() if wrong.any() else 0:.3f}")
    for threshold in (0.8, 0.9, 0.95):
        sure = p.max(axis=1) >= threshold
        print(f"  at {threshold}: sure {sure.mean():.3f}, sure and wrong {(sure & wrong).sum()}")


if __name__ == "__main__":
    main()
