"""Stuss: no soda, cards pair off from the first; 26 turns, or 24 with the pocket."""

from __future__ import annotations

from shoe.cards import shuffled_deck
from shoe.deal import Deal, Role
from shoe.events import CallWindow, DeckFinished, Hock, Loser, Pocket, Soda, Turn
from shoe.settings import Settings, Variant

STUSS = Settings(variant=Variant.STUSS)
POCKET = Settings(variant=Variant.STUSS, stuss_pocket=True)


def test_stuss_has_no_soda_and_the_first_card_loses() -> None:
    deck = shuffled_deck(2)
    deal = Deal(STUSS)
    assert deal.expose(deck[0]) == [Loser(1, deck[0])]
    assert deal.role(0) is Role.LOSER
    assert deal.expose(deck[1]) == [Turn(1, deck[0], deck[1], deck[0].rank is deck[1].rank)]


def test_stuss_deals_26_turns_with_no_call_and_no_hock() -> None:
    deck = shuffled_deck(3)
    deal = Deal.from_cards(deck, STUSS)
    turns = [e for e in deal.events if isinstance(e, Turn)]
    assert [t.number for t in turns] == list(range(1, 27))
    assert not any(isinstance(e, Soda | Hock | CallWindow) for e in deal.events)
    assert deal.events[-1] == DeckFinished(tuple(deck), deal.splits)


def test_the_pocket_hides_the_last_four_cards_after_24_turns() -> None:
    deck = shuffled_deck(4)
    deal = Deal.from_cards(deck, POCKET)
    turns = [e for e in deal.events if isinstance(e, Turn)]
    assert len(turns) == 24
    assert [deal.role(i) for i in range(48, 52)] == [Role.POCKET] * 4
    assert deal.events[-2] == Pocket(tuple(deck[48:]))


def test_pocket_cards_are_not_shown_before_the_box_opens() -> None:
    deck = shuffled_deck(4)
    deal = Deal.from_cards(deck[:51], POCKET)
    assert not any(isinstance(e, Pocket) for e in deal.events)
