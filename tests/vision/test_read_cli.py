"""``faro-shoe read``: exit statuses and messages for bad input, the JSON stream and the
text, on simulated deal videos with the real zero-shot reader."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from shoe.cards import Card, shuffled_deck
from shoe.cli import EXIT_BAD_INPUT, EXIT_FLAGGED, EXIT_OK, main
from shoe.events import CardFlagged, DeckFinished, DeckStarted, FlagReason, Soda, loads
from vision.simulator import DealTiming, SimulatedShoe, write_video


def run_read(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["read", *argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    ("name", "content", "says"),
    [
        ("missing.mp4", None, "no such video file"),
        ("empty.mp4", b"", "cannot read a frame"),
        ("noise.mp4", os.urandom(4096), "cannot read a frame"),
        ("text.avi", b"not a video at all\n" * 50, "cannot read a frame"),
    ],
)
def test_a_bad_video_gets_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, content: bytes | None,
    says: str,
) -> None:
    video = tmp_path / name
    if content is not None:
        video.write_bytes(content)
    status, out, err = run_read(capsys, str(video))
    assert status == EXIT_BAD_INPUT
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("faro-shoe read: ")
    assert says in err
    assert "Traceback" not in err


def test_a_bad_beam_file_gets_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    beams = tmp_path / "beam.txt"
    beams.write_text("0.5\n1.25\nsoon\n", encoding="utf-8")
    status, out, err = run_read(capsys, str(tmp_path / "deal.mp4"), "--beam", str(beams))
    assert out == ""
    assert status == EXIT_BAD_INPUT
    assert err.count("\n") == 1
    assert "beam.txt:3" in err and "'soon'" in err


@pytest.mark.parametrize("content", [b"", b"PK\x03\x04 not really a zip", b"\x00" * 100])
def test_a_corrupt_profile_gets_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], simulated_deal_video: object,
    content: bytes,
) -> None:
    profile = tmp_path / "deck.faro-profile"
    profile.write_bytes(content)
    video = str(simulated_deal_video.path)  # type: ignore[attr-defined]
    status, out, err = run_read(capsys, video, "--profile", str(profile))
    assert status == EXIT_BAD_INPUT
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("faro-shoe read: ")
    assert "Traceback" not in err


def test_json_stream_of_a_short_deal_ends_with_deck_finished(
    capsys: pytest.CaptureFixture[str], simulated_deal_video: object
) -> None:
    video: Any = simulated_deal_video
    truth = list(video.cards)  # KS AH 7S 7H QD QD 2C 10D JC 5S: QD twice, a duplicate
    status, out, err = run_read(capsys, str(video.path), "--json")
    events = [loads(line) for line in out.splitlines()]
    assert isinstance(events[0], DeckStarted)
    finished = events[-1]
    assert isinstance(finished, DeckFinished)
    assert len(finished.cards) == 52
    assert finished.cards[len(truth):] == (None,) * (52 - len(truth))
    read = finished.cards[: len(truth)]
    assert all(card is None or card == want for card, want in zip(read, truth, strict=True))
    assert sum(card is not None for card in read) >= len(truth) - 3
    flags = [e for e in events if isinstance(e, CardFlagged)]
    assert sorted(f.exposure for f in flags) == [i for i, c in enumerate(read) if c is None]
    if read[4] == truth[4]:  # the second QD can only be a duplicate of the first
        assert CardFlagged(5, truth[5], FlagReason.DUPLICATE, 4) in flags
    assert status == EXIT_FLAGGED  # a duplicate, and 42 cards never shown
    assert len(err.strip().splitlines()) == len(flags) + 1  # one line each, and the summary


def test_text_output_shows_the_turns(
    capsys: pytest.CaptureFixture[str], simulated_deal_video: object
) -> None:
    video: Any = simulated_deal_video
    status, out, _ = run_read(capsys, str(video.path))
    assert status == EXIT_FLAGGED
    assert "New deck: faro" in out
    assert "Soda" in out and "K♠" in out
    assert "exposures" in out.splitlines()[-1]


def test_a_whole_deal_read_cleanly_exits_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
    deck_faces: Callable[..., dict[Card, np.ndarray]],
) -> None:
    faces = deck_faces("anglo", 350, alpha=True)
    cards = shuffled_deck(2718)
    shoe = SimulatedShoe([faces[c] for c in cards], seed=2718, timing=DealTiming.fast(),
                         difficulty="easy")
    path = tmp_path / "deal.avi"
    write_video(path, shoe.frames(30.0), 30.0)
    beams = tmp_path / "beam.txt"
    beams.write_text("".join(f"{c.leaves_at}\n" for c in shoe.truth if c.leaves_at),
                     encoding="utf-8")
    status, out, err = run_read(capsys, str(path), "--json", "--beam", str(beams))
    finished = loads(out.splitlines()[-1])
    assert isinstance(finished, DeckFinished)
    assert finished.cards == tuple(cards), err
    assert status == EXIT_OK
    events = [loads(line) for line in out.splitlines()]
    assert not any(isinstance(e, CardFlagged) for e in events)
    assert isinstance(events[1], Soda) and events[1].card == cards[0]
