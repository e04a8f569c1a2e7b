"""The display writer: a thread that owns the serial port, so the deal never waits on it.

``show()`` encodes at once (bad input fails in the caller) and queues the bytes; the thread
writes them. A write error, a write that times out (a stuck display) or a port that hangs
up (an unplugged USB adapter) closes the port; the thread reopens it with exponential
backoff, sends the model's startup sequence and redraws the current screen.

Queue policy, by model:

- screens (``keeps_log`` False): each screen is the whole state, so when the queue is full
  the oldest pending screen is dropped, and after a reconnect only the latest is drawn;
- the ``$PFARO`` stream (``keeps_log`` True): a log, so sentences are kept in order and all
  sent after a reconnect; when the queue is full the oldest is dropped (counted in
  ``status.dropped``). With nothing pending, the last sentence is sent again after a
  reconnect so a display that lost power shows the current state.
"""

from __future__ import annotations

import collections
import contextlib
import importlib.util
import logging
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from shoe.events import Event

from .encoding import DisplayModel
from .layout import Screen, screen_for_batch
from .models import PortURLError, model_named

if TYPE_CHECKING:  # pragma: no cover
    import serial

__all__ = ["DisplayWriter", "WriterStatus", "check_port_url", "open_writer"]

log = logging.getLogger(__name__)


def check_port_url(url: str, setting: str = "display.port") -> None:
    """Raise PortURLError (naming ``setting``) unless ``url`` can name a serial port.

    A device path must be absolute (``/dev/serial/by-id/…``, ``/dev/ttyUSB0``, a pty); it
    need not exist yet: a display may be plugged in later. A URL needs a scheme pyserial
    knows (``loop://``, ``socket://host:port``, ``rfc2217://host:port`` …).
    """
    hint = ("expected a device path like /dev/serial/by-id/… or /dev/ttyUSB0, or a pyserial "
            "URL like loop:// or socket://host:port")
    if not url or url != url.strip():
        raise PortURLError(f"{setting}: {hint}; got {url!r}")
    if "://" in url:
        scheme, _, rest = url.partition("://")
        if not scheme.isidentifier() or importlib.util.find_spec(
                f"serial.urlhandler.protocol_{scheme}") is None:
            raise PortURLError(f"{setting}: unknown port URL scheme {scheme!r} in {url!r}; "
                                     f"{hint}")
        if scheme in ("socket", "rfc2217"):
            host, _, port = rest.partition("?")[0].rpartition(":")
            if not host or not port.isdigit() or not 0 < int(port) < 65536:
                raise PortURLError(f"{setting}: expected {scheme}://host:port, got {url!r}")
        return
    if not url.startswith("/"):
        raise PortURLError(f"{setting}: {hint}; got {url!r}")


@dataclass(frozen=True, slots=True)
class WriterStatus:
    """What the service logs about its display."""

    url: str
    connected: bool
    written: int  # payloads written in full
    dropped: int  # payloads dropped: stale screens, or the oldest sentences of a full queue
    pending: int
    errors: int  # failed opens and writes since the start
    reconnects: int  # successful opens after the first
    last_error: str | None


class DisplayWriter:
    """Writes a display model's bytes to the port at ``url`` from its own thread.

    >>> from hardware.display.models import model_named
    >>> writer = DisplayWriter("loop://", model_named("pfaro"))
    >>> writer.show(Screen("HELLO"))
    >>> writer.close()
    """

    def __init__(
        self,
        url: str,
        model: DisplayModel,
        *,
        baudrate: int | None = None,
        queue_size: int = 64,
        write_timeout: float = 2.0,
        backoff: tuple[float, float] = (0.5, 30.0),
        probe_interval: float = 1.0,
        setting: str = "display.port",
    ) -> None:
        check_port_url(url, setting)
        if queue_size < 1:
            raise ValueError(f"queue_size must be at least 1, got {queue_size}")
        self.url = url
        self.model = model
        self.baudrate = baudrate or model.default_baudrate
        self._queue_size = queue_size
        self._write_timeout = write_timeout
        self._backoff_min, self._backoff_max = backoff
        self._probe_interval = probe_interval
        self._cond = threading.Condition()
        self._pending: collections.deque[bytes] = collections.deque()
        self._current: bytes | None = None  # screens: the latest; log: the last sent
        self._port: serial.SerialBase | None = None
        self._device: int | None = None  # st_rdev of the opened device path
        self._opened_once = False
        self._closing = False
        self._written = self._dropped = self._errors = self._reconnects = 0
        self._last_error: str | None = None
        self._logged_error: str | None = None  # repeats of one failure are logged once
        self._thread = threading.Thread(target=self._run, name=f"display {url}", daemon=True)
        self._thread.start()

    # -- the caller's side: never blocks on the port ---------------------------------------

    def show(self, item: Event | Screen) -> None:
        """Queue ``item`` for the display; returns at once whatever the port is doing."""
        payload = self.model.encode(item)
        with self._cond:
            if self._closing:
                raise RuntimeError("show() on a closed DisplayWriter")
            if not self.model.keeps_log:
                self._current = payload
            self._pending.append(payload)
            while len(self._pending) > self._queue_size:
                self._pending.popleft()
                self._dropped += 1
            self._cond.notify_all()

    def announce(self, events: Sequence[Event]) -> None:
        """Show what one deal action made: a screen display gets one screen for the batch
        (:func:`~.layout.screen_for_batch`), the ``$PFARO`` log one sentence per event."""
        if not events:
            return
        if self.model.keeps_log:
            for event in events:
                self.show(event)
        else:
            self.show(screen_for_batch(events))

    @property
    def status(self) -> WriterStatus:
        with self._cond:
            return WriterStatus(self.url, self._port is not None, self._written, self._dropped,
                                len(self._pending), self._errors, self._reconnects,
                                self._last_error)

    @property
    def port(self) -> serial.SerialBase | None:
        """The open port, or None while disconnected (for diagnostics and loop:// tests)."""
        return self._port

    def wait_connected(self, timeout: float) -> bool:
        """Wait until the port is open; False if ``timeout`` passed first."""
        with self._cond:
            return self._cond.wait_for(lambda: self._port is not None, timeout)

    def wait_idle(self, timeout: float) -> bool:
        """Wait until everything queued is written; False if ``timeout`` passed first."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._pending or self._port is None or self._busy:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not self._thread.is_alive():
                    return False
                self._cond.wait(remaining)
        return True

    def close(self, timeout: float = 2.0) -> None:
        """Write what is pending if the port is up (for at most ``timeout``), then close it."""
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        self._thread.join(timeout)

    def __enter__(self) -> DisplayWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the writer thread ------------------------------------------------------------------

    _busy = False  # a payload taken from the queue is being written

    def _run(self) -> None:
        while True:
            try:
                self._serve()
                break
            except Exception as exc:  # a bug or a driver's surprise must not end the display
                log.exception("display %s: writer error", self.url)
                self._disconnect(f"writer error: {exc!r}")
                with self._cond:
                    self._busy = False
                    self._cond.wait_for(lambda: self._closing, self._backoff_max)

    def _serve(self) -> None:
        backoff = self._backoff_min
        while True:
            with self._cond:
                if self._closing and (self._port is None or not self._pending):
                    break
            if self._port is None:
                if self._connect():
                    backoff = self._backoff_min
                else:
                    with self._cond:
                        self._cond.wait_for(lambda: self._closing, backoff)
                    backoff = min(backoff * 2, self._backoff_max)
                continue
            with self._cond:
                if not self._pending and not self._closing:
                    self._cond.wait(self._probe_interval)
                if not self._pending:
                    payload = None
                else:
                    payload = self._pending.popleft()
                    self._busy = True
            if payload is None:
                self._probe()
                continue
            # A socket whose peer left still accepts one write into the void: look first.
            sent = self._probe() and self._write(payload)
            with self._cond:
                self._busy = False
                if sent:
                    self._written += 1
                    if self.model.keeps_log:
                        self._current = payload
                elif self.model.keeps_log:
                    self._pending.appendleft(payload)  # undelivered: resend after reconnect
                    while len(self._pending) > self._queue_size:
                        self._pending.popleft()
                        self._dropped += 1
                self._cond.notify_all()
        self._disconnect(None)

    def _connect(self) -> bool:
        import serial

        try:
            # exclusive: a second program on the same display (display-test while the
            # service runs) gets a clear "could not exclusively lock" instead of garbage.
            local = self.url.startswith("/")
            port = serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=0,
                                         write_timeout=self._write_timeout,
                                         **({"exclusive": True} if local else {}))
            device = os.stat(self.url).st_rdev if local else None
        except (OSError, serial.SerialException, ValueError) as exc:
            self._failed(f"cannot open {self.url}: {exc}")
            return False
        try:
            for chunk in self.model.startup():
                port.write(chunk)
                if self.model.settle:
                    time.sleep(self.model.settle)
        except (OSError, serial.SerialException) as exc:
            with contextlib.suppress(OSError, serial.SerialException):
                port.close()
            self._failed(f"opened {self.url} but the display takes no data: {exc}")
            return False
        with self._cond:
            self._port, self._device = port, device
            if self._opened_once:
                self._reconnects += 1
            self._opened_once = True
            self._logged_error = None
            if not self.model.keeps_log:
                # Stale screens: only the latest state matters after a gap.
                self._dropped += len(self._pending)
                self._pending.clear()
            if self._current is not None and (not self.model.keeps_log or not self._pending):
                self._pending.appendleft(self._current)
            self._cond.notify_all()
        log.info("display %s connected", self.url)
        return True

    def _write(self, payload: bytes) -> bool:
        import serial

        port = self._port
        assert port is not None
        try:
            port.write(payload)
        except (OSError, serial.SerialException) as exc:  # SerialTimeoutException included
            self._disconnect(f"write to {self.url} failed: {exc}")
            return False
        return True

    def _probe(self) -> bool:
        """Whether the port still works; notice an unplug while idle.

        A hung-up tty fails the TIOCINQ ioctl; a device path may now name another device
        (replugged elsewhere); a closed socket reads as disconnected. Input is read and
        dropped (displays may send keys), except on loop://, which echoes our own bytes.
        """
        import serial

        port = self._port
        if port is None:
            return False
        try:
            waiting = port.in_waiting
            if waiting and not self.url.startswith("loop://"):
                port.read(waiting)
            if self._device is not None and os.stat(self.url).st_rdev != self._device:
                raise OSError(f"{self.url} now names another device")
        except (OSError, serial.SerialException) as exc:
            self._disconnect(f"lost {self.url}: {exc}")
            return False
        return True

    def _disconnect(self, reason: str | None) -> None:
        with self._cond:
            port, self._port = self._port, None
            self._cond.notify_all()
        if reason:
            self._failed(reason)
        if port is not None:
            try:
                port.close()
            except Exception as exc:  # closing a dead port may fail any way
                log.debug("closing %s: %s", self.url, exc)

    def _failed(self, message: str) -> None:
        with self._cond:
            first = self._logged_error != message
            self._errors += 1
            self._last_error = self._logged_error = message
        if first:
            log.warning("display: %s", message)

    def __repr__(self) -> str:
        return f"DisplayWriter({self.url!r}, {self.model.name!r})"

    def _debug(self) -> dict[str, Any]:  # pragma: no cover - for interactive use
        return {"pending": list(self._pending), "current": self._current}


def open_writer(
    model: str,
    port: str,
    baudrate: int = 0,
    *,
    letters: bool = False,
    model_setting: str = "display.model",
    port_setting: str = "display.port",
    **options: Any,
) -> DisplayWriter:
    """A writer for the model named ``model`` on ``port``, as the config gives them.

    ``baudrate`` 0 means the model's default. Errors name ``model_setting`` or
    ``port_setting``. For the config's two outputs::

        open_writer(d.model, d.port, d.baudrate)
        open_writer("pfaro", d.pfaro_port, d.pfaro_baudrate, port_setting="display.pfaro_port")
    """
    chosen = model_named(model, letters=letters, setting=model_setting)
    return DisplayWriter(port, chosen, baudrate=baudrate or None, setting=port_setting, **options)
