"""A profile reading's confidence: the softmax over the 52 similarities, capping it to an
abstention when a check contests it, and the zero-shot reader's second opinion on decks
whose indices it reads (which settles a reading the profile holds at even odds)."""

from __future__ import annotations

import numpy as np

from shoe.cards import FULL_DECK
from vision.reading import Reading

__all__ = ["CAP", "OVERRULES", "beaten_out", "capped", "cross_check", "effective_temperature",
           "settles", "shortfall", "softmax_reading"]

#: Where a contested reading's confidence is capped: an abstention.
CAP = 0.5
#: The zero-shot reader's confidence at which its disagreement overrules the profile.
OVERRULES = 0.5


def effective_temperature(temperature: float, best: float) -> float:
    """The softmax temperature for a card whose best similarity is ``best``.

    A frame that matches nothing well (glare over the pips, a thumb, deep shadow) gets a
    proportionally warmer softmax: its small margins mean less than on a clean frame.
    """
    return temperature * shortfall(best) / 0.1


def shortfall(best: float) -> float:
    """What a best similarity falls short of 1 (at least 0.02): the scale of its margins."""
    return max(1.0 - best, 0.02)


def softmax_reading(scores: np.ndarray, i: int, temperature: float) -> Reading:
    """Card ``i`` (FULL_DECK order) read from the similarities to the 52 by a softmax at
    the profile's ``temperature`` (:func:`effective_temperature`)."""
    z = (scores - scores.max()) / effective_temperature(temperature, float(scores.max()))
    p = np.exp(z)
    p /= p.sum()
    found = FULL_DECK[i]
    # Rank and suit confidences: all the probability on cards sharing each.
    rank_conf = float(sum(p[j] for j, c in enumerate(FULL_DECK) if c.rank == found.rank))
    suit_conf = float(sum(p[j] for j, c in enumerate(FULL_DECK) if c.suit == found.suit))
    return Reading(found, float(p[i]), found.rank, found.suit, rank_conf, suit_conf)


def beaten_out(scores: np.ndarray, close: list[int], winner: int) -> np.ndarray:
    """The similarities with the rivals that ``close[winner]`` beat left out of the softmax;
    the rest of the deck keeps its own."""
    out = scores.copy()
    out[[c for c in close if c != close[winner]]] = -np.inf
    return out


def capped(reading: Reading, *, rank: bool, suit: bool) -> Reading:
    """The reading with its confidence (and its rank's, its suit's as asked) at most CAP."""
    return Reading(reading.card, min(reading.confidence, CAP), reading.rank, reading.suit,
                   min(reading.rank_confidence, CAP) if rank else reading.rank_confidence,
                   min(reading.suit_confidence, CAP) if suit else reading.suit_confidence)


def cross_check(profile: Reading, corners: Reading) -> Reading:
    """The profile's reading, checked against the corner indices read zero-shot.

    Agreement: wrong only if both readers are wrong. Disagreement counts once the corners
    are at least even odds on their answer, and caps the confidence below theirs.
    """
    assert profile.card is not None

    def combine(mine: float, theirs: float, agree: bool) -> float:
        if agree:
            return 1 - (1 - mine) * (1 - theirs)
        return min(mine, 1 - theirs) if theirs >= OVERRULES else mine

    rank_conf = combine(profile.rank_confidence, corners.rank_confidence,
                        corners.rank == profile.card.rank)
    suit_conf = combine(profile.suit_confidence, corners.suit_confidence,
                        corners.suit == profile.card.suit)
    card_conf = combine(profile.confidence, corners.confidence, corners.card == profile.card)
    card_conf = min(card_conf, rank_conf, suit_conf)
    return Reading(profile.card, card_conf, profile.rank, profile.suit, rank_conf, suit_conf)


def settles(profile: Reading, corners: Reading) -> bool:
    """Whether the corners' reading may stand for a profile reading held at even odds (at
    most CAP): they are sure, of another card. The profile must still count that card among
    its close rivals (ProfileReader); a card it ruled out is not taken from the corners."""
    return profile.confidence <= CAP and corners.is_sure and corners.card != profile.card
