"""The replay, shuffle and stats commands, run as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from shoe.cli import main
from shoe.events import loads

HAND_DEAL_TEXT = """\
# a whole deal, checked by hand
KS
AH AD 2H 2D 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 3D 4D 5D 6D 7D
8D 9D 10D JD QD KD AC AS 2C 2S 3C 4C 5C 6C 7C 8C 9C 10C JC QC
3S 4S 5S 6S 7S 8S 9S 10S JS QS KC
"""


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "deal.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_replay_prints_turns_then_the_cue_sheet(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", write(tmp_path, HAND_DEAL_TEXT)]) == 0
    out = capsys.readouterr().out
    assert "Soda      K♠" in out
    assert "Turn  1   loser A♥   winner A♦    SPLIT" in out
    assert "Call the turn: J Q K, three ranks, 6 orders, pays 4 to 1" in out
    assert "Hock      K♣" in out
    assert out.rstrip().endswith("Marks: | winner  0 loser  • soda  – hock  X split")
    assert "  K  • 0 | –    dead" in out


def test_replay_json_prints_events_ending_with_deck_finished(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--json", write(tmp_path, HAND_DEAL_TEXT)]) == 0
    events = [loads(line) for line in capsys.readouterr().out.splitlines()]
    last = events[-1]
    assert type(last).__name__ == "DeckFinished"
    assert last.splits == 4 and len(last.cards) == 52


def test_replay_names_line_and_column_of_a_bad_code(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", write(tmp_path, "KS\nAH  1X AD\n")]) == 2
    assert f"{tmp_path / 'deal.txt'}:2:5: not a card: '1X'" in capsys.readouterr().err


def test_replay_names_both_exposures_of_a_duplicate(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", write(tmp_path, "KS AH\n2D AH\n")]) == 3
    err = capsys.readouterr().err
    assert ":2:4: exposure 3 (AH) is the same card as exposure 1 (AH, line 1, column 4)" in err


def test_replay_reports_a_fifth_of_a_rank(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", write(tmp_path, "7S 7H 7D 7C 7H")]) == 3
    assert "is a fifth of its rank: the same card as exposure 1" in capsys.readouterr().err


def test_replay_reports_a_deck_that_ends_early(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", write(tmp_path, "KS AH AD 2H")]) == 1
    captured = capsys.readouterr()
    assert "the deck ended early: 4 of 52 cards dealt, next would be the winner" in captured.err
    assert "Cue sheet: faro, 4 cards gone" in captured.out


def test_replay_refuses_a_53rd_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", write(tmp_path, HAND_DEAL_TEXT + "AS\n")]) == 2
    assert "more than 52 cards" in capsys.readouterr().err


def test_replay_of_a_missing_file_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "/nonexistent/deal.txt"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("faro-shoe replay: cannot read /nonexistent/deal.txt")
    assert len(err.splitlines()) == 1


def test_shuffle_then_replay_deals_a_whole_deck_from_stdin() -> None:
    shuffle = subprocess.run([sys.executable, "-m", "shoe.cli", "shuffle", "--seed", "11"],
                             capture_output=True, text=True, check=True)
    assert shuffle.stdout.splitlines()[0] == "# faro-shoe shuffle --seed 11"
    replay = subprocess.run([sys.executable, "-m", "shoe.cli", "replay", "--variant", "stuss",
                             "--json", "-"], input=shuffle.stdout, capture_output=True, text=True)
    assert replay.returncode == 0, replay.stderr
    turns = [json.loads(line) for line in replay.stdout.splitlines()]
    assert sum(t["event"] == "turn" for t in turns) == 26


def test_shuffle_is_reproducible_from_its_seed(capsys: pytest.CaptureFixture[str]) -> None:
    main(["shuffle", "--seed", "5"])
    first = capsys.readouterr().out
    main(["shuffle", "--seed", "5"])
    assert capsys.readouterr().out == first and len(first.splitlines()) == 53


def test_stats_reports_measured_beside_exact(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--deals", "300", "--seed", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["deals"] == 300
    assert report["exact_fraction"]["splits_per_deal"] == "25/17"
    assert report["exact_fraction"]["cat_hop"] == "72/425"
    assert sum(report["splits_histogram"].values()) == 300
    assert 1.0 < report["measured"]["splits_per_deal"] < 2.0
