"""What the 2×20 screen says for each event: readable, and never more than 20 cells."""

from __future__ import annotations

import pytest
from hypothesis import given

from hardware.display.layout import (
    WIDTH,
    InvalidScreenError,
    Screen,
    pattern_screens,
    screen_for,
    screen_for_batch,
)
from shoe.cards import Card, Rank
from shoe.deal import Deal
from shoe.events import (
    CallKind,
    CallWindow,
    CardFlagged,
    DeckFinished,
    DeckVoided,
    Event,
    FlagReason,
    LastTurn,
    Loser,
    Turn,
)

from .conftest import events

card = Card.parse


def test_a_split_turn_shows_its_number_split_loser_and_winner() -> None:
    screen = screen_for(Turn(12, card("10H"), card("10S"), split=True))
    assert screen.lines == ("TURN 12        SPLIT", "LOSER 10♥ WINNER 10♠")
    assert screen.glyphs == {"♥", "♠"}


def test_a_loser_shows_before_its_winner() -> None:
    screen = screen_for(Loser(3, card("KH")))
    assert screen.lines == ("TURN 3              ", "LOSER K♥  WINNER    ")


def test_the_last_turn_is_named_as_such() -> None:
    screen = screen_for(LastTurn(25, card("QH"), card("KS"), split=False))
    assert screen.top.rstrip() == "LAST TURN 25"


def test_the_call_window_shows_the_three_ranks_kind_and_odds() -> None:
    cat_hop = CallWindow((Rank.THREE, Rank.SEVEN, Rank.SEVEN), CallKind.CAT_HOP, 3, (2, 1))
    assert screen_for(cat_hop).lines == ("CALL 3 7 7          ", "CAT-HOP     PAYS 2:1")
    plain = CallWindow((Rank.THREE, Rank.SEVEN, Rank.TEN), CallKind.PLAIN, 6, (4, 1))
    assert screen_for(plain).bottom == "6 WAYS      PAYS 4:1"
    trips = CallWindow((Rank.TEN,) * 3, CallKind.THREE_OF_A_KIND, 1, None)
    assert "NO BET" in screen_for(trips).bottom


def test_a_held_read_says_check_card_with_the_card_number_and_what_was_read() -> None:
    dup = screen_for(CardFlagged(22, card("7H"), FlagReason.DUPLICATE, 4))
    assert dup.lines == ("CHECK CARD 23: 7♥   ", "SAME AS CARD 5      ")
    fifth = screen_for(CardFlagged(51, card("10H"), FlagReason.FIFTH_OF_RANK, 40))
    assert fifth.lines == ("CHECK CARD 52: 10♥  ", "5TH 10; 4TH: CARD 41")
    unread = screen_for(CardFlagged(3, None, FlagReason.UNREAD))
    assert unread.top.startswith("CHECK CARD 4: ??")


def test_the_end_of_a_deal_shows_its_splits_and_unread_cards() -> None:
    finished = screen_for(DeckFinished((None, card("2C")), splits=3))
    assert finished.lines == ("DEAL FINISHED       ", "3 SPLITS    1 UNREAD")
    assert screen_for(DeckVoided(17)).lines[0].rstrip() == "DEAL VOIDED"


def test_a_whole_real_deal_has_a_screen_for_every_event(hand_checked_deal: list[Card]) -> None:
    deal = Deal.from_cards(hand_checked_deal)
    screens = [screen_for(e) for e in deal.events]
    assert screens[0].top.startswith("FARO")
    assert screens[-1].top.startswith("DEAL FINISHED")
    assert any("SPLIT" in s.top for s in screens)


@given(events)
def test_every_event_fits_two_lines_of_twenty(event: Event) -> None:
    screen = screen_for(event)
    assert [len(line) for line in screen.lines] == [WIDTH, WIDTH]


def test_screens_refuse_text_that_does_not_fit_rather_than_cut_it() -> None:
    with pytest.raises(InvalidScreenError, match="longer than 20"):
        Screen("X" * 21)
    with pytest.raises(InvalidScreenError, match="cannot show"):
        Screen("naïve")


def test_letters_replace_the_suits() -> None:
    assert Screen("A♠ 10♥ Q♦ K♣").with_letters().top.rstrip() == "AS 10H QD KC"


def test_the_test_pattern_shows_every_printable_character_and_every_suit() -> None:
    text = "".join(s.top + s.bottom for s in pattern_screens())
    assert set(map(chr, range(0x20, 0x7F))) <= set(text)
    assert {"♠", "♥", "♦", "♣"} <= set(text)


def test_a_batch_keeps_turn_24_on_screen_with_the_call_window(
        hand_checked_deal: list[Card]) -> None:
    deal = Deal()
    batches = [deal.expose(c) for c in hand_checked_deal]
    turn_and_call = next(b for b in batches if any(isinstance(e, CallWindow) for e in b))
    screen = screen_for_batch(turn_and_call)
    assert screen.lines == ("T24 LOSE 9♠ WIN 10♠ ", "CALL J Q K 4:1      ")
    assert screen_for_batch(batches[-1]).lines == ("HOCK K♣             ",
                                                   "DEAL OVER, 4 SPLITS ")


def test_a_batch_of_one_is_that_event_s_screen() -> None:
    turn = Turn(3, card("2C"), card("2S"), split=True)
    assert screen_for_batch([turn]) == screen_for(turn)
    assert screen_for_batch([turn, DeckVoided(7)]) == screen_for(DeckVoided(7))


def test_merged_lines_shorten_rather_than_overflow() -> None:
    split = Turn(26, card("10H"), card("10S"), split=True)
    call = CallWindow((Rank.TEN, Rank.TEN, Rank.QUEEN), CallKind.CAT_HOP, 3, (99, 99))
    screen = screen_for_batch([split, call])
    assert screen.lines == ("T26 SPLIT 10♥/10♠   ", "10 10 Q CAT 99:99   ")


@given(events, events)
def test_every_pair_of_events_makes_a_screen(first: Event, second: Event) -> None:
    screen = screen_for_batch([first, second])
    assert [len(line) for line in screen.lines] == [WIDTH, WIDTH]
