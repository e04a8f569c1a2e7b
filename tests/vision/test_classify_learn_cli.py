"""``faro-shoe classify`` and ``faro-shoe learn``: output format and exit statuses."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from shoe.cards import FULL_DECK, Card
from shoe.cli import EXIT_BAD_INPUT, EXIT_OK, main

from learning_pass import DEV_DECK, HELD_OUT_DECK, learning_pass, stills, table_cloth


def _write(folder: Path, frames: list, stem: str) -> list[str]:  # type: ignore[type-arg]
    paths = []
    for i, frame in enumerate(frames):
        path = folder / f"{stem}{i:02d}.png"
        cv2.imwrite(str(path), frame)
        paths.append(str(path))
    return paths


def test_classify_prints_one_json_line_per_image(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    cards = [Card.parse("KH"), Card.parse("4S")]
    images = _write(tmp_path, [*stills("anglo", cards, seed=51), table_cloth(2)], "f")
    assert main(["classify", *images]) == EXIT_OK
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    rows = [json.loads(line) for line in lines]
    assert [r["image"] for r in rows] == images
    for row in rows:
        assert set(row) == {"image", "card", "confidence"}
        assert 0.0 <= row["confidence"] <= 1.0
    assert [r["card"] for r in rows[:2]] in (["KH", "4S"], ["KH", None], [None, "4S"])
    assert rows[2]["card"] is None


def test_classify_refuses_an_unreadable_image(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.png"
    bad.write_text("not an image")
    assert main(["classify", str(bad)]) == EXIT_BAD_INPUT
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "cannot read image" in captured.err


def test_classify_refuses_a_corrupt_profile(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    profile = tmp_path / "x.profile"
    profile.write_bytes(b"PK\x03\x04 truncated")
    image = _write(tmp_path, [table_cloth(1)], "f")
    assert main(["classify", "--profile", str(profile), *image]) == EXIT_BAD_INPUT
    assert "corrupt deck profile" in capsys.readouterr().err


def test_learn_refuses_an_order_that_disagrees_with_the_images(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    order = tmp_path / "order.txt"
    order.write_text("AS\nKH\n10D\n")
    images = _write(tmp_path, [table_cloth(1), table_cloth(2)], "f")
    status = main(["learn", "--order", str(order), "--out", str(tmp_path / "p"), *images])
    assert status == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "3 cards but 2 images" in err


def test_learn_refuses_an_unreadable_video(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    order = tmp_path / "order.txt"
    order.write_text("AS\n")
    video = tmp_path / "empty.avi"
    video.write_bytes(b"")
    status = main(["learn", "--order", str(order), "--out", str(tmp_path / "p"),
                   "--video", str(video)])
    assert status == EXIT_BAD_INPUT
    assert capsys.readouterr().err.count("\n") == 1


def test_learn_then_classify_with_the_profile(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    frames = learning_pass(HELD_OUT_DECK, pip_only=True)
    images = _write(tmp_path, list(frames), "pass")
    order = tmp_path / "order.txt"
    order.write_text("\n".join(c.code for c in FULL_DECK) + "\n")
    profile = tmp_path / "deck.profile"
    assert main(["learn", "--order", str(order), "--out", str(profile), *images]) == EXIT_OK
    assert "learned 52 of 52" in capsys.readouterr().err
    probe = [Card.parse("9H"), Card.parse("JS")]
    shots = _write(tmp_path, stills(HELD_OUT_DECK, probe, seed=52, pip_only=True,
                                    same_rig_as=5), "probe")
    assert main(["classify", "--profile", str(profile), *shots]) == EXIT_OK
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["card"] for r in rows] in (["9H", "JS"], ["9H", None], [None, "JS"])


def test_learn_tells_of_glare_that_showed_the_faces_white(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    frames = learning_pass(DEV_DECK, glare=((0.5, 0.45, 0.2, 0.9),))
    images = _write(tmp_path, list(frames), "pass")
    order = tmp_path / "order.txt"
    order.write_text("\n".join(c.code for c in FULL_DECK) + "\n")
    profile = tmp_path / "deck.profile"
    assert main(["learn", "--order", str(order), "--out", str(profile), *images]) == EXIT_OK
    told = [line for line in capsys.readouterr().err.splitlines() if "glare showed" in line]
    assert len(told) == 1 and "% of each card's face white" in told[0], told
    assert profile.exists()


def test_help_shows_examples(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("classify", "learn"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "examples:" in capsys.readouterr().out
