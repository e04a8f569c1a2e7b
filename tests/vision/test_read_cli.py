"""``faro-shoe read``: exit statuses and messages for bad input, and the JSON stream."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from shoe.cli import EXIT_BAD_INPUT, main


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
