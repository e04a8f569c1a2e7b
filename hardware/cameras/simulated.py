"""The simulated camera: a seeded, shuffled deck dealt in the box by the project's simulator
(:mod:`vision.simulator`), as frames at ``fps``, in real time or as fast as asked."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from hardware.camera import Camera, Pacer
from hardware.errors import CameraConfigError
from shoe.cards import FULL_DECK, Card

__all__ = ["DEFAULT_DECK", "SimulatedCamera", "shuffled_deck"]

log = logging.getLogger(__name__)

#: The gnome-cards-data theme dealt when no deck is named.
DEFAULT_DECK = "anglo"


def shuffled_deck(seed: int | None) -> tuple[Card, ...]:
    """The 52 cards in the order a seed shuffles them (the same seed, the same deal)."""
    order = np.random.default_rng(seed).permutation(len(FULL_DECK))
    return tuple(FULL_DECK[int(i)] for i in order)


class SimulatedCamera(Camera):
    """A deal of a shuffled deck seen by the rig's camera.

    ``seed`` fixes the shuffle, the scene (mount, light, box) and the dealer's timing.
    ``cards_per_minute`` sets the dealer's pace (none: the simulator's own mix of quick
    rests and long pauses for bets). ``pace``: 1 = real time, 0 = as fast as asked.
    ``start_at``: the deal starts with that card (0-based) in view, as after a restart.
    Faces come from ``faces`` (card → BGR/BGRA image), else ``deck_dir`` (a folder of the
    user's card images, ``QH.png`` …), else the installed gnome-cards-data theme ``deck``.
    ``Frame.t`` is the simulator's clock; ``truth`` tells when each card really rests and
    leaves (what a break-beam would report).
    """

    def __init__(
        self,
        *,
        seed: int | None = None,
        width: int = 640,
        height: int = 480,
        fps: float = 30.0,
        pace: float = 1.0,
        cards_per_minute: float | None = None,
        start_at: int = 0,
        deck: str = DEFAULT_DECK,
        deck_dir: str | None = None,
        faces: Mapping[Card, np.ndarray] | None = None,
        difficulty: str = "normal",
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        from vision.simulator import DealTiming, SimulatedShoe

        super().__init__()
        self.name = f"sim:{seed}"
        if not 0 <= start_at < len(FULL_DECK):
            raise CameraConfigError(f"camera: start_at {start_at} is not a card 0–51")
        if difficulty not in ("easy", "normal", "hard"):
            raise CameraConfigError(f"camera.difficulty: {difficulty!r} is not easy/normal/hard")
        self.cards = shuffled_deck(seed)
        if faces is None:
            faces = _faces(deck, deck_dir)
        timing = DealTiming.for_pace(cards_per_minute) if cards_per_minute else None
        self.shoe: Any = SimulatedShoe(
            [faces[card] for card in self.cards], seed=0 if seed is None else seed,
            timing=timing, difficulty=difficulty,  # type: ignore[arg-type]
            frame_size=(width, height),
        )
        self.fps_wanted = fps
        self._start = self.shoe.truth[start_at].rest[0] if start_at else 0.0
        self._pacer = Pacer(fps, pace, sleep=sleep, clock=clock)
        self._position = 0

    @property
    def truth(self) -> tuple[Any, ...]:
        """Each card's :class:`vision.simulator.CardTruth`, in deal order."""
        return tuple(self.shoe.truth)

    def _grab(self) -> tuple[np.ndarray, float] | None:
        t = self._start + self._position / self.fps_wanted
        if t > self.shoe.duration:
            return None
        self._pacer.wait(self._position)
        self._position += 1
        return self.shoe.frame_at(t), t


def _faces(deck: str, deck_dir: str | None) -> Mapping[Card, np.ndarray]:
    from vision import corpus, deckdir

    try:
        if deck_dir:
            return deckdir.load_deck_dir(deck_dir, alpha=True)
        return corpus.render_deck(deck, alpha=True)
    except deckdir.DeckDirError as error:
        raise CameraConfigError(f"camera.deck_dir: {error}") from error
    except (corpus.UnknownDeckError, corpus.CorpusUnavailableError) as error:
        if deck != DEFAULT_DECK or not isinstance(error, corpus.CorpusUnavailableError):
            raise CameraConfigError(f"camera: cannot draw the deck {deck!r}: {error}") from error
        # The demo must run on a laptop with nothing installed but faro-shoe itself.
        from vision.faces import builtin_deck

        log.warning("%s; dealing the built-in faces instead", error)
        return builtin_deck(alpha=True)
