"""A flagged read pauses the deal; the operator resolves it over the group-only socket."""

from __future__ import annotations

import os
import stat
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from hardware.systemd import Notifier
from shoe import config as config_module
from shoe import control, journal
from shoe.control import ControlServer, Inbox
from shoe.events import CardCorrected, CardFlagged, Soda, Turn
from shoe.service import Exposure, Parts, Service, open_deal


@dataclass
class Running:
    service: Service
    eyes: Any
    output: Any
    socket: Path
    thread: threading.Thread

    def wait_for(self, predicate: object, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():  # type: ignore[operator]
            assert time.monotonic() < deadline, "timed out"
            time.sleep(0.005)


@pytest.fixture
def running(tmp_path: Path, seam: Any) -> Iterator[Running]:
    with _run(tmp_path, seam, [seam.sure("5D"), seam.sure("KH"), seam.unsure("KS", 0.6),
                               seam.sure("2C")]) as run:
        yield run


@contextmanager
def _run(tmp_path: Path, seam: Any, exposures: list[Exposure]) -> Iterator[Running]:
    config = config_module.parse({"state_dir": str(tmp_path / "state")})
    config.state_dir.mkdir()
    eyes = seam.ScriptedEyes(exposures)
    output = seam.RecordingOutput()
    inbox = Inbox()
    server = ControlServer(config.control_socket, group_from=config.state_dir)
    journal_, deal = open_deal(config)
    service = Service(config, journal_, deal, Parts(eyes, [output]), Notifier(None), inbox,
                      control=server)
    thread = threading.Thread(target=service.run)
    thread.start()
    try:
        yield Running(service, eyes, output, config.control_socket, thread)
    finally:
        service.stop()
        thread.join(5)


def test_socket_is_for_the_state_dirs_group_only(running: Running) -> None:
    info = os.stat(running.socket)
    assert stat.S_ISSOCK(info.st_mode)
    assert stat.S_IMODE(info.st_mode) == 0o660
    assert info.st_gid == os.stat(running.socket.parent).st_gid


def test_unsure_read_pauses_until_corrected_and_the_correction_is_journaled(
    running: Running,
) -> None:
    running.eyes.release(3)
    running.wait_for(lambda: running.service.deal.flag is not None)
    running.eyes.release(1)  # the dealer goes on regardless: 2C is not accepted yet
    running.wait_for(lambda: not running.eyes.script)
    assert running.service.deal.exposed == 2
    flagged = [e for s in running.output.states for e in s.new if isinstance(e, CardFlagged)]
    assert flagged and flagged[0].card is not None and flagged[0].card.code == "KS"

    with pytest.raises(control.BadRequestError):
        control.request(running.socket, "undo_everything")  # unknown op: refused, no crash
    reply = control.request(running.socket, "correct", {"card": "KC"})
    assert reply["ok"] and reply["state"]["exposed"] == 4
    # 2C, seen while KS was held, follows the corrected card instead of being lost.
    assert [c.code for c in running.service.deal.cards] == ["5D", "KH", "KC", "2C"]

    record = journal.read(running.service.journal.path)
    corrected = [e for e in record.events if isinstance(e, CardCorrected)]
    assert corrected == [CardCorrected(2, running.service.deal.cards[2], flagged[0].card)]
    assert [n.source for n in record.entries] == ["camera", "camera", "camera", "control",
                                                  "camera"]
    assert record.entries[2].read is not None and record.entries[2].read.confidence == 0.6


def test_illegal_correction_is_bad_input_and_deal_stays_held(running: Running) -> None:
    running.eyes.release(3)
    running.wait_for(lambda: running.service.deal.flag is not None)
    with pytest.raises(control.BadRequestError, match="5D"):
        control.request(running.socket, "correct", {"card": "5D"})  # the soda: already out
    assert running.service.deal.flag is not None
    reply = control.request(running.socket, "confirm")
    assert reply["ok"]
    assert isinstance(running.service.deal.events[-1], Turn)


def test_undo_withdraws_held_read_and_asks_vision_to_read_again(running: Running) -> None:
    running.eyes.release(3)
    running.wait_for(lambda: running.service.deal.flag is not None)
    control.request(running.socket, "undo")
    assert running.service.deal.flag is None and running.eyes.rereads == 1
    with pytest.raises(control.ServiceRefusedError, match="no read is held"):
        control.request(running.socket, "confirm")


def test_status_and_refused_new_deck(running: Running) -> None:
    running.eyes.release(1)
    running.wait_for(lambda: running.service.deal.exposed == 1)
    status = control.request(running.socket, "status")
    assert status["state"]["exposed"] == 1
    assert isinstance(running.service.deal.events[-1], Soda)
    with pytest.raises(control.ServiceRefusedError, match="void it first"):
        control.request(running.socket, "new_deck")


def test_no_service_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(control.ControlError, match="no faro-shoe service"):
        control.request(tmp_path / "control.sock", "status")


def test_stale_socket_is_replaced_but_a_live_one_is_not(tmp_path: Path) -> None:
    path = tmp_path / "control.sock"
    first = ControlServer(path)
    with pytest.raises(control.ControlError, match="already running"):
        ControlServer(path)
    first._socket.close()  # as a kill -9 leaves it: the file stays, nobody listens
    assert path.exists()
    second = ControlServer(path)
    second.close()
    assert not path.exists()


def test_faro_shoe_correct_and_undo_commands(running: Running,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from shoe.cli import main

    running.eyes.release(3)
    running.wait_for(lambda: running.service.deal.flag is not None)
    assert main(["confirm", "--socket", str(running.socket)]) == 0  # KS, as read
    assert main(["undo", "--socket", str(running.socket)]) == 0
    assert main(["confirm", "--socket", str(running.socket)]) == 1  # nothing held now
    assert main(["correct", "Q?", "--socket", str(running.socket)]) == 2
    err = capsys.readouterr().err
    assert "no read is held" in err and "not a card" in err
    assert running.service.deal.exposed == 2


def test_status_says_why_the_cameras_read_is_held_until_it_is_resolved(
    tmp_path: Path, seam: Any, caplog: pytest.LogCaptureFixture
) -> None:
    # The tracker's words for a held card (vision.exposures.ExposureResult.problem): glare
    # over the card sends the operator to the lamp.
    why = ("unsure read KS (0.60); glare shows 6% of the card's face white: print there goes "
           "unread; angle or dim the light")
    glared = replace(seam.unsure("KS", 0.6), why=why)
    with _run(tmp_path, seam, [seam.sure("5D"), glared, seam.unsure("2C", 0.7)]) as run:
        run.eyes.release(2)
        run.wait_for(lambda: run.service.deal.flag is not None)
        status = control.request(run.socket, "status")
        assert status["message"].endswith(f"exposure 1 held: {why}")
        assert status["state"]["held_why"] == why
        assert f"card 2 held: {why}" in caplog.text
        control.request(run.socket, "correct", {"card": "KS"})
        status = control.request(run.socket, "status")
        assert status["state"]["held_why"] is None and "held" not in status["message"]
        # A read held with no words from the camera says nothing stale.
        run.eyes.release(1)
        run.wait_for(lambda: run.service.deal.flag is not None)
        status = control.request(run.socket, "status")
        assert status["message"].endswith("exposure 2 held")
        assert status["state"]["held_why"] is None
