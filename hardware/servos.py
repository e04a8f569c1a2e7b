"""The servo-bead case-keeper: 13 servos, one per rank, each at one of five positions.

Position *n* is "n cards of the rank gone" (0–4). Each servo has a calibration (pulse range
and a trim per position); the five pulses are snapped to the pulses the output can really
produce (:class:`PulseGrid`), and a calibration whose positions collapse onto one producible
pulse is refused at construction. Moves are staggered (:class:`Stagger`) so that 13 servos
never start at once and brown the Pi out.

>>> grid = PulseGrid(frame=0.020, steps=100, truncates=True)   # gpiozero's lgpio factory
>>> [round(p * 1e6) for p in ServoCalibration().pulses(grid)]
[1000, 1200, 1600, 1800, 2000]
"""

from __future__ import annotations

import functools
import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from hardware.errors import CalibrationError, InvalidSettingError, check_pins, claim_device
from shoe.cards import Rank

if TYPE_CHECKING:
    from casekeeper import Case

__all__ = [
    "POSITIONS",
    "GpioServoChannel",
    "PulseGrid",
    "ServoBead",
    "ServoCalibration",
    "ServoChannel",
    "Stagger",
    "grid_for_factory",
]

#: Positions of one servo: 0, 1, 2, 3 or 4 cards of its rank gone.
POSITIONS = 5


@dataclass(frozen=True, slots=True)
class PulseGrid:
    """The pulse widths an output can produce: ``k / steps`` of the frame, or any if 0 steps.

    ``truncates`` says the output drops the fraction of ``duty * steps`` (gpiozero's lgpio
    and pigpio pins do ``int(value * 100)`` / ``int(value * 255)``), so the value handed
    over must sit at or just above ``k / steps`` for the output to produce step ``k``.
    """

    frame: float
    steps: int = 0
    truncates: bool = False

    def step_of(self, pulse: float, toward: float | None = None) -> int:
        """The producible step nearest to ``pulse``; a tie goes toward the pulse ``toward``
        (the middle of a servo's range, so an end position never overshoots), else up."""
        exact = pulse / self.frame * self.steps
        below = math.floor(exact)
        if abs(exact - below - 0.5) < 1e-6 and toward is not None and toward < pulse:
            return below
        return math.floor(exact + 0.5)

    def nearest(self, pulse: float, toward: float | None = None) -> float:
        """The producible pulse nearest to ``pulse`` (ties toward ``toward``)."""
        if self.steps == 0:
            return pulse
        return self.step_of(pulse, toward) * self.frame / self.steps

    def value_for(self, pulse: float) -> float:
        """The pulse width to write (``duty = pulse / frame``) so the output produces
        ``nearest(pulse)``, not the step below it through float error."""
        if self.steps == 0 or not self.truncates:
            return self.nearest(pulse)
        step = self.step_of(pulse)
        value = step * self.frame / self.steps
        while int((value / self.frame) * self.steps) < step:
            value = math.nextafter(value, math.inf)
        return value

    def __str__(self) -> str:
        if self.steps == 0:
            return f"any pulse in a {self.frame * 1e3:g} ms frame"
        step_us = self.frame / self.steps * 1e6
        return f"{self.steps} steps of {step_us:g} µs in a {self.frame * 1e3:g} ms frame"


@dataclass(frozen=True, slots=True)
class ServoCalibration:
    """One servo's pulse range (µs, for 0 and 4 cards gone) and a trim (µs) per position."""

    min_pulse_us: float = 1000.0
    max_pulse_us: float = 2000.0
    trim_us: tuple[float, ...] = field(default=(0.0,) * POSITIONS)

    def nominal(self) -> tuple[float, ...]:
        """The five wanted pulses in seconds, evenly spread over the range plus trims."""
        span = self.max_pulse_us - self.min_pulse_us
        return tuple(
            (self.min_pulse_us + span * n / (POSITIONS - 1) + self.trim_us[n]) * 1e-6
            for n in range(POSITIONS)
        )

    def pulses(self, grid: PulseGrid, setting: str = "calibration") -> tuple[float, ...]:
        """The five producible pulses; :class:`CalibrationError` naming ``setting`` if two
        positions collapse onto one pulse or a pulse falls outside the frame."""
        if len(self.trim_us) != POSITIONS:
            raise CalibrationError(
                f"{setting}.trim_us: needs {POSITIONS} trims (one per position), "
                f"got {len(self.trim_us)}"
            )
        if not 0 < self.min_pulse_us < self.max_pulse_us:
            raise CalibrationError(
                f"{setting}: min_pulse_us ({self.min_pulse_us}) must be above 0 and below "
                f"max_pulse_us ({self.max_pulse_us})"
            )
        wanted = self.nominal()
        middle = (self.min_pulse_us + self.max_pulse_us) / 2 * 1e-6
        pulses = tuple(grid.nearest(p, middle) for p in wanted)
        for n, pulse in enumerate(pulses):
            if not 0 < pulse < grid.frame:
                raise CalibrationError(
                    f"{setting}: position {n} asks for {wanted[n] * 1e6:g} µs, outside the "
                    f"{grid.frame * 1e3:g} ms frame"
                )
        for n in range(1, POSITIONS):
            for m in range(n):
                if pulses[n] == pulses[m]:
                    raise CalibrationError(
                        f"{setting}: positions {m} and {n} ({wanted[m] * 1e6:g} and "
                        f"{wanted[n] * 1e6:g} µs) both become {pulses[n] * 1e6:g} µs with "
                        f"{grid}; widen the pulse range or trim them apart"
                    )
        return pulses


class ServoChannel(Protocol):
    """One servo output: what pulses it can make, and making one."""

    @property
    def grid(self) -> PulseGrid: ...

    def set_pulse(self, pulse: float) -> None:
        """Produce ``pulse`` seconds every frame (already a producible value)."""

    def close(self) -> None: ...


def grid_for_factory(factory: object, frame: float, steps: int | None = None) -> PulseGrid:
    """The pulse grid of a gpiozero pin factory, or ``steps`` if given (0 = any pulse).

    lgpio truncates duty to whole percent and pigpio to 1/255 of its PWM range; RPi.GPIO
    takes any duty (its software PWM jitters instead); the mock pins take any value.
    """
    if steps is not None:
        if steps < 0:
            raise InvalidSettingError(f"keeper.pwm_steps: {steps} must be 0 (any) or more")
        return PulseGrid(frame, steps, truncates=steps > 0)
    name = type(factory).__name__
    known = {"LGPIOFactory": 100, "PiGPIOFactory": 255}
    return PulseGrid(frame, known.get(name, 0), truncates=name in known)


class GpioServoChannel:
    """A servo on a GPIO pin through gpiozero's :class:`AngularServo`."""

    def __init__(self, servo: Any, grid: PulseGrid) -> None:
        self.servo = servo
        self._grid = grid

    @property
    def grid(self) -> PulseGrid:
        return self._grid

    def set_pulse(self, pulse: float) -> None:
        # A detached servo has PWM off; pulse_width alone would drive the pin flat high.
        pwm = self.servo.pwm_device
        if not pwm.frequency:
            pwm.frequency = int(1 / self._grid.frame)
        self.servo.pulse_width = self._grid.value_for(pulse)

    def close(self) -> None:
        self.servo.close()


class Stagger:
    """Moves ``count`` outputs to their targets, at most ``per_step`` every ``interval`` s.

    ``request()`` replaces the whole target; outputs already at their target are not
    rewritten. In the background (the default) a thread does the moves and always works
    from the latest target, so ``request()`` never blocks; with ``background=False`` the
    moves happen inside ``request()``. ``sleep`` and ``clock`` are injectable for tests.
    """

    def __init__(
        self,
        write: Callable[[int, int], None],
        count: int,
        *,
        per_step: int = 2,
        interval: float = 0.25,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        background: bool = True,
    ) -> None:
        if per_step < 1:
            raise InvalidSettingError(f"keeper.per_step: {per_step} must be 1 or more")
        if interval < 0:
            raise InvalidSettingError(f"keeper.interval: {interval} must not be negative")
        self._write = write
        self._per_step = per_step
        self._interval = interval
        self._sleep = sleep
        self._clock = clock
        self._target: list[int | None] = [None] * count
        self._at: list[int | None] = [None] * count
        self._last_step: float | None = None
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._closed = False
        self._thread: threading.Thread | None = None
        if background:
            self._thread = threading.Thread(target=self._run, name="servo-stagger", daemon=True)
            self._thread.start()

    @property
    def settled(self) -> bool:
        """Every output is at its target."""
        with self._lock:
            return self._at == self._target

    def request(self, targets: Sequence[int]) -> None:
        with self._lock:
            self._target = list(targets)
            self._wake.notify_all()
        if self._thread is None:
            while self._step():
                pass

    def wait(self, timeout: float | None = None) -> bool:
        """Block until settled (background mode); False on timeout."""
        with self._wake:
            return self._wake.wait_for(lambda: self._at == self._target or self._closed, timeout)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._wake.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _step(self) -> bool:
        """Move the next batch; False when nothing is left to move."""
        with self._lock:
            due = self._due()
        if not due:
            return False
        if self._last_step is not None:
            wait = self._last_step + self._interval - self._clock()
            if wait > 0:
                self._sleep(wait)
        with self._lock:  # the target may have changed while we slept
            due = self._due()
            batch = [(i, self._target[i]) for i in due[: self._per_step]]
        for index, position in batch:
            assert position is not None
            self._write(index, position)
        with self._lock:
            for index, position in batch:
                self._at[index] = position
            self._last_step = self._clock()
            self._wake.notify_all()
        return bool(batch)

    def _due(self) -> list[int]:
        """The outputs not at their target (call with the lock held)."""
        return [i for i, t in enumerate(self._target) if t is not None and t != self._at[i]]

    def _run(self) -> None:
        while True:
            with self._lock:
                self._wake.wait_for(lambda: self._closed or bool(self._due()))
                if self._closed:
                    return
            self._step()


class ServoBead:
    """Shows a :class:`~casekeeper.Case` on 13 servos (ace first), staggered.

    ``channels``: 13 outputs (``ServoBead.on_gpio`` or :func:`hardware.pca9685.pca9685_bead`
    build them); ``calibrations``: one per servo, or ``None`` for the 1–2 ms default.
    """

    def __init__(
        self,
        channels: Sequence[ServoChannel],
        calibrations: Sequence[ServoCalibration] | None = None,
        *,
        per_step: int = 2,
        interval: float = 0.25,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        background: bool = True,
    ) -> None:
        if len(channels) != len(Rank):
            raise InvalidSettingError(
                f"keeper.pins: needs {len(Rank)} servos (ace to king), got {len(channels)}"
            )
        calibrations = _one_per_rank(calibrations)
        self.channels = list(channels)
        self.pulses = [
            cal.pulses(ch.grid, f"keeper.pulse_us/trim_us[{rank - 1}] (rank {rank.code})")
            for cal, ch, rank in zip(calibrations, self.channels, Rank, strict=True)
        ]
        self._stagger = Stagger(
            self._move, len(Rank), per_step=per_step, interval=interval, sleep=sleep,
            clock=clock, background=background,
        )

    @classmethod
    def on_gpio(
        cls,
        pins: Sequence[int | str],
        calibrations: Sequence[ServoCalibration] | None = None,
        *,
        frame_width: float = 0.020,
        pwm_steps: int | None = None,
        pin_factory: Any = None,
        **stagger: Any,
    ) -> ServoBead:
        """13 servos on GPIO pins (ace first) through gpiozero's AngularServo.

        ``pwm_steps``: the duty steps of the pin factory (``None``: 100 on lgpio, 255 on
        pigpio, any on RPi.GPIO and the mock pins).
        """
        from gpiozero import AngularServo, Device

        numbers = list(check_pins({f"keeper.pins[{i}]": p for i, p in enumerate(pins)}).values())
        if len(numbers) != len(Rank):
            raise InvalidSettingError(
                f"keeper.pins: needs {len(Rank)} pins (ace to king), got {len(numbers)}"
            )
        calibrations = _one_per_rank(calibrations)
        if pin_factory is None:
            Device.ensure_pin_factory()
        factory = pin_factory or Device.pin_factory
        grid = grid_for_factory(factory, frame_width, pwm_steps)
        channels: list[GpioServoChannel] = []
        try:
            for n, (pin, cal) in enumerate(zip(numbers, calibrations, strict=True)):
                servo = claim_device(
                    f"keeper.pins[{n}]",
                    functools.partial(
                        AngularServo, pin, initial_angle=None, min_angle=0,
                        max_angle=POSITIONS - 1, min_pulse_width=cal.min_pulse_us * 1e-6,
                        max_pulse_width=cal.max_pulse_us * 1e-6, frame_width=frame_width,
                        pin_factory=factory,
                    ),
                )
                channels.append(GpioServoChannel(servo, grid))
            return cls(channels, calibrations, **stagger)
        except BaseException:
            for channel in channels:
                channel.close()
            raise

    def show(self, case: Case) -> None:
        """Move every servo to its rank's cards gone (the whole state; returns at once)."""
        self._stagger.request([case.gone(rank) for rank in Rank])

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until every servo has been sent to the last shown state."""
        return self._stagger.wait(timeout)

    @property
    def settled(self) -> bool:
        return self._stagger.settled

    def close(self) -> None:
        self._stagger.close()
        for channel in self.channels:
            channel.close()

    def _move(self, index: int, position: int) -> None:
        self.channels[index].set_pulse(self.pulses[index][position])


def _one_per_rank(calibrations: Sequence[ServoCalibration] | None) -> list[ServoCalibration]:
    """One calibration a servo, ace first; none given: the 1–2 ms default for every one."""
    chosen = list(calibrations or [ServoCalibration()] * len(Rank))
    if len(chosen) != len(Rank):
        raise CalibrationError(f"keeper.trim_us: needs {len(Rank)} entries, got {len(chosen)}")
    return chosen
