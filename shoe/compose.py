"""The composition root: builds every part of the shoe from the config.

The only place outside :mod:`hardware` that asks it for devices. The service loop gets what
this builds (:class:`shoe.parts.Parts`) and never looks anything up itself; tests and the
demo build the same parts over fakes (the simulated camera, a pty for the display, gpiozero's
MockFactory as the pin factory).

Adapters here are small on purpose: each turns one device's own interface into the loop's
(:class:`~shoe.parts.Eyes`, :class:`~shoe.parts.Output`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from shoe.config import RECORDED_SOURCES, Config, ConfigError
from shoe.control import ControlServer, Inbox
from shoe.deal import Deal
from shoe.describe import describe
from shoe.service import (
    CameraTroubleError,
    Exposure,
    Latest,
    Output,
    Parts,
    Service,
    ShoeState,
    open_deal,
)

__all__ = [
    "CameraEyes",
    "DisplayOutput",
    "KeeperOutput",
    "LogOutput",
    "assemble",
    "build",
    "build_display",
    "build_keeper",
    "check",
    "open_camera",
]

log = logging.getLogger("faro-shoe")
#: Frames at least this high (pixels) are what the reader was measured on: RIG.md's 640x480.
READER_MEASURED_HEIGHT = 480


def check(config: Config) -> None:
    """Refuse, before anything starts, settings that only the hardware modules can judge."""
    if config.display.model != "none":
        from hardware.display import check_port_url, model_named

        model_named(config.display.model, setting="display.model")
        check_port_url(config.display.port, "display.port")
    if config.display.pfaro_port:
        from hardware.display import check_port_url

        check_port_url(config.display.pfaro_port, "display.pfaro_port")
    if config.profile:
        from pathlib import Path

        if not Path(config.profile).is_file():
            raise ConfigError(f"profile: expected a deck profile file, got {config.profile!r} "
                              "(no such file)")


def build(config: Config, deal: Deal, inbox: Inbox, *, outputs: Sequence[Output] = (),
          pin_factory: Any = None) -> Parts:
    """Every part for the loop: the eyes (camera + vision), outputs and operator inputs.

    ``outputs`` come first (the log, a live terminal); the keeper and displays follow.
    Whatever was built is closed again if a later part fails.
    """
    check(config)
    parts = Parts(eyes=_NoEyes(), outputs=list(outputs))
    try:
        keeper = build_keeper(config, pin_factory)
        if keeper is not None:
            parts.outputs.append(KeeperOutput(keeper))
        parts.outputs.extend(DisplayOutput(w) for w in build_display(config))
        parts.inputs.extend(build_buttons(config, inbox, pin_factory))
        has_beam = config.buttons.break_beam is not None
        parts.eyes = CameraEyes(open_camera(config, start_at=_card_in_view(deal)),
                                _tracker_factory(config, has_beam))
    except BaseException:
        parts.close()
        raise
    return parts


def assemble(config: Config, outputs: Callable[[], list[Output]], *, notifier: Any = None,
             reload: Callable[[], Config] | None = None, stop_when_finished: bool = False,
             pin_factory: Any = None) -> Service:
    """The whole service from a config: state dir, control socket, the journal replayed,
    the parts built. ``outputs`` makes the process-level outputs (log, live terminal) anew
    for each build (a SIGHUP rebuilds the parts)."""
    from hardware.systemd import Notifier

    check(config)
    config.state_dir.mkdir(parents=True, exist_ok=True)
    inbox = Inbox()
    control = ControlServer(config.control_socket, group_from=config.state_dir)
    try:
        journal, deal = open_deal(config)
        parts = build(config, deal, inbox, outputs=outputs(), pin_factory=pin_factory)
    except BaseException:
        control.close()
        inbox.close()
        raise

    def rebuild(new: Config, current: Deal) -> Parts:
        return build(new, current, inbox, outputs=outputs(), pin_factory=pin_factory)

    return Service(config, journal, deal, parts, notifier or Notifier.from_environment(),
                   inbox, control=control, reload=reload, rebuild=rebuild,
                   stop_when_finished=stop_when_finished)


def _card_in_view(deal: Deal) -> int:
    """Where a dealer who stopped when the box went dark left the deck: the held card, or the
    last one accepted (still resting in the window)."""
    if deal.flag is not None:
        return deal.flag.exposure
    return max(deal.exposed - 1, 0)


# -- camera and vision ---------------------------------------------------------------------


def open_camera(config: Config, *, start_at: int = 0, reconnect: bool = True) -> Any:
    """The configured camera (a :class:`hardware.camera.Camera`).

    With ``reconnect`` it is a ReconnectingCamera that reports a loss and reopens the device
    with backoff, returning None meanwhile. The simulated camera starts with card
    ``start_at`` in view (see :func:`_card_in_view`).
    """
    from hardware.camera import ReconnectingCamera
    from hardware.camera import open_camera as hardware_open_camera

    camera = config.camera
    if camera.source not in RECORDED_SOURCES and camera.height < READER_MEASURED_HEIGHT:
        # docs/READER.md, Other frame sizes: at 320x240 the reader held a quarter of the
        # stills and read one of 1 352 surely wrong (a recording keeps its own size).
        log.warning("camera: %dx%d frames are smaller than the reader was measured on "
                    "(%d high or more): cards will be held more often, and may be misread",
                    camera.width, camera.height, READER_MEASURED_HEIGHT)

    def opener() -> Any:
        return hardware_open_camera(config.camera, start_at=start_at, pace=config.camera.speed)

    if not reconnect:
        return opener()
    # Opened now, before READY, so the loop's first pass does not wait on it; a camera that
    # is not there yet is left to the reconnecting camera to report and retry.
    from hardware.errors import CameraUnavailableError

    ready: list[Any] = []
    try:
        ready.append(opener())
    except CameraUnavailableError as exc:
        log.warning("camera (%s): %s; retrying", config.camera.source, exc)

    def first_then_open() -> Any:
        return ready.pop() if ready else opener()

    # A short poll: while the camera is away the loop must keep answering the operator.
    return ReconnectingCamera(first_then_open, name=f"camera ({config.camera.source})",
                              poll=0.05)


def build_reader(config: Config) -> Any:
    """The deck profile's reader when the config names one, else the zero-shot reader."""
    if config.profile:
        from vision.profile import ProfileReader
        from vision.stored import DeckProfile

        return ProfileReader(DeckProfile.load(config.profile))
    from vision.reader import CornerReader

    return CornerReader()


def _tracker_factory(config: Config, has_beam: bool) -> Callable[[], Any]:
    from vision.exposures import ExposureTracker

    reader = build_reader(config)
    return lambda: ExposureTracker(reader, has_beam=has_beam)


class CameraEyes:
    """A (reconnecting) camera and an exposure tracker as the loop's
    :class:`~shoe.parts.Eyes`: ``look()`` raises CameraTroubleError while it is away."""

    def __init__(self, camera: Any, new_tracker: Callable[[], Any]) -> None:
        self.camera = camera
        self._new_tracker = new_tracker
        self._ended = False
        self._lost = False
        self.tracker = new_tracker()

    @property
    def ended(self) -> bool:
        return self._ended

    def look(self) -> list[Exposure]:
        from hardware.camera import CameraStatus

        frame = self.camera.read()
        if frame is None:
            if self.camera.status is CameraStatus.ENDED:
                self._ended = True
                return [self._exposure(r) for r in self.tracker.finish()]
            if not self._lost:
                # The frames after a reopen do not continue the old ones: start afresh.
                self._lost = True
                self.tracker = self._new_tracker()
            raise CameraTroubleError(f"{self.camera.name}: no frames; reopening")
        self._lost = False
        return [self._exposure(r) for r in self.tracker.feed(frame.t, frame.image)]

    @staticmethod
    def _exposure(result: Any) -> Exposure:
        at = result.t_rest if result.t_rest is not None else result.t_done
        return Exposure(result.reading, at, result.is_sure, result.problem)

    def beam(self, t: float) -> None:
        self.tracker.beam(t)

    def reread(self) -> None:
        self.tracker = self._new_tracker()

    def close(self) -> None:
        self.camera.close()


class _NoEyes:
    """Stands in while the parts are being built."""

    ended = True

    def look(self) -> list[Exposure]:
        return []

    def beam(self, t: float) -> None:
        pass

    def reread(self) -> None:
        pass

    def close(self) -> None:
        pass


# -- outputs -------------------------------------------------------------------------------


def build_keeper(config: Config, pin_factory: Any = None) -> Any:
    """The configured case-keeper driver, or None for ``driver = "none"``."""
    k = config.keeper
    if k.driver == "none":
        return None
    if k.driver == "servo":
        from hardware.servos import ServoBead

        return ServoBead.on_gpio(k.pins, _calibrations(k), per_step=k.per_step,
                                 interval=k.interval, pin_factory=pin_factory)
    if k.driver == "pca9685":
        from hardware.pca9685 import pca9685_bead

        return pca9685_bead(k.channels, _calibrations(k), address=k.i2c_address,
                            per_step=k.per_step, interval=k.interval)
    if k.driver == "shift-register":
        from hardware.leds import ShiftRegisterLeds

        return ShiftRegisterLeds(clock_pin=k.clock, data_pin=k.data, latch_pin=k.latch,
                                 two_colour=k.two_colour, pin_factory=pin_factory)
    if k.driver == "ledboard":
        from hardware.leds import RankLeds

        return RankLeds(k.pins, pin_factory=pin_factory)
    if k.driver == "ws2812":
        from hardware.ws2812 import Ws2812Strip

        return Ws2812Strip(brightness=k.brightness)
    from hardware.terminal import TerminalCase

    return TerminalCase()


def _calibrations(k: Any) -> list[Any]:
    """One servo calibration per rank, ace first, from the config's pulse range and trims."""
    from hardware.servos import ServoCalibration

    return [ServoCalibration(k.pulse_us[0], k.pulse_us[1],
                             k.trim_us[i] if k.trim_us else (0.0,) * 5) for i in range(13)]


class KeeperOutput:
    """Shows the case on the keeper from its own thread, the newest case only."""

    def __init__(self, keeper: Any) -> None:
        self.keeper = keeper
        self._worker: Latest[Any] = Latest(keeper.show, f"keeper {type(keeper).__name__}")

    def update(self, state: ShoeState) -> None:
        self._worker.put(state.case)

    def close(self) -> None:
        self._worker.close()
        self.keeper.close()


def build_display(config: Config) -> list[Any]:
    """The display writer, and a second one for the ``$PFARO`` stream when configured."""
    from hardware.display import DisplayWriter, model_named

    d = config.display
    writers = []
    if d.model != "none":
        writers.append(DisplayWriter(d.port, model_named(d.model), baudrate=d.baudrate or None))
    if d.pfaro_port:
        writers.append(DisplayWriter(d.pfaro_port, model_named("pfaro"),
                                     baudrate=d.pfaro_baudrate, setting="display.pfaro_port"))
    return writers


#: The display's second line under an alert from the loop.
ALERT_HINTS = {"CAMERA LOST": "DEALER: WAIT", "BOX CLOSED": "PLACE YOUR BETS"}


class DisplayOutput:
    """Announces each event on a display writer (which has its own thread and queue)."""

    def __init__(self, writer: Any) -> None:
        self.writer = writer

    def update(self, state: ShoeState) -> None:
        from hardware.display import Screen, screen_for_batch

        if state.alert is not None:
            self.writer.show(Screen(state.alert, ALERT_HINTS.get(state.alert, "")))
        elif self.writer.model.keeps_log:  # the $PFARO stream: a sentence for every event
            for event in state.new:
                self.writer.show(event)
        elif state.new:  # a screen: one for the whole batch, so none flashes past unseen
            self.writer.show(screen_for_batch(state.new))

    def close(self) -> None:
        self.writer.close()


class LogOutput:
    """Each event as one plain line in the log (the journal of systemd, or a terminal), or
    handed to ``write`` instead (the demo's headless stdout)."""

    def __init__(self, write: Callable[[str], None] | None = None) -> None:
        self._write = write if write is not None else self._log

    @staticmethod
    def _log(line: str) -> None:
        log.info("%s", line)

    def update(self, state: ShoeState) -> None:
        if state.redraw:
            return
        for event in state.new:
            self._write(describe(event, symbols=False))

    def close(self) -> None:
        pass


# -- operator inputs -----------------------------------------------------------------------


def build_buttons(config: Config, inbox: Inbox, pin_factory: Any = None) -> list[Any]:
    """The operator panel and break-beam, posting to the loop's inbox from gpiozero's threads."""
    b = config.buttons
    inputs: list[Any] = []
    panel_pins: dict[str, Any] = {n: p for n, p in b.fitted().items() if n != "break_beam"}
    if panel_pins:
        from hardware.buttons import OperatorPanel

        def on_action(action: Any) -> None:
            inbox.post(action.value.replace("-", "_"))

        inputs.append(OperatorPanel(on_action=on_action, **panel_pins, bounce_time=b.bounce_time,
                                    hold_time=b.hold_time, pin_factory=pin_factory))
    if b.break_beam is not None:
        from hardware.buttons import SlotBeam

        try:
            inputs.append(SlotBeam(b.break_beam, on_card_left=lambda t: inbox.post("beam", t=t),
                                   pin_factory=pin_factory))
        except BaseException:
            for part in inputs:
                part.close()
            raise
    return inputs
