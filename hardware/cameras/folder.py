"""A folder of still images played as a camera, in sorted file-name order."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from hardware.cameras.recorded import RecordedCamera
from hardware.errors import CameraConfigError

__all__ = ["IMAGE_SUFFIXES", "ImageFolderCamera"]

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp", ".ppm"})


class ImageFolderCamera(RecordedCamera):
    """Every image in ``folder`` (sorted by name: number them with leading zeros) as one
    frame at ``fps``, released at ``fps * pace`` (0: as fast as asked). An unreadable file
    is skipped with a warning. ``loop`` starts over at the end."""

    def __init__(
        self,
        folder: str | Path,
        *,
        fps: float = 30.0,
        pace: float = 1.0,
        loop: bool = False,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.folder = Path(folder)
        self.name = f"folder:{self.folder}"
        self.paths = self.check(self.folder)
        super().__init__(fps, pace=pace, loop=loop, sleep=sleep, clock=clock)

    @staticmethod
    def check(folder: Path) -> list[Path]:
        """The folder's images in order; CameraConfigError if there are none."""
        if not folder.is_dir():
            raise CameraConfigError(f"camera.path: no folder at {str(folder)!r}")
        paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not paths:
            raise CameraConfigError(f"camera.path: no images in {str(folder)!r}")
        return paths

    def _grab(self) -> tuple[np.ndarray, float] | None:
        while True:
            if self._position >= len(self.paths) and not self._loop:
                return None
            path = self.paths[self._position % len(self.paths)]
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is not None:
                return self._play(image)
            self._position += 1
            log.warning("%s: skipping unreadable image %s", self.name, path.name)
