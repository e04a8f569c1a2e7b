"""Fixtures for the display tests: real pty pairs standing in for USB serial adapters."""

from __future__ import annotations

import os
import select
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import strategies as st

from shoe.cards import FULL_DECK, Rank
from shoe.events import (
    CallKind,
    CallWindow,
    CardCorrected,
    CardFlagged,
    CardWithdrawn,
    DeckFinished,
    DeckStarted,
    DeckVoided,
    Event,
    FlagReason,
    Hock,
    LastTurn,
    Loser,
    Pocket,
    Soda,
    Turn,
)
from shoe.settings import Variant


class Pty:
    """One pty pair: the writer opens ``path`` (the slave); the test reads the master."""

    def __init__(self) -> None:
        self.master, slave = os.openpty()
        self.path = os.ttyname(slave)
        os.close(slave)  # the pty lives on while the master is open; the writer reopens it
        self.received = bytearray()

    def read_until(self, done: Callable[[bytes], bool], timeout: float = 5.0) -> bytes:
        """Read the far end until ``done(everything so far)``; fail after ``timeout``."""
        deadline = time.monotonic() + timeout
        while not done(bytes(self.received)):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"timed out; received {bytes(self.received)!r}")
            ready, _, _ = select.select([self.master], [], [], min(remaining, 0.1))
            if ready:
                try:
                    self.received += os.read(self.master, 4096)
                except OSError:  # EIO while no slave is open: nothing to read yet
                    time.sleep(0.01)
        return bytes(self.received)

    def unplug(self) -> None:
        if self.master >= 0:
            os.close(self.master)
            self.master = -1


@pytest.fixture
def make_pty() -> Iterator[Callable[[], Pty]]:
    ptys: list[Pty] = []

    def make() -> Pty:
        pty = Pty()
        ptys.append(pty)
        return pty

    yield make
    for pty in ptys:
        pty.unplug()


def point(link: Path, target: str) -> None:
    """Point ``link`` at ``target`` atomically, as udev updates /dev/serial/by-id."""
    tmp = link.with_name(link.name + ".new")
    tmp.unlink(missing_ok=True)
    tmp.symlink_to(target)
    tmp.replace(link)


# -- random events, for property tests ------------------------------------------------------

cards = st.sampled_from(FULL_DECK)
ranks = st.sampled_from(list(Rank))
exposures = st.integers(0, 51)


def _turn(cls: type) -> st.SearchStrategy[Event]:
    return st.builds(cls, st.integers(1, 26), cards, cards, st.booleans())


def _call() -> st.SearchStrategy[Event]:
    return st.builds(
        CallWindow,
        st.lists(ranks, min_size=3, max_size=3).map(lambda rs: tuple(sorted(rs))),
        st.sampled_from(list(CallKind)),
        st.integers(1, 6),
        st.none() | st.tuples(st.integers(1, 99), st.integers(1, 99)),
    )


events: st.SearchStrategy[Event] = st.one_of(
    st.builds(DeckStarted, st.sampled_from(list(Variant))),
    st.builds(Soda, cards),
    st.builds(Loser, st.integers(1, 26), cards),
    _turn(Turn),
    _turn(LastTurn),
    _call(),
    st.builds(Hock, cards),
    st.builds(Pocket, st.lists(cards, min_size=4, max_size=4).map(tuple)),
    st.builds(DeckFinished, st.lists(st.none() | cards, max_size=52).map(tuple),
              st.integers(0, 26)),
    st.builds(CardFlagged, exposures, st.none() | cards, st.sampled_from(list(FlagReason)),
              st.none() | exposures),
    st.builds(CardCorrected, exposures, cards, st.none() | cards),
    st.builds(CardWithdrawn, exposures, st.none() | cards, st.booleans()),
    st.builds(DeckVoided, st.integers(0, 52)),
)

#: A whole faro deal, soda to hock (the same order as tests/conftest.py's hand-checked deal).
HAND_DEAL_CODES = """
KS AH AD 2H 2D 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD
AC AS 2C 2S 3C 4C 5C 6C 7C 8C 9C 10C JC QC 3S 4S 5S 6S 7S 8S 9S 10S JS QS KC
"""
