"""The journal: one append-only JSON-lines file per deal, the service's record of truth.

The first line is a header (format version, deal id, start time, settings). Every later line
is one call made on the deal (:class:`shoe.deal.Action`), where it came from (camera, button,
control socket), the read behind it (card and confidence) and the events it caused. Each line
is fsynced before the events go anywhere else, so a power cut loses at most the line being
written; :func:`read` drops such a torn last line with a warning and keeps the rest.

Replaying the actions (:meth:`DealRecord.deal`) rebuilds the deal exactly.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from shoe import events as ev
from shoe.cards import Card, FaroError
from shoe.deal import Action, Deal
from shoe.settings import Settings

__all__ = [
    "JOURNAL_VERSION",
    "DealRecord",
    "Entry",
    "Journal",
    "JournalError",
    "ReadRecord",
    "journal_paths",
    "latest",
    "read",
]

JOURNAL_VERSION = 1
SUFFIX = ".jsonl"
log = logging.getLogger(__name__)


class JournalError(FaroError, ValueError):
    """A journal file that is not one, or is damaged before its last line."""


@dataclass(frozen=True, slots=True)
class ReadRecord:
    """What the reader said about an exposure: the card (None: abstained) and its confidence."""

    card: Card | None
    confidence: float

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card.code if self.card else None,
                "confidence": round(self.confidence, 4)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ReadRecord:
        code = data["card"]
        return cls(Card.parse(code) if code is not None else None, float(data["confidence"]))


@dataclass(frozen=True, slots=True)
class Entry:
    """One journal line after the header."""

    action: Action
    events: tuple[ev.Event, ...]
    source: str  # "camera", "button" or "control"
    time: float  # seconds since the epoch
    read: ReadRecord | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": round(self.time, 3), "source": self.source,
                               **self.action.to_json()}
        if self.read is not None:
            out["read"] = self.read.to_json()
        out["events"] = [ev.to_json(e) for e in self.events]
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Entry:
        read_data = data.get("read")
        return cls(
            action=Action.from_json(data),
            events=tuple(ev.from_json(e) for e in data["events"]),
            source=str(data["source"]),
            time=float(data["t"]),
            read=ReadRecord.from_json(read_data) if read_data is not None else None,
        )


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A journal file as read back: header, entries, and where its last whole line ends."""

    path: Path
    deal_id: str
    started: float
    settings: Settings
    entries: tuple[Entry, ...]
    torn: bool = False  # a torn last line was dropped
    good_size: int = 0  # bytes up to the end of the last whole line

    def deal(self) -> Deal:
        """The deal rebuilt by replaying every recorded action."""
        return Deal.replay((e.action for e in self.entries), self.settings)

    @property
    def events(self) -> list[ev.Event]:
        """Every event in order as it happened, flags and corrections included."""
        return [ev.DeckStarted(self.settings.variant), *(e for n in self.entries for e in n.events)]


class Journal:
    """An open journal file that the service appends to, one fsynced line per call."""

    def __init__(self, path: Path, file: IO[bytes], deal_id: str, settings: Settings) -> None:
        self.path = path
        self.deal_id = deal_id
        self.settings = settings
        self._file = file

    @classmethod
    def new(cls, directory: Path, settings: Settings, now: float | None = None) -> Journal:
        """Start a new deal's file in ``directory`` (created if missing)."""
        now = time.time() if now is None else now
        directory.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now))
        for n in range(1, 1000):
            deal_id = stamp if n == 1 else f"{stamp}-{n}"
            path = directory / f"{deal_id}{SUFFIX}"
            try:
                file = open(path, "xb")  # noqa: SIM115 - held open for the deal's lifetime
            except FileExistsError:
                continue
            break
        else:  # pragma: no cover - a thousand deals in one second
            raise JournalError(f"{directory}: cannot name a new journal for {stamp}")
        journal = cls(path, file, deal_id, settings)
        header = {"journal": JOURNAL_VERSION, "deal": deal_id, "started": round(now, 3),
                  "settings": settings.to_json()}
        journal._write(header)
        _fsync_dir(directory)
        return journal

    @classmethod
    def resume(cls, record: DealRecord) -> Journal:
        """Reopen a deal's file to append to it, cutting off a torn last line first."""
        file = open(record.path, "r+b")  # noqa: SIM115 - held open for the deal's lifetime
        if record.torn:
            file.truncate(record.good_size)
            os.fsync(file.fileno())
        file.seek(0, os.SEEK_END)
        return cls(record.path, file, record.deal_id, record.settings)

    def append(self, action: Action, events: Iterable[ev.Event], *, source: str,
               read: ReadRecord | None = None, now: float | None = None) -> Entry:
        """Record one call on the deal; returns when the line is on disk."""
        entry = Entry(action, tuple(events), source, time.time() if now is None else now, read)
        self._write(entry.to_json())
        return entry

    def close(self) -> None:
        if not self._file.closed:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()

    def _write(self, data: dict[str, Any]) -> None:
        # One write() of the whole line: a power cut leaves at most this line torn.
        self._file.write(json.dumps(data, ensure_ascii=False).encode() + b"\n")
        self._file.flush()
        os.fsync(self._file.fileno())


def read(path: Path | str) -> DealRecord:
    """Read a journal file back; a torn last line is dropped with a warning."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise JournalError(f"{path}: cannot read the journal: {exc}") from None
    *whole, tail = raw.split(b"\n")
    parsed: list[dict[str, Any]] = []
    good_size = 0
    torn_by = tail if tail.strip(b"\0 \r") else b""  # a last write that did not finish
    for i, line in enumerate(whole):
        try:
            data = json.loads(line)
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
        except ValueError as exc:
            # Only the last line can be torn; damage before it is not a power cut's doing.
            if i == len(whole) - 1 and not torn_by:
                torn_by = line
                break
            raise JournalError(f"{path}: line {i + 1} is damaged: {exc}") from None
        parsed.append(data)
        good_size += len(line) + 1
    torn = bool(torn_by) or good_size < len(raw)
    if torn:
        log.warning("%s: dropped a torn last line (%d bytes)", path, len(raw) - good_size)
    if not parsed:
        raise JournalError(f"{path}: empty journal (no header)")
    header, body = parsed[0], parsed[1:]
    if header.get("journal") != JOURNAL_VERSION:
        raise JournalError(f"{path}: not a version {JOURNAL_VERSION} journal: {header!r}")
    try:
        settings = Settings.from_json(header["settings"])
        entries = tuple(Entry.from_json(d) for d in body)
        return DealRecord(path, str(header["deal"]), float(header["started"]), settings,
                          entries, torn, good_size)
    except (KeyError, TypeError, ValueError) as exc:
        raise JournalError(f"{path}: bad journal entry: {exc}") from None


def journal_paths(directory: Path) -> list[Path]:
    """Every deal's journal in ``directory``, oldest first."""
    if not directory.is_dir():
        return []
    paths = [p for p in directory.iterdir() if p.suffix == SUFFIX and p.is_file()]
    # "20261122-201500" before "20261122-201500-2" (a second deal in the same second).
    return sorted(paths, key=lambda p: (p.stem[:15], len(p.stem), p.stem))


def latest(directory: Path) -> DealRecord | None:
    """The newest deal's journal, or None when there is none."""
    paths = journal_paths(directory)
    return read(paths[-1]) if paths else None


def _fsync_dir(directory: Path) -> None:
    """Make a new file's name durable, not only its contents."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
