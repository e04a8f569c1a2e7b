"""``faro-shoe display-test`` against a pty, as a person runs it after wiring a display."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from hardware.display import cd5220, pfaro, serlcd
from hardware.display.layout import pattern_screens
from shoe.cli import main
from shoe.deal import Deal
from shoe.events import dumps, loads

from .conftest import HAND_DEAL_CODES, Pty


def events_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A deal's events exactly as ``faro-shoe replay --json`` prints them."""
    cards = tmp_path / "deal.txt"
    cards.write_text(HAND_DEAL_CODES)
    assert main(["replay", str(cards), "--json"]) == 0
    path = tmp_path / "deal.jsonl"
    path.write_text(capsys.readouterr().out)
    return path


def test_events_from_replay_reach_a_pfaro_display_in_order(
        make_pty: Callable[[], Pty], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = events_file(tmp_path, capsys)
    events = [loads(line) for line in path.read_text().splitlines()]
    pty = make_pty()
    status = main(["display-test", "--model", "pfaro", "--port", pty.path,
                   "--events", str(path), "--delay", "0"])
    assert status == 0
    expected = b"".join(pfaro.encode(e) for e in events)
    assert pty.read_until(lambda got: len(got) >= len(expected)) == expected
    out = capsys.readouterr().out
    assert f"{len(events)}/{len(events)}" in out and "DEAL FINISHED" in out


def test_events_reach_a_cd5220_as_startup_then_one_screen_each(
        make_pty: Callable[[], Pty], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = events_file(tmp_path, capsys)
    events = [loads(line) for line in path.read_text().splitlines()]
    pty = make_pty()
    assert main(["display-test", "--model", "cd5220", "--port", pty.path,
                 "--events", str(path), "--delay", "0"]) == 0
    expected = b"".join(cd5220.startup()) + b"".join(cd5220.encode(e) for e in events)
    assert pty.read_until(lambda got: len(got) >= len(expected)) == expected


def test_without_events_it_sends_the_test_pattern_then_a_sample_deal(
        make_pty: Callable[[], Pty], capsys: pytest.CaptureFixture[str]) -> None:
    pty = make_pty()
    assert main(["display-test", "--model", "serlcd", "--port", pty.path, "--delay", "0"]) == 0
    first = serlcd.render(pattern_screens()[0])
    got = pty.read_until(lambda got: b"CHECK CARD 23" in got)
    assert got.startswith(b"".join(serlcd.startup()) + first)
    assert "TURN 2         SPLIT" in capsys.readouterr().out


def test_a_bad_event_line_names_its_line_number_and_exits_2(
        make_pty: Callable[[], Pty], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.jsonl"
    good = dumps(Deal().events[0])
    path.write_text(f"{good}\n\n{{\"event\": \"turn\", \"number\": 1}}\n")
    pty = make_pty()
    status = main(["display-test", "--model", "cd5220", "--port", pty.path,
                   "--events", str(path)])
    assert status == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{path}:3:" in err[0] and "missing" in err[0]


def test_an_unknown_model_is_refused_with_the_list(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["display-test", "--model", "vfd", "--port", "loop://"])
    assert exit_info.value.code == 2
    assert "matrix-orbital" in capsys.readouterr().err


def test_a_malformed_port_names_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["display-test", "--model", "cd5220", "--port", "ttyUSB0"]) == 2
    assert "--port:" in capsys.readouterr().err


def test_a_port_that_never_appears_fails_with_its_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["display-test", "--model", "cd5220", "--port", str(tmp_path / "none"),
                   "--connect-timeout", "0.3"])
    assert status == 1
    assert "cannot open" in capsys.readouterr().err
