"""Cameras: one interface over picamera2, V4L2/USB, video files, image folders and the
simulated camera-in-box, plus a wrapper that reopens a lost camera with backoff.

>>> camera = open_camera("folder:tests/data/frames")          # doctest: +SKIP
>>> for frame in camera.frames():                              # doctest: +SKIP
...     reader.read(frame.image)

A camera's ``read()`` returns the next :class:`Frame`, or ``None`` when its source has
ended (the end of a file or folder, a finished simulated deal); it raises
:class:`~hardware.errors.CameraUnavailableError` when a device stops giving frames.
:class:`ReconnectingCamera` never raises that: it reports the loss through ``on_status``,
returns ``None`` while the camera is away, and reopens it with growing pauses.
"""

from __future__ import annotations

import abc
import collections
import enum
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from hardware.errors import (
    CameraConfigError,
    CameraUnavailableError,
    HardwareConfigError,
    UnknownDriverError,
)

__all__ = [
    "Camera",
    "CameraSettings",
    "CameraStatus",
    "FpsMeter",
    "Frame",
    "Pacer",
    "ReconnectingCamera",
    "open_camera",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Frame:
    """One picture: ``t`` in seconds on the source's clock (``time.monotonic()`` at arrival
    for a live camera, the same clock as the break-beam; the position in a recording; the
    simulator's time), ``image`` BGR uint8, ``index`` from 0."""

    t: float
    image: np.ndarray
    index: int


class FpsMeter:
    """Frames per second measured over the last ``window`` arrivals (wall clock)."""

    def __init__(self, window: int = 30, clock: Callable[[], float] = time.monotonic) -> None:
        self._times: collections.deque[float] = collections.deque(maxlen=window)
        self._clock = clock

    def tick(self) -> None:
        self._times.append(self._clock())

    @property
    def fps(self) -> float:
        if len(self._times) < 2 or self._times[-1] == self._times[0]:
            return 0.0
        return (len(self._times) - 1) / (self._times[-1] - self._times[0])

    def reset(self) -> None:
        self._times.clear()


class Pacer:
    """Holds frames of a recorded source back to real time: frame ``n`` is released at
    ``n / (fps * pace)`` s after the first. ``pace=0`` releases them as fast as asked."""

    def __init__(
        self,
        fps: float,
        pace: float,
        *,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if fps <= 0:
            raise CameraConfigError(f"camera.fps: {fps} must be above 0")
        if pace < 0:
            raise CameraConfigError(f"camera.pace: {pace} must be 0 (as fast as possible) or more")
        self.fps, self.pace = fps, pace
        self._sleep, self._clock = sleep, clock
        self._start: float | None = None

    def wait(self, index: int) -> None:
        if self.pace == 0:
            return
        now = self._clock()
        if self._start is None:
            self._start = now - index / (self.fps * self.pace)
        delay = self._start + index / (self.fps * self.pace) - now
        if delay > 0:
            self._sleep(delay)


class Camera(abc.ABC):
    """A source of frames. Subclasses give ``_grab()``; this gives fps, iteration, close."""

    #: Setting-style name of the source, for messages (``usb:0``, ``file:deal.avi``…).
    name: str = "camera"

    def __init__(self) -> None:
        self._meter = FpsMeter()
        self._index = 0
        self.closed = False

    @abc.abstractmethod
    def _grab(self) -> tuple[np.ndarray, float] | None:
        """The next image and its time, None at the end of the source; raise
        CameraUnavailableError if the device stopped."""

    def _release(self) -> None:  # noqa: B027 - most sources have nothing to release
        """Free the device."""

    def read(self) -> Frame | None:
        if self.closed:
            raise CameraUnavailableError(f"{self.name}: the camera is closed")
        grabbed = self._grab()
        if grabbed is None:
            return None
        image, t = grabbed
        self._meter.tick()
        frame = Frame(t, image, self._index)
        self._index += 1
        return frame

    def frames(self) -> Iterator[Frame]:
        """Every frame until the source ends."""
        while (frame := self.read()) is not None:
            yield frame

    @property
    def fps(self) -> float:
        """Frames per second actually delivered lately (0 before two frames)."""
        return self._meter.fps

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._release()

    def __enter__(self) -> Camera:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class CameraStatus(enum.Enum):
    """What a :class:`ReconnectingCamera` is doing, as ``on_status`` reports it."""

    RUNNING = "running"
    LOST = "lost"  # no frames; reopening with backoff
    ENDED = "ended"  # a recorded source came to its end


class ReconnectingCamera(Camera):
    """A camera that survives its device: ``opener()`` builds the inner camera, again after
    each loss, waiting ``backoff`` s, doubling up to ``max_backoff``. ``read()`` returns
    None while the camera is away, after waiting at most ``poll`` s, so the caller's loop
    keeps turning (and can ping its watchdog). ``on_status(status, message)`` hears every
    change."""

    def __init__(
        self,
        opener: Callable[[], Camera],
        *,
        name: str = "camera",
        on_status: Callable[[CameraStatus, str], None] | None = None,
        backoff: float = 0.5,
        max_backoff: float = 10.0,
        poll: float = 0.5,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.name = name
        self._opener = opener
        self._on_status = on_status
        self._backoff, self._max_backoff, self._poll = backoff, max_backoff, poll
        self._sleep, self._clock = sleep, clock
        self._inner: Camera | None = None
        self._delay = backoff
        self._retry_at = 0.0
        self.status = CameraStatus.LOST
        self.losses = 0

    def _report(self, status: CameraStatus, message: str) -> None:
        if status is not self.status or status is CameraStatus.LOST:
            log.log(logging.INFO if status is CameraStatus.RUNNING else logging.WARNING,
                    "%s: %s", self.name, message)
            self.status = status
            if self._on_status is not None:
                self._on_status(status, message)

    def _lose(self, error: Exception) -> None:
        if self._inner is not None:
            self._inner.close()
            self._inner = None
            self.losses += 1
            self._delay = self._backoff
        self._retry_at = self._clock() + self._delay
        self._report(CameraStatus.LOST, f"no frames ({error}); retrying in {self._delay:g} s")
        self._delay = min(self._delay * 2, self._max_backoff)

    def _grab(self) -> tuple[np.ndarray, float] | None:
        # None both at the end of a recording (status ENDED) and while the camera is away.
        if self.status is CameraStatus.ENDED:
            return None
        if self._inner is None:
            wait = self._retry_at - self._clock()
            if wait > 0:
                self._sleep(min(wait, self._poll))
                return None
            try:
                self._inner = self._opener()
            except HardwareConfigError:
                raise  # a setting to fix, not a device to wait for
            except Exception as error:  # a driver's own exception must not end the service
                if not isinstance(error, CameraUnavailableError):
                    log.exception("%s: unexpected failure opening the camera", self.name)
                self._lose(error)
                return None
        try:
            frame = self._inner.read()
        except CameraUnavailableError as error:
            self._lose(error)
            return None
        except Exception as error:  # a driver's own exception must not end the service
            log.exception("%s: unexpected camera failure", self.name)
            self._lose(error)
            return None
        if frame is None:
            self._report(CameraStatus.ENDED, "the source has ended")
            return None
        if self.status is not CameraStatus.RUNNING:
            self._delay = self._backoff
            self._report(CameraStatus.RUNNING, "giving frames")
        return frame.image, frame.t

    def frames(self) -> Iterator[Frame]:
        """Every frame, riding over losses, until a recorded source ends."""
        while self.status is not CameraStatus.ENDED:
            frame = self.read()
            if frame is not None:
                yield frame

    @property
    def inner(self) -> Camera | None:
        return self._inner

    def _release(self) -> None:
        if self._inner is not None:
            self._inner.close()
            self._inner = None


_VIDEO_SUFFIXES = {".avi", ".mp4", ".mkv", ".mov", ".mjpeg", ".mjpg", ".webm", ".h264"}


class CameraSettings(Protocol):
    """The ``[camera]`` section of the config, as :func:`open_camera` reads it."""

    @property
    def source(self) -> str: ...  # sim, picamera2, v4l2, file, images
    @property
    def seed(self) -> int: ...
    @property
    def pace(self) -> float: ...  # the simulated dealer's cards per minute
    @property
    def device(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def fps(self) -> float: ...
    @property
    def deck_dir(self) -> str: ...


def open_camera(
    source: str | CameraSettings,
    *,
    width: int = 640,
    height: int = 480,
    fps: float = 30.0,
    pace: float = 1.0,
    seed: int | None = None,
    start_at: int = 0,
    reconnect: bool = False,
    on_status: Callable[[CameraStatus, str], None] | None = None,
    **options: Any,
) -> Camera:
    """The camera named by ``source``, a string or the config's ``[camera]`` section:

    - ``picamera2`` or ``picamera2:N`` – a Pi camera module (N-th camera) via picamera2;
    - ``v4l2:DEVICE``, ``usb:N``, ``/dev/videoN``, ``/dev/v4l/by-id/…`` – a UVC camera via
      cv2.VideoCapture;
    - ``file:PATH`` or a path ending in a video suffix – a recorded video, paced;
    - ``images:PATH``, ``folder:PATH`` or a directory – its images in name order at ``fps``;
    - ``sim`` or ``sim:SEED`` – the simulated camera-in-box dealing a shuffled deck, from
      card ``start_at`` on.

    ``pace``: 1 = real time, 0 = as fast as asked (recordings and ``sim``). From a config
    section, everything plays in real time and ``sim`` takes the section's seed, deck_dir
    and pace (the dealer's cards per minute, ``cards_per_minute`` in ``options``).

    Setting errors raise :class:`CameraConfigError` / :class:`UnknownDriverError` now. A
    device that fails raises :class:`CameraUnavailableError` from here or from ``read()``;
    with ``reconnect=True`` a :class:`ReconnectingCamera` reports and retries it instead.
    """
    if not isinstance(source, str):
        cfg = source
        width, height, fps = cfg.width, cfg.height, cfg.fps
        spec = {
            "sim": "sim", "picamera2": "picamera2", "v4l2": f"v4l2:{cfg.device}",
            "file": f"file:{cfg.path}", "images": f"images:{cfg.path}",
        }.get(cfg.source)
        if spec is None:
            raise UnknownDriverError(f"camera.source: {cfg.source!r} is not a camera")
        if cfg.source == "sim":
            seed = cfg.seed
            options.setdefault("cards_per_minute", cfg.pace)
            if cfg.deck_dir:
                options.setdefault("deck_dir", cfg.deck_dir)
        source = spec
    if width <= 0 or height <= 0:
        raise CameraConfigError(f"camera.width/height: {width}x{height} is not a frame size")
    if fps <= 0:
        raise CameraConfigError(f"camera.fps: {fps} must be above 0")
    opener = _opener(source.strip(), width, height, fps, pace, seed, start_at, options)
    if not reconnect:
        return opener()
    return ReconnectingCamera(opener, name=source, on_status=on_status)


def _opener(
    source: str, width: int, height: int, fps: float, pace: float, seed: int | None,
    start_at: int, options: dict[str, Any],
) -> Callable[[], Camera]:
    kind, _, rest = source.partition(":")
    if kind == "picamera2":
        from hardware.cameras.picamera import PiCamera

        number = _number("camera.source", rest or "0")
        return lambda: PiCamera(number, width=width, height=height, fps=fps, **options)
    if kind == "sim":
        from hardware.cameras.simulated import SimulatedCamera

        seed = _number("camera.source", rest) if rest else seed
        settings = {"seed": seed, "width": width, "height": height, "fps": fps, "pace": pace,
                    "start_at": start_at, **options}
        return lambda: SimulatedCamera(**settings)
    from hardware.cameras.folder import ImageFolderCamera
    from hardware.cameras.opencv import DeviceCamera, VideoFileCamera

    if kind == "usb":
        index = _number("camera.source", rest)
        return lambda: DeviceCamera(index, width=width, height=height, fps=fps)
    if kind == "v4l2" or source.startswith("/dev/"):
        device = rest if kind == "v4l2" else source
        if not device:
            raise CameraConfigError("camera.device: no device given for the v4l2 camera")
        return lambda: DeviceCamera(device, width=width, height=height, fps=fps)
    if kind in ("folder", "images") or (kind == source and Path(source).is_dir()):
        folder = Path(rest if kind in ("folder", "images") else source)
        ImageFolderCamera.check(folder)
        return lambda: ImageFolderCamera(folder, fps=fps, pace=pace, **options)
    if kind == "file" or Path(source).suffix.lower() in _VIDEO_SUFFIXES:
        path = Path(rest if kind == "file" else source)
        if not path.is_file():
            raise CameraConfigError(f"camera.path: no video file at {str(path)!r}")
        return lambda: VideoFileCamera(path, pace=pace, **options)
    raise UnknownDriverError(
        f"camera.source: {source!r} is not a camera (use picamera2, v4l2:DEVICE, usb:N, "
        "/dev/videoN, file:PATH, images:PATH or sim)"
    )


def _number(setting: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise CameraConfigError(f"{setting}: {text!r} is not a number") from None
