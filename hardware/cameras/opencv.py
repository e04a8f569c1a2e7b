"""Cameras through OpenCV's VideoCapture: a USB/V4L2 device, or a recorded video file."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from hardware.camera import Camera
from hardware.cameras.recorded import RecordedCamera
from hardware.errors import CameraConfigError, CameraUnavailableError

__all__ = ["DeviceCamera", "VideoFileCamera"]


class DeviceCamera(Camera):
    """A UVC webcam by index (``0``) or path (``/dev/video0``, ``/dev/v4l/by-id/…``).

    ``fourcc="MJPG"`` (the default) asks for compressed frames: most UVC cameras give 640×480
    at 30 fps only that way over USB 2.
    """

    def __init__(
        self,
        device: int | str,
        *,
        width: int = 640,
        height: int = 480,
        fps: float = 30.0,
        fourcc: str | None = "MJPG",
    ) -> None:
        super().__init__()
        self.name = f"usb:{device}" if isinstance(device, int) else str(device)
        api = cv2.CAP_V4L2 if sys.platform.startswith("linux") else cv2.CAP_ANY
        self._capture = cv2.VideoCapture(device, api)
        if not self._capture.isOpened():
            self._capture.release()
            raise CameraUnavailableError(f"{self.name}: cannot open the camera")
        if fourcc:
            self._capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*fourcc))
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self._capture.set(cv2.CAP_PROP_FPS, fps)

    def _grab(self) -> tuple[np.ndarray, float]:
        ok, image = self._capture.read()
        if not ok or image is None:
            raise CameraUnavailableError(f"{self.name}: the camera stopped giving frames")
        return image, time.monotonic()

    def _release(self) -> None:
        self._capture.release()


class VideoFileCamera(RecordedCamera):
    """A recorded video, frame by frame, released at its own fps times ``pace`` (0: as fast
    as asked). ``Frame.t`` is the frame's position in the video, so timing-based vision
    sees the recording's time whatever the pace. ``loop`` starts it over at the end."""

    def __init__(
        self,
        path: str | Path,
        *,
        pace: float = 1.0,
        loop: bool = False,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = Path(path)
        self.name = f"file:{self.path}"
        self._capture = cv2.VideoCapture(str(self.path))
        if not self._capture.isOpened():
            self._capture.release()
            raise CameraConfigError(f"camera.source: cannot decode video {str(self.path)!r}")
        fps = self._capture.get(cv2.CAP_PROP_FPS) or 30.0
        super().__init__(fps, pace=pace, loop=loop, sleep=sleep, clock=clock)

    def _grab(self) -> tuple[np.ndarray, float] | None:
        ok, image = self._capture.read()
        if not ok and self._loop and self._position > 0:
            self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, image = self._capture.read()
        if not ok or image is None:
            return None
        return self._play(image)

    def _release(self) -> None:
        self._capture.release()
