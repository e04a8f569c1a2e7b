"""What the service loop talks to: the eyes, the outputs, the notifier, and the state shown.

The loop (:mod:`shoe.service`) knows its parts only through these; the composition root
(:mod:`shoe.compose`) builds real or simulated parts that fit them. :class:`Latest` is the
thread that lets a slow output show the newest whole state without holding up the loop.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from casekeeper import Case
from shoe.cards import FaroError
from shoe.deal import Flag
from shoe.events import Event
from vision.reading import Reading

__all__ = [
    "CameraTroubleError",
    "Exposure",
    "Eyes",
    "Latest",
    "Notifier",
    "Output",
    "Parts",
    "ShoeState",
]

log = logging.getLogger("faro-shoe")
T = TypeVar("T")


class CameraTroubleError(FaroError):
    """The camera gives no frames now; it is being reopened."""


@dataclass(frozen=True, slots=True)
class Exposure:
    """A new card at rest in the box, as the vision read it; ``at``: when it came to rest.

    ``sure``: the deal may take it without asking (a sure read, and the break-beam agrees);
    ``why``, when it is not, in words for the operator (vision.exposures.ExposureResult).
    """

    reading: Reading
    at: float
    sure: bool
    why: str | None = None


class Eyes(Protocol):
    """The camera and the vision behind it, as the loop sees them."""

    @property
    def ended(self) -> bool:
        """The source has no more frames (a file played out, the simulated deck dealt)."""

    def look(self) -> list[Exposure]:
        """Take one frame (waiting at most about a frame); raise CameraTroubleError if none."""

    def beam(self, t: float) -> None:
        """The slot's break-beam saw a card leave at ``t``."""

    def reread(self) -> None:
        """Forget the card in view, so it is read again (after an undo)."""

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class ShoeState:
    """The whole state the outputs show, and what just changed (``new``).

    On a restart or reload ``new`` holds the one event the display should show again.
    """

    deal_id: str
    events: tuple[Event, ...]
    new: tuple[Event, ...]
    case: Case
    flag: Flag | None
    exposed: int
    finished: bool
    voided: bool
    alert: str | None = None
    redraw: bool = False


class Output(Protocol):
    """Anything that shows the state: returns at once, does slow work in its own thread."""

    def update(self, state: ShoeState) -> None: ...

    def close(self) -> None: ...


class Notifier(Protocol):
    watchdog_interval: float | None

    def ready(self, status: str | None = None) -> bool: ...
    def stopping(self) -> bool: ...
    def reloading(self) -> bool: ...
    def watchdog(self) -> bool: ...
    def status(self, text: str) -> bool: ...


@dataclass
class Parts:
    """What the composition root builds from the config for the loop."""

    eyes: Eyes
    outputs: list[Output] = field(default_factory=list)
    inputs: list[Any] = field(default_factory=list)  # buttons etc.: closed on stop/reload

    def close(self) -> None:
        for part in [self.eyes, *self.outputs, *self.inputs]:
            try:
                part.close()
            except Exception:  # closing one part must not leave the others open
                log.exception("closing %r", part)


class Latest(Generic[T]):
    """Runs ``show`` on the newest value in its own thread; values it had no time for are
    skipped, since each one is a whole state."""

    def __init__(self, show: Callable[[T], None], name: str) -> None:
        self._show = show
        self._box: queue.Queue[T | None] = queue.Queue(maxsize=1)
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def put(self, value: T) -> None:
        with contextlib.suppress(queue.Empty):
            self._box.get_nowait()  # drop the older state not yet shown
        with contextlib.suppress(queue.Full):
            self._box.put_nowait(value)

    def close(self, timeout: float = 2.0) -> None:
        """Show the newest value still waiting (if the device keeps up), then stop."""
        try:
            self._box.put(None, timeout=timeout)
        except queue.Full:  # the device is stuck: give up on the last value
            with contextlib.suppress(queue.Empty):
                self._box.get_nowait()
            self._box.put_nowait(None)
        self._thread.join(timeout)

    def _run(self) -> None:
        while (value := self._box.get()) is not None:
            try:
                self._show(value)
            except Exception:  # a device failing must not stop later updates
                log.exception("%s failed", self._thread.name)
