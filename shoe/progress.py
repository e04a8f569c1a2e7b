"""A progress bar on stderr for long commands (learning a deck, dealing many decks).

Drawn only when stderr is a terminal, at most ten times a second, so piped output and logs
stay clean.
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import TextIO

__all__ = ["Progress"]


class Progress:
    """``with Progress(total, "learning") as bar: ... bar.advance()``"""

    def __init__(self, total: int, label: str, stream: TextIO | None = None) -> None:
        self.total = max(total, 1)
        self.label = label
        self.done = 0
        self._stream = stream or sys.stderr
        self._enabled = self._stream.isatty()
        self._started = time.monotonic()
        self._last_draw = 0.0

    def __enter__(self) -> Progress:
        self._draw(force=True)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._draw(force=True)
        if self._enabled:
            self._stream.write("\n")
            self._stream.flush()

    def advance(self, n: int = 1) -> None:
        self.done += n
        self._draw()

    def _draw(self, force: bool = False) -> None:
        now = time.monotonic()
        if not self._enabled or (not force and now - self._last_draw < 0.1):
            return
        self._last_draw = now
        fraction = min(self.done / self.total, 1.0)
        filled = int(fraction * 30)
        elapsed = now - self._started
        eta = elapsed / fraction - elapsed if fraction > 0 else 0.0
        self._stream.write(
            f"\r{self.label} [{'#' * filled}{'.' * (30 - filled)}] "
            f"{self.done}/{self.total}  {elapsed:4.0f}s elapsed, ~{eta:3.0f}s left "
        )
        self._stream.flush()
