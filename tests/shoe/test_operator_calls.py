"""Held reads and the operator's calls: correct, confirm, undo, void; and the rebuild."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from shoe.cards import Card, shuffled_deck
from shoe.deal import Action, ActionKind, Deal, DealStateError, IllegalCorrectionError, Status
from shoe.events import (
    CardCorrected,
    CardFlagged,
    CardWithdrawn,
    DeckVoided,
    FlagReason,
    Loser,
    Turn,
)

Cards = Callable[[str], list[Card]]
C = Card.parse


def held(codes: str, cards: Cards) -> Deal:
    """A deal fed ``codes`` whose last read is held."""
    deal = Deal()
    *first, last = cards(codes)
    for card in first:
        deal.expose(card)
    deal.expose(last)
    assert deal.flag is not None
    return deal


def test_a_card_seen_twice_is_held_naming_both_exposures(cards: Cards) -> None:
    deal = Deal()
    for card in cards("7C 2H 9S"):
        deal.expose(card)
    assert deal.expose(C("2H")) == [CardFlagged(3, C("2H"), FlagReason.DUPLICATE, conflict=1)]
    assert deal.status is Status.FLAGGED and deal.is_paused
    assert deal.cards == tuple(cards("7C 2H 9S"))


def test_a_fifth_of_a_rank_is_held_as_such(cards: Cards) -> None:
    deal = Deal()
    for card in cards("7C 2H 7S 7D 7H"):
        deal.expose(card)
    (flag,) = deal.expose(C("7S"))
    assert flag == CardFlagged(5, C("7S"), FlagReason.FIFTH_OF_RANK, conflict=2)


def test_nothing_is_accepted_while_a_read_is_held(cards: Cards) -> None:
    deal = held("7C 2H 2H", cards)
    with pytest.raises(DealStateError, match="held at exposure 2"):
        deal.expose(C("3D"))


def test_correct_replaces_the_held_card_and_deals_it(cards: Cards) -> None:
    deal = held("7C 2H 2H", cards)
    assert deal.correct(C("2S")) == [
        CardCorrected(2, C("2S"), was=C("2H")),
        Turn(1, C("2H"), C("2S"), split=True),
    ]
    assert deal.flag is None and deal.status is Status.VALID


def test_a_correction_the_deck_cannot_hold_is_refused_and_the_flag_stays(cards: Cards) -> None:
    deal = held("7C 2H 2H", cards)
    with pytest.raises(IllegalCorrectionError, match="exposure 2 to 7C"):
        deal.correct(C("7C"))
    assert deal.flag is not None


def test_an_unsure_read_is_held_and_confirm_accepts_it(cards: Cards) -> None:
    deal = Deal()
    deal.expose(C("7C"))
    assert deal.expose(C("QH"), sure=False) == [CardFlagged(1, C("QH"), FlagReason.UNSURE)]
    assert deal.confirm() == [Loser(1, C("QH"))]
    assert deal.cards == (C("7C"), C("QH"))


def test_an_unread_card_must_be_named_not_confirmed() -> None:
    deal = Deal()
    assert deal.expose(None) == [CardFlagged(0, None, FlagReason.UNREAD)]
    with pytest.raises(IllegalCorrectionError, match="only an unsure read"):
        deal.confirm()
    assert deal.correct(C("5D"))[0] == CardCorrected(0, C("5D"), was=None)


def test_a_duplicate_cannot_be_confirmed(cards: Cards) -> None:
    deal = held("7C 2H 2H", cards)
    with pytest.raises(IllegalCorrectionError, match="held as duplicate"):
        deal.confirm()


def test_undo_drops_a_held_read_first(cards: Cards) -> None:
    deal = held("7C 2H 2H", cards)
    assert deal.undo() == [CardWithdrawn(2, C("2H"), held=True)]
    assert deal.cards == (C("7C"), C("2H")) and deal.flag is None


def test_undo_takes_back_the_last_card_and_its_events(cards: Cards) -> None:
    deal = Deal()
    for card in cards("7C 2H 2S"):
        deal.expose(card)
    before = deal.events
    assert deal.undo() == [CardWithdrawn(2, C("2S"))]
    assert deal.events == before[:-1] and deal.splits == 0
    deal.expose(C("3S"))
    assert deal.events[-1] == Turn(1, C("2H"), C("3S"), split=False)


def test_undo_with_nothing_dealt_is_an_error() -> None:
    with pytest.raises(DealStateError, match="no card to undo"):
        Deal().undo()


def test_undo_reopens_a_finished_deal() -> None:
    deck = shuffled_deck(9)
    deal = Deal.from_cards(deck)
    deal.undo()
    assert not deal.is_finished
    deal.expose(deck[-1])
    assert deal.is_finished


def test_void_ends_the_deal(cards: Cards) -> None:
    deal = held("7C 2H 2H", cards)
    assert deal.void() == [DeckVoided(exposed=2)]
    assert deal.status is Status.VOIDED and deal.flag is None
    with pytest.raises(DealStateError, match="void"):
        deal.expose(C("3S"))


def test_replaying_the_actions_rebuilds_the_deal_events_and_all(cards: Cards) -> None:
    deal = Deal()
    for card in cards("7C 2H 2H"):
        deal.expose(card)
    deal.correct(C("2S"))
    deal.expose(C("KD"), sure=False)
    deal.confirm()
    deal.expose(C("4D"))
    deal.undo()
    deal.expose(None)
    rebuilt = Deal.replay([Action.from_json(a.to_json()) for a in deal.actions])
    assert rebuilt.events == deal.events
    assert rebuilt.cards == deal.cards
    assert rebuilt.flag == deal.flag
    assert rebuilt.actions == deal.actions


def test_actions_have_a_json_form() -> None:
    assert Action(ActionKind.EXPOSE, C("10H"), sure=False).to_json() == {
        "action": "expose", "card": "10H", "sure": False}
    assert Action(ActionKind.UNDO).to_json() == {"action": "undo"}
    with pytest.raises(ValueError, match="not a deal action"):
        Action.from_json({"action": "shuffle"})


def test_the_last_action_is_the_latest_call(cards: Cards) -> None:
    deal = Deal()
    assert deal.last_action is None
    for card in cards("7C 2H"):
        deal.expose(card)
    deal.undo()
    assert deal.last_action == Action(ActionKind.UNDO) == deal.actions[-1]
