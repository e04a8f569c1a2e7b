"""The camera in the box: frames and whole deals as the rig's camera would see them.

A deal is planned first (:class:`DealScript`: when each card rests, slides out and leaves
through the slot, which is the ground truth), then rendered lazily, frame by frame, by a
:class:`SimulatedShoe`. Everything is seeded: the same seed gives the same frames.

>>> shoe = SimulatedShoe(faces, seed=7, timing=DealTiming.fast())   # doctest: +SKIP
>>> for t, frame in shoe.frames(fps=30): ...                        # doctest: +SKIP
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from shoe.cards import FaroError
from vision.scene import Difficulty, Layer, Scene, SceneParams, index_margin

__all__ = [
    "CardTruth",
    "DealScript",
    "DealTiming",
    "SceneParams",
    "SimulatedShoe",
    "StillCamera",
    "Thumb",
    "VideoWriteError",
    "render_frame",
    "simulate_deal",
    "write_video",
]


class VideoWriteError(FaroError):
    """OpenCV could not write the video file."""


@dataclass(frozen=True, slots=True)
class Thumb:
    """The dealer's thumb on the card: its tip at (x, y) in card widths/heights (0..1)."""

    x: float = 0.35
    y: float = 0.55


@dataclass(frozen=True, slots=True)
class DealTiming:
    """How the dealer moves, in seconds. Rests are log-uniform in ``rest_s``; with
    ``long_pause_p`` a rest is instead a pause (bets being placed) in ``long_pause_s``."""

    rest_s: tuple[float, float] = (0.4, 3.0)
    long_pause_p: float = 0.05
    long_pause_s: tuple[float, float] = (5.0, 60.0)
    reach_s: tuple[float, float] = (0.1, 0.3)  # the thumb comes onto the card
    slide_s: tuple[float, float] = (0.1, 0.3)  # the card slides out of the slot
    retract_s: tuple[float, float] = (0.05, 0.25)  # the thumb leaves the next card
    thumb_lingers_p: float = 0.5  # the thumb stops over the next card before leaving
    jitter_px: float = 2.0  # how far a card may sit from the last one

    @classmethod
    def fast(cls) -> DealTiming:
        """A fast dealer and no pauses: short videos for tests."""
        return cls(rest_s=(0.2, 0.4), long_pause_p=0.0, reach_s=(0.08, 0.15))

    @classmethod
    def for_pace(cls, cards_per_minute: float) -> DealTiming:
        """Rests around the pace asked (a turn is two cards), without long pauses."""
        if cards_per_minute <= 0:
            raise ValueError(f"pace must be positive, not {cards_per_minute}")
        period = 60.0 / cards_per_minute
        rest = max(0.2, period - 0.55)
        return cls(rest_s=(max(0.2, 0.7 * rest), 1.3 * rest), long_pause_p=0.0)


@dataclass(frozen=True, slots=True)
class CardTruth:
    """The ground truth of one card of a simulated deal (times in seconds from the start).

    ``rest``: the card lies still and wholly uncovered in the window. ``slide``: it moves
    out; ``leaves_at``: its trailing edge clears the slot, when a break-beam would fire.
    The last card never leaves (``slide`` and ``leaves_at`` are None).
    """

    index: int
    shown_at: float
    rest: tuple[float, float]
    slide: tuple[float, float] | None
    leaves_at: float | None
    upside_down: bool
    offset_px: tuple[float, float]
    thumb_lingers: bool


@dataclass(frozen=True, slots=True)
class DealScript:
    """The plan of a whole deal: every card's times and pose."""

    cards: tuple[CardTruth, ...]
    duration: float

    @classmethod
    def plan(cls, n_cards: int, rng: np.random.Generator, timing: DealTiming | None = None,
             *, upside_down_p: float = 0.5, last_rest_s: float = 1.0) -> DealScript:
        if n_cards < 1:
            raise ValueError("a deal needs at least one card")
        timing = timing or DealTiming()

        def span(bounds: tuple[float, float]) -> float:
            lo, hi = bounds
            return float(math.exp(rng.uniform(math.log(lo), math.log(hi))))

        cards = []
        t, shown = 0.0, 0.0
        offset = np.zeros(2)
        for i in range(n_cards):
            rest_start = t
            last = i == n_cards - 1
            if last:
                rest = last_rest_s
            elif rng.random() < timing.long_pause_p:
                rest = span(timing.long_pause_s)
            else:
                rest = span(timing.rest_s)
            rest_end = rest_start + rest
            lingers = bool(rng.random() < timing.thumb_lingers_p)
            slide = leaves = None
            if not last:
                slide_start = rest_end + span(timing.reach_s)
                slide = (slide_start, slide_start + span(timing.slide_s))
                leaves = slide[1]
            cards.append(CardTruth(
                index=i, shown_at=shown, rest=(rest_start, rest_end), slide=slide,
                leaves_at=leaves, upside_down=bool(rng.random() < upside_down_p),
                offset_px=(float(offset[0]), float(offset[1])), thumb_lingers=lingers))
            if slide is not None:
                shown = slide[0]
                t = slide[1] + span(timing.retract_s)
                # The spring holds each card against the window: it sits a pixel or two
                # from where the last one sat, never far from the first.
                offset = np.clip(offset + rng.normal(0, timing.jitter_px / 2, 2),
                                 -timing.jitter_px, timing.jitter_px)
        return cls(tuple(cards), cards[-1].rest[1])

    def card_at(self, t: float) -> int:
        """The index of the top card (the one in view, or sliding out) at time ``t``."""
        for truth in self.cards:
            if truth.slide is None or t < truth.slide[1]:
                return truth.index
        return self.cards[-1].index


@dataclass(slots=True)
class _Exposure:
    """One card's precomputed layers."""

    still: np.ndarray  # the card at rest in the box, lit, blurred, compressed
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
        self.faces = list(faces)
        params = params or SceneParams.random(rng, difficulty, frame_size)
        # The box fits the deck: its lips never hide a corner index (RIG.md).
        sample = self.faces[:: max(1, len(self.faces) // 8)]
        margin_mm = min(index_margin(f) for f in sample) * _width_mm(self.faces[0])
        lip_cap = max(0.0, margin_mm - 0.4)
        params = _lips_capped(params, lip_cap)
        self.params = params
        self.scene = Scene(params, (self.faces[0].shape[1], self.faces[0].shape[0]), rng)
        self.script = script or DealScript.plan(len(self.faces), rng, timing)
        if len(self.script.cards) != len(self.faces):
            raise ValueError("the script and the faces disagree on the number of cards")
        self._rng = np.random.default_rng(seed + 1)
        self._cache: dict[int, _Exposure] = {}
        self._pending: dict[int, Future[_Exposure]] = {}
        self._pool = ThreadPoolExecutor(1, "sim-layers") if prefetch else None
        #: How many cards' layers have been built so far (for benchmarks).
        self.layers_built = 0
        self._thumb = self.scene.thumb_sprite()
        w, h = params.frame_size
        self._noise = [_noise_pair(self._rng, params.noise_sigma * 0.7, (h, w, 3))
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
        w_mm = _width_mm(self.faces[i])
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
        frame = self._exposure(i).still.copy()
        self._draw_thumb(frame, at)
        return self._finish_moving(frame)

    def _sliding(self, i: int, t: float) -> np.ndarray:
        truth = self.script.cards[i]
        assert truth.slide is not None
        s0, s1 = truth.slide
        u = _ease((t - s0) / max(1e-6, s1 - s0))
        w_mm = _width_mm(self.faces[i])
        travel = u * (w_mm + 6.0)
        under = self._exposure(i + 1).still.copy()
        moving = self._exposure(i)
        shift = travel * self.scene.slide_vector()
        speed = (w_mm + 6.0) * 1.5 / max(1e-6, s1 - s0) / 30.0  # mm per frame at 30 fps, peak
        blur = int(min(40, speed * float(np.hypot(*self.scene.slide_vector())) * 0.5))
        _paste_moving(under, moving, shift, blur, self._slide_visible)
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
        frame = self._exposure(i + 1).still.copy()
        self._draw_thumb(frame, at)
        return self._finish_moving(frame)

    def _slot_sign(self) -> float:
        return 1.0 if self.params.slot_side == "right" else -1.0

    def _thumb_stop(self, i: int) -> float:
        """How far the thumb travels with the card before it lets go (mm)."""
        r = np.random.default_rng(i * 104729 + 1)
        return float(r.uniform(0.45, 0.8) * _width_mm(self.faces[i]))

    # -- drawing --------------------------------------------------------------------------
    def _exposure(self, i: int) -> _Exposure:
        if i not in self._cache:
            pending = self._pending.pop(i, None)
            self._cache[i] = pending.result() if pending is not None else self._build(i)
            self.layers_built += 1
        if i + 1 < len(self.faces):
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
        face = self.faces[i]
        if (face.shape[1], face.shape[0]) != scene.card_size_px:
            face = cv2.resize(face, scene.card_size_px, interpolation=cv2.INTER_AREA)
        if truth.upside_down:
            face = np.ascontiguousarray(face[::-1, ::-1])
        layer = scene.card_layer(face, truth.offset_px)
        layer = Layer(_defocus(layer.colour, self.params.blur_sigma), layer.alpha, layer.origin)
        still = scene.composite(scene.base, layer, scene.window)
        still = _defocus(still, self.params.blur_sigma * 0.5)
        still = _add_noise(still, self._noise[i % len(self._noise)])
        return _Exposure(_jpeg(still, self.params.jpeg_quality), layer.colour,
                         np.where(layer.alpha > 0.5, 255, 0).astype(np.uint8), layer.origin)

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
        _draw_sprite(frame, self._thumb, self.scene.mm_to_frame(at_mm[None, :])[0])

    def _finish_still(self, still: np.ndarray) -> np.ndarray:
        noise = self._noise[int(self._rng.integers(len(self._noise)))]
        return _add_noise(still, noise, int(self._rng.integers(_NOISE_SPARE_ROWS)))

    def _finish_moving(self, frame: np.ndarray) -> np.ndarray:
        frame = _jpeg(frame, self.params.jpeg_quality)
        return self._finish_still(frame)


def _draw_sprite(frame: np.ndarray, sprite: Layer, tip: np.ndarray) -> None:
    """Blend the thumb into ``frame`` in place, its tip at ``tip`` (frame pixels)."""
    th, tw = sprite.alpha.shape
    x0, y0 = int(tip[0]) - sprite.origin[0], int(tip[1]) - sprite.origin[1]
    fh, fw = frame.shape[:2]
    xa, ya, xb, yb = max(0, x0), max(0, y0), min(fw, x0 + tw), min(fh, y0 + th)
    if xa >= xb or ya >= yb:
        return
    src = np.s_[ya - y0: yb - y0, xa - x0: xb - x0]
    a = sprite.alpha[src][:, :, None]
    region = frame[ya:yb, xa:xb].astype(np.float32)
    frame[ya:yb, xa:xb] = (region * (1 - a) + sprite.colour[src] * a + 0.5).astype(np.uint8)


def _lips_capped(params: SceneParams, most_mm: float) -> SceneParams:
    left, right = params.lips_mm
    return replace(params, lips_mm=(min(left, most_mm), min(right, most_mm)))


def _width_mm(face: np.ndarray) -> float:
    return 88.9 * face.shape[1] / face.shape[0]


def _defocus(image: np.ndarray, sigma: float) -> np.ndarray:
    return cv2.GaussianBlur(image, (0, 0), sigma) if sigma >= 0.3 else image


_NOISE_SPARE_ROWS = 64


def _noise_pair(rng: np.random.Generator, sigma: float, shape: tuple[int, ...]
                ) -> tuple[np.ndarray, np.ndarray]:
    """Gaussian noise split into what it adds and what it takes away, as uint8 (two
    saturating OpenCV calls apply it, much faster than signed arithmetic), with spare rows
    so that one field gives many different frames."""
    noise = rng.standard_normal((shape[0] + _NOISE_SPARE_ROWS, *shape[1:]), dtype=np.float32)
    noise *= np.float32(sigma)
    return (np.clip(noise, 0, 255).astype(np.uint8), np.clip(-noise, 0, 255).astype(np.uint8))


def _add_noise(image: np.ndarray, noise: tuple[np.ndarray, np.ndarray], start: int = 0
               ) -> np.ndarray:
    """``image`` plus a noise field, read from row ``start`` of it."""
    h = image.shape[0]
    plus, minus = noise[0][start: start + h], noise[1][start: start + h]
    return cv2.subtract(cv2.add(image, plus), minus)


def _jpeg(image: np.ndarray, quality: int | None) -> np.ndarray:
    if quality is None:
        return image
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return decoded if decoded is not None else image


def _paste_moving(frame: np.ndarray, card: _Exposure, shift: np.ndarray, blur: int,
                  visible: np.ndarray) -> None:
    """Paste the card moved by ``shift`` pixels (smeared along it by ``blur`` pixels) into
    ``frame`` where ``visible`` lets it show, in place."""
    colour, mask = card.colour, card.mask
    if blur >= 3:
        k = blur | 1
        size = (k, 1) if abs(shift[0]) >= abs(shift[1]) else (1, k)
        colour, mask = cv2.blur(colour, size), cv2.blur(mask, size)
        mask = cv2.threshold(mask, 127, 255, cv2.THRESH_BINARY)[1]
    fh, fw = frame.shape[:2]
    x0, y0 = card.origin[0] + round(float(shift[0])), card.origin[1] + round(float(shift[1]))
    h, w = mask.shape
    xa, ya, xb, yb = max(0, x0), max(0, y0), min(fw, x0 + w), min(fh, y0 + h)
    if xa >= xb or ya >= yb:
        return
    src = np.s_[ya - y0: yb - y0, xa - x0: xb - x0]
    show = cv2.bitwise_and(mask[src], visible[ya:yb, xa:xb])
    cv2.copyTo(colour[src], show, frame[ya:yb, xa:xb])


# --- single frames and videos ---------------------------------------------------------------

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
        self.params = _lips_capped(params, max(0.0, margin * _width_mm(faces[0]) - 0.4))
        self.card_size = (faces[0].shape[1], faces[0].shape[0])
        self.rng = rng
        self.scene = Scene(self.params, self.card_size, rng)
        self._thumb = self.scene.thumb_sprite()
        # Drawing fresh noise costs more than the rest of a still: draw a few fields once
        # and read each still's from a random row.
        w, h = self.params.frame_size
        self._noise = [_noise_pair(rng, self.params.noise_sigma * 0.7, (h, w, 3))
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
        layer = Layer(_defocus(layer.colour, params.blur_sigma), layer.alpha, layer.origin)
        frame = scene.composite(scene.base, layer, scene.window)
        frame = _defocus(frame, params.blur_sigma * 0.5)
        if thumb is not None:
            at = np.array([(thumb.x - 0.5) * _width_mm(face), (thumb.y - 0.5) * 88.9])
            _draw_sprite(frame, self._thumb, scene.mm_to_frame(at[None, :])[0])
        frame = _add_noise(frame, self._noise[int(rng.integers(3))],
                           int(rng.integers(_NOISE_SPARE_ROWS)))
        frame = _jpeg(frame, params.jpeg_quality)
        return _add_noise(frame, self._noise[int(rng.integers(3))],
                          int(rng.integers(_NOISE_SPARE_ROWS)))


def render_frame(face: np.ndarray, params: SceneParams, rng: np.random.Generator, *,
                 thumb: Thumb | None = None, offset_px: float = 0.0) -> np.ndarray:
    """One still of ``face`` lying in the box (BGR uint8, ``params.frame_size``).

    ``offset_px`` moves the card that far in a random direction; ``thumb`` puts the
    dealer's thumb on it. It builds the scene each time: for many stills under one
    session's conditions use :class:`StillCamera`.
    """
    return StillCamera(params, rng, [face]).shoot(face, thumb=thumb, offset_px=offset_px)


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
