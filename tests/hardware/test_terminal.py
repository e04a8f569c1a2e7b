"""The bead frame drawn as text: beads by role, dead and blinking ranks, colour only on a tty."""

from __future__ import annotations

import io
import os
import random
from collections.abc import Callable

import pytest

from casekeeper import Case, Mark
from hardware.terminal import TerminalCase, render_case, wants_colour
from shoe.cards import FULL_DECK, Rank
from shoe.deal import Deal


def rank_line(text: str, rank: Rank) -> str:
    return text.splitlines()[rank.value]


def test_each_wire_shows_its_gone_beads_by_role_then_the_beads_left(
    case_of: Callable[[str], Case],
) -> None:
    text = render_case(case_of("5D KH 2S KC 3D"))  # soda 5; K loses, 2 wins; K loses, 3 wins
    assert rank_line(text, Rank.KING).split("├")[1].startswith("0 0 ─ ─")
    assert rank_line(text, Rank.KING).count("●") == 2
    assert rank_line(text, Rank.FIVE).split("├")[1].startswith("• ─ ─ ─")
    assert rank_line(text, Rank.TWO).split("├")[1].startswith("| ─ ─ ─")
    assert rank_line(text, Rank.ACE).count("●") == 4
    assert "47 cards left" in text.splitlines()[0]


def test_every_rank_is_labelled_once_in_order() -> None:
    lines = render_case(Case.empty()).splitlines()[1:]
    assert [line.split("├")[0].strip() for line in lines] == [r.code for r in Rank]


def test_split_rank_is_flagged_and_drawn_with_x(case_of: Callable[[str], Case]) -> None:
    text = render_case(case_of("5D KH KS"))
    assert rank_line(text, Rank.KING).split("├")[1].startswith("X X")
    assert rank_line(text, Rank.KING).endswith("◀ split")
    assert "◀" not in rank_line(text, Rank.QUEEN)


def test_call_window_flags_the_ranks_left_and_names_them() -> None:
    cards = list(FULL_DECK)
    random.Random(3).shuffle(cards)
    case = Case.from_events(Deal.from_cards(cards[:49]).events)
    assert case.call is not None
    text = render_case(case)
    for rank in Rank:
        marked = rank_line(text, rank).endswith("◀ call")
        assert marked == (rank in case.call.ranks)
        assert ("dead" in rank_line(text, rank)) == case.is_dead(rank)
    assert text.splitlines()[-1].startswith("  call the turn: ")
    assert sum(len(case.marks(r)) for r in Rank) == 49
    assert all(m in Mark for r in Rank for m in case.marks(r))


def test_plain_text_on_a_file_and_colour_only_when_asked(
    case_of: Callable[[str], Case], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    stream = io.StringIO()
    keeper = TerminalCase(stream)
    keeper.show(case_of("5D KH KS"))
    assert "\x1b" not in stream.getvalue()
    coloured = io.StringIO()
    TerminalCase(coloured, colour=True).show(case_of("5D KH KS"))
    assert "\x1b[7;1m" in coloured.getvalue()  # the blinking rank's label highlighted


def test_colour_follows_the_tty_and_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    master, slave = os.openpty()
    try:
        with open(slave, "w", closefd=False) as tty:
            monkeypatch.delenv("NO_COLOR", raising=False)
            assert wants_colour(tty)
            monkeypatch.setenv("NO_COLOR", "1")
            assert not wants_colour(tty)
    finally:
        os.close(master)
        os.close(slave)
