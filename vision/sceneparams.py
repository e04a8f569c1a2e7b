"""What stays fixed in a simulated session: the camera's mount and lens, the box, the
table and the room's light, as ranges drawn to match RIG.md (see docs/SIMULATOR.md)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from shoe.config import FRAME_HEIGHTS, FRAME_WIDTHS

__all__ = ["CARD_HEIGHT_MM", "Difficulty", "SceneParams", "parse_frame_size"]

#: A standard (poker) card is 63.5 × 88.9 mm; the width follows each face's aspect.
CARD_HEIGHT_MM = 88.9

Difficulty = Literal["easy", "normal", "hard"]


def parse_frame_size(text: str) -> tuple[int, int]:
    """``"1280x720"`` as (1280, 720); ValueError, saying why, for anything else or for a size
    the service's configuration would refuse."""
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"a frame size is WIDTHxHEIGHT in pixels, such as 1280x720, "
                         f"not {text!r}") from None
    if not (FRAME_WIDTHS[0] <= width <= FRAME_WIDTHS[1]
            and FRAME_HEIGHTS[0] <= height <= FRAME_HEIGHTS[1]):
        raise ValueError(f"a frame size is {FRAME_WIDTHS[0]}-{FRAME_WIDTHS[1]} pixels wide "
                         f"and {FRAME_HEIGHTS[0]}-{FRAME_HEIGHTS[1]} high, not {text!r}")
    return width, height


@dataclass(frozen=True, slots=True)
class SceneParams:
    """One session's camera, box and light, within RIG.md's ranges.

    Angles in degrees, lengths on the box in mm, ``card_height_frac`` is the card's
    projected height over the frame's height. ``upside_down`` is for stills; a simulated
    deal turns each card as its :class:`~vision.dealscript.DealScript` says.
    """

    frame_size: tuple[int, int] = (640, 480)
    card_height_frac: float = 0.75
    center_shift: tuple[float, float] = (0.0, 0.0)  # of the slack left in the frame, -1..1
    rotation_deg: float = 0.0  # ±6
    tilt_deg: tuple[float, float] = (0.0, 0.0)  # about the frame's x and y axes, ±10
    camera_height_mm: float = 110.0  # 80–150 above the box
    upside_down: bool = False
    slot_side: Literal["right", "left"] = "right"  # where the card leaves, in the frame
    lips_mm: tuple[float, float] = (1.5, 1.5)  # hidden along the left and right long edges
    window_ends_mm: tuple[float, float] = (1.5, 1.5)  # box floor seen past the short edges
    frame_width_mm: float = 9.0  # metal between the window and the box's edge
    metal_bgr: tuple[int, int, int] = (58, 60, 64)
    reflection: float = 0.0  # 0: none, up to 1: a bright streak on the metal
    reflection_pos: float = 0.3  # where along the frame, 0..1
    cloth_bgr: tuple[int, int, int] = (40, 90, 30)
    colour_temp_k: float = 5000.0  # 2700–6500
    white_balance: float = 0.6  # how much of the cast the camera's auto white balance removes
    exposure: float = 1.0  # 0.45 (dim room) to 1.1
    gradient: float = 0.2  # uneven light: relative change across the frame, 0..0.5
    gradient_angle_deg: float = 30.0
    glare: tuple[tuple[float, float, float, float], ...] = ()  # (x, y, radius, strength) on
    # the card, x y in card widths/heights, radius in card widths
    noise_sigma: float = 3.0  # sensor noise in grey levels, 0–14
    blur_sigma: float = 0.6  # defocus, px
    # The camera shaken during the exposure: smeared this far (px) at this angle (degrees
    # from the frame's x axis). Past RIG.md (a rigid mount); never drawn by random().
    shake: tuple[float, float] = (0.0, 0.0)
    jpeg_quality: int | None = 85  # None: no compression
    skin_bgr: tuple[int, int, int] = (120, 150, 205)
    # The camera's own processing: tone curve, colour saturation, edge sharpening.
    gamma: float = 1.0  # 0.8 (flat, lifted shadows) to 1.25 (contrasty)
    saturation: float = 1.0  # 0.7 to 1.3
    sharpen: float = 0.0  # 0 (none) to 1 (a cheap webcam's halos)
    barrel: float = 0.0  # lens distortion at the frame's corners: 0 to 0.12 (a wide lens)

    @classmethod
    def random(cls, rng: np.random.Generator, difficulty: Difficulty = "normal",
               frame_size: tuple[int, int] = (640, 480)) -> SceneParams:
        """A random session. ``hard`` spans RIG.md's full ranges, ``normal`` most of them,
        ``easy`` a well-lit, square-on camera."""
        k = {"easy": 0.25, "normal": 0.7, "hard": 1.0}[difficulty]

        def sym(limit: float) -> float:
            return float(rng.uniform(-limit, limit) * k)

        dim = float(rng.uniform(0, 1)) * k  # 0 bright .. 1 dim
        glossy = rng.random() < 0.5 * k + 0.1
        glare = tuple(
            (float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 0.9)),
             float(rng.uniform(0.08, 0.3)), float(rng.uniform(0.3, 0.9)) * k)
            for _ in range(int(rng.integers(1, 3)) if glossy else 0))
        metal = int(rng.integers(40, 85))
        return cls(
            frame_size=frame_size,
            card_height_frac=float(rng.uniform(0.55 + 0.15 * (1 - k), 0.9 - 0.05 * (1 - k))),
            center_shift=(float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1))),
            rotation_deg=sym(6.0),
            tilt_deg=(sym(10.0), sym(10.0)),
            camera_height_mm=float(rng.uniform(80, 150)),
            upside_down=bool(rng.random() < 0.5),
            slot_side="right" if rng.random() < 0.8 else "left",
            lips_mm=(float(rng.uniform(0, 3)), float(rng.uniform(0, 3))),
            window_ends_mm=(float(rng.uniform(0, 3)), float(rng.uniform(0, 3))),
            frame_width_mm=float(rng.uniform(6, 14)),
            metal_bgr=(metal, metal + int(rng.integers(0, 6)), metal + int(rng.integers(0, 12))),
            reflection=float(rng.uniform(0.3, 1.0)) if rng.random() < 0.4 else 0.0,
            reflection_pos=float(rng.uniform(0, 1)),
            cloth_bgr=_CLOTHS[int(rng.integers(len(_CLOTHS)))],
            colour_temp_k=float(np.exp(rng.uniform(np.log(2700), np.log(6500)))),
            white_balance=float(rng.uniform(1 - 0.8 * k, 1.0 - 0.3 * k)),
            exposure=1.0 - 0.55 * dim + float(rng.uniform(0, 0.1)),
            gradient=float(rng.uniform(0, 0.5 * k)),
            gradient_angle_deg=float(rng.uniform(0, 360)),
            glare=glare,
            noise_sigma=1.0 + 13.0 * dim * float(rng.uniform(0.5, 1.0)),
            blur_sigma=float(rng.uniform(0.2, 0.3 + 1.2 * k)),
            jpeg_quality=int(rng.integers(95 - int(50 * k), 96)) if rng.random() < 0.8 else None,
            skin_bgr=_SKINS[int(rng.integers(len(_SKINS)))],
            gamma=float(np.exp(rng.uniform(-0.22, 0.22) * k)),
            saturation=1.0 + sym(0.3),
            sharpen=float(rng.uniform(0.3, 1.0)) * k if rng.random() < 0.3 else 0.0,
            # Only hard sessions get a wide lens: a lens is part of the rig, and stills of
            # "the same rig under other light" are easier to make without it.
            barrel=float(rng.uniform(0.0, 0.12)) if k == 1.0 and rng.random() < 0.5 else 0.0,
        )

    def relit(self, rng: np.random.Generator, difficulty: Difficulty = "normal") -> SceneParams:
        """The same rig (camera, lens, box, table and the camera's processing) under a
        newly drawn light, glare, noise, blur and compression: another evening."""
        other = SceneParams.random(rng, difficulty, self.frame_size)
        return replace(other, **{name: getattr(self, name) for name in _rig_fields()})


def _rig_fields() -> tuple[str, ...]:
    return ("frame_size", "card_height_frac", "center_shift", "rotation_deg", "tilt_deg",
            "camera_height_mm", "slot_side", "lips_mm", "window_ends_mm", "frame_width_mm",
            "metal_bgr", "cloth_bgr", "barrel", "gamma", "saturation", "sharpen")


_CLOTHS = ((40, 90, 30), (35, 70, 25), (40, 40, 120), (90, 50, 30), (60, 90, 130),
           (30, 30, 30), (150, 150, 150))
_SKINS = ((120, 150, 205), (100, 135, 190), (80, 110, 160), (60, 85, 130), (45, 60, 95),
          (140, 170, 220))
