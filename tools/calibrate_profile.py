"""Fit the temperature that turns deck-profile similarities into honest probabilities.

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
from vision.locate import locate, straighten
from vision.pip_only import paint_out_deck
from vision.profile import ProfileReader
from vision.simulator import SceneParams, render_frame

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
        p = replace(SceneParams.random(rng, "hard"), card_height_frac=base.card_height_frac,
                    center_shift=base.center_shift, rotation_deg=base.rotation_deg,
                    tilt_deg=base.tilt_deg, camera_height_mm=base.camera_height_mm,
                    lips_mm=base.lips_mm, window_ends_mm=base.window_ends_mm,
                    frame_width_mm=base.frame_width_mm, slot_side=base.slot_side)
        frame = render_frame(faces[card], p, rng, offset_px=float(rng.uniform(0, 3)))
        quad = locate(frame) or reader.profile.window
        if quad is None:
            continue
        scores.append(reader.scores(straighten(frame, quad)))
        truth.append(k % 52)
    return np.array(scores), np.array(truth)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=52)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    parts = [collect(d, args.frames, rng, pip_only=i % 2 == 1) for i, d in enumerate(DECKS)]
    scores = np.concatenate([p[0] for p in parts])
    truth = np.concatenate([p[1] for p in parts])
    best_t, best_nll = 0.02, np.inf
    for t in np.exp(np.linspace(np.log(0.002), np.log(0.1), 80)):
        z = (scores - scores.max(axis=1, keepdims=True)) / t
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        nll = -logp[np.arange(len(truth)), truth].mean()
        if nll < best_nll:
            best_t, best_nll = float(t), float(nll)
    z = (scores - scores.max(axis=1, keepdims=True)) / best_t
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
