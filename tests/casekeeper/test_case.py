from __future__ import annotations

from collections.abc import Callable

import pytest

from casekeeper.case import Case, Mark
from shoe.cards import Card, Rank
from shoe.deal import Deal
from shoe.settings import Settings, Variant

Cards = Callable[[str], list[Card]]


def case_of(codes: str, cards: Cards, settings: Settings | None = None) -> Case:
    return Case.from_events(Deal.from_cards(cards(codes), settings).events)


def test_every_card_exposed_moves_one_bead_the_soda_included(cards: Cards) -> None:
    case = case_of("7C 2H", cards)
    assert case.gone(Rank.SEVEN) == 1 and case.marks(Rank.SEVEN) == (Mark.SODA,)
    assert case.gone(Rank.TWO) == 1 and case.marks(Rank.TWO) == (Mark.LOSER,)
    assert case.left(Rank.TWO) == 3


def test_a_split_marks_both_cards_and_blinks_its_rank(cards: Cards) -> None:
    case = case_of("7C 2H 2S", cards)
    assert case.marks(Rank.TWO) == (Mark.SPLIT, Mark.SPLIT)
    assert case.blinking == {Rank.TWO}
    assert case_of("7C 2H 2S 3D", cards).blinking == frozenset()


def test_a_rank_with_all_four_gone_is_dead(cards: Cards) -> None:
    case = case_of("7C 7H 7S 7D", cards)
    assert case.is_dead(Rank.SEVEN) and case.dead_ranks == (Rank.SEVEN,)
    assert not case.is_dead(Rank.TWO)


def test_the_call_window_leaves_three_cards_and_their_orders(
        hand_checked_deal: list[Card]) -> None:
    case = Case.from_events(Deal.from_cards(hand_checked_deal[:49]).events)
    assert case.remaining_ranks() == (Rank.JACK, Rank.QUEEN, Rank.KING)
    assert len(case.possible_orders()) == 6
    assert case.call is not None and case.blinking == {Rank.JACK, Rank.QUEEN, Rank.KING}
    assert case.cards_left == 3


def test_orders_are_only_worked_out_for_the_last_few_cards() -> None:
    with pytest.raises(ValueError, match="52 cards are left"):
        Case.empty().possible_orders()


def test_undo_takes_the_bead_back(cards: Cards) -> None:
    deal = Deal.from_cards(cards("7C 2H 2S"))
    deal.undo()
    case = Case.from_events(deal.events)
    assert case.marks(Rank.TWO) == (Mark.LOSER,)


def test_the_stuss_pocket_shows_as_unplayed_once_opened(cards: Cards) -> None:
    from shoe.cards import shuffled_deck
    deck = shuffled_deck(8)
    case = Case.from_events(
        Deal.from_cards(deck, Settings(variant=Variant.STUSS, stuss_pocket=True)).events)
    assert [p.mark for p in case.placed[48:]] == [Mark.HOCK] * 4
    assert case.variant is Variant.STUSS
