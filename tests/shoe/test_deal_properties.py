"""Properties of whole deals over random shuffles, for both variants."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from casekeeper.case import Case
from shoe.cards import Rank, shuffled_deck
from shoe.deal import Deal, Role
from shoe.events import CallWindow, DeckFinished, Hock, LastTurn, Pocket, Soda, Turn, dumps, loads
from shoe.settings import Settings, Variant

SETTINGS = [
    Settings(),
    Settings(call_the_turn=False),
    Settings(variant=Variant.STUSS),
    Settings(variant=Variant.STUSS, stuss_pocket=True),
]
deals = st.tuples(st.integers(0, 2**32 - 1), st.sampled_from(SETTINGS))


@settings(max_examples=60, deadline=None)
@given(deals)
def test_a_whole_deal_has_the_right_exposures_and_turns(seed_and_settings: tuple) -> None:
    seed, rules = seed_and_settings
    deck = shuffled_deck(seed)
    deal = Deal.from_cards(deck, rules)
    events = deal.events
    turns = [e for e in events if isinstance(e, Turn | LastTurn)]
    assert deal.is_finished and deal.flag is None
    assert len(turns) == rules.turns
    assert [t.number for t in turns] == list(range(1, rules.turns + 1))
    faro = rules.variant is Variant.FARO
    assert sum(isinstance(e, Soda) for e in events) == faro
    assert sum(isinstance(e, Hock) for e in events) == faro
    assert sum(isinstance(e, Pocket) for e in events) == rules.stuss_pocket
    assert sum(isinstance(e, CallWindow) for e in events) == (faro and rules.call_the_turn)
    played = [c for t in turns for c in (t.loser, t.winner)]
    first = 1 if faro else 0
    assert played == deck[first:first + 2 * rules.turns]
    assert events[-1] == DeckFinished(tuple(deck), deal.splits)


@settings(max_examples=60, deadline=None)
@given(deals)
def test_splits_are_exactly_the_same_rank_pairs(seed_and_settings: tuple) -> None:
    seed, rules = seed_and_settings
    deal = Deal.from_cards(shuffled_deck(seed), rules)
    turns = [e for e in deal.events if isinstance(e, Turn | LastTurn)]
    assert all(t.split == (t.loser.rank is t.winner.rank) for t in turns)
    assert deal.splits == sum(t.split for t in turns)


@settings(max_examples=60, deadline=None)
@given(deals)
def test_the_case_ends_with_four_beads_on_every_wire(seed_and_settings: tuple) -> None:
    seed, rules = seed_and_settings
    deck = shuffled_deck(seed)
    case = Case.from_events(Deal.from_cards(deck, rules).events)
    assert all(case.gone(rank) == 4 and case.is_dead(rank) for rank in Rank)
    assert [p.card for p in case.placed] == deck


@settings(max_examples=40, deadline=None)
@given(deals, st.integers(0, 52))
def test_events_round_trip_and_a_replay_reproduces_them(seed_and_settings: tuple,
                                                        cut: int) -> None:
    seed, rules = seed_and_settings
    deal = Deal.from_cards(shuffled_deck(seed)[:cut], rules)
    assert [loads(dumps(e)) for e in deal.events] == deal.events
    assert Deal.replay(deal.actions, rules).events == deal.events
    assert Deal.from_cards(deal.cards, rules).events == deal.events


@settings(max_examples=40, deadline=None)
@given(deals, st.integers(1, 52))
def test_the_case_counts_each_rank_as_it_shows(seed_and_settings: tuple, cut: int) -> None:
    seed, rules = seed_and_settings
    deck = shuffled_deck(seed)[:cut]
    deal = Deal.from_cards(deck, rules)
    case = Case.from_events(deal.events)
    # Stuss's pocketed cards stay hidden until the box is opened after the last one.
    seen = deck if cut == 52 else [c for i, c in enumerate(deck) if deal.role(i) is not Role.POCKET]
    for rank in Rank:
        assert case.gone(rank) == sum(c.rank is rank for c in seen)
