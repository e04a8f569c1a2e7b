"""The plan of a simulated deal: when each card rests, slides out and leaves the slot.

This is the ground truth the simulator renders and the tests compare against. Pure Python
and numpy; no images.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["CardTruth", "DealScript", "DealTiming"]


@dataclass(frozen=True, slots=True)
class DealTiming:
    """How the dealer moves, in seconds. Rests are log-uniform in ``rest_s``; with
    ``long_pause_p`` a rest is instead a pause (bets being placed) in ``long_pause_s``."""

    rest_s: tuple[float, float] = (0.4, 3.0)
    long_pause_p: float = 0.05
    long_pause_s: tuple[float, float] = (5.0, 60.0)
    reach_s: tuple[float, float] = (0.1, 0.3)  # the thumb comes onto the card
    slide_s: tuple[float, float] = (0.1, 0.3)  # the card slides out of the slot
    retract_s: tuple[float, float] = (0.05, 0.25)  # the thumb leaves the next card
    thumb_lingers_p: float = 0.5  # the thumb stops over the next card before leaving
    jitter_px: float = 2.0  # how far a card may sit from the last one

    @classmethod
    def fast(cls) -> DealTiming:
        """A fast dealer and no pauses: short videos for tests."""
        return cls(rest_s=(0.2, 0.4), long_pause_p=0.0, reach_s=(0.08, 0.15))

    @classmethod
    def for_pace(cls, cards_per_minute: float) -> DealTiming:
        """Rests around the pace asked (a turn is two cards), without long pauses."""
        if cards_per_minute <= 0:
            raise ValueError(f"pace must be positive, not {cards_per_minute}")
        period = 60.0 / cards_per_minute
        rest = max(0.2, period - 0.55)
        return cls(rest_s=(max(0.2, 0.7 * rest), 1.3 * rest), long_pause_p=0.0)


@dataclass(frozen=True, slots=True)
class CardTruth:
    """The ground truth of one card of a simulated deal (times in seconds from the start).

    ``rest``: the card lies still and wholly uncovered in the window. ``slide``: it moves
    out; ``leaves_at``: its trailing edge clears the slot, when a break-beam would fire.
    The last card never leaves (``slide`` and ``leaves_at`` are None).
    """

    index: int
    shown_at: float
    rest: tuple[float, float]
    slide: tuple[float, float] | None
    leaves_at: float | None
    upside_down: bool
    offset_px: tuple[float, float]
    thumb_lingers: bool


@dataclass(frozen=True, slots=True)
class DealScript:
    """The plan of a whole deal: every card's times and pose."""

    cards: tuple[CardTruth, ...]
    duration: float

    @classmethod
    def plan(cls, n_cards: int, rng: np.random.Generator, timing: DealTiming | None = None,
             *, upside_down_p: float = 0.5, last_rest_s: float = 1.0) -> DealScript:
        if n_cards < 1:
            raise ValueError("a deal needs at least one card")
        timing = timing or DealTiming()

        def span(bounds: tuple[float, float]) -> float:
            lo, hi = bounds
            return float(math.exp(rng.uniform(math.log(lo), math.log(hi))))

        cards = []
        t, shown = 0.0, 0.0
        offset = np.zeros(2)
        for i in range(n_cards):
            rest_start = t
            last = i == n_cards - 1
            if last:
                rest = last_rest_s
            elif rng.random() < timing.long_pause_p:
                rest = span(timing.long_pause_s)
            else:
                rest = span(timing.rest_s)
            rest_end = rest_start + rest
            lingers = bool(rng.random() < timing.thumb_lingers_p)
            slide = leaves = None
            if not last:
                slide_start = rest_end + span(timing.reach_s)
                slide = (slide_start, slide_start + span(timing.slide_s))
                leaves = slide[1]
            cards.append(CardTruth(
                index=i, shown_at=shown, rest=(rest_start, rest_end), slide=slide,
                leaves_at=leaves, upside_down=bool(rng.random() < upside_down_p),
                offset_px=(float(offset[0]), float(offset[1])), thumb_lingers=lingers))
            if slide is not None:
                shown = slide[0]
                t = slide[1] + span(timing.retract_s)
                # The spring holds each card against the window: it sits a pixel or two
                # from where the last one sat, never far from the first.
                offset = np.clip(offset + rng.normal(0, timing.jitter_px / 2, 2),
                                 -timing.jitter_px, timing.jitter_px)
        return cls(tuple(cards), cards[-1].rest[1])

    def card_at(self, t: float) -> int:
        """The index of the top card (the one in view, or sliding out) at time ``t``."""
        for truth in self.cards:
            if truth.slide is None or t < truth.slide[1]:
                return truth.index
        return self.cards[-1].index
