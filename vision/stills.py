"""Stills of a card lying in the box, as the rig's camera sees it (:mod:`vision.scene`).

>>> camera = StillCamera(SceneParams.random(rng, "hard"), rng, faces)   # doctest: +SKIP
>>> frame = camera.shoot(faces[0], upside_down=True)                    # doctest: +SKIP
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.scene import Layer, Scene, SceneParams, index_margin
from vision.sensor import (
    NOISE_SPARE_ROWS,
    add_noise,
    defocus,
    draw_sprite,
    jpeg,
    noise_pair,
    smear,
)

__all__ = ["StillCamera", "Thumb", "lips_capped", "nearer_edge", "render_frame", "width_mm"]


@dataclass(frozen=True, slots=True)
class Thumb:
    """The dealer's thumb on the card: its tip at (x, y) in card widths/heights (0..1)."""

    x: float = 0.35
    y: float = 0.55

    @classmethod
    def random(cls, rng: np.random.Generator) -> Thumb:
        """A thumb somewhere on the card's middle, clear of both corner indices."""
        return cls(rng.uniform(0.3, 0.45), rng.uniform(0.5, 0.65))


def lips_capped(params: SceneParams, most_mm: float) -> SceneParams:
    """The params with neither lip hiding more than ``most_mm`` of the card."""
    left, right = params.lips_mm
    return replace(params, lips_mm=(min(left, most_mm), min(right, most_mm)))


def nearer_edge(face: np.ndarray, share: float) -> np.ndarray:
    """A card face (BGR, or BGRA) whose design stands nearer its edge: cut by ``share`` of
    its height and width all round and enlarged back, a BGRA face given the whole face's
    outline (alpha), so that its rounded corners stay."""
    h, w = face.shape[:2]
    dy, dx = round(share * h), round(share * w)
    out = cv2.resize(face[dy:h - dy, dx:w - dx], (w, h), interpolation=cv2.INTER_CUBIC)
    if face.shape[2] == 4:
        out[..., 3] = face[..., 3]
    return out


def width_mm(face: np.ndarray) -> float:
    """The width of a face's card, in mm, for a card 88.9 mm tall."""
    return 88.9 * face.shape[1] / face.shape[0]


class StillCamera:
    """Stills of many faces under one session's camera, box and light.

    Builds the scene once (the slow part), so each :meth:`shoot` costs a warp, a composite
    and the sensor. The first of ``faces`` sets the card's size in pixels (other faces are
    resized to it); the lips are capped so that no corner index of any of them is hidden.
    """

    def __init__(self, params: SceneParams, rng: np.random.Generator,
                 faces: Sequence[np.ndarray]) -> None:
        if not faces:
            raise ValueError("StillCamera needs at least one face to size the card")
        margin = min(index_margin(f) for f in faces[:: max(1, len(faces) // 8)])
        self.params = lips_capped(params, max(0.0, margin * width_mm(faces[0]) - 0.4))
        self.card_size = (faces[0].shape[1], faces[0].shape[0])
        self.rng = rng
        self.scene = Scene(self.params, self.card_size, rng)
        self._base = self.scene.develop(self.scene.base)
        self._thumb = self.scene.thumb_sprite()
        # Drawing fresh noise costs more than the rest of a still: draw a few fields once
        # and read each still's from a random row.
        w, h = self.params.frame_size
        self._noise = [noise_pair(rng, self.params.noise_sigma * 0.7, (h, w, 3))
                       for _ in range(3)]

    def shoot(self, face: np.ndarray, *, upside_down: bool | None = None,
              thumb: Thumb | None = None, offset_px: float = 0.0) -> np.ndarray:
        """One still of ``face`` in the box (BGR uint8). ``upside_down`` defaults to the
        params'; ``offset_px`` moves the card that far in a random direction; ``thumb``
        puts the dealer's thumb on it."""
        params, scene, rng = self.params, self.scene, self.rng
        if (face.shape[1], face.shape[0]) != self.card_size:
            face = cv2.resize(face, self.card_size, interpolation=cv2.INTER_AREA)
        if params.upside_down if upside_down is None else upside_down:
            face = np.ascontiguousarray(face[::-1, ::-1])
        angle = rng.uniform(0, 2 * math.pi)
        offset = (offset_px * math.cos(angle), offset_px * math.sin(angle))
        layer = scene.card_layer(face, offset)
        layer = Layer(scene.develop(defocus(layer.colour, params.blur_sigma)), layer.alpha,
                      layer.origin)
        frame = scene.composite(self._base, layer, scene.window)
        frame = defocus(frame, params.blur_sigma * 0.5)
        if thumb is not None:
            at = np.array([(thumb.x - 0.5) * width_mm(face), (thumb.y - 0.5) * 88.9])
            draw_sprite(frame, self._thumb, scene.mm_to_frame(at[None, :])[0])
        frame = smear(frame, params.shake)
        frame = add_noise(scene.lens(frame), self._noise[int(rng.integers(3))],
                          int(rng.integers(NOISE_SPARE_ROWS)))
        frame = jpeg(frame, params.jpeg_quality)
        return add_noise(frame, self._noise[int(rng.integers(3))],
                          int(rng.integers(NOISE_SPARE_ROWS)))


def render_frame(face: np.ndarray, params: SceneParams, rng: np.random.Generator, *,
                 thumb: Thumb | None = None, offset_px: float = 0.0) -> np.ndarray:
    """One still of ``face`` lying in the box (BGR uint8, ``params.frame_size``).

    ``offset_px`` moves the card that far in a random direction; ``thumb`` puts the
    dealer's thumb on it. It builds the scene each time: for many stills under one
    session's conditions use :class:`StillCamera`.
    """
    return StillCamera(params, rng, [face]).shoot(face, thumb=thumb, offset_px=offset_px)
