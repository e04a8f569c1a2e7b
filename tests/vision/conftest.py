"""Fixtures for the vision tests: real faces rendered from gnome-cards-data (cached under
``$XDG_CACHE_HOME/faro-shoe/cards``) and a short simulated deal written as a real video file."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from shoe.cards import Card
from vision.corpus import render_deck

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
