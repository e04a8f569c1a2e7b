"""Fixtures shared by every test area."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from shoe.cardfile import parse_cards
from shoe.cards import Card

#: A whole faro deal designed to be checked by hand (tests/casekeeper/test_cuesheet.py):
#: soda KS; turns 1, 2, 14 and 15 are splits; the call leaves J Q K; the hock is KC.
HAND_CHECKED_DEAL = """
KS                                  # soda
AH AD  2H 2D  3H 4H  5H 6H  7H 8H   # turns 1-5
9H 10H  JH QH  KH 3D  4D 5D  6D 7D  # turns 6-10
8D 9D  10D JD  QD KD  AC AS  2C 2S  # turns 11-15
3C 4C  5C 6C  7C 8C  9C 10C  JC QC  # turns 16-20
3S 4S  5S 6S  7S 8S  9S 10S         # turns 21-24
JS QS                               # the last turn
KC                                  # hock
"""


def parse_codes(codes: str) -> list[Card]:
    """Cards from codes separated by spaces (``#`` comments allowed)."""
    return [placed.card for placed in parse_cards(codes)]


@pytest.fixture
def cards() -> Callable[[str], list[Card]]:
    """``cards("7C 2H 9S")``: the cards those codes name."""
    return parse_codes


@pytest.fixture
def hand_checked_deal() -> list[Card]:
    return parse_codes(HAND_CHECKED_DEAL)
