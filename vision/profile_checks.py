"""Lowering a profile reading's confidence: capping it to an abstention when a check
contests it, and the zero-shot reader's second opinion on decks whose indices it reads
(which settles a reading the profile holds at even odds)."""

from __future__ import annotations

from vision.reading import Reading

__all__ = ["CAP", "OVERRULES", "capped", "cross_check", "settles"]

#: Where a contested reading's confidence is capped: an abstention.
CAP = 0.5
#: The zero-shot reader's confidence at which its disagreement overrules the profile.
OVERRULES = 0.5


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
