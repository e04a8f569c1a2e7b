"""Each rule of the faro deal in FARO_RULES.md, one test a rule."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from shoe.cards import Card, Rank, shuffled_deck
from shoe.deal import Deal, DealStateError, Role, Status
from shoe.events import (
    CallKind,
    CallWindow,
    DeckFinished,
    DeckStarted,
    Hock,
    LastTurn,
    Loser,
    Soda,
    Turn,
)
from shoe.settings import Settings, Variant

Cards = Callable[[str], list[Card]]


def deal_through(deck: list[Card], settings: Settings | None = None) -> Deal:
    deal = Deal(settings)
    for card in deck:
        deal.expose(card)
        assert deal.flag is None
    return deal


def test_a_deal_starts_with_deck_started() -> None:
    assert Deal().events == [DeckStarted(Variant.FARO)]


def test_the_first_card_is_the_soda_and_settles_nothing() -> None:
    deal = Deal()
    assert deal.expose(Card.parse("7C")) == [Soda(Card.parse("7C"))]
    assert deal.role(0) is Role.SODA


def test_odd_exposures_lose_and_even_ones_win(cards: Cards) -> None:
    deal = deal_through(cards("7C 2H 9S"))
    assert deal.events[-1] == Turn(1, Card.parse("2H"), Card.parse("9S"), split=False)
    assert [deal.role(i) for i in range(1, 5)] == [Role.LOSER, Role.WINNER] * 2


def test_a_loser_is_announced_as_it_shows_and_its_turn_with_the_winner(cards: Cards) -> None:
    deal = deal_through(cards("7C"))
    assert deal.expose(Card.parse("2H")) == [Loser(1, Card.parse("2H"))]
    assert deal.expose(Card.parse("9S")) == [Turn(1, Card.parse("2H"), Card.parse("9S"), False)]


def test_a_split_is_loser_and_winner_of_one_rank(cards: Cards) -> None:
    deal = deal_through(cards("7C 2H 2S 3D 4D"))
    turns = [e for e in deal.events if isinstance(e, Turn)]
    assert [t.split for t in turns] == [True, False]
    assert deal.splits == 1


def test_the_call_window_opens_after_turn_24_with_three_ranks_plain(
        hand_checked_deal: list[Card]) -> None:
    deal = deal_through(hand_checked_deal[:49])
    window = deal.events[-1]
    assert deal.events[-2] == Turn(24, Card.parse("9S"), Card.parse("10S"), split=False)
    assert window == CallWindow((Rank.JACK, Rank.QUEEN, Rank.KING), CallKind.PLAIN, 6, (4, 1))


def called_ending(last_three: str, settings: Settings | None = None) -> Deal:
    """A deal whose last three cards are ``last_three``, dealt up to the call window."""
    ending = [Card.parse(code) for code in last_three.split()]
    rest = [c for c in shuffled_deck(1) if c not in ending]
    return deal_through(rest, settings)


def test_a_pair_among_the_last_three_is_a_cat_hop_paying_2_to_1() -> None:
    window = called_ending("5H 5S KD").events[-1]
    assert window == CallWindow((Rank.FIVE, Rank.FIVE, Rank.KING), CallKind.CAT_HOP, 3, (2, 1))


def test_three_of_a_kind_at_the_call_takes_no_bets() -> None:
    window = called_ending("8H 8S 8D").events[-1]
    assert window == CallWindow((Rank.EIGHT,) * 3, CallKind.THREE_OF_A_KIND, 1, None)


def test_call_odds_follow_the_settings() -> None:
    settings = Settings(call_pays=(3, 1), cat_hop_pays=(1, 1))
    assert called_ending("5H 6S KD", settings).events[-1].pays == (3, 1)
    assert called_ending("5H 5S KD", settings).events[-1].pays == (1, 1)


def test_the_last_turn_and_the_hock_end_the_deal(hand_checked_deal: list[Card]) -> None:
    deal = deal_through(hand_checked_deal[:49])
    assert deal.expose(Card.parse("JS")) == [Loser(25, Card.parse("JS"))]
    assert deal.expose(Card.parse("QS")) == [LastTurn(25, Card.parse("JS"), Card.parse("QS"),
                                                      split=False)]
    assert deal.role(51) is Role.HOCK
    events = deal.expose(Card.parse("KC"))
    assert events == [Hock(Card.parse("KC")), DeckFinished(tuple(hand_checked_deal), splits=4)]
    assert deal.is_finished and deal.status is Status.FINISHED


def test_playing_through_deals_25_ordinary_turns_and_no_call(
        hand_checked_deal: list[Card]) -> None:
    deal = deal_through(hand_checked_deal, Settings(call_the_turn=False))
    assert not any(isinstance(e, CallWindow | LastTurn) for e in deal.events)
    turns = [e for e in deal.events if isinstance(e, Turn)]
    assert len(turns) == 25 and turns[-1].number == 25


def test_a_split_on_the_last_turn_counts() -> None:
    deal = called_ending("9C 9D 4S")
    deal.expose(Card.parse("9C"))
    (last,) = deal.expose(Card.parse("9D"))
    assert isinstance(last, LastTurn) and last.split


def test_a_finished_deal_takes_no_more_cards(hand_checked_deal: list[Card]) -> None:
    deal = deal_through(hand_checked_deal)
    with pytest.raises(DealStateError, match="finished"):
        deal.expose(Card.parse("AS"))
