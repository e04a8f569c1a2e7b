"""The writer over real ports: pyserial's loop://, and pty pairs for unplug and replug."""

from __future__ import annotations

import dataclasses
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from hardware.display import cd5220, pfaro
from hardware.display.layout import Screen
from hardware.display.models import DisplayConfigError, model_named
from hardware.display.writer import DisplayWriter, check_port_url, open_writer
from shoe.cards import Card, Rank
from shoe.events import CallKind, CallWindow, Soda, Turn

from .conftest import Pty, point

FAST = {"backoff": (0.02, 0.1), "probe_interval": 0.05, "write_timeout": 0.5}
CD5220 = model_named("cd5220")
PFARO = model_named("pfaro")
STARTUP = b"".join(cd5220.startup())


def turn(n: int) -> Turn:
    return Turn(n, Card.parse("10H"), Card.parse("KS"), split=False)


def wait_for(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.01)


def test_loop_url_carries_startup_then_the_screen() -> None:
    with DisplayWriter("loop://", CD5220, **FAST) as writer:
        writer.show(turn(1))
        assert writer.wait_idle(5)
        port = writer.port
        assert port is not None
        received = port.read(port.in_waiting)
    assert received == STARTUP + cd5220.encode(turn(1))
    assert writer.status.written == 1 and writer.status.errors == 0


def test_pty_receives_pfaro_sentences_in_order(make_pty: Callable[[], Pty]) -> None:
    pty = make_pty()
    events = [Soda(Card.parse("5D")), turn(1), turn(2)]
    with DisplayWriter(pty.path, PFARO, **FAST) as writer:
        for event in events:
            writer.show(event)
        expected = b"".join(pfaro.encode(e) for e in events)
        assert pty.read_until(lambda got: len(got) >= len(expected)) == expected
    assert [pfaro.decode(pfaro.parse(line)) for line in expected.splitlines()] == events


def test_show_never_blocks_while_the_display_is_stuck(make_pty: Callable[[], Pty]) -> None:
    # Nobody reads the far end: the pty's buffer (~14 kB) fills and then writes time out.
    pty = make_pty()
    writer = DisplayWriter(pty.path, CD5220, queue_size=4, **FAST)
    try:
        slowest = 0.0
        deadline = time.monotonic() + 20
        n = 0
        while writer.status.errors == 0:  # until a write has timed out
            assert time.monotonic() < deadline, writer.status
            n += 1
            started = time.monotonic()
            writer.show(turn(n))
            slowest = max(slowest, time.monotonic() - started)
            time.sleep(0.0005)
        assert slowest < FAST["write_timeout"]  # the caller never waited for the port
        assert "timeout" in (writer.status.last_error or "").lower()
        assert writer.status.dropped > 0  # stale screens went; the latest stays queued
    finally:
        writer.close(timeout=2)


def test_unplug_then_replug_behind_the_same_link_redraws_the_current_screen(
        make_pty: Callable[[], Pty], tmp_path: Path) -> None:
    link = tmp_path / "usb-VFD_2x20-if00-port0"  # as /dev/serial/by-id names it
    first = make_pty()
    point(link, first.path)
    with DisplayWriter(str(link), CD5220, **FAST) as writer:
        writer.show(turn(1))
        first.read_until(lambda got: got.endswith(cd5220.encode(turn(1))))

        first.unplug()  # mid-stream: the writer must notice, and the caller carry on
        wait_for(lambda: not writer.status.connected)
        for n in (2, 3, 4):
            writer.show(turn(n))
        assert writer.status.connected is False
        assert writer.status.last_error

        second = make_pty()  # replugged: a new tty behind the same by-id link
        point(link, second.path)
        got = second.read_until(lambda got: got.endswith(cd5220.encode(turn(4))))
        assert got == STARTUP + cd5220.encode(turn(4))  # init, glyphs, then the latest only
        assert writer.status.connected and writer.status.reconnects == 1


def test_replug_redraws_even_when_nothing_new_was_shown(
        make_pty: Callable[[], Pty], tmp_path: Path) -> None:
    link = tmp_path / "display"
    first = make_pty()
    point(link, first.path)
    with DisplayWriter(str(link), CD5220, **FAST) as writer:
        writer.show(Screen("HELLO"))
        first.read_until(lambda got: got.endswith(cd5220.encode(Screen("HELLO"))))
        first.unplug()
        second = make_pty()
        point(link, second.path)
        got = second.read_until(lambda got: got.endswith(cd5220.encode(Screen("HELLO"))))
        assert got == STARTUP + cd5220.encode(Screen("HELLO"))


def test_the_pfaro_log_sends_every_missed_sentence_after_a_replug(
        make_pty: Callable[[], Pty], tmp_path: Path) -> None:
    link = tmp_path / "logger"
    first = make_pty()
    point(link, first.path)
    with DisplayWriter(str(link), PFARO, **FAST) as writer:
        writer.show(turn(1))
        first.read_until(lambda got: got.endswith(pfaro.encode(turn(1))))
        first.unplug()
        wait_for(lambda: not writer.status.connected)
        writer.show(turn(2))
        writer.show(turn(3))
        second = make_pty()
        point(link, second.path)
        expected = pfaro.encode(turn(2)) + pfaro.encode(turn(3))
        assert second.read_until(lambda got: len(got) >= len(expected)) == expected


def test_a_display_absent_at_start_is_drawn_when_it_appears(
        make_pty: Callable[[], Pty], tmp_path: Path) -> None:
    link = tmp_path / "not-yet"
    with DisplayWriter(str(link), CD5220, **FAST) as writer:
        writer.show(turn(7))
        wait_for(lambda: writer.status.errors >= 2)  # retried with backoff
        pty = make_pty()
        point(link, pty.path)
        assert pty.read_until(lambda got: got.endswith(cd5220.encode(turn(7)))) \
            == STARTUP + cd5220.encode(turn(7))


def test_a_full_log_queue_drops_the_oldest_sentences_and_counts_them() -> None:
    writer = DisplayWriter("/nonexistent/port", PFARO, queue_size=3, **FAST)
    try:
        for n in range(1, 6):
            writer.show(turn(n))
        status = writer.status
        assert status.pending == 3 and status.dropped == 2
    finally:
        writer.close(timeout=1)


@pytest.mark.parametrize("url", ["", "ttyUSB0", "COM3 ", "bogus://x", "socket://nohost",
                                 "socket://host:99999"])
def test_a_bad_port_url_is_a_startup_error_naming_the_setting(url: str) -> None:
    with pytest.raises(DisplayConfigError, match=r"^display\.port: "):
        DisplayWriter(url, CD5220)


@pytest.mark.parametrize("url", ["loop://", "socket://localhost:7000", "/dev/ttyUSB0",
                                 "/dev/serial/by-id/usb-FTDI-if00-port0", "spy://loop://"])
def test_good_port_urls_pass(url: str) -> None:
    check_port_url(url)


def test_the_model_default_baudrate_applies_unless_overridden() -> None:
    with DisplayWriter("loop://", model_named("matrix-orbital"), **FAST) as writer:
        assert writer.wait_connected(5)
        assert writer.port is not None and writer.port.baudrate == 19200
    with DisplayWriter("loop://", model_named("matrix-orbital"), baudrate=9600) as writer:
        assert writer.baudrate == 9600


def test_close_returns_even_while_the_port_is_unreachable() -> None:
    writer = DisplayWriter("/nonexistent/port", CD5220, **FAST)
    writer.show(turn(1))
    started = time.monotonic()
    writer.close(timeout=2)
    assert time.monotonic() - started < 2
    assert not os.path.exists("/nonexistent/port")


def test_socket_url_reaches_a_display_simulator_and_reconnects_after_it_restarts() -> None:
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(5)
    port = server.getsockname()[1]
    with server, DisplayWriter(f"socket://127.0.0.1:{port}", PFARO, **FAST) as writer:
        writer.show(turn(1))
        first, _ = server.accept()
        with first:
            first.settimeout(5)
            assert first.recv(100) == pfaro.encode(turn(1))
        # The simulator went away; the next write fails, the writer dials again.
        writer.show(turn(2))
        second, _ = server.accept()
        with second:
            second.settimeout(5)
            data = b""
            while not data.endswith(pfaro.encode(turn(2))):
                data += second.recv(100)
        assert pfaro.encode(turn(2)) in data


def test_open_writer_builds_from_config_values_and_names_the_settings() -> None:
    with open_writer("matrix-orbital", "loop://", 0, **FAST) as writer:
        assert writer.baudrate == 19200 and writer.model.name == "matrix-orbital"
    with pytest.raises(DisplayConfigError, match=r"^display\.model: unknown display model"):
        open_writer("lcd", "loop://")
    with pytest.raises(DisplayConfigError, match=r"^display\.pfaro_port: "):
        open_writer("pfaro", "tty0", 9600, port_setting="display.pfaro_port")


def test_unplug_mid_stream_then_replug_resumes_the_log_in_order(
        make_pty: Callable[[], Pty], tmp_path: Path) -> None:
    link = tmp_path / "usb-logger"
    first = make_pty()
    point(link, first.path)
    sentences = [Turn(n, Card.parse("10H"), Card.parse("KS"), split=False) for n in range(1, 1001)]
    with DisplayWriter(str(link), PFARO, queue_size=len(sentences), **FAST) as writer:
        for event in sentences:
            writer.show(event)
        # ~30 kB: more than a pty holds (~14 kB), so the writer is mid-stream at the unplug.
        first.read_until(lambda got: len(got) > 300)
        first.unplug()
        second = make_pty()
        point(link, second.path)
        last = pfaro.encode(sentences[-1])
        got = second.read_until(lambda got: got.endswith(last), timeout=10)
    numbers = [pfaro.decode(pfaro.parse(line)).number  # type: ignore[union-attr]
               for line in got.splitlines(keepends=True)]
    assert numbers == sorted(numbers) and numbers[-1] == 1000
    assert len(numbers) > 100  # the rest of the stream came after the replug
    assert len(set(numbers)) >= len(numbers) - 1  # at most the cut sentence twice
    assert writer.status.reconnects == 1


def test_importing_the_display_package_and_command_does_not_import_pyserial() -> None:
    code = ("import sys, hardware.display, shoe.commands.display_test; "
            "sys.exit('serial' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_an_unexpected_error_in_the_writer_thread_does_not_end_the_display() -> None:
    calls = []

    def startup() -> tuple[bytes, ...]:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("a driver's surprise")
        return CD5220.startup()

    flaky = dataclasses.replace(CD5220, startup=startup)
    with DisplayWriter("loop://", flaky, **FAST) as writer:
        writer.show(turn(1))
        assert writer.wait_idle(5)
        assert "a driver's surprise" in (writer.status.last_error or "")
        assert writer.status.written == 1


def test_announce_draws_one_screen_per_batch_but_logs_every_sentence() -> None:
    batch = [turn(24), CallWindow((Rank.JACK, Rank.QUEEN, Rank.KING), CallKind.PLAIN, 6, (4, 1))]
    with DisplayWriter("loop://", CD5220, **FAST) as screens:
        screens.announce(batch)
        assert screens.wait_idle(5) and screens.status.written == 1
    with DisplayWriter("loop://", PFARO, **FAST) as log:
        log.announce(batch)
        assert log.wait_idle(5)
        port = log.port
        assert port is not None
        assert port.read(port.in_waiting) == b"".join(pfaro.encode(e) for e in batch)


def test_a_second_writer_on_the_same_port_is_refused_with_a_clear_error(
        make_pty: Callable[[], Pty]) -> None:
    pty = make_pty()
    with DisplayWriter(pty.path, CD5220, **FAST) as first:
        assert first.wait_connected(5)
        with DisplayWriter(pty.path, CD5220, **FAST) as second:
            assert not second.wait_connected(0.3)
            assert "exclusively lock" in (second.status.last_error or "")
