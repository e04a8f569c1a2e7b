"""``faro-shoe read``: run a recorded deal through the reader, the tracker and the deal."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from shoe.cards import Card, FaroError
from shoe.commands.common import add_variant_option, settings_from_args
from shoe.deal import DECK_SIZE, Deal
from shoe.describe import describe
from shoe.events import CardFlagged, DeckFinished, Event, FlagReason, dumps
from shoe.settings import Settings

if TYPE_CHECKING:
    import numpy as np

    from vision.exposures import ExposureResult, ExposureTracker, TrackerStats
    from vision.reading import Reader
    from vision.window import Window

__all__ = [
    "BadBeamFileError",
    "BadVideoError",
    "DealRecord",
    "OfflineDeal",
    "load_beams",
    "load_reader_for",
    "open_video",
    "quiet_video_decoder",
    "read_video",
]

EXAMPLES = """\
examples:
  faro-shoe read deal.mp4
  faro-shoe read deal.mp4 --profile mydeck.profile --json > events.jsonl
  faro-shoe read deal.avi --variant stuss --beam beam.txt

what it does: finds each card that comes to rest in the box, reads it from several of its
still frames, and deals it through the rules. --json prints the deal's events as JSON lines
(docs/EVENTS.md); the last line is deck_finished, whose "cards" lists the 52 codes in
exposure order, null for a card not read.

a card the reader is not sure of, or one the deal cannot hold (a duplicate, a fifth of a
rank), is never guessed: it is reported on stderr and as a card_flagged event, and recorded
as null. The deal settles turns up to the first such card; the cards after it are still
read, checked against the deck and listed, but settle nothing (there is no operator to
resolve the hold in a recording). See docs/VIDEO.md.

--beam: a text file of break-beam times, seconds from the video's start, one per line. The
beam then decides when a new card came and the camera cross-checks it.

exit status: 0 all 52 cards read; 3 a card flagged, unread or missing; 2 bad input (no
such video, an empty or unreadable one, a corrupt profile, a bad beam file).
"""


class BadVideoError(FaroError, ValueError):
    """A video that cannot be opened, or holds no frame."""


class BadBeamFileError(FaroError, ValueError):
    """A break-beam file that is not one time in seconds per line."""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "read", help="read a recorded deal from video and deal it through the rules",
        description="Read a recorded deal (any video OpenCV opens) card by card and run it "
                    "through the deal: the turns as text, or the events as JSON lines.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("video", metavar="VIDEO", help="the recorded deal")
    parser.add_argument("--profile", metavar="P",
                        help="a deck profile from 'faro-shoe learn' (default: zero-shot)")
    add_variant_option(parser)
    parser.add_argument("--json", action="store_true",
                        help="print the deal's events as JSON lines, deck_finished last")
    parser.add_argument("--beam", metavar="TIMES",
                        help="break-beam times (s from the video's start), one per line")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    quiet_video_decoder()
    from vision.exposures import ExposureTracker

    settings = settings_from_args(args)
    beams = load_beams(Path(args.beam)) if args.beam else None
    frames = open_video(Path(args.video))
    reader, window = load_reader_for(args.profile)
    tracker = ExposureTracker(reader, window=window, has_beam=beams is not None)
    printer = _Printer(args.json)
    printer.events(Deal(settings).events)
    record = read_video(frames, tracker, settings, beams or (), printer.exposure)
    printer.events(record.events[-1:])
    printer.summary(record)
    return 0 if record.all_read else 3


@dataclass(slots=True)
class DealRecord:
    """What reading a recorded deal gave: the events, the cards (None: not read), stats."""

    events: list[Event] = field(default_factory=list)
    cards: list[Card | None] = field(default_factory=list)
    flagged: list[int] = field(default_factory=list)
    extra: list[ExposureResult] = field(default_factory=list)
    results: list[ExposureResult] = field(default_factory=list)
    held_at: int | None = None
    stats: TrackerStats | None = None

    @property
    def all_read(self) -> bool:
        named_extra = any(r.reading.card is not None for r in self.extra)
        return len(self.cards) == DECK_SIZE and None not in self.cards and not named_extra


class OfflineDeal:
    """The deal of a recording, where no operator can resolve a hold.

    Until the first flagged card every exposure goes through :class:`Deal`. That card is
    recorded as None and the deal stays held: no later turn is settled (its pairs and the
    case depend on the unknown card's place). Later cards are still checked against the
    deck as read so far: an unsure read, an unread card, a duplicate or a fifth of a rank
    is flagged the same way and recorded as None.
    """

    def __init__(self, settings: Settings, record: DealRecord) -> None:
        self.deal = Deal(settings)
        self.record = record
        self._seen: dict[Card, int] = {}

    def take(self, result: ExposureResult) -> list[Event]:
        """The events one exposure causes (a CardFlagged when it is held)."""
        record = self.record
        record.results.append(result)
        exposure = len(record.cards)
        if exposure >= DECK_SIZE:
            record.extra.append(result)
            return []
        card = result.reading.card
        if record.held_at is None:
            events: list[Event] = [e for e in self.deal.expose(card, sure=result.is_sure)
                                   if not isinstance(e, DeckFinished)]
            if self.deal.flag is not None:
                record.held_at = exposure
                return self._flagged(events)
        else:
            flag = self._check(exposure, card, sure=result.is_sure)
            if flag is not None:
                return self._flagged([flag])
            events = []
        assert card is not None
        record.cards.append(card)
        self._seen[card] = exposure
        return events

    def finish(self) -> DeckFinished:
        """The deck_finished event: 52 places in exposure order, None where not read."""
        cards = (self.record.cards + [None] * DECK_SIZE)[:DECK_SIZE]
        return DeckFinished(tuple(cards), self.deal.splits)

    def _flagged(self, events: list[Event]) -> list[Event]:
        self.record.flagged.append(len(self.record.cards))
        self.record.cards.append(None)
        return events

    def _check(self, exposure: int, card: Card | None, *, sure: bool) -> CardFlagged | None:
        if card is None:
            return CardFlagged(exposure, None, FlagReason.UNREAD)
        if card in self._seen:
            return CardFlagged(exposure, card, FlagReason.DUPLICATE, self._seen[card])
        same_rank = [i for c, i in self._seen.items() if c.rank is card.rank]
        if len(same_rank) >= 4:
            return CardFlagged(exposure, card, FlagReason.FIFTH_OF_RANK, max(same_rank))
        if not sure:
            return CardFlagged(exposure, card, FlagReason.UNSURE)
        return None


def read_video(
    frames: Iterable[tuple[float, np.ndarray]],
    tracker: ExposureTracker,
    settings: Settings,
    beams: Iterable[float] = (),
    on_exposure: Callable[[ExposureResult, list[Event]], None] | None = None,
) -> DealRecord:
    """Run timed frames through ``tracker`` and the offline deal; see :class:`OfflineDeal`.

    ``on_exposure`` sees each exposure with the events it caused, as they come.
    """
    from vision.exposures import track

    record = DealRecord(stats=tracker.stats)
    deal = OfflineDeal(settings, record)
    record.events.extend(deal.deal.events)
    for result in track(frames, tracker, beams):
        events = deal.take(result)
        record.events.extend(events)
        if on_exposure is not None:
            on_exposure(result, events)
    record.events.append(deal.finish())
    return record


def open_video(path: Path) -> Iterator[tuple[float, np.ndarray]]:
    """The video's frames with their times (frame number / the file's frame rate).

    Raises BadVideoError at once if the file is missing, unreadable or has no frame.
    """
    import cv2

    if not path.is_file():
        raise BadVideoError(f"no such video file: {path}")
    capture = cv2.VideoCapture(str(path))
    ok, first = capture.read() if capture.isOpened() else (False, None)
    if not ok or first is None:
        capture.release()
        raise BadVideoError(f"cannot read a frame from {path}: not a video, or an empty one")
    fps = capture.get(cv2.CAP_PROP_FPS)
    if not 1.0 <= fps <= 1000.0:
        fps = 30.0  # some containers carry no rate; the rig's cameras give 30

    def frames() -> Iterator[tuple[float, np.ndarray]]:
        index, frame = 0, first
        try:
            while True:
                yield index / fps, frame
                ok, frame = capture.read()
                if not ok:
                    return
                index += 1
        finally:
            capture.release()

    return frames()


def quiet_video_decoder() -> None:
    """Keep FFmpeg's own log lines (``moov atom not found`` …) off stderr: errors are ours."""
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # AV_LOG_QUIET


def load_beams(path: Path) -> tuple[float, ...]:
    """Break-beam times from a file: seconds, one per line; '#' starts a comment."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadBeamFileError(f"cannot read the beam file {path}: {exc}") from None
    times = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            value = float(line)
        except ValueError:
            raise BadBeamFileError(f"{path}:{number}: not a time in seconds: {line!r}") from None
        if not value >= 0.0:
            raise BadBeamFileError(f"{path}:{number}: a time must be 0 or more: {line!r}")
        times.append(value)
    return tuple(sorted(times))


def load_reader_for(profile: str | None) -> tuple[Reader, Window | None]:
    """The reader for ``profile`` (zero-shot without one) and the window the profile learned.

    A profile that cannot be used raises a FaroError (exit status 2).
    """
    from vision.profile import ProfileReader
    from vision.reader import load_reader
    from vision.window import Window

    reader = load_reader(profile)
    quad = reader.profile.window if isinstance(reader, ProfileReader) else None
    return reader, Window.around(quad.corners) if quad is not None else None


class _Printer:
    """Events to stdout (text or JSON lines); problems to stderr, one line each."""

    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json
        self.held = False

    def events(self, events: list[Event]) -> None:
        for event in events:
            if self.as_json:
                print(dumps(event), flush=isinstance(event, DeckFinished))
            else:
                print(describe(event))

    def exposure(self, result: ExposureResult, events: list[Event]) -> None:
        flag = next((e for e in events if isinstance(e, CardFlagged)), None)
        card = result.reading.card.code if result.reading.card else "?"
        where = f"at {result.t_rest:.2f} s" if result.t_rest is not None else "never at rest"
        head = f"exposure {result.number} ({card}, {where})"
        if flag is not None or result.problem is not None:
            why = result.problem or (describe(flag) if flag else "")
            if flag is not None and result.problem is not None:
                why = f"{describe(flag)}: {result.problem}"
            print(f"faro-shoe read: {head}: {why}", file=sys.stderr)
        self.events(events)
        if flag is not None and not self.held:
            self.held = True
            if not self.as_json:
                print(f"-- held at exposure {flag.exposure}: later cards are read, not settled")
        elif self.held and flag is None and not self.as_json:
            label = result.reading.card.label if result.reading.card else "?"
            print(f"Exposure {result.number:>2}  {label}  (not settled)")

    def summary(self, record: DealRecord) -> None:
        read = sum(1 for c in record.cards if c is not None)
        line = f"{len(record.results)} exposures, {read} of {DECK_SIZE} cards read"
        if record.flagged:
            line += f", flagged: {', '.join(str(i) for i in record.flagged)}"
        if len(record.cards) < DECK_SIZE:
            line += f"; {DECK_SIZE - len(record.cards)} cards never came to rest in view"
        if record.extra:
            line += f"; {len(record.extra)} exposures after the 52nd"
        print(f"faro-shoe read: {line}" if self.as_json else line,
              file=sys.stderr if self.as_json else sys.stdout)
