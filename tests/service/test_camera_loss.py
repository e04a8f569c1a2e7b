"""The camera's feed dies mid-deal: reported, reopened with backoff, the deal goes on whole."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from hardware.camera import Camera, ReconnectingCamera
from hardware.cameras.simulated import SimulatedCamera, shuffled_deck
from hardware.errors import CameraUnavailableError
from hardware.systemd import Notifier
from shoe import compose
from shoe import config as config_module
from shoe.control import Inbox
from shoe.service import Parts, Service, open_deal

pytestmark = pytest.mark.slow
SEED = 8


class DyingCamera(Camera):
    """A real simulated camera whose device goes away after ``frames`` frames, the way a
    USB camera's read fails when it is unplugged."""

    def __init__(self, inner: Camera, frames: int) -> None:
        super().__init__()
        self.inner, self.left = inner, frames

    def _grab(self) -> Any:
        self.left -= 1
        if self.left < 0:
            raise CameraUnavailableError("VIDIOC_DQBUF: No such device")
        frame = self.inner.read()
        return None if frame is None else (frame.image, frame.t)

    def _release(self) -> None:
        self.inner.close()


def test_feed_dies_and_comes_back_with_no_card_lost(tmp_path: Path, seam: Any) -> None:
    config = config_module.parse({
        "state_dir": str(tmp_path),
        "camera": {"source": "sim", "seed": SEED, "pace": 600.0, "speed": 0.0},
    })
    journal, deal = open_deal(config)
    opens: list[str] = []

    def opener() -> Camera:
        # Each reopen shows what lies in the box now: the card in view for the deal so far.
        start = compose._card_in_view(deal)
        opens.append(f"at {start}")
        if len(opens) == 2:
            raise CameraUnavailableError("no such device (still unplugged)")
        camera = SimulatedCamera(seed=SEED, pace=0.0, cards_per_minute=600.0, start_at=start)
        return DyingCamera(camera, 250) if len(opens) == 1 else camera

    camera = ReconnectingCamera(opener, backoff=0.05, poll=0.02)
    tracker = compose._tracker_factory(config, has_beam=False)
    output = seam.RecordingOutput()
    service = Service(config, journal, deal, Parts(compose.CameraEyes(camera, tracker), [output]),
                      Notifier(None), Inbox())
    thread = threading.Thread(target=service.run)
    thread.start()
    cards = list(shuffled_deck(SEED))
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and (len(opens) < 3 or service.deal.exposed < 20):
            if service.deal.flag is not None:  # the operator's part, if the reader is unsure
                service.inbox.post("correct", card=cards[service.deal.flag.exposure].code)
            time.sleep(0.02)
    finally:
        service.stop()
        thread.join(10)
    assert len(opens) >= 3 and camera.losses >= 1
    alerts = [s.alert for s in output.states]
    assert "CAMERA LOST" in alerts  # reported on the outputs, then cleared
    assert alerts[-1] is None or service.deal.flag is not None
    assert service.deal.exposed >= 20
    assert list(service.deal.cards) == cards[: service.deal.exposed]
