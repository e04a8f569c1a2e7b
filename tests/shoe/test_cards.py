from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shoe.cards import FULL_DECK, Card, InvalidCardError, Rank, Suit, shuffled_deck


@pytest.mark.parametrize(
    ("text", "code"),
    [("10H", "10H"), ("TH", "10H"), ("10♥", "10H"), ("qs", "QS"), ("Q♠", "QS"),
     (" ad ", "AD"), ("1c", "AC"), ("K♧", "KC"), ("9♢", "9D"), ("tD", "10D")],
)
def test_parse_accepts_every_written_form(text: str, code: str) -> None:
    assert Card.parse(text).code == code


@pytest.mark.parametrize("text", ["", "H", "10", "11H", "QX", "Q♠♠", "0S", "JOKER", "1 0H"])
def test_parse_rejects_bad_input_quoting_it(text: str) -> None:
    with pytest.raises(InvalidCardError, match="not a card") as info:
        Card.parse(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_ranks_run_ace_low_to_king_high() -> None:
    assert [r.code for r in sorted(Rank)] == "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    assert Rank.ACE < Rank.TEN < Rank.KING


def test_red_and_black_suits() -> None:
    assert {s for s in Suit if s.is_red} == {Suit.HEARTS, Suit.DIAMONDS}


def test_full_deck_holds_each_card_once() -> None:
    assert len(FULL_DECK) == len(set(FULL_DECK)) == 52


def test_shuffled_deck_is_a_permutation_reproducible_from_its_seed() -> None:
    assert sorted(shuffled_deck(4)) == sorted(FULL_DECK)
    assert shuffled_deck(4) == shuffled_deck(4) != shuffled_deck(5)


@given(st.sampled_from(FULL_DECK))
def test_code_label_and_repr_round_trip(card: Card) -> None:
    assert Card.parse(card.code) == card
    assert Card.parse(card.label) == card
    assert eval(repr(card)) == card
    assert Rank.parse(card.rank.code) is card.rank
    assert Suit.parse(card.suit.code) is card.suit
    assert eval(repr(card.rank)) is card.rank


@given(st.text(max_size=6))
def test_parse_of_any_text_gives_a_card_or_invalid_card_error(text: str) -> None:
    try:
        card = Card.parse(text)
    except InvalidCardError:
        return
    assert card in FULL_DECK


@given(st.sampled_from(FULL_DECK), st.sampled_from(FULL_DECK))
def test_equal_cards_hash_equal_and_order_by_rank_first(a: Card, b: Card) -> None:
    assert (a == b) == (hash(a) == hash(b))
    if a.rank != b.rank:
        assert (a < b) == (a.rank < b.rank)
