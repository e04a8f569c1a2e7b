"""Fixtures for the vision tests: real faces rendered from gnome-cards-data (cached under
``$XDG_CACHE_HOME/faro-shoe/cards``) and a short simulated deal written as a real video file."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from shoe.cards import Card
from vision.corpus import render_deck
from vision.simulator import CardTruth, DealTiming, SimulatedShoe, write_video

#: A dev deck with standard indices, used where any ordinary deck will do.
DEV_DECK = "anglo"


@pytest.fixture(scope="session")
def deck_faces() -> Callable[..., dict[Card, np.ndarray]]:
    """``deck_faces(name, height=200, alpha=False)``: a rendered deck, once per session."""
    memo: dict[tuple[str, int, bool], dict[Card, np.ndarray]] = {}

    def faces(name: str = DEV_DECK, height: int = 200, alpha: bool = False
              ) -> dict[Card, np.ndarray]:
        key = (name, height, alpha)
        if key not in memo:
            memo[key] = render_deck(name, height, alpha=alpha)
        return memo[key]

    return faces


@pytest.fixture(scope="session")
def dev_deck(deck_faces: Callable[..., dict[Card, np.ndarray]]) -> dict[Card, np.ndarray]:
    """The 52 BGR faces of the ``anglo`` deck, 350 px tall, on white."""
    return deck_faces(DEV_DECK, 350)


@dataclass(frozen=True)
class SimulatedDealVideo:
    """A short simulated deal on disk: the video, the cards in order and the ground truth."""

    path: Path
    cards: tuple[Card, ...]
    truth: tuple[CardTruth, ...]
    fps: float
    frame_count: int


#: The deal in the video fixture: soda, then turns; 7H after 7S (same rank) and QD twice in a
#: row (the same look: a duplicate design), which only the motion tells apart.
SIM_DEAL_CODES = ("KS", "AH", "7S", "7H", "QD", "QD", "2C", "10D", "JC", "5S")


@pytest.fixture(scope="session")
def simulated_deal_video(tmp_path_factory: pytest.TempPathFactory,
                         deck_faces: Callable[..., dict[Card, np.ndarray]]
                         ) -> SimulatedDealVideo:
    """A 10-card deal at a fast dealer's pace, 640×480 at 30 fps, written as MJPG .avi."""
    faces = deck_faces(DEV_DECK, 350, alpha=True)
    cards = tuple(Card.parse(c) for c in SIM_DEAL_CODES)
    shoe = SimulatedShoe([faces[c] for c in cards], seed=2024, timing=DealTiming.fast())
    path = tmp_path_factory.mktemp("sim") / "deal.avi"
    count = write_video(path, shoe.frames(30.0), 30.0)
    return SimulatedDealVideo(path, cards, shoe.truth, 30.0, count)
