"""Joining several frames' readings of one card into one, never guessing.

>>> vote([reading_1, reading_2, reading_3])     # doctest: +SKIP
Reading(card=Card.parse('QH'), confidence=0.98, ...)
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import TypeVar

from shoe.cards import Rank, Suit
from vision.reading import ACCEPT_THRESHOLD, Reading

__all__ = ["UNSURE_CAP", "vote"]

T = TypeVar("T")
#: A vote that is not sure is capped here, safely under the accept threshold.
UNSURE_CAP = ACCEPT_THRESHOLD - 0.05


def vote(readings: Sequence[Reading], *, min_agree: int = 2) -> Reading:
    """Join several frames' readings of one card into one.

    Sure only when at least ``min_agree`` readings name the card surely and none names
    another; otherwise the confidence is capped under the threshold. Frames that abstain
    (a thumb, a glare) do not count against it; frames naming another card do, and when no
    card clearly leads, the vote abstains.
    """
    card, confidence, sure_agree, sure_dissent = _tally(
        [(r.card, r.confidence) for r in readings]
    )
    if card is not None and (sure_agree < min_agree or sure_dissent):
        confidence = min(confidence, UNSURE_CAP)
    rank, rank_conf, _, _ = _tally([(_rank_of(r), _rank_conf(r)) for r in readings])
    suit, suit_conf, _, _ = _tally([(_suit_of(r), _suit_conf(r)) for r in readings])
    return Reading(card, confidence if card else 0.0, rank, suit, rank_conf, suit_conf)


def _tally(items: Sequence[tuple[T | None, float]]) -> tuple[T | None, float, int, int]:
    """The value the items lead on: (value, confidence, sure agreeing, sure dissenting)."""
    named = [(v, c) for v, c in items if v is not None]
    if not named:
        return None, 0.0, 0, 0
    support: dict[T, float] = {}
    for value, conf in named:
        support[value] = support.get(value, 0.0) + conf
    ranked = sorted(support.items(), key=lambda item: -item[1])[:2]
    best, best_support = ranked[0]
    agree = [c for v, c in named if v == best]
    sure = [c for c in agree if c >= ACCEPT_THRESHOLD]
    if sure and len(agree) == len(named):
        # Only agreement: the median frame speaks, so a weaker frame of the same card (a
        # thumb, a glare) is no doubt, but a card most frames are unsure of stays unsure.
        confidence = statistics.median(agree)
    else:
        confidence = sum(agree) / len(named)  # readings naming another card pull it down
    sure_agree = len(sure)
    sure_dissent = sum(1 for v, c in named if v != best and c >= ACCEPT_THRESHOLD)
    if len(ranked) > 1 and ranked[1][1] * 2 > best_support:
        runner_up_sure = any(v == ranked[1][0] and c >= ACCEPT_THRESHOLD for v, c in named)
        if runner_up_sure or not sure_agree:
            return None, 0.0, 0, 0  # no clear leader: abstain
    return best, confidence, sure_agree, sure_dissent


def _rank_of(r: Reading) -> Rank | None:
    return r.rank if r.rank is not None else (r.card.rank if r.card else None)


def _rank_conf(r: Reading) -> float:
    return r.rank_confidence if r.rank is not None else r.confidence


def _suit_of(r: Reading) -> Suit | None:
    return r.suit if r.suit is not None else (r.card.suit if r.card else None)


def _suit_conf(r: Reading) -> float:
    return r.suit_confidence if r.suit is not None else r.confidence
