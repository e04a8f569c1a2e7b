"""`faro-shoe hw-test`: every part tried and reported, a missing one does not stop the rest."""

from __future__ import annotations

import argparse
import os
import select
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from shoe.commands import hw_test

PINS = [4, 17, 27, 22, 5, 6, 13, 19, 26, 12, 16, 20, 21]


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    saved = Device.pin_factory
    mock = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = mock
    yield mock
    mock.reset()
    Device.pin_factory = saved


def _config(tmp_path: Path, port: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f"""
state_dir = "{tmp_path}"
[camera]
source = "sim"
seed = 2
[keeper]
driver = "servo"
pins = {PINS}
interval = 0.0
[display]
model = "cd5220"
port = "{port}"
[buttons]
undo = 23
confirm = 24
""")
    return path


def _args(config: Path) -> argparse.Namespace:
    return argparse.Namespace(config=config, seconds=0.5, step=0.0)


def test_every_part_works_over_fakes(tmp_path: Path, factory: MockFactory,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    master, slave = os.openpty()
    pressed = threading.Timer(0.2, lambda: (factory.pin(23).drive_low(),
                                            factory.pin(23).drive_high()))
    try:
        pressed.start()
        status = hw_test.run(_args(_config(tmp_path, os.ttyname(slave))), pin_factory=factory)
        written = os.read(master, 65536) if select.select([master], [], [], 2)[0] else b""
    finally:
        os.close(master)
        os.close(slave)
    out = capsys.readouterr().out
    assert status == 0, out
    assert written  # the test pattern reached the display's port
    table = out[out.index("part "):]
    for part in ("keeper", "display", "buttons", "camera"):
        assert f"\n{part}" in table and "FAILED" not in table
    assert "undo" in out  # the press was printed
    assert "fps" in table
    # The simulated camera shows a card: the light on it is judged.
    assert "the card in view shows no glare white" in table or "glare shows" in table
    # Each servo went through its positions: every pin saw several pulse widths.
    assert all(len({s.state for s in factory.pin(p).states}) >= 5 for p in PINS)


def test_missing_display_is_reported_and_the_rest_still_checked(
    tmp_path: Path, factory: MockFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    status = hw_test.run(_args(_config(tmp_path, str(tmp_path / "no-such-tty"))),
                         pin_factory=factory)
    out = capsys.readouterr().out
    table = out[out.index("part "):].splitlines()
    rows = {line.split()[0]: line for line in table[1:] if line.strip()}
    assert status == 1
    assert "FAILED" in rows["display"]
    assert " ok " in rows["keeper"] and " ok " in rows["buttons"] and " ok " in rows["camera"]
