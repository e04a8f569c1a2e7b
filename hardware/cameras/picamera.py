"""A Raspberry Pi camera module through picamera2 (from apt on the Pi, never from pip)."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from hardware.camera import Camera
from hardware.errors import CameraUnavailableError

__all__ = ["PiCamera"]


class PiCamera(Camera):
    """Camera ``number`` (0 = the first CSI camera) at ``width``×``height`` and ``fps``.

    Frames come as libcamera's ``RGB888``, which is B, G, R in memory: what OpenCV wants.
    ``Frame.t`` is ``time.monotonic()`` at arrival, the clock of the slot's break-beam
    (the sensor's own timestamp runs on a kernel clock that need not match it).
    ``controls`` go to picamera2 as they are (e.g. ``{"AeEnable": False, "ExposureTime":
    8000}`` against motion blur).
    """

    def __init__(
        self,
        number: int = 0,
        *,
        width: int = 640,
        height: int = 480,
        fps: float = 30.0,
        controls: dict[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self.name = f"picamera2:{number}"
        try:
            from picamera2 import Picamera2  # lazily: only on a Pi, from apt
        except ImportError as error:
            raise CameraUnavailableError(
                f"{self.name}: picamera2 is not installed (on the Pi: apt install "
                f"python3-picamera2, and make the venv with --system-site-packages)"
            ) from error
        try:
            self._camera = Picamera2(number)
            config = self._camera.create_video_configuration(
                main={"size": (width, height), "format": "RGB888"},
                controls={"FrameRate": fps, **(controls or {})},
            )
            self._camera.configure(config)
            self._camera.start()
        except (RuntimeError, IndexError, OSError) as error:
            raise CameraUnavailableError(
                f"{self.name}: cannot start the camera ({error})"
            ) from error

    def _grab(self) -> tuple[np.ndarray, float]:
        try:
            request = self._camera.capture_request()
        except (RuntimeError, OSError, TimeoutError) as error:
            raise CameraUnavailableError(f"{self.name}: no frame ({error})") from error
        t = time.monotonic()
        try:
            image = request.make_array("main")
        finally:
            request.release()
        return np.ascontiguousarray(image[:, :, :3]), t

    def _release(self) -> None:
        try:
            self._camera.stop()
        finally:
            self._camera.close()
