"""sd_notify datagrams, asserted on a real AF_UNIX socket bound in tmp_path."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.systemd import Notifier, is_under_systemd


@pytest.fixture
def manager(tmp_path: Path) -> Iterator[socket.socket]:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(tmp_path / "notify"))
    sock.settimeout(2)
    yield sock
    sock.close()


def test_ready_stopping_and_watchdog_arrive_as_datagrams(manager: socket.socket) -> None:
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": manager.getsockname()})
    assert notifier.ready("reading cards")
    assert manager.recv(256) == b"READY=1\nSTATUS=reading cards"
    assert notifier.watchdog()
    assert manager.recv(256) == b"WATCHDOG=1"
    assert notifier.stopping()
    assert manager.recv(256) == b"STOPPING=1"
    notifier.close()


def test_abstract_socket_address_starting_with_at() -> None:
    name = f"faro-shoe-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(2)
    try:
        assert Notifier(f"@{name}").status("deal 3 of the evening")
        assert sock.recv(256) == b"STATUS=deal 3 of the evening"
    finally:
        sock.close()


def test_without_notify_socket_nothing_is_sent() -> None:
    notifier = Notifier.from_environment({})
    assert not notifier.ready()
    assert notifier.watchdog_interval is None
    assert not is_under_systemd({})
    assert is_under_systemd({"INVOCATION_ID": "abc"})


def test_watchdog_interval_only_for_this_process(tmp_path: Path) -> None:
    mine = Notifier.from_environment({"WATCHDOG_USEC": "5000000", "WATCHDOG_PID": str(os.getpid())})
    assert mine.watchdog_interval == 5.0
    other = Notifier.from_environment({"WATCHDOG_USEC": "5000000", "WATCHDOG_PID": "1"})
    assert other.watchdog_interval is None


def test_a_vanished_manager_does_not_raise(tmp_path: Path) -> None:
    assert not Notifier(str(tmp_path / "gone")).ready()


def test_a_manager_that_does_not_read_never_blocks_the_caller(manager: socket.socket) -> None:
    notifier = Notifier(manager.getsockname())
    sent = [notifier.watchdog() for _ in range(2000)]  # far past any datagram queue
    assert sent[0] and not all(sent)
