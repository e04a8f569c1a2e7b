"""The display's pty is closed mid-deal and a new one appears behind the same path: the screen
comes back, and the journal holds every card meanwhile."""

from __future__ import annotations

import os
import select
import threading
import time
from pathlib import Path
from typing import Any

from hardware.display import DisplayWriter, model_named, pfaro
from hardware.systemd import Notifier
from shoe import compose, journal
from shoe import config as config_module
from shoe.cards import FULL_DECK
from shoe.control import Inbox
from shoe.events import Turn
from shoe.service import Parts, Service, open_deal


def _read_for(fd: int, seconds: float) -> bytes:
    out = b""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        if select.select([fd], [], [], left)[0]:
            try:
                out += os.read(fd, 4096)
            except OSError:
                break
    return out


def test_unplugged_display_comes_back_and_journal_is_whole(tmp_path: Path, seam: Any) -> None:
    link = tmp_path / "display"  # like /dev/serial/by-id/…: the same name after a replug
    master, slave = os.openpty()
    link.symlink_to(os.ttyname(slave))
    config = config_module.parse({"state_dir": str(tmp_path / "state")})
    cards = FULL_DECK[::-1]
    eyes = seam.ScriptedEyes([seam.sure(c.code) for c in cards])
    writer = DisplayWriter(str(link), model_named("pfaro"), backoff=(0.05, 0.2),
                           probe_interval=0.05)
    journal_, deal = open_deal(config)
    service = Service(config, journal_, deal, Parts(eyes, [compose.DisplayOutput(writer)]),
                      Notifier(None), Inbox())
    thread = threading.Thread(target=service.run)
    thread.start()
    try:
        eyes.release(10)
        before = _read_for(master, 1.0)
        assert b"$PFARO,TURN" in before

        os.close(master)  # unplugged: the far end goes, the device node with it
        os.close(slave)
        link.unlink()
        eyes.release(20)  # the deal goes on meanwhile; nothing waits on the display
        deadline = time.monotonic() + 5
        while service.deal.exposed < 30 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert service.deal.exposed == 30

        master, slave = os.openpty()  # plugged in again
        link.symlink_to(os.ttyname(slave))
        after = _read_for(master, 2.0)
    finally:
        service.stop()
        thread.join(5)
        os.close(master)
        os.close(slave)
    sentences = [pfaro.decode(pfaro.parse(line)) for line in after.split(b"\r\n")
                 if line.startswith(b"$PFARO")]
    assert sentences, after  # the screen came back
    last_turn = next(e for e in reversed(service.deal.events) if isinstance(e, Turn))
    assert last_turn in sentences  # showing the deal as it stands now
    record = journal.latest(config.journal_dir)
    assert record is not None and record.deal().cards == tuple(cards[:30])
