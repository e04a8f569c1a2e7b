"""Change and rest detection in the box's window, cheap enough to run on every camera frame.

Each frame is cut to the window, turned grey and shrunk to a few thousand pixels. Frames are
compared after undoing the overall gain between them (the median ratio), so a flickering
lamp or a camera's gain step is not motion. Two numbers come out: ``motion``, the share of
pixels unlike the previous frame, and ``drift``, the share unlike the reference of the rest
in progress (slow creeping motion adds up there).

A **rest** starts after ``still_frames`` frames in a row with no motion, and ends at the
first disturbed frame. Each new rest is compared with the last one: it shows a **new card**
when the disturbance swept across both the top and the bottom of the window (the dealer's
thumb slid the top card out; this is what counts two cards of the same look) or when the
face changed at two opposite corners (where the indices are). A hand that hovers, a
flicker or a thumb that lifts off the resting card does neither, so it is not counted.

>>> detector = MotionDetector()
>>> for t, frame in frames:                                  # doctest: +SKIP
...     event = detector.update(t, frame)
...     if isinstance(event, RestStarted) and event.new_card:
...         print("a new card at rest at", event.t)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from vision.window import Window

__all__ = [
    "MotionDetector",
    "MotionEvent",
    "MotionSettings",
    "Phase",
    "Rest",
    "RestEnded",
    "RestStarted",
    "iter_rests",
]


class Phase(enum.Enum):
    MOVING = "moving"
    RESTING = "resting"


@dataclass(frozen=True, slots=True)
class RestStarted:
    """A rest is known at frame ``index`` (time ``t``): ``still_frames`` frames showed no
    motion. The window has looked like this since ``since`` (the frame before the first
    still one), which is when the card came to rest.

    ``new_card`` is the motion's verdict: a new card lies in the window. ``sweep`` is the
    share of the window the disturbance before it changed at some moment, ``face_change``
    the share that differs from the previous rest in the window's top-left or bottom-right
    corner, whichever is less (a new face changes both corner indices; a thumb lifting off
    the card seldom covers both); ``disturbed_at`` is when that disturbance began (None for the
    first rest).
    """

    index: int
    t: float
    since: float
    new_card: bool
    sweep: float
    face_change: float
    disturbed_at: float | None


@dataclass(frozen=True, slots=True)
class RestEnded:
    """The rest ended: frame ``index`` (time ``t``) is the first disturbed one."""

    index: int
    t: float


MotionEvent = RestStarted | RestEnded


@dataclass(frozen=True, slots=True)
class MotionSettings:
    """The detector's thresholds. Shares are of the window's pixels, levels of its white.

    ``pixel_level``: a pixel changed when it moved by this share of the white (or by
    ``noise_factor`` times the measured noise, if that is more). ``learn_window``: find the
    card at the first rest and watch only its window (a window given to the detector is
    kept if none is found).
    """

    small_height: int = 48
    still_frames: int = 2
    pixel_level: float = 0.08
    noise_factor: float = 6.0
    still_share: float = 0.006
    move_share: float = 0.02
    sweep_share: float = 0.35
    face_share: float = 0.08
    learn_window: bool = True


class MotionDetector:
    """Follows the window frame by frame; :meth:`update` says when a rest starts or ends."""

    def __init__(
        self, window: Window | None = None, settings: MotionSettings | None = None
    ) -> None:
        self.settings = settings or MotionSettings()
        self.window = window
        self.phase = Phase.MOVING
        self.motion = 1.0  # share changed since the previous frame
        self.drift = 0.0  # share changed since the rest's reference
        # A given window (a deck profile's) is a hint: the camera may have moved since, so
        # the card found at the first rest wins; set learn_window=False to keep it fixed.
        self._learn = self.settings.learn_window
        self._index = -1
        self._prev: np.ndarray | None = None
        self._ref: np.ndarray | None = None  # the present rest's look
        self._last_rest: np.ndarray | None = None  # the look of the previous rest
        self._swept: np.ndarray | None = None  # pixels changed during the disturbance
        self._still = 0
        self._still_since = 0.0
        self._prev_t = self._before_t = 0.0
        self._disturbed_at: float | None = None
        self._noise = 0.0
        self._scratch: np.ndarray | None = None

    @property
    def is_still(self) -> bool:
        """The last frame showed no motion (a frame fit to read while resting)."""
        return self.motion < self.settings.still_share

    def update(self, t: float, frame: np.ndarray) -> MotionEvent | None:
        """Take the next frame (BGR or grey); say whether a rest started or ended on it."""
        self._index += 1
        self._before_t, self._prev_t = self._prev_t, t
        small = self._shrink(frame)
        prev, self._prev = self._prev, small
        if prev is None or prev.shape != small.shape:
            self.motion = 1.0
            return None
        changed = self._changed(small, prev)
        self.motion = float(np.count_nonzero(changed)) / changed.size
        if self.phase is Phase.RESTING:
            return self._while_resting(t, small)
        return self._while_moving(t, small, frame, changed)

    # -- inside -------------------------------------------------------------------------

    def _while_resting(self, t: float, small: np.ndarray) -> MotionEvent | None:
        s = self.settings
        assert self._ref is not None
        drift_mask = self._changed(small, self._ref)
        self.drift = float(np.count_nonzero(drift_mask)) / drift_mask.size
        if self.motion > s.move_share or self.drift > s.move_share:
            self.phase = Phase.MOVING
            self._still = 0
            self._disturbed_at = t
            self._last_rest = self._ref
            self._swept = drift_mask
            return RestEnded(self._index, t)
        if self.is_still:
            # Follow slow lighting drift, so an evening's dusk is not motion.
            cv2.accumulateWeighted(small, self._ref, 0.05)
            self._track_noise()
        return None

    def _while_moving(
        self, t: float, small: np.ndarray, frame: np.ndarray, changed: np.ndarray
    ) -> MotionEvent | None:
        s = self.settings
        if self._swept is not None:
            np.logical_or(self._swept, changed, out=self._swept)
        self._still = self._still + 1 if self.is_still else 0
        if self._still == 1:
            self._still_since = self._before_t
        if self._still < s.still_frames:
            return None
        if self._learn:
            # Learned from a rest, where the card lies still and whole; tried again at each
            # rest until it is found (a hand may have been over the first one).
            window = Window.find(frame)
            if window is not None:
                self._learn = False
                self.window = window
                small = self._prev = self._shrink(frame)
        sweep = _sweep(self._swept) if self._swept is not None else 1.0
        if self._last_rest is None:
            face_change, new_card = 1.0, True  # the first card
        elif self._last_rest.shape == small.shape:
            face_change = _face_change(self._changed(small, self._last_rest))
            new_card = sweep >= s.sweep_share or face_change >= s.face_share
        else:
            face_change = 0.0  # the window was found just now: only the sweep can tell
            new_card = sweep >= s.sweep_share
        self.phase = Phase.RESTING
        self._ref = small.copy()
        self._swept = None
        self.drift = 0.0
        event = RestStarted(
            self._index, t, self._still_since, new_card, sweep, face_change, self._disturbed_at
        )
        self._disturbed_at = None
        return event

    def _shrink(self, frame: np.ndarray) -> np.ndarray:
        part = self.window.clip(frame) if self.window else frame
        h, w = part.shape[:2]
        # A whole shrink factor: OpenCV's area averaging has a fast path for it.
        k = max(1, h // self.settings.small_height)
        h, w = h // k * k, max(k, w // k * k)
        small = cv2.resize(part[:h, :w], (w // k, h // k), interpolation=cv2.INTER_AREA)
        if small.ndim == 3:
            small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        out = small.astype(np.float32)
        out += 1.0  # never zero: frames are compared by ratio
        return out

    def _changed(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Where ``a`` differs from ``b`` once the light's overall gain between them is undone.

        A flicker or the camera's auto-gain scales every pixel alike; a thumb or a glare
        spot changes only some, so the median ratio is the gain.
        """
        if self._scratch is None or self._scratch.shape != a.shape:
            self._scratch = np.empty_like(a)
        scratch = self._scratch
        np.divide(a, b, out=scratch)
        gain = float(np.median(scratch))
        flat = b.reshape(-1)
        k = flat.size * 9 // 10
        white = float(np.partition(flat, k)[k]) * gain
        np.multiply(b, gain, out=scratch)
        cv2.absdiff(a, scratch, dst=scratch)
        level = max(self.settings.pixel_level * white, self.settings.noise_factor * self._noise)
        return scratch > level

    def _track_noise(self) -> None:
        assert self._scratch is not None
        # The median step of a still pixel, followed slowly: low light raises it.
        step = float(np.median(self._scratch))
        self._noise += 0.05 * (step - self._noise)


@dataclass(frozen=True, slots=True)
class Rest:
    """One card at rest in a video: its frame span and a few of its still frames (copies)."""

    number: int
    start: int
    end: int
    t_start: float
    t_end: float
    frames: tuple[np.ndarray, ...]


def iter_rests(
    frames: Iterable[tuple[float, np.ndarray]],
    *,
    window: Window | None = None,
    motion: MotionSettings | None = None,
    keep: int = 5,
) -> Iterator[Rest]:
    """The cards of a video, one :class:`Rest` each, by the same motion rules as the tracker.

    A rest that shows no new card (a hand hovering, a flicker) joins the card before it.
    Each Rest holds up to ``keep`` of its still frames, spread over the whole rest (the
    first ones may still have the dealer's thumb on the card), in order.
    """
    detector = MotionDetector(window, motion)
    number, start, t_start = -1, 0, 0.0
    sampler = _Spread(keep)
    index, t, last_t = -1, 0.0, 0.0
    for index, (t, frame) in enumerate(frames):
        event = detector.update(t, frame)
        if isinstance(event, RestStarted) and event.new_card:
            if number >= 0:
                yield Rest(number, start, index - 1, t_start, last_t, sampler.take())
            number, start, t_start = number + 1, index, t
        if number >= 0 and detector.phase is Phase.RESTING and detector.is_still:
            sampler.offer(frame)
        last_t = t
    if number >= 0:
        yield Rest(number, start, index, t_start, t, sampler.take())


class _Spread:
    """Keeps about ``keep`` frames spread evenly over a stream of unknown length: every
    ``stride``-th frame, halving what is kept and doubling the stride when it fills up."""

    def __init__(self, keep: int) -> None:
        self.keep = max(1, keep)
        self._kept: list[np.ndarray] = []
        self._stride = 1
        self._count = 0

    def offer(self, frame: np.ndarray) -> None:
        if self._count % self._stride == 0:
            self._kept.append(frame.copy())
            if len(self._kept) >= 2 * self.keep:
                self._kept = self._kept[1::2]
                self._stride *= 2
        self._count += 1

    def take(self) -> tuple[np.ndarray, ...]:
        kept, self._kept, self._stride, self._count = self._kept, [], 1, 0
        if len(kept) > self.keep:
            picks = np.linspace(len(kept) - 1, 0, self.keep).round().astype(int)[::-1]
            kept = [kept[i] for i in picks]
        return tuple(kept)


def _sweep(swept: np.ndarray) -> float:
    """The share swept in the top quarter or the bottom quarter, whichever is less.

    A card sliding out crosses the window from top to bottom; a thumb or a hand coming in
    from one side seldom reaches across both.
    """
    rows = max(1, swept.shape[0] // 4)
    top = np.count_nonzero(swept[:rows]) / swept[:rows].size
    bottom = np.count_nonzero(swept[-rows:]) / swept[-rows:].size
    return float(min(top, bottom))


def _face_change(changed: np.ndarray) -> float:
    """The share changed at two opposite corners (the less changed of the two), on the
    diagonal that changed more.

    Opposite corners hold the indices of a card lying either way up: a new face changes
    both, while a thumb or a hand lifting off the card seldom covers both at once. Most
    decks print the index top left and bottom right; some print the suit there and the
    rank on the other diagonal, where two cards of one suit differ (a blind deck's 2C and
    JC showed no change top left and bottom right).
    """
    rows, cols = changed.shape
    h, w = max(1, rows // 4), max(1, cols * 3 // 10)

    def share(part: np.ndarray) -> float:
        return np.count_nonzero(part) / (h * w)

    main = min(share(changed[:h, :w]), share(changed[-h:, -w:]))
    other = min(share(changed[:h, -w:]), share(changed[-h:, :w]))
    return float(max(main, other))
