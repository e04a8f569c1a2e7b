"""From camera frames (and the slot's break-beam, when the rig has one) to one read per card.

:class:`ExposureTracker` is driven frame by frame: ``feed(t, frame)`` returns the exposures
settled on that frame, each an :class:`ExposureResult` holding the vote over the card's
best frames. The motion (:mod:`vision.motion`) says when a new card lies at rest; the
reader names it from a few still frames; :func:`vote` joins those readings and never
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
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np

from shoe.cards import Rank, Suit
from vision.motion import MotionDetector, MotionSettings, Phase, RestEnded, RestStarted, Window
from vision.reading import ACCEPT_THRESHOLD, Reader, Reading

__all__ = [
    "BeamCheck",
    "ExposureResult",
    "ExposureTracker",
    "Rest",
    "TrackerStats",
    "iter_rests",
    "track",
    "vote",
]

T = TypeVar("T")

#: A vote that is not sure is capped here, safely under the accept threshold.
UNSURE_CAP = ACCEPT_THRESHOLD - 0.05


class BeamCheck(enum.Enum):
    """How the break-beam and the motion agree on an exposure."""

    NO_BEAM = "no_beam"  # the rig has none: the motion alone decided
    AGREED = "agreed"  # both saw the new card (or it is the first card, which no beam sees)
    VISION_ONLY = "vision_only"  # the motion saw a new card that the beam did not report
    BEAM_ONLY = "beam_only"  # the beam saw a card leave, but no new card came to rest in view

    @property
    def is_disagreement(self) -> bool:
        return self in (BeamCheck.VISION_ONLY, BeamCheck.BEAM_ONLY)


@dataclass(frozen=True, slots=True)
class ExposureResult:
    """One exposed card: the vote, the frames it was read from, and the beam's check.

    ``number`` counts exposures from 0; ``t_rest`` is when the card came to rest (None if it
    never did); ``t_done`` the time of the frame that settled it.
    """

    number: int
    reading: Reading
    frames: tuple[int, ...]
    votes: tuple[Reading, ...]
    t_rest: float | None
    t_done: float
    beam: BeamCheck

    @property
    def is_sure(self) -> bool:
        """The deal may take this card without asking anyone."""
        return self.reading.is_sure and not self.beam.is_disagreement

    @property
    def problem(self) -> str | None:
        """Why this exposure needs the operator, in words; None when it does not."""
        if self.beam is BeamCheck.BEAM_ONLY:
            return "the break-beam saw a card leave but no new card came to rest in view"
        if self.beam is BeamCheck.VISION_ONLY:
            return "the camera saw a new card that the break-beam did not report"
        if self.reading.card is None:
            return f"unread ({len(self.votes)} frames read, none named it surely)"
        if not self.reading.is_sure:
            return f"unsure read {self.reading.card.code} ({self.reading.confidence:.2f})"
        return None


def vote(readings: Sequence[Reading], *, min_agree: int = 2) -> Reading:
    """Join several frames' readings of one card into one.

    Sure only when at least ``min_agree`` readings name the card surely and none names
    another; otherwise the confidence is capped under the threshold. Frames that abstain
    (a thumb, a glare) do not count against it; frames naming another card do, and when no
    card clearly leads, the vote abstains.
    """
    card, confidence, sure_agree, sure_dissent = _tally(
        [(r.card, r.confidence) for r in readings]
    )
    if card is not None and (sure_agree < min_agree or sure_dissent):
        confidence = min(confidence, UNSURE_CAP)
    rank, rank_conf, _, _ = _tally([(_rank_of(r), _rank_conf(r)) for r in readings])
    suit, suit_conf, _, _ = _tally([(_suit_of(r), _suit_conf(r)) for r in readings])
    return Reading(card, confidence if card else 0.0, rank, suit, rank_conf, suit_conf)


@dataclass(slots=True)
class TrackerStats:
    """Counters for benchmarks and logs: frames seen, seconds spent on motion and reading."""

    frames: int = 0
    reads: int = 0
    motion_seconds: float = 0.0
    read_seconds: float = 0.0


@dataclass(slots=True)
class _Pending:
    """A rest that may be a new card: its readings so far and the decision about it."""

    t_rest: float
    disturbed_at: float | None
    vision_new: bool
    beam: BeamCheck | None = None  # None: not decided yet (waiting for a late beam)
    is_exposure: bool | None = None
    closed: bool = False
    unseen_before: int = 0  # cards the beam saw leave that never rested in view before it
    readings: list[Reading] = field(default_factory=list)
    frames: list[int] = field(default_factory=list)
    last_read: int = -1


class ExposureTracker:
    """Frames in, one :class:`ExposureResult` per exposed card out. Single-threaded.

    ``min_agree`` sure readings settle a card; a card whose frames do not agree gets up to
    ``max_reads`` readings, ``retry_gap`` frames apart, while it rests (a thumb may lift).
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
        retry_gap: int = 3,
        beam_tolerance: float = 0.3,
    ) -> None:
        self.reader = reader
        self.detector = MotionDetector(window, motion)
        self.has_beam = has_beam
        self.min_agree = min_agree
        self.max_reads = max(max_reads, min_agree)
        self.retry_gap = retry_gap
        self.beam_tolerance = beam_tolerance
        self.stats = TrackerStats()
        self.exposures = 0
        self._index = -1
        self._t = 0.0
        self._pending: _Pending | None = None
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
        if isinstance(event, RestEnded):
            self._end_rest(out)
        elif isinstance(event, RestStarted):
            self._start_rest(event, out)
        pending = self._pending
        if (
            pending is not None
            and not pending.closed
            and pending.is_exposure is not False
            and self.detector.phase is Phase.RESTING
            and self.detector.is_still
        ):
            self._maybe_read(pending, frame)
        self._settle(out)
        return out

    def finish(self) -> list[ExposureResult]:
        """The frames ended: settle what is still open, and any beam with no card after it."""
        out: list[ExposureResult] = []
        if self._pending is not None:
            self._decide(self._pending, final=True)
            self._pending.closed = True
        self._settle(out, final=True)
        while self._beams:
            self._beams.popleft()
            out.append(self._unseen())
        return out

    # -- inside -------------------------------------------------------------------------

    def _start_rest(self, event: RestStarted, out: list[ExposureResult]) -> None:
        pending = _Pending(event.t, event.disturbed_at, event.new_card)
        self._rest_t = event.t
        if not self._seen_rest:
            self._seen_rest = True
            pending.vision_new = True
            # The first card is in the box before any beam: nothing for the beam to confirm.
            pending.beam = BeamCheck.AGREED if self.has_beam else BeamCheck.NO_BEAM
            pending.is_exposure = True
            self._emit_stale_beams(event.t - self.beam_tolerance, out)
        elif self.has_beam:
            assert event.disturbed_at is not None
            self._emit_stale_beams(event.disturbed_at - self.beam_tolerance, out)
        else:
            pending.beam = BeamCheck.NO_BEAM
            pending.is_exposure = event.new_card
        self._pending = pending

    def _end_rest(self, out: list[ExposureResult]) -> None:
        pending = self._pending
        if pending is None:
            return
        pending.closed = True
        self._decide(pending, final=False)

    def _decide(self, pending: _Pending, *, final: bool) -> None:
        """Match beams to this rest once the tolerance has passed (or at once if final)."""
        if pending.is_exposure is not None:
            return
        limit = pending.t_rest + self.beam_tolerance
        if not final and self._t < limit and self.detector.phase is Phase.RESTING:
            return
        matched = 0
        while self._beams and self._beams[0] <= limit:
            self._beams.popleft()
            matched += 1
        if matched:
            pending.is_exposure, pending.beam = True, BeamCheck.AGREED
            # Two cards left in one disturbance: the first never rested in view.
            pending.unseen_before = matched - 1
        elif pending.vision_new:
            pending.is_exposure, pending.beam = True, BeamCheck.VISION_ONLY
        else:
            pending.is_exposure = False  # a hand or a flicker: the same card lies there

    def _settle(self, out: list[ExposureResult], *, final: bool = False) -> None:
        pending = self._pending
        if pending is not None:
            self._decide(pending, final=final)
            if pending.is_exposure is False:
                self._pending = pending = None
            elif pending.is_exposure and pending.closed:
                self._emit(pending, out)
                pending = None
        if not self.has_beam or self.detector.phase is not Phase.RESTING:
            return
        if pending is not None and pending.is_exposure is None:
            return  # its beam may still come
        # A beam long after the card came to rest, with nothing moving: the card in view
        # is not the one that left. Say so now rather than at the next disturbance.
        late = self._rest_t + self.beam_tolerance
        while self._beams and late < self._beams[0] < self._t - self.beam_tolerance:
            self._beams.popleft()
            if pending is not None:
                pending.closed = True
                self._emit(pending, out)
                pending = None
            out.append(self._unseen())

    def _emit(self, pending: _Pending, out: list[ExposureResult]) -> None:
        for _ in range(pending.unseen_before):
            out.append(self._unseen())
        out.append(self._result(pending))
        self._pending = None

    def _emit_stale_beams(self, before: float, out: list[ExposureResult]) -> None:
        while self._beams and self._beams[0] <= before:
            self._beams.popleft()
            out.append(self._unseen())

    def _maybe_read(self, pending: _Pending, frame: np.ndarray) -> None:
        first_reads = len(pending.readings) < self.min_agree
        if not first_reads and self._index - pending.last_read < self.retry_gap:
            return
        start = time.perf_counter()
        reading = self.reader.read(frame)
        self.stats.read_seconds += time.perf_counter() - start
        self.stats.reads += 1
        pending.readings.append(reading)
        pending.frames.append(self._index)
        pending.last_read = self._index
        named = [(r.card, r.confidence) for r in pending.readings]
        card, _, sure_agree, sure_dissent = _tally(named)
        settled = card is not None and sure_agree >= self.min_agree and not sure_dissent
        if settled or len(pending.readings) >= self.max_reads:
            pending.closed = True

    def _result(self, pending: _Pending) -> ExposureResult:
        assert pending.beam is not None
        number, self.exposures = self.exposures, self.exposures + 1
        return ExposureResult(
            number,
            vote(pending.readings, min_agree=self.min_agree),
            tuple(pending.frames),
            tuple(pending.readings),
            pending.t_rest,
            self._t,
            pending.beam,
        )

    def _unseen(self) -> ExposureResult:
        number, self.exposures = self.exposures, self.exposures + 1
        return ExposureResult(
            number, Reading(None, 0.0), (), (), None, self._t, BeamCheck.BEAM_ONLY
        )


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


@dataclass(frozen=True, slots=True)
class Rest:
    """One card at rest in a video: its frame span and a few of its still frames (copies)."""

    number: int
    start: int
    end: int
    t_start: float
    t_end: float
    frames: tuple[np.ndarray, ...]


def iter_rests(
    frames: Iterable[tuple[float, np.ndarray]],
    *,
    window: Window | None = None,
    motion: MotionSettings | None = None,
    keep: int = 5,
) -> Iterator[Rest]:
    """The cards of a video, one :class:`Rest` each, by the same motion rules as the tracker.

    A rest that shows no new card (a hand hovering, a flicker) joins the card before it.
    """
    detector = MotionDetector(window, motion)
    number, start, t_start = -1, 0, 0.0
    kept: list[np.ndarray] = []
    index, t = -1, 0.0
    for index, (t, frame) in enumerate(frames):
        event = detector.update(t, frame)
        if isinstance(event, RestStarted) and event.new_card:
            if number >= 0:
                yield Rest(number, start, index - 1, t_start, t, tuple(kept))
            number, start, t_start, kept = number + 1, index, t, []
        resting = detector.phase is Phase.RESTING and detector.is_still
        if number >= 0 and resting and len(kept) < keep:
            kept.append(frame.copy())
    if number >= 0:
        yield Rest(number, start, index, t_start, t, tuple(kept))


def _tally(items: Sequence[tuple[T | None, float]]) -> tuple[T | None, float, int, int]:
    """The value the items lead on: (value, confidence, sure agreeing, sure dissenting)."""
    named = [(v, c) for v, c in items if v is not None]
    if not named:
        return None, 0.0, 0, 0
    support: dict[T, float] = {}
    for value, conf in named:
        support[value] = support.get(value, 0.0) + conf
    ranked = sorted(support.items(), key=lambda item: -item[1])[:2]
    best, best_support = ranked[0]
    if len(ranked) > 1 and ranked[1][1] * 2 > best_support:
        return None, 0.0, 0, 0  # no clear leader: abstain
    agree = [c for v, c in named if v == best]
    confidence = sum(agree) / len(named)  # readings naming another card pull it down
    sure_agree = sum(1 for c in agree if c >= ACCEPT_THRESHOLD)
    sure_dissent = sum(1 for v, c in named if v != best and c >= ACCEPT_THRESHOLD)
    return best, confidence, sure_agree, sure_dissent


def _rank_of(r: Reading) -> Rank | None:
    return r.rank if r.rank is not None else (r.card.rank if r.card else None)


def _rank_conf(r: Reading) -> float:
    return r.rank_confidence if r.rank is not None else r.confidence


def _suit_of(r: Reading) -> Suit | None:
    return r.suit if r.suit is not None else (r.card.suit if r.card else None)


def _suit_conf(r: Reading) -> float:
    return r.suit_confidence if r.suit is not None else r.confidence
