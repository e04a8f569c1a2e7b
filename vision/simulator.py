"""The camera in the box: frames and whole deals as the rig's camera would see them.

A deal is planned first (:class:`DealScript`: when each card rests, slides out and leaves
through the slot, which is the ground truth), then rendered lazily, frame by frame, by a
:class:`SimulatedShoe`. Everything is seeded: the same seed gives the same frames.

>>> shoe = SimulatedShoe(faces, seed=7, timing=DealTiming.fast())   # doctest: +SKIP
>>> for t, frame in shoe.frames(fps=30): ...                        # doctest: +SKIP
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from shoe.cards import FaroError
from vision.dealscript import CardTruth, DealScript, DealTiming
from vision.scene import Difficulty, Layer, Scene, SceneParams, index_margin
from vision.sensor import (
    NOISE_SPARE_ROWS,
    add_noise,
    defocus,
    draw_sprite,
    jpeg,
    noise_pair,
    paste_moving,
    smear,
)
from vision.stills import lips_capped, width_mm

__all__ = [
    "CardTruth",
    "DealScript",
    "DealTiming",
    "SceneParams",
    "SimulatedShoe",
    "VideoWriteError",
    "simulate_deal",
    "write_video",
]


class VideoWriteError(FaroError):
    """OpenCV could not write the video file."""


@dataclass(slots=True)
class _Exposure:
    """One card's precomputed layers."""

    still: np.ndarray  # the card at rest in the box, as the camera gives it
    flat: np.ndarray  # the same before the lens and the sensor, to draw moving things on
    colour: np.ndarray  # the card alone (its bounding box), lit and blurred, for sliding
    mask: np.ndarray  # uint8 0/255 where the card is, in that box
    origin: tuple[int, int]  # the box's top-left in the frame


def _ease(u: float) -> float:
    u = min(1.0, max(0.0, u))
    return u * u * (3 - 2 * u)


class SimulatedShoe:
    """Renders a planned deal frame by frame; fast enough to be a live camera.

    ``faces`` are the cards in deal order (BGR on white, or BGRA). Each card's layers are
    rendered once (20–40 ms), on a worker thread while the card before it shows unless
    ``prefetch`` is off; a frame then costs a copy, the thumb, the sensor's noise and,
    while something moves, a JPEG round trip. ``close()`` stops the worker.
    """

    def __init__(self, faces: Sequence[np.ndarray], *, seed: int = 0,
                 params: SceneParams | None = None, timing: DealTiming | None = None,
                 difficulty: Difficulty = "normal", frame_size: tuple[int, int] = (640, 480),
                 script: DealScript | None = None, prefetch: bool = True) -> None:
        if not faces:
            raise ValueError("no faces to deal")
        rng = np.random.default_rng(seed)
        # The faces wait packed as PNG (lossless, a tenth of the memory): 52 bare faces are
        # a tenth of the service's memory budget, and each is needed once, to build its layers.
        self._packed = [_pack(f) for f in faces]
        self._widths_mm = [width_mm(f) for f in faces]
        params = params or SceneParams.random(rng, difficulty, frame_size)
        # The box fits the deck: its lips never hide a corner index (RIG.md).
        sample = faces[:: max(1, len(faces) // 8)]
        margin_mm = min(index_margin(f) for f in sample) * self._widths_mm[0]
        lip_cap = max(0.0, margin_mm - 0.4)
        params = lips_capped(params, lip_cap)
        self.params = params
        self.scene = Scene(params, (faces[0].shape[1], faces[0].shape[0]), rng)
        self._base = self.scene.develop(self.scene.base)
        self.script = script or DealScript.plan(len(faces), rng, timing)
        if len(self.script.cards) != len(faces):
            raise ValueError("the script and the faces disagree on the number of cards")
        self._rng = np.random.default_rng(seed + 1)
        self._cache: dict[int, _Exposure] = {}
        self._pending: dict[int, Future[_Exposure]] = {}
        self._pool = ThreadPoolExecutor(1, "sim-layers") if prefetch else None
        #: How many cards' layers have been built so far (for benchmarks).
        self.layers_built = 0
        self._thumb = self.scene.thumb_sprite()
        w, h = params.frame_size
        self._noise = [noise_pair(self._rng, params.noise_sigma * 0.7, (h, w, 3))
                       for _ in range(4)]
        box_or_window = cv2.bitwise_or(self.scene.window, cv2.bitwise_not(
            cv2.bitwise_or(self.scene.cover, self.scene.window)))
        self._slide_visible = box_or_window

    # -- public ---------------------------------------------------------------------------
    @property
    def truth(self) -> tuple[CardTruth, ...]:
        return self.script.cards

    @property
    def duration(self) -> float:
        return self.script.duration

    def frames(self, fps: float = 30.0) -> Iterator[tuple[float, np.ndarray]]:
        """``(t, frame)`` at ``fps`` from 0 to the end of the deal."""
        n = int(self.duration * fps) + 1
        for k in range(n):
            t = k / fps
            yield t, self.frame_at(t)

    def prepare(self, i: int) -> None:
        """Build card ``i``'s layers now (20–40 ms) rather than on its first frame, e.g.
        from a live source while card ``i - 1`` rests."""
        self._exposure(i)

    def frame_at(self, t: float) -> np.ndarray:
        """The frame the camera takes at ``t`` seconds (BGR uint8)."""
        i = self.script.card_at(t)
        truth = self.script.cards[i]
        self._forget_before(i)
        if truth.slide is None or t < truth.rest[1]:
            if t >= truth.rest[0]:
                return self._finish_still(self._exposure(i).still)
            return self._retracting(i - 1, t)
        if t < truth.slide[0]:
            return self._reaching(i, t)
        return self._sliding(i, t)

    # -- phases ---------------------------------------------------------------------------
    def _thumb_home(self, i: int) -> np.ndarray:
        """Where the thumb presses card ``i``, in mm from the card's centre."""
        r = np.random.default_rng(i * 7919 + 13)
        w_mm = self._widths_mm[i]
        # On the half away from the slot, so that it pushes the card towards it.
        return np.array([-self._slot_sign() * (0.2 * w_mm + r.uniform(-6, 6)),
                         r.uniform(-20, 20)])

    def _off_frame(self, at_mm: np.ndarray) -> np.ndarray:
        sign = 1 if self.params.slot_side == "right" else -1
        return at_mm + np.array([sign * 40.0, 75.0])

    def _reaching(self, i: int, t: float) -> np.ndarray:
        truth = self.script.cards[i]
        assert truth.slide is not None
        u = _ease((t - truth.rest[1]) / max(1e-6, truth.slide[0] - truth.rest[1]))
        home = self._thumb_home(i)
        at = self._off_frame(home) * (1 - u) + home * u
        frame = self._exposure(i).flat.copy()
        self._draw_thumb(frame, at)
        return self._finish_moving(frame)

    def _sliding(self, i: int, t: float) -> np.ndarray:
        truth = self.script.cards[i]
        assert truth.slide is not None
        s0, s1 = truth.slide
        lin = min(1.0, max(0.0, (t - s0) / max(1e-6, s1 - s0)))
        w_mm = self._widths_mm[i]
        travel = _ease(lin) * (w_mm + 6.0)
        under = self._exposure(i + 1).flat.copy()
        moving = self._exposure(i)
        shift = travel * self.scene.slide_vector()
        # The smear is the distance moved while the shutter is open (1/60 s).
        speed_mm_s = 6 * lin * (1 - lin) * (w_mm + 6.0) / max(1e-6, s1 - s0)
        blur = int(min(40, speed_mm_s / 60.0 * float(np.hypot(*self.scene.slide_vector()))))
        paste_moving(under, moving.colour, moving.mask, moving.origin, shift, blur,
                     self._slide_visible)
        self._draw_thumb(under, self._thumb_home(i) + np.array([self._slot_sign() * min(
            travel, self._thumb_stop(i)), 0.0]))
        return self._finish_moving(under)

    def _retracting(self, i: int, t: float) -> np.ndarray:
        """After card ``i`` left: the thumb goes away over card ``i + 1``."""
        truth, after = self.script.cards[i], self.script.cards[i + 1]
        assert truth.slide is not None
        u = _ease((t - truth.slide[1]) / max(1e-6, after.rest[0] - truth.slide[1]))
        stop = self._thumb_home(i) + np.array([self._slot_sign() * self._thumb_stop(i), 0.0])
        if truth.thumb_lingers:
            u = max(0.0, (u - 0.4) / 0.6)
        at = stop * (1 - u) + self._off_frame(stop) * u
        frame = self._exposure(i + 1).flat.copy()
        self._draw_thumb(frame, at)
        return self._finish_moving(frame)

    def _slot_sign(self) -> float:
        return 1.0 if self.params.slot_side == "right" else -1.0

    def _thumb_stop(self, i: int) -> float:
        """How far the thumb travels with the card before it lets go (mm)."""
        r = np.random.default_rng(i * 104729 + 1)
        return float(r.uniform(0.45, 0.8) * self._widths_mm[i])

    # -- drawing --------------------------------------------------------------------------
    def _exposure(self, i: int) -> _Exposure:
        if i not in self._cache:
            pending = self._pending.pop(i, None)
            self._cache[i] = pending.result() if pending is not None else self._build(i)
            self.layers_built += 1
        if i + 1 < len(self._packed):
            self._prefetch(i + 1)
        return self._cache[i]

    def _prefetch(self, i: int) -> None:
        """Start building card ``i``'s layers on a worker thread (OpenCV releases the GIL,
        so this uses another core). The build is deterministic, so frames stay seeded."""
        if self._pool is not None and i not in self._cache and i not in self._pending:
            self._pending[i] = self._pool.submit(self._build, i)

    def _build(self, i: int) -> _Exposure:
        truth = self.script.cards[i]
        scene = self.scene
        face = _unpack(self._packed[i])
        if (face.shape[1], face.shape[0]) != scene.card_size_px:
            face = cv2.resize(face, scene.card_size_px, interpolation=cv2.INTER_AREA)
        if truth.upside_down:
            face = np.ascontiguousarray(face[::-1, ::-1])
        layer = scene.card_layer(face, truth.offset_px)
        layer = Layer(scene.develop(defocus(layer.colour, self.params.blur_sigma)), layer.alpha,
                      layer.origin)
        flat = smear(defocus(scene.composite(self._base, layer, scene.window),
                             self.params.blur_sigma * 0.5), self.params.shake)
        return _Exposure(self._sensor(flat, i), flat, layer.colour,
                         np.where(layer.alpha > 0.5, 255, 0).astype(np.uint8), layer.origin)

    def _sensor(self, flat: np.ndarray, draw: int) -> np.ndarray:
        """An ideal frame through the lens and the sensor: distortion, the half of the noise
        that the camera's compression sees (field ``draw``), and the compression."""
        noise = self._noise[draw % len(self._noise)]
        seen = add_noise(self.scene.lens(flat), noise, draw % NOISE_SPARE_ROWS)
        return jpeg(seen, self.params.jpeg_quality)

    def _forget_before(self, i: int) -> None:
        for k in [k for k in self._cache if k < i - 1]:
            del self._cache[k]
        for k in [k for k in self._pending if k < i - 1]:
            self._pending.pop(k).cancel()

    def close(self) -> None:
        """Stop the worker thread that builds cards ahead."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def _draw_thumb(self, frame: np.ndarray, at_mm: np.ndarray) -> None:
        draw_sprite(frame, self._thumb, self.scene.mm_to_frame(at_mm[None, :])[0])

    def _finish_still(self, still: np.ndarray) -> np.ndarray:
        noise = self._noise[int(self._rng.integers(len(self._noise)))]
        return add_noise(still, noise, int(self._rng.integers(NOISE_SPARE_ROWS)))

    def _finish_moving(self, flat: np.ndarray) -> np.ndarray:
        return self._finish_still(self._sensor(flat, int(self._rng.integers(1 << 16))))


def _pack(face: np.ndarray) -> np.ndarray:
    ok, packed = cv2.imencode(".png", face, [cv2.IMWRITE_PNG_COMPRESSION, 1])
    if not ok:
        raise ValueError(f"cannot pack a face of shape {face.shape}")
    return packed


def _unpack(packed: np.ndarray) -> np.ndarray:
    face = cv2.imdecode(packed, cv2.IMREAD_UNCHANGED)
    assert face is not None  # it was packed here, losslessly
    return face


def simulate_deal(faces: Sequence[np.ndarray], rng: np.random.Generator, fps: float = 30.0,
                  **options: object) -> tuple[SimulatedShoe, Iterator[tuple[float, np.ndarray]]]:
    """A whole deal as video: the shoe (with ``.truth``) and its ``(t, frame)`` iterator.

    ``options`` go to :class:`SimulatedShoe` (``params``, ``timing``, ``difficulty`` …).
    """
    shoe = SimulatedShoe(faces, seed=int(rng.integers(2**31)), **options)  # type: ignore[arg-type]
    return shoe, shoe.frames(fps)


#: The container and codec that this OpenCV writes and reads back everywhere we tried.
VIDEO_FOURCC = "MJPG"


def write_video(path: str | os.PathLike[str],
                frames: Iterable[np.ndarray | tuple[float, np.ndarray]],
                fps: float = 30.0) -> int:
    """Write frames (or ``(t, frame)`` pairs) to an MJPG ``.avi``; returns the frame count."""
    path = Path(path)
    writer: cv2.VideoWriter | None = None
    count = 0
    try:
        for item in frames:
            frame = item[1] if isinstance(item, tuple) else item
            if writer is None:
                h, w = frame.shape[:2]
                writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*VIDEO_FOURCC), fps,
                                         (w, h))
                if not writer.isOpened():
                    raise VideoWriteError(f"OpenCV cannot write {VIDEO_FOURCC} video to {path}")
            writer.write(frame)
            count += 1
    finally:
        if writer is not None:
            writer.release()
    if count == 0:
        raise VideoWriteError(f"no frames to write to {path}")
    return count


def main(argv: Sequence[str] | None = None) -> int:
    """Write a simulated deal: ``python -m vision.simulator --out deal.avi [--seed N]``.

    Also writes ``<out>.json`` (each card's code and ground truth) and ``<out>.order.txt``
    (the codes in deal order, one a line).
    """
    import argparse
    import json
    from dataclasses import asdict

    from shoe.cards import FULL_DECK
    from vision import corpus, faces

    parser = argparse.ArgumentParser(prog="python -m vision.simulator", description=main.__doc__)
    parser.add_argument("--out", required=True, help="the video file (.avi, MJPG)")
    parser.add_argument("--seed", type=int, default=0, help="the shuffle, scene and dealer")
    parser.add_argument("--deck", default=None, help="an aisleriot deck (default: built-in)")
    parser.add_argument("--cards", type=int, default=52, help="deal the first N cards")
    parser.add_argument("--difficulty", default="normal", choices=["easy", "normal", "hard"])
    parser.add_argument("--fps", type=float, default=30.0)
    parser.add_argument("--fast", action="store_true", help="a fast dealer, no pauses")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    order = list(FULL_DECK)
    rng.shuffle(order)
    order = order[: args.cards]
    deck = (corpus.render_deck(args.deck, alpha=True) if args.deck
            else faces.builtin_deck(alpha=True))
    shoe = SimulatedShoe([deck[c] for c in order], seed=args.seed, difficulty=args.difficulty,
                         timing=DealTiming.fast() if args.fast else None)
    count = write_video(args.out, shoe.frames(args.fps), args.fps)
    shoe.close()
    truth = [{"card": card.code, **asdict(t)} for card, t in zip(order, shoe.truth, strict=True)]
    Path(f"{args.out}.json").write_text(json.dumps({"params": asdict(shoe.params),
                                                    "cards": truth}, indent=1))
    Path(f"{args.out}.order.txt").write_text("".join(f"{c.code}\n" for c in order))
    print(f"{args.out}: {count} frames, {len(order)} cards, {shoe.duration:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
