"""`faro-shoe run` as a real process: READY, watchdog, SIGHUP, SIGTERM and kill -9."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hardware.cameras.simulated import shuffled_deck
from shoe import control, journal

pytestmark = pytest.mark.slow


class Manager:
    """A datagram socket in tmp_path standing in for systemd's notify socket."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.messages: list[str] = []

    def wait_for(self, line: str, timeout: float = 60.0) -> float:
        deadline = time.monotonic() + timeout
        while line not in self.messages:
            left = deadline - time.monotonic()
            assert left > 0, f"no {line} in {self.messages}"
            self.sock.settimeout(left)
            self.messages.extend(self.sock.recv(4096).decode().split("\n"))
        return time.monotonic()

    def drain(self) -> None:
        self.sock.settimeout(0.01)
        try:
            while True:
                self.messages.extend(self.sock.recv(4096).decode().split("\n"))
        except TimeoutError:
            pass


@pytest.fixture
def manager(tmp_path: Path) -> Iterator[Manager]:
    m = Manager(tmp_path / "notify")
    yield m
    m.sock.close()


def _start(run_cli: Any, config: Path, manager: Manager, env: Any) -> subprocess.Popen[str]:
    return run_cli("run", "--config", str(config),
                   env=env(NOTIFY_SOCKET=str(manager.path), WATCHDOG_USEC="1000000"))


def _deal(state: Path) -> Any:
    record = journal.latest(state / "deals")
    return record.deal() if record else None


def _resolve_held(state: Path, cards: list[Any]) -> None:
    """The operator's part: a read the reader was unsure of is corrected to the truth."""
    deal = _deal(state)
    if deal is not None and deal.flag is not None:
        with contextlib.suppress(control.ControlError):
            control.request(state / "control.sock", "correct",
                            {"card": cards[deal.flag.exposure].code})


def test_ready_watchdog_reload_and_clean_stop(
    tmp_path: Path, manager: Manager, run_cli: Any, cli_env_fixture: Callable[..., Any],
    write_sim_config: Callable[..., str],
) -> None:
    config = tmp_path / "config.toml"
    state = tmp_path / "state"
    config.write_text(write_sim_config(state, seed=4, speed=1.0, pace=60.0))
    proc = _start(run_cli, config, manager, cli_env_fixture)
    try:
        manager.wait_for("READY=1")
        socket_mode = os.stat(state / "control.sock").st_mode & 0o777
        assert socket_mode == 0o660
        time.sleep(1.0)
        manager.drain()
        assert manager.messages.count("WATCHDOG=1") >= 2  # pinged from the loop, ~4 per s

        config.write_text(write_sim_config(state, seed=4) + '[display]\nmodel = "vt100"\n')
        manager.messages.clear()
        proc.send_signal(signal.SIGHUP)
        manager.wait_for("RELOADING=1")
        manager.wait_for("READY=1")  # sent once the reload is done, here refused
        assert proc.poll() is None  # a bad config on reload is refused, the service goes on
        config.write_text(write_sim_config(state, seed=4, speed=1.0, pace=60.0))
        manager.messages.clear()
        proc.send_signal(signal.SIGHUP)
        manager.wait_for("RELOADING=1")
        manager.wait_for("READY=1")
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    manager.drain()
    assert "STOPPING=1" in manager.messages
    assert "reload refused" in out and "display.model" in out, out
    assert "config reloaded" in out
    assert "\x1b[" not in out  # plain lines, no colour, when not on a terminal
    assert not (state / "control.sock").exists()
    record = journal.latest(state / "deals")
    assert record is not None and not record.torn


def test_kill_9_mid_deal_resumes_with_no_card_lost_or_doubled(
    tmp_path: Path, manager: Manager, run_cli: Any, cli_env_fixture: Callable[..., Any],
    write_sim_config: Callable[..., str],
) -> None:
    seed = 21
    config = tmp_path / "config.toml"
    state = tmp_path / "state"
    config.write_text(write_sim_config(state, seed=seed))
    cards = list(shuffled_deck(seed))
    kills_at = [3, 11, 24]
    for target in [*kills_at, None]:
        manager.messages.clear()
        proc = _start(run_cli, config, manager, cli_env_fixture)
        try:
            manager.wait_for("READY=1")
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline:
                deal = _deal(state)
                if deal is not None and (deal.is_finished or (target and deal.exposed >= target)):
                    break
                _resolve_held(state, cards)
                time.sleep(0.01)
        finally:
            proc.send_signal(signal.SIGTERM if target is None else signal.SIGKILL)
            proc.communicate(timeout=30)
    deal = _deal(state)
    assert deal is not None and deal.is_finished
    assert list(deal.cards) == cards
    assert len(journal.journal_paths(state / "deals")) == 1
