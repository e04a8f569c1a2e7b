"""Twenty malformed configs: each stops `faro-shoe run` with exit 2 and one line naming the key."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from shoe import compose, config

PINS = "pins = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]"

BAD_CONFIGS = [
    # (what the file says, what the one line must name)
    ('state_dir = 7', "state_dir"),
    ('[camera]\nsource = "webcam"', "camera.source"),
    ('[camera]\nsource = "sim"\nseed = -1', "camera.seed"),
    ('[camera]\npace = "fast"', "camera.pace"),
    ('[camera]\nsource = "file"', "camera.path"),
    ('[camera]\nwidht = 640', "camera.widht"),
    ('[keeper]\ndriver = "abacus"', "keeper.driver"),
    ('[keeper]\ndriver = "servo"', "keeper.pins"),
    ('[keeper]\ndriver = "servo"\npins = [2, 3, 4]', "keeper.pins"),
    ('[keeper]\ndriver = "servo"\npins = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 99]',
     "keeper.pins[12]"),
    (f'[keeper]\ndriver = "servo"\n{PINS}\n[buttons]\nundo = 7', "buttons.undo"),
    (f'[keeper]\ndriver = "servo"\n{PINS}\npulse_us = [2000, 1000]', "keeper.pulse_us"),
    ('[display]\nmodel = "vt100"\nport = "loop://"', "display.model"),
    ('[display]\nmodel = "cd5220"', "display.port"),
    ('[display]\nmodel = "cd5220"\nport = "ttyUSB0"', "display.port"),
    ('[display]\nmodel = "serlcd"\nport = "loop://"\nbaudrate = 9601', "display.baudrate"),
    ('[buttons]\nconfirm = "GPIO40"', "buttons.confirm"),
    ('[deal]\nvariant = "poker"', "deal.variant"),
    ('[deal]\ncall_pays = "four to one"', "deal.call_pays"),
    ('[camera\nsource = "sim"', "not valid TOML"),
]


def test_there_are_twenty() -> None:
    assert len(BAD_CONFIGS) == 20


@pytest.mark.parametrize(("text", "names"), BAD_CONFIGS, ids=[n for _, n in BAD_CONFIGS])
def test_bad_config_gives_one_line_and_exit_2(
    tmp_path: Path, text: str, names: str, run_cli: Callable[..., subprocess.Popen[str]]
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f'state_dir = "{tmp_path / "state"}"\n{text}\n'
                    if not text.startswith("state_dir") else text + "\n")
    proc = run_cli("run", "--config", str(path))
    _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert names in lines[0]
    assert lines[0].startswith("faro-shoe run: ")
    assert not (tmp_path / "state").exists()  # nothing was started


def test_every_bad_value_names_value_and_expectation() -> None:
    with pytest.raises(config.ConfigError) as info:
        config.parse({"camera": {"fps": 1000}})
    assert str(info.value) == "camera.fps: expected a number from 1 to 240, got 1000"


def test_shipped_example_config_is_valid() -> None:
    example = Path(config.__file__).parent / "data" / "config.example.toml"
    parsed = config.load(example)
    assert parsed.camera.source == "sim"


def test_missing_file_is_one_line(
    tmp_path: Path, run_cli: Callable[..., subprocess.Popen[str]]
) -> None:
    proc = run_cli("run", "--config", str(tmp_path / "nope.toml"))
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert err.strip() == f"faro-shoe run: {tmp_path / 'nope.toml'}: no such config file"


@pytest.mark.parametrize(("size", "warned"), [((320, 240), True), ((640, 480), False),
                                              ((1280, 720), False)])
def test_a_camera_set_below_what_the_reader_was_measured_on_is_warned_of(
        size: tuple[int, int], warned: bool, caplog: pytest.LogCaptureFixture) -> None:
    width, height = size
    cfg = config.parse({"camera": {"source": "sim", "width": width, "height": height}})
    camera = compose.open_camera(cfg, reconnect=False)
    camera.close()
    assert ("smaller than the reader was measured on" in caplog.text) is warned
