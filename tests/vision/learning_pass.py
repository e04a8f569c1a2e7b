"""Simulated stills for the reader's tests, made once per test run (rendering is slow)."""

from __future__ import annotations

import functools
from dataclasses import replace

import numpy as np

from shoe.cards import FULL_DECK, Card
from vision.corpus import render_deck
from vision.pip_only import paint_out_deck
from vision.scene import Scene
from vision.simulator import SceneParams
from vision.stills import render_frame

#: A dev deck and a held-out deck (standard indices both), as vision.corpus lists them.
DEV_DECK = "anglo"
HELD_OUT_DECK = "tigullio"


@functools.cache
def faces(deck: str, pip_only: bool = False) -> dict[Card, np.ndarray]:
    rendered = render_deck(deck, 240, alpha=True)
    if not pip_only:
        return rendered
    return paint_out_deck(rendered)


@functools.cache
def session(seed: int) -> SceneParams:
    """One rig: a box, a camera, a room's light."""
    return SceneParams.random(np.random.default_rng(seed), "normal")


@functools.cache
def learning_pass(deck: str, pip_only: bool = False, seed: int = 5,
                  glare: tuple[tuple[float, float, float, float], ...] | None = None
                  ) -> tuple[np.ndarray, ...]:
    """52 stills of the deck in FULL_DECK order, in one session, some cards upside down;
    with ``glare``, the session's glare spots replaced by these (SceneParams.glare)."""
    rng = np.random.default_rng(seed)
    base = session(seed) if glare is None else replace(session(seed), glare=glare)
    return tuple(render_frame(faces(deck, pip_only)[c],
                              replace(base, upside_down=bool(rng.random() < 0.5)), rng)
                 for c in FULL_DECK)


def stills(deck: str, cards: list[Card], seed: int, *, pip_only: bool = False,
           same_rig_as: int | None = None, difficulty: str = "normal",
           spot: str | None = None) -> list[np.ndarray]:
    """Stills of the given cards, each in its own random conditions (or, with
    ``same_rig_as``, the box and camera of that session under other light); with ``spot``,
    the glare one spot of the hard range's strengths: "middle", a small one over the card's
    middle (an ace's pip), or "anywhere" on the card, of any size the range has."""
    rng = np.random.default_rng(seed)
    out = []
    for card in cards:
        params = (SceneParams.random(rng, difficulty)  # type: ignore[arg-type]
                  if same_rig_as is None
                  else session(same_rig_as).relit(rng, difficulty))  # type: ignore[arg-type]
        if spot is not None:
            lo, hi, largest = {"middle": (0.4, 0.6, 0.15), "anywhere": (0.1, 0.9, 0.3)}[spot]
            x, y, radius, strength = (rng.uniform(lo, hi), rng.uniform(lo, hi),
                                      rng.uniform(0.08, largest), rng.uniform(0.3, 0.9))
            params = replace(params, glare=((float(x), float(y), float(radius),
                                             float(strength)),))
        out.append(render_frame(faces(deck, pip_only)[card], params, rng))
    return out


def empty_box(seed: int) -> np.ndarray:
    """The box with no card in it: its floor shows through the window."""
    rng = np.random.default_rng(seed)
    face = faces(DEV_DECK)[FULL_DECK[0]]
    return Scene(SceneParams.random(rng, "normal"), (face.shape[1], face.shape[0]), rng).base.copy()


def table_cloth(seed: int) -> np.ndarray:
    """A frame of plain green cloth with sensor noise."""
    rng = np.random.default_rng(seed)
    cloth = np.empty((480, 640, 3), np.float32)
    cloth[:] = (40, 90, 30)
    cloth += rng.normal(0, 6, cloth.shape)
    return np.clip(cloth, 0, 255).astype(np.uint8)


#: A hard scene (from the benchmark's frames) whose reflection lies along the metal just past
#: the card's top edge, across the box's dark inner edge from it: the card's region takes it
#: in, and the outline's top lies some 36 pixels out on the metal.
REFLECTION_PAST_THE_TOP = SceneParams(
    card_height_frac=0.731, center_shift=(0.9, 0.81), rotation_deg=-0.52, tilt_deg=(9.5, 6.27),
    camera_height_mm=149.5, upside_down=True, slot_side="right", lips_mm=(1.45, 1.33),
    window_ends_mm=(2.61, 0.57), frame_width_mm=12.7, metal_bgr=(58, 63, 60), reflection=1.0,
    reflection_pos=0.0, cloth_bgr=(90, 50, 30), colour_temp_k=6487.0, white_balance=0.63,
    exposure=0.9, gradient=0.085, gradient_angle_deg=24.6, glare=((0.596, 0.398, 0.086, 0.357),),
    noise_sigma=2.5, blur_sigma=0.23, gamma=0.875, saturation=0.98)
