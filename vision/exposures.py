"""From camera frames (and the slot's break-beam, when the rig has one) to one read per card.

:class:`ExposureTracker` is driven frame by frame: ``feed(t, frame)`` returns the exposures
settled on that frame, each an :class:`ExposureResult` holding the vote over the card's
best frames. The motion (:mod:`vision.motion`) says when a new card lies at rest; the
reader names it from a few still frames; :func:`vision.vote.vote` joins those readings and never
guesses: frames that disagree lower the confidence below the accept threshold or abstain.

With a break-beam (``has_beam=True``; call ``beam(t)`` as each card leaves the slot) the
beam decides whether a new card came, and the motion checks it: a new card the beam did not
report, or a beam with no card coming to rest, is settled as a flagged exposure
(``ExposureResult.beam`` says which), never silently dropped or invented.

>>> tracker = ExposureTracker(reader)                        # doctest: +SKIP
>>> for t, frame in camera:                                  # doctest: +SKIP
...     for result in tracker.feed(t, frame):
...         deal.expose(result.reading.card, sure=result.is_sure)
"""

from __future__ import annotations

import enum
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from vision.light import face_shown_white, glare_note
from vision.motion import (
    MotionDetector,
    MotionSettings,
    Phase,
    Rest,
    RestStarted,
    iter_rests,
)
from vision.reading import Reader, Reading
from vision.vote import vote
from vision.window import Window

__all__ = [
    "BeamCheck",
    "ExposureResult",
    "ExposureTracker",
    "Rest",
    "TrackerStats",
    "iter_rests",
    "track",
]


class BeamCheck(enum.Enum):
    """How the break-beam and the motion agree on an exposure."""

    NO_BEAM = "no_beam"  # the rig has none: the motion alone decided
    AGREED = "agreed"  # both saw the new card (or it is the first card, which no beam sees)
    VISION_ONLY = "vision_only"  # the motion saw a new card that the beam did not report
    BEAM_ONLY = "beam_only"  # the beam saw a card leave, but no new card came into view

    @property
    def is_disagreement(self) -> bool:
        return self in (BeamCheck.VISION_ONLY, BeamCheck.BEAM_ONLY)


@dataclass(frozen=True, slots=True)
class ExposureResult:
    """One exposed card: the vote, the frames it was read from, and the beam's check.

    ``number`` counts exposures from 0; ``t_rest`` is when the card came to rest (None if it
    never did); ``t_done`` the time of the frame that settled it. ``shown_white``, for a card
    not read surely: the share of its face glare showed white on the frames read unsure
    (their median; None where none was, or no card was found in them).
    """

    number: int
    reading: Reading
    frames: tuple[int, ...]
    votes: tuple[Reading, ...]
    t_rest: float | None
    t_done: float
    beam: BeamCheck
    shown_white: float | None = None

    @property
    def is_sure(self) -> bool:
        """The deal may take this card without asking anyone."""
        return self.reading.is_sure and not self.beam.is_disagreement

    @property
    def problem(self) -> str | None:
        """Why this exposure needs the operator, in words; None when it does not."""
        if self.beam is BeamCheck.BEAM_ONLY:
            return "the break-beam saw a card leave but the camera saw no new card come"
        if self.beam is BeamCheck.VISION_ONLY:
            return "the camera saw a new card that the break-beam did not report"
        named = sorted({r.card.code for r in self.votes if r.card is not None})
        disagree = f"; its frames disagree: {', '.join(named)}" if len(named) > 1 else ""
        # Glare over the print that tells the card from another holds it on every frame,
        # and a deal's later frames do not help: the lamp's reflection stays where it is.
        note = glare_note(self.shown_white)
        light = f"; {note}" if note else ""
        if self.reading.card is None:
            return (f"unread ({len(self.votes)} frames read, none named it surely{disagree})"
                    f"{light}")
        if not self.reading.is_sure:
            code, confidence = self.reading.card.code, self.reading.confidence
            return f"unsure read {code} ({confidence:.2f}{disagree}){light}"
        return None


@dataclass(slots=True)
class TrackerStats:
    """Counters for benchmarks and logs: frames seen, seconds spent on motion and reading."""

    frames: int = 0
    reads: int = 0
    motion_seconds: float = 0.0
    read_seconds: float = 0.0


@dataclass(slots=True)
class _Pending:
    """One card in view: its readings so far."""

    t_rest: float
    beam: BeamCheck | None = None
    unseen_before: int = 0  # cards the beam saw leave that never rested in view before it
    closed: bool = False  # no more readings wanted
    readings: list[Reading] = field(default_factory=list)
    frames: list[int] = field(default_factory=list)
    last_read: int = -1
    # The frames read unsure, copied (a camera may reuse its buffer), for _shown_white.
    unsure_frames: list[np.ndarray] = field(default_factory=list)


@dataclass(slots=True)
class _Undecided:
    """A rest after a disturbance, in a rig with a beam, while its beam may still come."""

    since: float
    disturbed_at: float
    vision_new: bool
    tentative: _Pending  # readings taken meanwhile: of the new card, or more of the old one


class ExposureTracker:
    """Frames in, one :class:`ExposureResult` per exposed card out. Single-threaded.

    ``min_agree`` sure readings, ``first_gap`` frames apart (so that a thumb lingering on the
    card as it comes to rest is less likely to be under both), settle a card where the vote
    over its readings is sure; a card whose frames do not agree, or are mostly unsure, gets
    up to ``max_reads`` readings, ``retry_gap`` frames apart, while it rests (a thumb may
    lift).
    ``beam_tolerance`` is how far (s) a beam may lie from the motion it belongs to.
    """

    def __init__(
        self,
        reader: Reader,
        *,
        window: Window | None = None,
        motion: MotionSettings | None = None,
        has_beam: bool = False,
        min_agree: int = 2,
        max_reads: int = 5,
        first_gap: int = 2,
        retry_gap: int = 3,
        beam_tolerance: float = 0.3,
    ) -> None:
        self.reader = reader
        self.detector = MotionDetector(window, motion)
        self.has_beam = has_beam
        self.min_agree = min_agree
        self.max_reads = max(max_reads, min_agree)
        self.first_gap = first_gap
        self.retry_gap = retry_gap
        self.beam_tolerance = beam_tolerance
        self.stats = TrackerStats()
        self.exposures = 0
        self._index = -1
        self._t = 0.0
        self._current: _Pending | None = None  # the card in view, until it is emitted
        self._undecided: _Undecided | None = None
        self._rest_t = 0.0  # when the rest in view began
        self._beams: deque[float] = deque()
        self._seen_rest = False

    def beam(self, t: float) -> None:
        """The break-beam saw a card leave the slot at time ``t`` (the frames' clock)."""
        self.has_beam = True
        if self._beams and t < self._beams[-1]:
            self._beams = deque(sorted([*self._beams, t]))
        else:
            self._beams.append(t)

    def feed(self, t: float, frame: np.ndarray) -> list[ExposureResult]:
        """Take the next frame; return the exposures it settled (usually none)."""
        self._index += 1
        self._t = t
        self.stats.frames += 1
        start = time.perf_counter()
        event = self.detector.update(t, frame)
        self.stats.motion_seconds += time.perf_counter() - start
        out: list[ExposureResult] = []
        if isinstance(event, RestStarted):
            self._rest_started(event, out)
        if self.detector.phase is Phase.RESTING and self.detector.is_still:
            target = self._undecided.tentative if self._undecided else self._current
            if target is not None and not target.closed:
                self._maybe_read(target, frame)
        self._settle(out, self._t)
        return out

    def finish(self) -> list[ExposureResult]:
        """The frames ended: settle what is still open, and any beam with no card after it."""
        out: list[ExposureResult] = []
        if self._undecided is not None:
            self._decide(self._undecided.since + self.beam_tolerance, out)
        self._emit_current(out)
        while self._beams:
            self._beams.popleft()
            out.append(self._unseen())
        return out

    # -- inside -------------------------------------------------------------------------

    def _rest_started(self, event: RestStarted, out: list[ExposureResult]) -> None:
        if self._undecided is not None:
            # A beam for the earlier rest came before this disturbance began.
            assert event.disturbed_at is not None
            limit = min(self._undecided.since + self.beam_tolerance, event.disturbed_at)
            self._decide(limit, out)
        self._rest_t = event.since
        if not self._seen_rest:
            self._seen_rest = True
            # The first card is in the box before any beam: nothing for the beam to confirm.
            self._emit_beams_before(event.since - self.beam_tolerance, out)
            check = BeamCheck.AGREED if self.has_beam else BeamCheck.NO_BEAM
            self._current = _Pending(event.since, check)
        elif not self.has_beam:
            if event.new_card:
                self._replace(_Pending(event.since, BeamCheck.NO_BEAM), out)
            # else: a hand or a flicker; the card in view goes on being read if need be
        else:
            assert event.disturbed_at is not None
            self._emit_beams_before(event.disturbed_at - self.beam_tolerance, out)
            self._undecided = _Undecided(
                event.since, event.disturbed_at, event.new_card, _Pending(event.since)
            )

    def _settle(self, out: list[ExposureResult], now: float) -> None:
        undecided = self._undecided
        if undecided is not None and now >= undecided.since + self.beam_tolerance:
            self._decide(undecided.since + self.beam_tolerance, out)
        elif undecided is not None and self._beams and self._beams[0] <= now:
            self._decide(now, out)  # its beam is here: no need to wait
        current = self._current
        if current is not None and current.closed and current.beam is not None:
            self._emit_current(out)
        if self.has_beam and self._undecided is None and self.detector.phase is Phase.RESTING:
            # A beam long after the card came to rest, with nothing moving: the card in view
            # is not the one that left. Say so now rather than at the next disturbance.
            late = self._rest_t + self.beam_tolerance
            while self._beams and late < self._beams[0] < now - self.beam_tolerance:
                self._beams.popleft()
                self._emit_current(out)
                out.append(self._unseen())

    def _decide(self, limit: float, out: list[ExposureResult]) -> None:
        """Settle the undecided rest with the beams up to ``limit``."""
        undecided = self._undecided
        assert undecided is not None
        self._undecided = None
        matched = 0
        while self._beams and self._beams[0] <= limit:
            self._beams.popleft()
            matched += 1
        pending = undecided.tentative
        if matched:
            # The beam decides that a card came; the motion that it can be seen.
            pending.beam = BeamCheck.AGREED if undecided.vision_new else BeamCheck.BEAM_ONLY
            pending.unseen_before = matched - 1  # two cards left: one never rested in view
        elif undecided.vision_new:
            pending.beam = BeamCheck.VISION_ONLY
        else:
            # A hand or a flicker: the same card lies there, and these are more of its reads.
            current = self._current
            if current is not None and not current.closed:
                current.readings.extend(pending.readings)
                current.frames.extend(pending.frames)
                current.last_read = max(current.last_read, pending.last_read)
                self._close_if_settled(current)
            return
        self._replace(pending, out)

    def _replace(self, pending: _Pending, out: list[ExposureResult]) -> None:
        """A new card lies in view: the one before it is settled with what it has."""
        self._emit_current(out)
        self._current = pending
        if pending.closed:
            self._emit_current(out)

    def _emit_current(self, out: list[ExposureResult]) -> None:
        pending, self._current = self._current, None
        if pending is None:
            return
        pending.closed = True
        for _ in range(pending.unseen_before):
            out.append(self._unseen())
        out.append(self._result(pending))

    def _emit_beams_before(self, before: float, out: list[ExposureResult]) -> None:
        """Beams with no disturbance after them: cards that left while another lay still."""
        if self._beams and self._beams[0] <= before:
            self._emit_current(out)
        while self._beams and self._beams[0] <= before:
            self._beams.popleft()
            out.append(self._unseen())

    def _maybe_read(self, pending: _Pending, frame: np.ndarray) -> None:
        gap = self.first_gap if len(pending.readings) < self.min_agree else self.retry_gap
        if pending.readings and self._index - pending.last_read < gap:
            return
        start = time.perf_counter()
        reading = self.reader.read(frame)
        if not reading.is_sure:
            pending.unsure_frames.append(frame.copy())
        self.stats.read_seconds += time.perf_counter() - start
        self.stats.reads += 1
        pending.readings.append(reading)
        pending.frames.append(self._index)
        pending.last_read = self._index
        self._close_if_settled(pending)

    def _close_if_settled(self, pending: _Pending) -> None:
        # Settled only where the vote is sure: two sure readings may stand beside two unsure
        # ones of the same card (a thumb lingering as it came to rest), and their median is
        # unsure. Read again while the card rests, it stands on the frames the thumb left.
        settled = vote(pending.readings, min_agree=self.min_agree).is_sure
        if settled or len(pending.readings) >= self.max_reads:
            pending.closed = True

    def _result(self, pending: _Pending) -> ExposureResult:
        number, self.exposures = self.exposures, self.exposures + 1
        reading = vote(pending.readings, min_agree=self.min_agree)
        return ExposureResult(
            number,
            reading,
            tuple(pending.frames),
            tuple(pending.readings),
            pending.t_rest,
            self._t,
            pending.beam or BeamCheck.NO_BEAM,
            None if reading.is_sure else _shown_white(pending.unsure_frames),
        )

    def _unseen(self) -> ExposureResult:
        number, self.exposures = self.exposures, self.exposures + 1
        return ExposureResult(
            number, Reading(None, 0.0), (), (), None, self._t, BeamCheck.BEAM_ONLY
        )


def _shown_white(frames: list[np.ndarray]) -> float | None:
    """The median share of the card's face glare shows white on these frames, so that the
    operator of a held card hears why (vision.light); None where no card is found in them.
    Only for a card held: the card is located again and its paper's level measured, some
    5 ms a frame on one core, which a card read surely need not spend."""
    whites = [w for w in map(face_shown_white, frames) if w is not None]
    return float(np.median(whites)) if whites else None


def track(
    frames: Iterable[tuple[float, np.ndarray]],
    tracker: ExposureTracker,
    beams: Iterable[float] = (),
) -> Iterator[ExposureResult]:
    """Run timed frames (and beam times, in the frames' clock) through ``tracker``."""
    pending_beams = deque(sorted(beams))
    for t, frame in frames:
        while pending_beams and pending_beams[0] <= t:
            tracker.beam(pending_beams.popleft())
        yield from tracker.feed(t, frame)
    for t in pending_beams:
        tracker.beam(t)
    yield from tracker.finish()
