"""The vote over a card's frames, and the tracker on simulated deals with the real reader."""

from __future__ import annotations

from shoe.cards import Card, Rank, Suit
from vision.exposures import UNSURE_CAP, vote
from vision.reading import ACCEPT_THRESHOLD, Reading

QH = Card.parse("QH")
QS = Card.parse("QS")
KH = Card.parse("KH")


def sure(card: Card, confidence: float = 0.97) -> Reading:
    return Reading(card, confidence, card.rank, card.suit, confidence, confidence)


ABSTAIN = Reading(None, 0.0)


def test_agreeing_sure_frames_give_a_sure_card() -> None:
    result = vote([sure(QH), sure(QH, 0.95), sure(QH, 0.99)])
    assert result.card == QH
    assert result.is_sure
    assert result.confidence >= ACCEPT_THRESHOLD
    assert (result.rank, result.suit) == (Rank.QUEEN, Suit.HEARTS)


def test_one_sure_frame_is_not_enough_to_be_sure() -> None:
    result = vote([sure(QH)])
    assert result.card == QH
    assert not result.is_sure
    assert result.confidence <= UNSURE_CAP


def test_abstaining_frames_do_not_count_against_the_card() -> None:
    result = vote([ABSTAIN, sure(QH), ABSTAIN, sure(QH)])
    assert result.card == QH
    assert result.is_sure


def test_a_sure_frame_naming_another_card_makes_the_vote_unsure() -> None:
    result = vote([sure(QH), sure(QH), sure(QH), sure(KH)])
    assert result.card == QH
    assert not result.is_sure
    assert result.confidence < ACCEPT_THRESHOLD


def test_frames_split_between_two_cards_abstain() -> None:
    result = vote([sure(QH), sure(KH), sure(QH), sure(KH)])
    assert result.card is None
    assert result.confidence == 0.0
    # They agree on the suit, so the audit still gets it.
    assert result.suit is Suit.HEARTS
    assert result.rank is None


def test_unsure_frames_stay_unsure_however_many() -> None:
    result = vote([sure(QH, 0.6)] * 6)
    assert result.card == QH
    assert not result.is_sure


def test_no_frames_or_only_abstentions_abstain() -> None:
    assert vote([]).card is None
    assert vote([ABSTAIN, ABSTAIN]).card is None


def test_rank_is_kept_when_frames_disagree_on_the_suit() -> None:
    result = vote([sure(QH), sure(QS), sure(QH), sure(QS)])
    assert result.card is None
    assert result.rank is Rank.QUEEN
