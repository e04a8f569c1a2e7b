"""A restarted service replays the journal: the deal, the case and the display come back."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

from hardware.systemd import Notifier
from shoe import config as config_module
from shoe.cards import FULL_DECK
from shoe.control import Inbox
from shoe.events import CardFlagged
from shoe.service import Parts, Service, open_deal


def _service(config: Any, eyes: Any, output: Any) -> Service:
    journal, deal = open_deal(config)
    return Service(config, journal, deal, Parts(eyes, [output]), Notifier(None), Inbox())


def _run_until(service: Service, done: Any, timeout: float = 5.0) -> None:
    thread = threading.Thread(target=service.run)
    thread.start()
    deadline = time.monotonic() + timeout
    while not done() and time.monotonic() < deadline:
        time.sleep(0.005)
    service.stop()
    thread.join(5)
    assert done()


def test_restart_brings_back_cards_case_and_screen(tmp_path: Path, seam: Any) -> None:
    config = config_module.parse({"state_dir": str(tmp_path)})
    cards = random.Random(11).sample(FULL_DECK, 52)
    eyes = seam.ScriptedEyes([seam.sure(c.code) for c in cards[:21]])
    eyes.release(21)
    first = _service(config, eyes, seam.RecordingOutput())
    _run_until(first, lambda: first.deal.exposed == 21)
    before = first.deal

    # The card in view after the restart is the last one accepted: it is not taken twice.
    eyes = seam.ScriptedEyes([seam.sure(c.code) for c in cards[20:23]])
    eyes.release(3)
    output = seam.RecordingOutput()
    second = _service(config, eyes, output)
    assert second.deal.cards == before.cards and second.deal.events == before.events
    _run_until(second, lambda: second.deal.exposed == 23)
    assert second.deal.cards == tuple(cards[:23])
    first_state = output.states[0]
    assert first_state.redraw and first_state.exposed == 21
    assert first_state.new == (before.events[-1],)  # the display is shown the last turn again
    assert [p.card for p in first_state.case.placed] == list(before.cards)  # the keeper too


def test_a_held_read_is_held_again_after_restart(tmp_path: Path, seam: Any) -> None:
    config = config_module.parse({"state_dir": str(tmp_path)})
    eyes = seam.ScriptedEyes([seam.sure("5D"), seam.sure("KH"), seam.unsure(None)])
    eyes.release(3)
    first = _service(config, eyes, seam.RecordingOutput())
    _run_until(first, lambda: first.deal.flag is not None)

    output = seam.RecordingOutput()
    second = _service(config, seam.ScriptedEyes([]), output)
    _run_until(second, lambda: bool(output.states))
    assert second.deal.flag is not None and second.deal.flag.exposure == 2
    assert isinstance(output.states[0].new[0], CardFlagged)  # CHECK CARD on the display again


def test_finished_deal_starts_a_new_journal(tmp_path: Path, seam: Any) -> None:
    config = config_module.parse({"state_dir": str(tmp_path)})
    cards = random.Random(5).sample(FULL_DECK, 52)
    eyes = seam.ScriptedEyes([seam.sure(c.code) for c in cards])
    eyes.release(52)
    first = _service(config, eyes, seam.RecordingOutput())
    _run_until(first, lambda: first.deal.is_finished)
    second = _service(config, seam.ScriptedEyes([]), seam.RecordingOutput())
    assert second.deal.exposed == 0 and second.journal.path != first.journal.path
    second.journal.close()


def test_power_cut_while_a_new_deals_header_was_written(tmp_path: Path) -> None:
    config = config_module.parse({"state_dir": str(tmp_path)})
    config.journal_dir.mkdir()
    (config.journal_dir / "20261122-200000.jsonl").write_bytes(b'{"journal": 1, "de')
    journal, deal = open_deal(config)
    assert deal.exposed == 0 and journal.path.name != "20261122-200000.jsonl"
    assert (config.journal_dir / "20261122-200000.torn").exists()
    journal.close()


def test_reload_lets_go_of_devices_first_and_falls_back_when_the_new_parts_fail(
    tmp_path: Path, seam: Any
) -> None:
    old = config_module.parse({"state_dir": str(tmp_path)})
    new = config_module.parse({"state_dir": str(tmp_path), "camera": {"seed": 9}})
    log: list[str] = []

    class Part(seam.RecordingOutput):
        def __init__(self, name: str) -> None:
            super().__init__()
            self.name = name

        def close(self) -> None:
            log.append(f"close {self.name}")

    def rebuild(config: Any, deal: Any) -> Parts:
        log.append(f"build {config.camera.seed}")
        if config is new:
            raise config_module.ConfigError("keeper.pins[0]: pin 4 is busy")
        return Parts(seam.ScriptedEyes([]), [Part(f"rebuilt {config.camera.seed}")])

    journal, deal = open_deal(old)
    service = Service(old, journal, deal, Parts(seam.ScriptedEyes([]), [Part("first")]),
                      Notifier(None), Inbox(), reload=lambda: new, rebuild=rebuild)
    service.reload()
    assert log == ["close first", "build 9", "build 1"]  # closed before the new build
    assert service.config is old
    shown: Any = service.parts.outputs[0]
    assert shown.states[-1].redraw  # the fallback parts were shown the state
    journal.close()


def test_a_repeat_of_the_last_card_mid_deal_is_held_not_dropped(tmp_path: Path, seam: Any) -> None:
    config = config_module.parse({"state_dir": str(tmp_path)})
    eyes = seam.ScriptedEyes([seam.sure("5D"), seam.sure("KH"), seam.sure("KH")])
    eyes.release(3)
    service = _service(config, eyes, seam.RecordingOutput())
    _run_until(service, lambda: service.deal.flag is not None)
    assert service.deal.flag is not None and service.deal.flag.reason.value == "duplicate"
