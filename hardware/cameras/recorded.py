"""What the recorded sources (an image folder, a video file) share: playback in their own time."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from hardware.camera import Camera, Pacer

__all__ = ["RecordedCamera"]


class RecordedCamera(Camera):
    """A recording played at ``fps`` times ``pace`` (0: as fast as asked); ``loop`` starts
    it over at the end. ``Frame.t`` is the frame's place in the recording, counted across
    loops, so timing-based vision sees the recording's time whatever the pace. Subclasses
    give ``_grab()`` and pass each image through :meth:`_play`."""

    def __init__(
        self,
        fps: float,
        *,
        pace: float,
        loop: bool,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.source_fps = fps
        self._pacer = Pacer(fps, pace, sleep=sleep, clock=clock)
        self._loop = loop
        self._position = 0  # frames since the start, across loops (skipped ones too)

    def _play(self, image: np.ndarray) -> tuple[np.ndarray, float]:
        """``image`` as the next frame, held back until its time comes."""
        self._pacer.wait(self._position)
        t = self._position / self.source_fps
        self._position += 1
        return image, t
