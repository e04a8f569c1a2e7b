from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shoe.cards import FULL_DECK, Rank
from shoe.events import (
    EVENT_TYPES,
    CallKind,
    CallWindow,
    CardCorrected,
    CardFlagged,
    CardWithdrawn,
    DeckFinished,
    DeckStarted,
    DeckVoided,
    FlagReason,
    Hock,
    InvalidEventError,
    LastTurn,
    Loser,
    Pocket,
    Soda,
    Turn,
    dumps,
    event_name,
    from_json,
    loads,
    to_json,
)
from shoe.settings import Variant

card = st.sampled_from(FULL_DECK)
maybe_card = st.none() | card
exposure = st.integers(0, 51)
events = st.one_of(
    st.builds(DeckStarted, st.sampled_from(Variant)),
    st.builds(Soda, card),
    st.builds(Loser, st.integers(1, 26), card),
    st.builds(Turn, st.integers(1, 26), card, card, st.booleans()),
    st.builds(CallWindow, st.lists(st.sampled_from(Rank), min_size=3, max_size=3).map(tuple),
              st.sampled_from(CallKind), st.sampled_from([1, 3, 6]),
              st.none() | st.tuples(st.integers(1, 9), st.integers(1, 9))),
    st.builds(LastTurn, st.just(25), card, card, st.booleans()),
    st.builds(Hock, card),
    st.builds(Pocket, st.lists(card, min_size=4, max_size=4).map(tuple)),
    st.builds(DeckFinished, st.lists(maybe_card, min_size=52, max_size=52).map(tuple),
              st.integers(0, 26)),
    st.builds(CardFlagged, exposure, maybe_card, st.sampled_from(FlagReason),
              st.none() | exposure),
    st.builds(CardCorrected, exposure, card, maybe_card),
    st.builds(CardWithdrawn, exposure, maybe_card, st.booleans()),
    st.builds(DeckVoided, exposure),
)


@given(events)
def test_every_event_round_trips_through_json(event: object) -> None:
    line = dumps(event)  # type: ignore[arg-type]
    assert "\n" not in line
    assert loads(line) == event
    assert json.loads(line)["event"] == event_name(event)  # type: ignore[arg-type]


def test_every_event_type_has_a_json_name() -> None:
    assert set(EVENT_TYPES) == {
        "deck_started", "soda", "loser", "turn", "call_window", "last_turn", "hock", "pocket",
        "deck_finished", "card_flagged", "card_corrected", "card_withdrawn", "deck_voided"}


def test_json_form_uses_card_codes_and_plain_values() -> None:
    window = CallWindow((Rank.FIVE, Rank.FIVE, Rank.KING), CallKind.CAT_HOP, 3, (2, 1))
    assert to_json(window) == {"event": "call_window", "ranks": ["5", "5", "K"],
                               "kind": "cat_hop", "orders": 3, "pays": [2, 1]}


@pytest.mark.parametrize("line", [
    "not json", "[]", '{"event": "bet"}', '{"event": "soda"}', '{"event": "soda", "card": "ZZ"}',
    '{"event": "turn", "number": "3", "loser": "AS", "winner": "2S", "split": false}',
])
def test_bad_json_is_an_invalid_event_error(line: str) -> None:
    with pytest.raises(InvalidEventError):
        loads(line)


def test_from_json_rejects_a_missing_field() -> None:
    with pytest.raises(InvalidEventError, match="missing 'winner'"):
        from_json({"event": "turn", "number": 1, "loser": "AS", "split": False})
