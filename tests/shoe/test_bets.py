"""Bet settlement: one test per rule in FARO_RULES.md "Bets", on turns dealt by the engine."""

from __future__ import annotations

import contextlib
import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shoe.bets import (
    GRAND_SQUARE,
    JACK_SQUARE,
    POT,
    Bet,
    InvalidBetError,
    LimitExceededError,
    Limits,
    Multi,
    Outcome,
    Result,
    SettlementError,
    Shape,
    dead_ranks,
    forfeit,
    is_sleeper,
    parlee,
    pay_broken_bank,
    settle,
    shape_of,
)
from shoe.cards import FULL_DECK, Card, FaroError, Rank
from shoe.deal import Deal
from shoe.events import CallKind, CallWindow, LastTurn, Pocket, Turn
from shoe.settings import MixedOutcome, OddUnit, Settings, SplitRule, Variant

R = Rank.parse
STUSS = Settings(variant=Variant.STUSS)


def turn(loser: str, winner: str, settings: Settings | None = None) -> Turn:
    """The first turn the deal engine gives for this loser and winner."""
    cards = [Card.parse(loser), Card.parse(winner)]
    deal = Deal(settings)
    if deal.settings.variant is Variant.FARO:  # a soda first, of a rank not in play here
        deal.expose(next(c for c in FULL_DECK if c.rank not in {x.rank for x in cards}))
    deal.expose(cards[0])
    (dealt,) = [e for e in deal.expose(cards[1]) if isinstance(e, Turn)]
    return dealt


def called(loser: str, winner: str, hock: str, **options: object) -> tuple[CallWindow, LastTurn]:
    """A whole faro deal ending with these three cards: its call window and last turn."""
    last = [Card.parse(code) for code in (loser, winner, hock)]
    deck = [c for c in FULL_DECK if c not in last] + last
    deal = Deal.from_cards(deck, Settings(**options))  # type: ignore[arg-type]
    assert deal.is_finished
    (window,) = [e for e in deal.events if isinstance(e, CallWindow)]
    (last_turn,) = [e for e in deal.events if isinstance(e, LastTurn)]
    return window, last_turn


def deal_turns(deck: list[Card], settings: Settings | None = None) -> list[Turn | LastTurn]:
    deal = Deal.from_cards(deck, settings)
    return [e for e in deal.events if isinstance(e, Turn | LastTurn)]


def legal_multis() -> list[Multi]:
    """Every multi-card bet the layout takes, found by trying every set of 2 to 4 ranks."""
    legal = []
    for size in (2, 3, 4):
        for ranks in itertools.combinations(Rank, size):
            with contextlib.suppress(InvalidBetError):
                legal.append(Multi.of(ranks))
    return legal


# -- the layout's shapes ----------------------------------------------------------------------


@pytest.mark.parametrize("text", ["5-6", "9-10", "A-2", "Q-K", "6-7", "7-8"])
def test_ranks_side_by_side_make_a_pair(text: str) -> None:
    assert Multi.parse(text).shape is Shape.PAIR


@pytest.mark.parametrize("text", ["5-9", "A-K", "2-Q", "3-J", "4-10", "6-8"])
def test_facing_ranks_make_a_bet_across_the_rows(text: str) -> None:
    assert Multi.parse(text).shape is Shape.ACROSS


def test_pot_is_six_seven_eight_in_any_order() -> None:
    assert Multi.parse("8-6-7") == POT
    assert POT.shape is Shape.POT


def test_jack_and_grand_squares_are_squares() -> None:
    assert JACK_SQUARE.ranks == (R("3"), R("4"), R("10"), R("J"))
    assert GRAND_SQUARE.ranks == (R("A"), R("2"), R("Q"), R("K"))
    assert JACK_SQUARE.shape is GRAND_SQUARE.shape is Shape.SQUARE


@pytest.mark.parametrize("column", range(5))
def test_every_two_by_two_block_is_a_square(column: int) -> None:
    top = [Rank(column + 1), Rank(column + 2)]
    bottom = [Rank(13 - column), Rank(12 - column)]
    assert shape_of(top + bottom) is Shape.SQUARE


@pytest.mark.parametrize("text", ["5-7", "7-9", "8-10", "J-K", "A-3"])
def test_corner_bets_skip_one_card_along_the_flow(text: str) -> None:
    assert Multi.parse(text).shape is Shape.CORNER


@pytest.mark.parametrize("text", ["5-8", "6-9", "A-Q", "2-K"])
def test_diagonals_of_a_block_are_legal(text: str) -> None:
    assert Multi.parse(text).shape is Shape.DIAGONAL


@pytest.mark.parametrize(
    "text", ["A-6", "A-4", "3-7", "7-10", "2-3-4", "5-7-9", "6-7-8-9", "4-5-8-9", "A-2-3-4", "5-5"]
)
def test_shape_off_the_layout_is_rejected_quoting_it(text: str) -> None:
    with pytest.raises(InvalidBetError, match=repr(text).replace("-", r"\-")):
        Multi.parse(text)


@pytest.mark.parametrize("text", ["5", "5-X", "", "5-6-"])
def test_text_that_is_not_ranks_is_rejected_quoting_it(text: str) -> None:
    with pytest.raises(InvalidBetError, match=repr(text)):
        Multi.parse(text)


def test_invalid_bet_error_is_a_faro_error_and_a_value_error() -> None:
    assert issubclass(InvalidBetError, FaroError)
    assert issubclass(InvalidBetError, ValueError)


def test_neighbours_in_rank_order_are_neighbours_on_the_board() -> None:
    # the board's flow runs A..6 along the top, round the 7, and 8..K back along the bottom
    for low in list(Rank)[:-1]:
        assert shape_of([low, Rank(low + 1)]) is Shape.PAIR


def test_thirty_eight_two_rank_bets_are_legal() -> None:
    # 12 neighbours in rank order + 6 facing pairs + 2 diagonals in each of 5 blocks
    # + 11 pairs one apart, less 6-8 already counted as facing = 12 + 6 + 10 + 10
    assert len([m for m in legal_multis() if len(m.ranks) == 2]) == 38


def test_the_pot_and_the_five_squares_are_the_only_bigger_bets() -> None:
    bigger = [m for m in legal_multis() if len(m.ranks) > 2]
    assert bigger.count(POT) == 1
    assert sorted(m.shape.value for m in bigger) == ["pot"] + ["square"] * 5


def test_multi_card_bet_repr_parses_back_for_every_legal_shape() -> None:
    for bet in legal_multis():
        assert eval(repr(bet)) == bet
        assert Multi.parse(bet.code) == bet


# -- flat bets, coppers, splits ----------------------------------------------------------------


def test_flat_bet_on_the_winner_wins_even_money() -> None:
    assert settle(Bet.flat(R("9"), 7), turn("5H", "9S")) == Outcome(Result.WIN, 7)


def test_flat_bet_on_the_loser_loses_the_stake() -> None:
    outcome = settle(Bet.flat(R("5"), 7), turn("5H", "9S"))
    assert outcome == Outcome(Result.LOSE, 7)
    assert outcome.net == -7


def test_flat_bet_stands_when_its_rank_does_not_show() -> None:
    outcome = settle(Bet.flat(R("K"), 7), turn("5H", "9S"))
    assert outcome.result is Result.NO_ACTION
    assert not outcome.is_settled


def test_copper_wins_on_the_loser_and_loses_on_the_winner() -> None:
    dealt = turn("5H", "9S")
    assert settle(Bet.flat(R("5"), 4, coppered=True), dealt) == Outcome(Result.WIN, 4)
    assert settle(Bet.flat(R("9"), 4, coppered=True), dealt) == Outcome(Result.LOSE, 4)


def test_split_takes_half_of_an_even_stake() -> None:
    dealt = turn("QH", "QS")
    assert dealt.split
    assert settle(Bet.flat(R("Q"), 10), dealt) == Outcome(Result.SPLIT, 5)


def test_split_takes_half_of_odd_stake_to_dealer() -> None:
    assert settle(Bet.flat(R("Q"), 5), turn("QH", "QS")) == Outcome(Result.SPLIT, 3)


def test_split_leaves_the_odd_unit_to_the_player_when_set() -> None:
    settings = Settings(odd_unit_on_split=OddUnit.PLAYER)
    assert settle(Bet.flat(R("Q"), 5), turn("QH", "QS"), settings) == Outcome(Result.SPLIT, 2)


def test_copper_does_not_change_a_split() -> None:
    dealt = turn("QH", "QS")
    plain = settle(Bet.flat(R("Q"), 9), dealt)
    assert settle(Bet.flat(R("Q"), 9, coppered=True), dealt) == plain == Outcome(Result.SPLIT, 5)


def test_stuss_dealer_takes_the_whole_split() -> None:
    dealt = turn("QH", "QS", STUSS)
    assert dealt.number == 1
    assert settle(Bet.flat(R("Q"), 9), dealt, STUSS) == Outcome(Result.SPLIT, 9)


# -- multi-card bets ---------------------------------------------------------------------------


def test_multi_card_bet_wins_the_whole_stake_on_a_covered_winner() -> None:
    assert settle(Bet.multi("5-6", 8), turn("KH", "6S")) == Outcome(Result.WIN, 8)
    assert settle(Bet.multi("5-6", 8), turn("5H", "KS")) == Outcome(Result.LOSE, 8)


def test_coppered_multi_card_bet_wins_on_a_covered_loser() -> None:
    assert settle(Bet.multi("6-7-8", 8, coppered=True), turn("7H", "KS")) == Outcome(Result.WIN, 8)


def test_multi_card_bet_settles_the_first_time_a_covered_rank_shows() -> None:
    deck = list(FULL_DECK)
    random.Random(7).shuffle(deck)
    bet = Bet.multi(JACK_SQUARE.code, 10)
    outcomes = [settle(bet, t) for t in deal_turns(deck)]
    first = next(i for i, o in enumerate(outcomes) if o.is_settled)
    touched = [i for i, t in enumerate(deal_turns(deck))
               if {t.loser.rank, t.winner.rank} & set(JACK_SQUARE.ranks)]
    assert first == touched[0]
    assert all(o.result is Result.NO_ACTION for o in outcomes[:first])


def test_multi_card_bet_with_a_covered_winner_and_loser_pushes_by_default() -> None:
    dealt = turn("3H", "JS")
    assert settle(Bet.multi("3-4-10-J", 6), dealt) == Outcome(Result.PUSH, 0)
    assert settle(Bet.multi("3-4-10-J", 6, coppered=True), dealt).result is Result.PUSH


def test_multi_card_bet_with_a_covered_winner_and_loser_goes_to_the_bank_when_set() -> None:
    settings = Settings(mixed_multi_card=MixedOutcome.BANK)
    assert settle(Bet.multi("3-4-10-J", 6), turn("3H", "JS"), settings) == Outcome(Result.LOSE, 6)


def test_multi_card_bet_on_a_split_rank_is_split() -> None:
    assert settle(Bet.multi("5-6", 7), turn("6H", "6S")) == Outcome(Result.SPLIT, 4)


# -- the bars: high card, even/odd -------------------------------------------------------------


def test_high_card_wins_when_the_winner_outranks_the_loser() -> None:
    assert settle(Bet.high_card(5), turn("5H", "KS")) == Outcome(Result.WIN, 5)
    assert settle(Bet.high_card(5), turn("KH", "5S")) == Outcome(Result.LOSE, 5)


def test_coppered_high_card_wins_when_the_loser_outranks_the_winner() -> None:
    assert settle(Bet.high_card(5, coppered=True), turn("KH", "5S")) == Outcome(Result.WIN, 5)
    assert settle(Bet.high_card(5, coppered=True), turn("5H", "KS")) == Outcome(Result.LOSE, 5)


def test_high_card_on_a_split_gives_the_bank_half_even_in_stuss() -> None:
    assert settle(Bet.high_card(5), turn("9H", "9S")) == Outcome(Result.SPLIT, 3)
    assert settle(Bet.high_card(6, coppered=True), turn("9H", "9S")) == Outcome(Result.SPLIT, 3)
    assert settle(Bet.high_card(6), turn("9H", "9S", STUSS), STUSS) == Outcome(Result.SPLIT, 3)


def test_high_card_on_a_split_pushes_when_set() -> None:
    settings = Settings(high_card_on_split=SplitRule.PUSH)
    assert settle(Bet.high_card(5), turn("9H", "9S"), settings) == Outcome(Result.PUSH, 0)


@pytest.mark.parametrize(
    ("winner", "even_wins"),
    [("AS", False), ("2S", True), ("7S", False), ("QS", True), ("KS", False)],
)
def test_even_odd_settles_on_the_winners_rank(winner: str, even_wins: bool) -> None:
    loser = "3H" if winner[0] != "3" else "4H"
    dealt = turn(loser, winner)
    assert settle(Bet.even(4), dealt).result is (Result.WIN if even_wins else Result.LOSE)
    assert settle(Bet.odd(4), dealt).result is (Result.LOSE if even_wins else Result.WIN)


def test_even_odd_cannot_be_coppered() -> None:
    with pytest.raises(InvalidBetError):
        Bet(Bet.even(2).on, 2, coppered=True)


# -- calling the turn --------------------------------------------------------------------------


def test_calling_the_turn_pays_four_to_one_on_the_exact_order() -> None:
    window, last = called("3H", "8S", "KD")
    assert window.kind is CallKind.PLAIN
    bet = Bet.call(window, [R("3"), R("8"), R("K")], 5)
    assert settle(bet, last) == Outcome(Result.WIN, 20)
    wrong = Bet.call(window, [R("8"), R("3"), R("K")], 5)
    assert settle(wrong, last) == Outcome(Result.LOSE, 5)


def test_a_call_may_be_written_as_text() -> None:
    window, _ = called("3H", "8S", "KD")
    assert Bet.call(window, "3-8-k", 5) == Bet.call(window, [R("3"), R("8"), R("K")], 5)
    with pytest.raises(InvalidBetError, match="'3-8-X'"):
        Bet.call(window, "3-8-X", 5)


def test_calling_the_turn_pays_the_literal_hoyle_odds_when_set() -> None:
    window, last = called("3H", "8S", "KD", call_pays=(3, 1))
    assert settle(Bet.call(window, [R("3"), R("8"), R("K")], 5), last) == Outcome(Result.WIN, 15)


def test_cat_hop_pays_two_to_one_on_the_exact_order() -> None:
    window, last = called("8H", "3S", "8D")
    assert window.kind is CallKind.CAT_HOP
    assert settle(Bet.call(window, [R("8"), R("3"), R("8")], 6), last) == Outcome(Result.WIN, 12)
    assert settle(Bet.call(window, [R("8"), R("8"), R("3")], 6), last) == Outcome(Result.LOSE, 6)


def test_no_call_is_taken_on_three_of_a_kind() -> None:
    window, _ = called("8H", "8S", "8D")
    with pytest.raises(InvalidBetError, match="three of a kind"):
        Bet.call(window, [R("8")] * 3, 5)


def test_a_call_must_be_an_order_of_the_last_three_ranks() -> None:
    window, _ = called("3H", "8S", "KD")
    with pytest.raises(InvalidBetError, match="'3-8-Q'"):
        Bet.call(window, [R("3"), R("8"), R("Q")], 5)


def test_a_call_does_not_settle_on_an_ordinary_turn() -> None:
    window, _ = called("3H", "8S", "KD")
    with pytest.raises(SettlementError):
        settle(Bet.call(window, [R("3"), R("8"), R("K")], 5), turn("3C", "8C"))


def test_ordinary_bets_settle_on_the_called_last_turn() -> None:
    _, last = called("3H", "8S", "KD")
    assert settle(Bet.flat(R("8"), 5), last) == Outcome(Result.WIN, 5)


# -- sleepers and the end of the deal ----------------------------------------------------------


def test_a_bet_on_a_dead_rank_is_a_forfeit_sleeper() -> None:
    deck = [c for c in FULL_DECK if c.rank is Rank.FIVE] + [
        c for c in FULL_DECK if c.rank is not Rank.FIVE]
    deal = Deal.from_cards(deck[:10])
    dead = dead_ranks(deal.cards)
    assert dead == {Rank.FIVE}
    bet = Bet.flat(Rank.FIVE, 6)
    assert is_sleeper(bet, dead)
    assert forfeit(bet) == Outcome(Result.FORFEIT, 6)
    assert not is_sleeper(Bet.flat(Rank.SIX, 6), dead)


def test_a_multi_card_bet_with_a_live_rank_is_no_sleeper() -> None:
    assert not is_sleeper(Bet.multi("5-6", 2), {Rank.FIVE})
    assert is_sleeper(Bet.multi("5-6", 2), {Rank.FIVE, Rank.SIX})
    assert not is_sleeper(Bet.high_card(2), set(Rank))


def test_stuss_bets_on_the_pocketed_ranks_go_to_the_house() -> None:
    settings = Settings(variant=Variant.STUSS, stuss_pocket=True)
    kings = [c for c in FULL_DECK if c.rank is Rank.KING]
    deal = Deal.from_cards([c for c in FULL_DECK if c.rank is not Rank.KING] + kings, settings)
    (pocket,) = [e for e in deal.events if isinstance(e, Pocket)]
    assert {c.rank for c in pocket.cards} == {Rank.KING}
    bet = Bet.flat(Rank.KING, 6)
    turns = [e for e in deal.events if isinstance(e, Turn)]
    assert len(turns) == 24
    assert all(settle(bet, t, settings).result is Result.NO_ACTION for t in turns)
    assert forfeit(bet) == Outcome(Result.FORFEIT, 6)


def test_a_bet_left_after_the_last_card_belongs_to_the_house() -> None:
    bet = Bet.flat(Rank.KING, 4, coppered=True).half()
    assert forfeit(bet) == Outcome(Result.FORFEIT, 4)  # the whole stake, half goes or not
    assert forfeit(bet).net == -4


# -- barring, half goes, limits, a broken bank -------------------------------------------------


def test_a_barred_bet_takes_no_action_until_it_goes() -> None:
    bet = Bet.flat(R("9"), 3).bar()
    assert settle(bet, turn("5H", "9S")).result is Result.NO_ACTION
    assert settle(bet.goes(), turn("5H", "9S")) == Outcome(Result.WIN, 3)


def test_half_goes_risks_half_the_stake_until_revoked() -> None:
    bet = Bet.flat(R("9"), 10).half()
    assert settle(bet, turn("5H", "9S")) == Outcome(Result.WIN, 5)
    assert settle(bet, turn("9H", "5S")) == Outcome(Result.LOSE, 5)
    assert settle(bet, turn("9H", "9S")) == Outcome(Result.SPLIT, 3)
    assert settle(bet.half(False), turn("5H", "9S")) == Outcome(Result.WIN, 10)


def test_half_goes_needs_an_even_stake() -> None:
    with pytest.raises(InvalidBetError, match="even stake"):
        Bet.flat(R("9"), 5).half()


@pytest.mark.parametrize("stake", [0, -3, 2.5, True, "5"])
def test_a_stake_must_be_a_positive_whole_number(stake: object) -> None:
    with pytest.raises(InvalidBetError, match=repr(stake)):
        Bet.flat(R("9"), stake)  # type: ignore[arg-type]


def test_plain_limit_holds_per_initial_bet() -> None:
    limits = Limits(25)
    limits.check(Bet.flat(R("9"), 25))
    with pytest.raises(LimitExceededError, match="plain limit of 25"):
        limits.check(Bet.flat(R("9"), 26))


def test_running_limit_is_four_times_the_plain_for_a_parlee() -> None:
    limits = Limits(25)
    assert limits.running == 100
    bet = Bet.flat(R("9"), 25)
    once = parlee(bet, settle(bet, turn("5H", "9S")), limits)
    assert once.stake == 50
    twice = parlee(once, settle(once, turn("5D", "9D")), limits)
    assert twice.stake == 100
    with pytest.raises(LimitExceededError, match="running limit of 100"):
        parlee(twice, settle(twice, turn("5C", "9C")), limits)


def test_only_a_won_bet_can_ride() -> None:
    bet = Bet.flat(R("5"), 5)
    with pytest.raises(InvalidBetError):
        parlee(bet, settle(bet, turn("5H", "9S")), Limits(25))


def test_broken_bank_pays_coppered_bets_first_then_the_largest() -> None:
    owed = [
        (Bet.flat(R("9"), 10), 10),
        (Bet.flat(R("9"), 30), 30),
        (Bet.flat(R("5"), 5, coppered=True), 5),
        (Bet.flat(R("9"), 20), 20),
    ]
    assert pay_broken_bank(owed, 45) == (0, 30, 5, 10)
    assert pay_broken_bank(owed, 100) == (10, 30, 5, 20)
    assert pay_broken_bank(owed, 0) == (0, 0, 0, 0)


# -- properties over whole deals ----------------------------------------------------------------

stakes = st.integers(min_value=1, max_value=10**6)
decks = st.permutations(FULL_DECK)
variants = st.sampled_from([Settings(), STUSS, Settings(odd_unit_on_split=OddUnit.PLAYER)])


@given(decks, variants, stakes)
def test_flat_bet_and_its_copper_are_opposite_except_on_splits(
    deck: list[Card], settings: Settings, stake: int
) -> None:
    for dealt in deal_turns(deck, settings):
        for rank in Rank:
            plain = settle(Bet.flat(rank, stake), dealt, settings)
            copper = settle(Bet.flat(rank, stake, coppered=True), dealt, settings)
            if dealt.split and rank is dealt.winner.rank:
                assert plain == copper
            else:
                assert plain.net == -copper.net
                assert plain.is_settled == copper.is_settled


@given(variants, stakes, st.booleans())
def test_bank_take_on_a_split_never_exceeds_the_stake(
    settings: Settings, stake: int, coppered: bool
) -> None:
    dealt = turn("JH", "JS", settings)
    outcome = settle(Bet.flat(Rank.JACK, stake, coppered=coppered), dealt, settings)
    assert outcome.result is Result.SPLIT
    assert stake * settings.split_share - 1 < outcome.amount <= stake


@given(decks, stakes, st.sampled_from(legal_multis()), st.booleans())
def test_multi_card_bet_rides_whole_stake_on_each_covered_rank(
    deck: list[Card], stake: int, multi: Multi, coppered: bool
) -> None:
    bet = Bet(multi, stake, coppered)
    for dealt in deal_turns(deck):
        shown = {dealt.loser.rank, dealt.winner.rank} & set(multi.ranks)
        outcome = settle(bet, dealt)
        if not shown:
            assert outcome.result is Result.NO_ACTION
        elif len(shown) == 1:  # as if the whole stake were a flat bet on that rank
            (rank,) = shown
            assert outcome == settle(Bet.flat(rank, stake, coppered=coppered), dealt)
        else:
            assert outcome == Outcome(Result.PUSH, 0)


@given(
    st.lists(st.tuples(stakes, st.booleans(), st.integers(0, 10**6)), max_size=12),
    st.integers(0, 10**7),
)
def test_broken_bank_pays_no_more_than_it_holds_and_coppers_first(
    claims: list[tuple[int, bool, int]], bank: int
) -> None:
    owed = [(Bet.flat(Rank.NINE, stake, coppered=c), amount) for stake, c, amount in claims]
    paid = pay_broken_bank(owed, bank)
    assert sum(paid) == min(bank, sum(amount for _, amount in owed))
    assert all(0 <= p <= amount for p, (_, amount) in zip(paid, owed, strict=True))
    copper_short = any(p < a for p, (b, a) in zip(paid, owed, strict=True) if b.coppered)
    if copper_short:
        assert all(p == 0 for p, (b, _) in zip(paid, owed, strict=True) if not b.coppered)


@given(decks, stakes)
def test_flat_bet_stands_untouched_until_its_rank_comes_in_a_turn(
    deck: list[Card], stake: int
) -> None:
    turns = deal_turns(deck)
    for rank in Rank:
        bet = Bet.flat(rank, stake)
        outcomes = [settle(bet, t) for t in turns]
        shows = [rank in (t.loser.rank, t.winner.rank) for t in turns]
        assert [o.is_settled for o in outcomes] == shows
        first = next((i for i, s in enumerate(shows) if s), None)
        if first is not None:
            t = turns[first]
            expected = (Result.SPLIT if t.split
                        else Result.WIN if t.winner.rank is rank else Result.LOSE)
            assert outcomes[first].result is expected


def test_bet_rules_import_only_the_pure_modules() -> None:
    import ast
    from pathlib import Path

    import shoe.bets
    import shoe.layout

    allowed = {"shoe.cards", "shoe.settings", "shoe.events", "shoe.layout"}
    for module in (shoe.bets, shoe.layout):
        tree = ast.parse(Path(str(module.__file__)).read_text())
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        ours = {name for name in imported if name and name.split(".")[0] == "shoe"}
        assert ours <= allowed, module.__name__
        assert not imported & {"cv2", "serial", "gpiozero", "numpy", "os", "io", "pathlib"}
