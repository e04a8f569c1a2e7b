"""The middle's pip count as a witness to the rank of an ace or a number card (vision.pipcount)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from importlib import resources
from pathlib import Path

import cv2
import numpy as np
import pytest
from pytest_mock import MockerFixture

from shoe.cards import Card, Rank, Suit
from vision.courtcards import weigh_counter, weigh_picture
from vision.crosscheck import Middle, look_at_middle
from vision.indexnet import RANK_CLASSES
from vision.indices import find_indices, rank_encloses_counter
from vision.locate import locate
from vision.pipcount import (
    FLOOR,
    HIDDEN,
    NO_COUNT,
    PipCounts,
    centre_column_only,
    layout_places,
    pip_key,
    pip_places,
)
from vision.quad import CARD_H, CARD_W, straighten
from vision.reader import CornerReader
from vision.reading import ACCEPT_THRESHOLD, ModelError
from vision.simulator import SceneParams
from vision.stills import render_frame

from straightened import flat_card

NUMBERS = [r for r in Rank if Rank.TWO <= r <= Rank.TEN]


@pytest.fixture(scope="module")
def counts() -> PipCounts:
    return PipCounts.load()


def _indexed_as(faces: dict[Card, np.ndarray], code: str, other: str) -> np.ndarray:
    """The card ``code`` straightened, with the index corners of ``other``."""
    card, index = flat_card(faces, code), flat_card(faces, other)
    w, h = round(0.2 * CARD_W), round(0.3 * CARD_H)
    card[:h, :w] = index[:h, :w]
    card[CARD_H - h:, CARD_W - w:] = index[CARD_H - h:, CARD_W - w:]
    return card


def _shares(shares: dict[Rank | None, float]) -> np.ndarray:
    """Rank probabilities as given, "no index" (None) among them; the rest nought."""
    p = np.zeros(len(RANK_CLASSES))
    for rank, share in shares.items():
        p[RANK_CLASSES.index(rank)] = share
    return p


def _torn(*ranks: Rank) -> np.ndarray:
    """Rank probabilities shared evenly by ``ranks``, none on "no index"."""
    return _shares(dict.fromkeys(ranks, 1.0 / len(ranks)))


def test_the_measured_table_counts_each_rank_likeliest_as_itself() -> None:
    doc = json.loads((resources.files("vision") / "data" / "pip_counts.json").read_text())
    for rank, row in doc["counts"].items():
        likeliest = max(row, key=row.get)
        assert likeliest == ("1?" if rank == "1" else rank), rank  # "of one size" needs two


def test_under_a_thumb_a_few_pips_fewer_are_no_evidence_against_a_rank(
        counts: PipCounts) -> None:
    """A thumb may hide pips: a count under it weighs only against ranks with fewer, or
    with more than a thumb hides."""
    for key, column in counts.thumbed.items():
        if key == NO_COUNT:
            continue
        seen = int(key.rstrip("?"))
        for rank in NUMBERS:
            if seen < rank <= seen + HIDDEN:
                assert column[rank - 1] >= column[seen - 1], (key, rank)
    assert counts.thumbed["2"][Rank.SEVEN - 1] < 0.1 * counts.thumbed["2"][Rank.TWO - 1]
    # Court cards were not measured: no count tells them apart.
    for table in (counts.likelihood, counts.thumbed):
        for column in table.values():
            assert np.all(column[Rank.JACK - 1:] == FLOOR)


def test_with_no_thumb_over_the_pips_three_fewer_weigh_against_a_rank(
        dev_deck: dict[Card, np.ndarray], counts: PipCounts) -> None:
    """Four pips in a 4's places in plain view: a 7 would have three hidden where nothing
    hides them (an index printed upright in the lower corner read upside down as 7)."""
    middle = look_at_middle(flat_card(dev_deck, "4D"))
    assert not middle.thumbed
    weighed = counts.weigh(_torn(Rank.FOUR, Rank.SEVEN), middle)
    assert RANK_CLASSES[int(weighed.argmax())] == Rank.FOUR
    assert weighed.max() >= ACCEPT_THRESHOLD
    thumbed = counts.weigh(_torn(Rank.FOUR, Rank.SEVEN), replace(middle, thumbed=True))
    assert thumbed.max() < ACCEPT_THRESHOLD


def test_the_measured_places_are_the_usual_layouts(counts: PipCounts) -> None:
    """A side pip at mid-height only on a 6, 7 or 8, one between the middle and an end only
    on an 8 (four rows a side on some decks), 9 or 10; one at the end of the centre column
    on a 2, a 3, or a 7 that puts its odd pip there (neoclassical, a dev deck); one at the
    centre on an ace or an odd number, never an even one; one high in the centre column
    never on a 4, a 5 or a 6, and on a 9 (bellot's, either way up)."""
    fitting = {place: {Rank(i + 1) for i in np.flatnonzero(fits)}
               for place, fits in counts.fits.items()}
    assert fitting["side-middle"] == {Rank.SIX, Rank.SEVEN, Rank.EIGHT}
    assert fitting["side-between"] == {Rank.EIGHT, Rank.NINE, Rank.TEN}
    assert fitting["centre-end"] == {Rank.TWO, Rank.THREE, Rank.SEVEN}
    assert fitting["centre-middle"] >= {Rank.ACE, Rank.THREE, Rank.FIVE, Rank.NINE}
    assert not fitting["centre-middle"] & {Rank.TWO, Rank.FOUR, Rank.SIX, Rank.EIGHT, Rank.TEN}
    assert fitting["side-end"] == set(NUMBERS) - {Rank.TWO, Rank.THREE}
    assert not fitting["centre-upper"] & {Rank.FOUR, Rank.FIVE, Rank.SIX}
    assert fitting["centre-upper"] >= {Rank.TWO, Rank.THREE, Rank.EIGHT, Rank.NINE, Rank.TEN}


@pytest.mark.parametrize(("code", "places"), [
    ("3C", {"centre-middle", "centre-end", "centre-upper"}), ("4D", {"side-end", "side-upper"}),
    ("6H", {"side-middle", "side-end", "side-upper"}),
    ("9S", {"centre-middle", "side-between", "side-end", "side-upper"}), ("KS", set())])
def test_the_pips_places_on_the_card(dev_deck: dict[Card, np.ndarray], code: str,
                                     places: set[str]) -> None:
    assert pip_places(look_at_middle(flat_card(dev_deck, code))) == places


def test_a_layout_high_one_way_up_fits_either_way(
        deck_faces: Callable[..., dict[Card, np.ndarray]], counts: PipCounts) -> None:
    """bellot's 9 prints its centre pip high: dealt upside down, it shows none there. The
    table is fitted on the layout either way up, so the 9 fits such a pip, and the layout
    fits its 9 whichever way up it lies."""
    nine = flat_card(deck_faces("bellot", 350), "9S")
    upright, turned = look_at_middle(nine), look_at_middle(cv2.rotate(nine, cv2.ROTATE_180))
    assert "centre-upper" in pip_places(upright) and "centre-upper" not in pip_places(turned)
    assert layout_places(upright) == layout_places(turned) == pip_places(upright)
    assert counts.layout_fits(Rank.NINE, upright) and counts.layout_fits(Rank.NINE, turned)


@pytest.mark.parametrize(("code", "rival"), [("9S", Rank.SIX), ("8C", Rank.THREE),
                                             ("7D", Rank.FOUR), ("6H", Rank.FIVE),
                                             ("6D", Rank.NINE), ("3C", Rank.EIGHT),
                                             ("5S", Rank.SIX), ("2D", Rank.SEVEN),
                                             ("5H", Rank.NINE)])
def test_the_pips_settle_an_index_torn_between_two_ranks(
        dev_deck: dict[Card, np.ndarray], counts: PipCounts, code: str, rival: Rank) -> None:
    card = Card.parse(code)
    weighed = counts.weigh(_torn(card.rank, rival), look_at_middle(flat_card(dev_deck, code)))
    assert RANK_CLASSES[int(weighed.argmax())] == card.rank
    assert weighed.max() >= ACCEPT_THRESHOLD
    assert weighed.sum() == pytest.approx(1.0)


def test_a_pip_under_the_thumb_makes_no_lower_rank_sure(
        dev_deck: dict[Card, np.ndarray], counts: PipCounts) -> None:
    card = flat_card(dev_deck, "3C")
    # The dealer's thumb over the lowest pip: skin, which the middle does not take for ink.
    cv2.ellipse(card, (CARD_W // 2, round(0.8 * CARD_H)), (26, 40), 0, 0, 360,
                (150, 180, 225), -1)
    middle = look_at_middle(card)
    assert middle.blobs == 2
    weighed = counts.weigh(_torn(Rank.TWO, Rank.THREE), middle)
    assert weighed.max() < ACCEPT_THRESHOLD
    # The two pips left stand off the card's middle up and down: only the column of the
    # higher one, clear of the thumb, counts.
    assert pip_places(middle) == {"centre-upper"}


def test_a_pip_washed_out_with_no_thumb_near_makes_no_lower_rank_sure(
        dev_deck: dict[Card, np.ndarray], counts: PipCounts) -> None:
    """Glare washed out a shaken kde-standard 3S's top pip, no thumb near it; the index
    leaned to 2, and the count of the two pips left made a 2S of it at 0.92 (`--beyond
    shake`). Those two stand off the card's middle up and down: pips are missing."""
    index = _shares({Rank.TWO: 0.65, Rank.THREE: 0.2, Rank.SEVEN: 0.15})
    card = flat_card(dev_deck, "3C")
    top = min(y for _, y in look_at_middle(card).places)
    cv2.ellipse(card, (CARD_W // 2, round(top * CARD_H)), (26, 30), 0, 0, 360,
                (255, 255, 255), -1)
    middle = look_at_middle(card)
    assert middle.blobs == 2 and not middle.thumbed
    assert counts.weigh(index, middle).max() < ACCEPT_THRESHOLD
    # A 2's own two pips stand about the middle: they are all its pips, and weigh.
    two = counts.weigh(index, look_at_middle(flat_card(dev_deck, "2C")))
    assert RANK_CLASSES[int(two.argmax())] == Rank.TWO and two.max() >= ACCEPT_THRESHOLD


def _under_thumbs(card: np.ndarray, *centres: tuple[float, float]) -> np.ndarray:
    """The card with skin (which the middle does not take for ink) over these places."""
    for x, y in centres:
        cv2.ellipse(card, (round(x * CARD_W), round(y * CARD_H)), (22, 26), 0, 0, 360,
                    (150, 180, 225), -1)
    return card


def test_a_nine_with_two_pips_under_the_thumb_is_no_six(
        dev_deck: dict[Card, np.ndarray], counts: PipCounts) -> None:
    """Seven pips are as many as a 6 has and more; the inner rows of the side column
    the thumb leaves say 9, as kde-ancient-egyptians' turned index could not."""
    middle = look_at_middle(_under_thumbs(flat_card(dev_deck, "9C"), (0.3, 0.4), (0.3, 0.6)))
    assert middle.blobs == 7 and "side-between" in pip_places(middle)
    weighed = counts.weigh(_torn(Rank.SIX, Rank.NINE), middle)
    assert RANK_CLASSES[int(weighed.argmax())] == Rank.NINE
    assert weighed.max() >= ACCEPT_THRESHOLD


def test_the_places_of_blobs_weigh_no_court_rank_the_index_leans_to_down(
        dev_deck: dict[Card, np.ndarray], counts: PipCounts) -> None:
    """A pale picture blurred may break into blobs of pip size where a 9's pips stand
    (orell's QH past RIG.md's blur range, read as 9H at 0.93 where both corners said Q at
    0.70). Here a 9 with its centre pip washed out, eight side pips left: the places weigh
    down the numbers that put no pip there, and a court rank only where the index leans to
    a number."""
    card = flat_card(dev_deck, "9C")
    cv2.ellipse(card, (CARD_W // 2, CARD_H // 2), (26, 30), 0, 0, 360, (255, 255, 255), -1)
    middle = look_at_middle(card)
    assert middle.blobs == 8 and not middle.thumbed
    assert "side-between" in pip_places(middle)
    index = _shares({Rank.QUEEN: 0.70, Rank.NINE: 0.24, Rank.FOUR: 0.06})
    weighed = counts.weigh(index, middle)
    assert weighed[RANK_CLASSES.index(Rank.FOUR)] < 0.01  # a 4 puts no pip there
    assert RANK_CLASSES[int(weighed.argmax())] == Rank.QUEEN
    assert weighed.max() < ACCEPT_THRESHOLD
    nine = counts.weigh(_shares({Rank.NINE: 0.70, Rank.QUEEN: 0.24, Rank.FOUR: 0.06}), middle)
    assert RANK_CLASSES[int(nine.argmax())] == Rank.NINE and nine.max() >= ACCEPT_THRESHOLD


def test_a_card_located_short_has_its_pips_rows_unweighed(
        dev_deck: dict[Card, np.ndarray], counts: PipCounts) -> None:
    """The hand cut the outline short: straightened, a 6's middle row stands where a 10's
    inner rows do, and its bottom row is gone. The pips left stand off the card's middle up
    and down, so their rows are not weighed (a 6 was once read as a sure 10 so); their side
    columns fit a 6 and a 10 alike."""
    card = flat_card(dev_deck, "6C")
    short = cv2.resize(card[:round(0.8 * CARD_H)], (CARD_W, CARD_H))
    middle = look_at_middle(short)
    assert middle.blobs == 4 and pip_places(middle) == {"side-upper"}
    assert counts.weigh(_torn(Rank.SIX, Rank.TEN), middle).max() < ACCEPT_THRESHOLD


def test_a_hidden_pip_says_nothing_of_its_place(
        dev_deck: dict[Card, np.ndarray], counts: PipCounts) -> None:
    """Places weigh by the pips seen, never by those missing: with a 6's middle row under
    the thumb (skin, as above), nothing rules out a 9."""
    card = flat_card(dev_deck, "6C")
    before = pip_places(look_at_middle(card))
    middle = look_at_middle(_under_thumbs(card, (0.3, 0.5), (0.7, 0.5)))
    assert "side-middle" in before and pip_places(middle) == {"side-end", "side-upper"}
    assert counts.weigh(_torn(Rank.SIX, Rank.NINE), middle).max() < ACCEPT_THRESHOLD


def test_a_side_pip_without_its_twin_leaves_the_count_at_least_so_many(
        dev_deck: dict[Card, np.ndarray], counts: PipCounts) -> None:
    """Out of focus, under glare, a 10's side pip broke into pieces too small to count, and
    the nine left made it a 9 at 0.92 (bellot's 10S; here the pip is painted out). Its twin
    in the other side column stands alone: a pip may be missing."""
    card = flat_card(dev_deck, "10S")
    full = look_at_middle(card)
    side = min((p for p in full.places if p[0] < 0.4), key=lambda p: abs(p[1] - 0.4))
    paper = tuple(int(v) for v in np.median(card.reshape(-1, 3), axis=0))
    centre = (round(side[0] * CARD_W), round(side[1] * CARD_H))
    cv2.circle(card, centre, 14, paper, -1)
    middle = look_at_middle(card)
    assert not middle.thumbed and pip_key(middle) == "9"
    torn = _shares({Rank.NINE: 0.6, Rank.TEN: 0.4})
    assert counts.weigh(torn, middle).max() < ACCEPT_THRESHOLD
    # A 9's side pips each have their twin: its count weighs as measured.
    nine = look_at_middle(flat_card(dev_deck, "9S"))
    assert counts.weigh(torn, nine).max() >= ACCEPT_THRESHOLD


def test_pips_the_thumb_cuts_every_one_of_count_as_at_least_so_many(
        counts: PipCounts) -> None:
    """Where the thumb cuts every pip, none is placed, and the count weighs as under the
    thumb: it holds no rank with up to HIDDEN more pips."""
    middle = Middle(0.12, 0.2, 3, True, 0.0, places=(), thumbed=True)
    weighed = counts.weigh(_torn(Rank.THREE, Rank.FIVE), middle)
    assert weighed[RANK_CLASSES.index(Rank.FIVE)] >= weighed[RANK_CLASSES.index(Rank.THREE)]


def test_pips_cut_by_the_middles_edge_still_count(
        dev_deck: dict[Card, np.ndarray], counts: PipCounts) -> None:
    """Located a little short, a card shows its end rows' pips cut by the middle's top and
    bottom edges, as wide as the rest but smaller: the others say the pips are of one size
    (a shaken orell 6H counted no pips so, and its 6 read as 5 stood at 0.97). A 5 puts no
    pip at the side's mid-height."""
    stretch = 1.25
    short = cv2.warpAffine(flat_card(dev_deck, "6H"),
                           np.float32([[1, 0, 0], [0, stretch, (1 - stretch) * CARD_H / 2]]),
                           (CARD_W, CARD_H))
    middle = look_at_middle(short)
    assert pip_key(middle) == "6"
    assert not counts.layout_fits(Rank.FIVE, middle)


def test_pips_alone_bring_up_no_rank(dev_deck: dict[Card, np.ndarray],
                                    counts: PipCounts) -> None:
    """With an index that says nothing, the count changes nothing: it picks between ranks
    the index weighs (the next card showing past a sliding one adds blobs too)."""
    for rank in NUMBERS:
        middle = look_at_middle(flat_card(dev_deck, Card(rank, Suit.HEARTS).code))
        assert np.array_equal(counts.weigh(_torn(*Rank), middle), _torn(*Rank)), rank


def test_a_middle_the_box_showed_across_weighs_no_rank(dev_deck: dict[Card, np.ndarray],
                                                       counts: PipCounts) -> None:
    """An outline that took in the box may take in an index's suit with the pips (a 5C
    counted as six, and read as 6C): such a middle only holds, as the check does."""
    torn = _torn(Rank.FIVE, Rank.SIX)
    middle = look_at_middle(flat_card(dev_deck, "5C"))
    assert counts.weigh(torn, middle).max() >= ACCEPT_THRESHOLD
    banded = replace(middle, banded=True)
    assert np.array_equal(counts.weigh(torn, banded), torn)


def _corners_naming(first: Rank | None, second: Rank | None, surely: float = 0.99) -> np.ndarray:
    """Two corners' rank probabilities, the first naming ``first`` at ``surely``, the second
    ``second`` at 0.7, each torn with a 10."""
    return np.stack([_shares({first: surely, Rank.TEN: 1.0 - surely}),
                     _shares({second: 0.7, Rank.TEN: 0.3})])


@pytest.mark.parametrize("code", ["QD", "KS", "JH"])
def test_a_picture_settles_an_index_torn_between_a_court_rank_and_a_number(
        dev_deck: dict[Card, np.ndarray], code: str) -> None:
    """As a blurred Q may look like a 10 in one corner (simplistic's, under hard light),
    the other sure of it."""
    rank = Card.parse(code).rank
    torn = _shares({rank: 0.6, Rank.TEN: 0.25, Rank.NINE: 0.1, None: 0.05})
    weighed = weigh_picture(torn, look_at_middle(flat_card(dev_deck, code)),
                            _corners_naming(rank, rank))
    assert RANK_CLASSES[int(weighed.argmax())] == rank
    assert weighed.max() >= ACCEPT_THRESHOLD > torn.max()
    assert weighed[-1] == pytest.approx(0.05)
    assert weighed.sum() == pytest.approx(1.0)


def test_a_picture_picks_no_court_rank_nor_weighs_against_the_ace(
        dev_deck: dict[Card, np.ndarray]) -> None:
    """It says the card is no number, not which court card, nor that it is no ace (whose
    ornament may look like a picture)."""
    torn = _torn(Rank.QUEEN, Rank.KING, Rank.ACE, Rank.TEN)
    weighed = weigh_picture(torn, look_at_middle(flat_card(dev_deck, "QS")),
                            _corners_naming(Rank.QUEEN, Rank.QUEEN))
    court_and_ace = [RANK_CLASSES.index(r) for r in (Rank.QUEEN, Rank.KING, Rank.ACE)]
    assert weighed[court_and_ace] == pytest.approx([weighed[court_and_ace[0]]] * 3)
    assert weighed.max() < ACCEPT_THRESHOLD


@pytest.mark.parametrize(("first", "second", "surely"), [
    (Rank.QUEEN, Rank.TEN, 0.99), (Rank.QUEEN, Rank.KING, 0.99), (Rank.QUEEN, None, 0.99),
    (Rank.TEN, Rank.TEN, 0.99), (Rank.QUEEN, Rank.QUEEN, 0.9)])
def test_a_picture_weighs_only_where_both_corners_name_the_same_court_rank_one_surely(
        dev_deck: dict[Card, np.ndarray], first: Rank, second: Rank | None,
        surely: float) -> None:
    """Some decks print a scene behind a number card's pips: tango_nuevo's 8C was read as a
    court rank at 0.53 in one corner, as 8 in the other. A letter the network does not know
    is doubtful in both corners: lattmann's B, a German jack, read as K at 0.92 and 0.85."""
    torn = _torn(Rank.QUEEN, Rank.TEN)
    corners = _corners_naming(first, second, surely)
    middle = look_at_middle(flat_card(dev_deck, "QD"))
    assert np.array_equal(weigh_picture(torn, middle, corners), torn)


def test_a_counter_lets_the_picture_weigh_with_neither_corner_sure(
        dev_deck: dict[Card, np.ndarray]) -> None:
    """A counter in the rank makes it a Q or a foreign queen's D, no jack's or king's letter
    the network does not know: orell's QH was torn with a 9 or a 10 in both corners. The
    corners must still name the same court rank."""
    torn = _torn(Rank.QUEEN, Rank.TEN)
    middle = look_at_middle(flat_card(dev_deck, "QD"))
    unsure = _corners_naming(Rank.QUEEN, Rank.QUEEN, 0.9)
    assert np.array_equal(weigh_picture(torn, middle, unsure), torn)
    weighed = weigh_picture(torn, middle, unsure, counter=True)
    assert weighed.argmax() == RANK_CLASSES.index(Rank.QUEEN)
    assert weighed.max() >= ACCEPT_THRESHOLD > torn.max()
    apart = _corners_naming(Rank.QUEEN, Rank.TEN, 0.9)
    assert np.array_equal(weigh_picture(torn, middle, apart, counter=True), torn)


def test_a_middle_of_pips_or_the_box_weighs_no_number_down(
        dev_deck: dict[Card, np.ndarray]) -> None:
    torn = _torn(Rank.QUEEN, Rank.TEN)
    corners = _corners_naming(Rank.QUEEN, Rank.QUEEN)
    assert np.array_equal(weigh_picture(torn, look_at_middle(flat_card(dev_deck, "10S")),
                                        corners), torn)
    banded = replace(look_at_middle(flat_card(dev_deck, "QD")), banded=True)
    assert np.array_equal(weigh_picture(torn, banded, corners), torn)


@pytest.mark.parametrize("deck", ["anglo", "paris", "bellot", "orell", "dondorf"])
def test_a_counter_in_the_rank_weighs_the_jack_and_the_king_down(
        deck_faces: Callable[..., dict[Card, np.ndarray]], deck: str) -> None:
    """orell's queens, in a typeface the index network never learned, were read Q at
    0.59-0.88 against J under hard light. A Q's bowl encloses a counter; no J's or K's
    print does, and their readings are left as they were."""
    faces = deck_faces(deck, 350)
    torn = _shares({Rank.QUEEN: 0.6, Rank.JACK: 0.3, Rank.KING: 0.05, None: 0.05})
    weighed = weigh_counter(torn)
    assert weighed.argmax() == RANK_CLASSES.index(Rank.QUEEN)
    assert weighed.max() >= ACCEPT_THRESHOLD > torn.max()
    assert weighed[-1] == pytest.approx(0.05) and weighed.sum() == pytest.approx(1.0)
    for suit in "SHDC":
        queen = find_indices(flat_card(faces, "Q" + suit))
        assert any(map(rank_encloses_counter, queen)), (deck, suit)
        for court in "JK":
            indices = find_indices(flat_card(faces, court + suit))
            assert not any(map(rank_encloses_counter, indices)), (deck, court + suit)


def test_a_counter_in_the_rank_weighs_a_nine_down_but_not_a_four_or_a_ten(
        deck_faces: Callable[..., dict[Card, np.ndarray]]) -> None:
    """orell's QH under hard light, its pale picture in pieces that show no picture, was
    read Q at 0.85 against a 9 at 0.12. A 9's bowl seldom closes across the rank's middle;
    a 4's triangle and a 10's 0 may, and those two keep their share."""
    queen = find_indices(flat_card(deck_faces("orell", 350), "QH"))
    assert any(map(rank_encloses_counter, queen))
    torn = _shares({Rank.QUEEN: 0.85, Rank.NINE: 0.12, Rank.TEN: 0.01, None: 0.02})
    weighed = weigh_counter(torn)
    assert weighed.argmax() == RANK_CLASSES.index(Rank.QUEEN)
    assert weighed.max() >= ACCEPT_THRESHOLD > torn.max()
    assert weighed[-1] == pytest.approx(0.02) and weighed.sum() == pytest.approx(1.0)
    for closed in (Rank.FOUR, Rank.TEN):
        torn = _shares({Rank.QUEEN: 0.6, closed: 0.35, None: 0.05})
        assert np.allclose(weigh_counter(torn), torn), closed


@pytest.mark.parametrize("deck", ["tarocco", "Атласные"])
def test_a_counter_lends_the_jacks_share_to_a_queen_only(
        deck_faces: Callable[..., dict[Card, np.ndarray]], deck: str) -> None:
    """A foreign queen's letter (tarocco's D, Атласные's Д) encloses a counter, and the
    index network took it for a 10 or a J. Weighed for any rank, the J's share went to the
    10, read surely; a rank where the queen is not likeliest is left as it was."""
    faces = deck_faces(deck, 350)
    torn = _shares({Rank.TEN: 0.6, Rank.JACK: 0.35, None: 0.05})
    for suit in "SHDC":
        indices = find_indices(flat_card(faces, "Q" + suit))
        assert any(map(rank_encloses_counter, indices)), (deck, suit)
    assert np.array_equal(weigh_counter(torn), torn)


def test_a_middle_without_counted_pips_changes_nothing(dev_deck: dict[Card, np.ndarray],
                                                       counts: PipCounts) -> None:
    p = np.append(_torn(Rank.KING, Rank.QUEEN)[:-1] * 0.9, 0.1)
    for code in ("KS", "QH", "JD"):
        assert np.array_equal(counts.weigh(p, look_at_middle(flat_card(dev_deck, code))), p)


def test_no_index_keeps_its_probability(dev_deck: dict[Card, np.ndarray],
                                        counts: PipCounts) -> None:
    p = np.append(_torn(Rank.FIVE, Rank.SIX)[:-1] * 0.7, 0.3)
    weighed = counts.weigh(p, look_at_middle(flat_card(dev_deck, "5C")))
    assert weighed[-1] == pytest.approx(0.3)
    assert weighed.sum() == pytest.approx(1.0)


def test_reader_reads_a_deck_whose_lower_index_stands_upright(
        dev_deck: dict[Card, np.ndarray], mocker: MockerFixture) -> None:
    """As kde-ancient-egyptians prints it: the reader turns that corner round and sees the
    index upside down, and the network may be torn; the pips decide. (The corner turned
    back is a witness too, test_reader's: left out here, to weigh the pips alone.)"""
    with_pips = CornerReader()
    without = CornerReader(pips=PipCounts.from_counts({}))  # every count equally likely
    unsure_without = 0
    w, h = round(0.2 * CARD_W), round(0.3 * CARD_H)
    mocker.patch("vision.reader.turned_witness", return_value=(None, None))
    for code in ("8C", "3S", "7D", "6D"):
        card = flat_card(dev_deck, code)
        card[CARD_H - h:, CARD_W - w:] = card[:h, :w]
        reading, before = with_pips.read_card(card), without.read_card(card)
        assert reading.rank == Card.parse(code).rank, code
        assert reading.rank_confidence >= ACCEPT_THRESHOLD, code
        if before.rank_confidence < ACCEPT_THRESHOLD:
            unsure_without += 1
            assert reading.rank_confidence > before.rank_confidence, code
    assert unsure_without >= 1


def test_a_sure_number_with_a_pip_where_its_layout_has_none_is_held(
        dev_deck: dict[Card, np.ndarray]) -> None:
    """A 6 with a 9's indices: the index is sure of the 9 and gives the 6 nothing, so the
    places may not pick the 6; but a pip at mid-height in a side column is no 9's."""
    six = _indexed_as(dev_deck, "6D", "9D")
    assert "side-middle" in pip_places(look_at_middle(six))
    reading = CornerReader().read_card(six)
    assert reading.rank == Rank.NINE
    assert reading.rank_confidence < ACCEPT_THRESHOLD


@pytest.mark.parametrize("number", ["4S", "7S", "10S"])
def test_a_sure_4_to_10_with_pips_in_the_centre_column_only_is_held(
        dev_deck: dict[Card, np.ndarray], number: str) -> None:
    """A 3 with a higher number's indices (a shaken camera smeared an npm design's 3 into a
    7, read at 0.91): three pips in plain view, all in the centre column, where a 4 to a 10
    puts pips in its side columns. Each of those places fits a 7 by itself."""
    three = _indexed_as(dev_deck, "3S", number)
    middle = look_at_middle(three)
    assert centre_column_only(middle) and not middle.thumbed
    assert not centre_column_only(look_at_middle(flat_card(dev_deck, number)))
    # A side column standing alone (glare over the other and the centre) is no centre one.
    aside = replace(middle, places=tuple((x - 0.22, y) for x, y in middle.places))
    assert not centre_column_only(aside)
    reading = CornerReader().read_card(three)
    assert reading.rank == Card.parse(number).rank
    assert reading.rank_confidence < ACCEPT_THRESHOLD


#: The middle of a straightened card, clear of its index corners (vision.crosscheck's).
_MIDDLE = np.s_[round(0.07 * CARD_H):round(0.93 * CARD_H),
                round(0.21 * CARD_W):round(0.79 * CARD_W)]


def test_a_sure_2_with_three_smeared_pips_in_the_centre_column_is_held(
        dev_deck: dict[Card, np.ndarray]) -> None:
    """A 3 with a 2's indices, its pips smeared sideways wider than pips are counted (past
    RIG.md's ranges a shaken camera smeared a 3's so, and it was read as 2C at 0.97): they
    stand in the centre column, one at mid-height, where a 2 has none."""
    three = _indexed_as(dev_deck, "3S", "2S")
    three[_MIDDLE] = cv2.erode(three[_MIDDLE], np.ones((1, 15), np.uint8))  # ink spreads
    middle = look_at_middle(three)
    assert middle.blobs == 3 and pip_places(middle) == frozenset()  # too wide to count
    assert centre_column_only(middle)
    reading = CornerReader().read_card(three)
    assert reading.rank == Rank.TWO
    assert reading.rank_confidence < ACCEPT_THRESHOLD
    # A 2's own two pips, smeared so, stand there too, but none at mid-height.
    two = flat_card(dev_deck, "2S")
    two[_MIDDLE] = cv2.erode(two[_MIDDLE], np.ones((1, 15), np.uint8))
    assert CornerReader().read_card(two).confidence >= ACCEPT_THRESHOLD


def _washed_out(card: np.ndarray, place: tuple[float, float], contrast: float,
                above: int = 22) -> None:
    """The pip at ``place`` (shares of the card) printed at ``contrast`` of its ink, as under
    glare: nearer the paper; from ``above`` pixels over its centre (0: its lower half)."""
    x, y = round(place[0] * CARD_W), round(place[1] * CARD_H)
    pip = card[y - above:y + 22, x - 22:x + 22].astype(np.float32)
    card[y - above:y + 22, x - 22:x + 22] = (255.0 - contrast * (255.0 - pip)).astype(np.uint8)


def test_a_sure_2_with_a_pale_pip_at_mid_height_is_held(
        dev_deck: dict[Card, np.ndarray], counts: PipCounts) -> None:
    """A 3 with a 2's indices, its middle pip washed out short of counting (past RIG.md's
    ranges, shaken under glare, a paris 3C was read as 2C at 0.90 and a four-colour 3S as
    2S at 0.94 from the two pips left): the pale blob stands where a 2 has no pip, and the
    two counted weigh as "at least two"."""
    three = _indexed_as(dev_deck, "3S", "2S")
    (centre,) = (p for p in look_at_middle(three).places if abs(p[1] - 0.5) < 0.05)
    _washed_out(three, centre, 0.3)
    middle = look_at_middle(three)
    assert middle.blobs == 2 and pip_key(middle) == "2"
    (faint,) = middle.faint
    assert abs(faint[0] - centre[0]) < 0.02 and abs(faint[1] - centre[1]) < 0.02
    torn = _shares({Rank.TWO: 0.6, Rank.THREE: 0.4})
    assert counts.weigh(torn, middle).max() < ACCEPT_THRESHOLD
    reading = CornerReader().read_card(three)
    assert reading.rank == Rank.TWO
    assert reading.rank_confidence < ACCEPT_THRESHOLD
    # Washed out to nothing, it leaves a 2's layout, read surely.
    _washed_out(three, centre, 0.0)
    assert look_at_middle(three).faint == ()
    assert CornerReader().read_card(three).confidence >= ACCEPT_THRESHOLD


def test_pale_print_beside_the_pips_is_no_pip(dev_deck: dict[Card, np.ndarray]) -> None:
    """A pip washed out only in part is counted whole or not at all, never beside itself;
    and a number card in plain view shows no pale blob."""
    for code in ("2S", "3D", "6C", "10H"):
        assert look_at_middle(flat_card(dev_deck, code)).faint == (), code
    six = flat_card(dev_deck, "6C")
    top = min(look_at_middle(six).places, key=lambda p: p[1])
    _washed_out(six, top, 0.3, above=0)
    assert look_at_middle(six).faint == ()


#: A room darker than RIG.md's range, lit unevenly, with two glare spots (past the ranges).
DARK_UNEVEN_ROOM = SceneParams(
    card_height_frac=0.847, center_shift=(-0.209, 0.456), rotation_deg=-3.86,
    tilt_deg=(-2.75, -6.78), camera_height_mm=108.9, upside_down=True,
    lips_mm=(0.21, 0.84), window_ends_mm=(0.65, 2.43), frame_width_mm=7.04,
    metal_bgr=(69, 71, 78), reflection=0.79, reflection_pos=0.418, cloth_bgr=(40, 40, 120),
    colour_temp_k=3448.0, white_balance=0.354, exposure=0.377, gradient=0.311,
    gradient_angle_deg=31.7, glare=((0.333, 0.52, 0.287, 0.752), (0.647, 0.13, 0.267, 0.596)),
    noise_sigma=8.62, blur_sigma=0.214, jpeg_quality=54, gamma=1.069, saturation=0.859,
    sharpen=0.698)
#: Candle light, the white balance off (past the ranges), a small glare spot beside a broad one.
CANDLE_LIT_GLARE = SceneParams(
    card_height_frac=0.858, center_shift=(-0.902, -0.539), rotation_deg=3.92,
    tilt_deg=(6.37, -8.51), camera_height_mm=147.3, lips_mm=(1.44, 2.68),
    window_ends_mm=(2.71, 0.017), frame_width_mm=8.23, metal_bgr=(70, 72, 74),
    reflection=0.816, reflection_pos=0.191, cloth_bgr=(150, 150, 150), colour_temp_k=2200.0,
    white_balance=0.0, exposure=0.762, gradient=0.204, gradient_angle_deg=211.5,
    glare=((0.629, 0.398, 0.258, 0.598), (0.216, 0.527, 0.097, 0.558)), noise_sigma=5.6,
    blur_sigma=1.16, jpeg_quality=71, gamma=1.094, saturation=0.709, sharpen=0.0)


@pytest.mark.parametrize(("scene", "deck", "code"), [(DARK_UNEVEN_ROOM, "anglo", "5C"),
                                                     (CANDLE_LIT_GLARE, "atlasnye", "4S")])
def test_the_dark_and_the_light_falling_off_show_no_pale_pip(
        deck_faces: Callable[..., dict[Card, np.ndarray]], scene: SceneParams, deck: str,
        code: str) -> None:
    """In the dark the sensor's noise, and the light falling off beside a glare, reach the
    paleness of a washed-out pip in places (with no core asked for, a blob of a pip's size
    showed where these cards have no pip: the 5C's centre column on two of these frames, the
    4S's mid-height beside the small glare on each), but make no blob of a pip's size
    darker still over a share of it."""
    face = deck_faces(deck, 350, alpha=True)[Card.parse(code)]
    for seed in range(6):
        frame = render_frame(face, scene, np.random.default_rng(seed))
        quad = locate(frame)
        assert quad is not None
        middle = look_at_middle(straighten(frame, quad))
        assert pip_key(middle) == code[:-1] and middle.faint == (), seed


def test_a_sure_5_with_a_3s_doubled_pips_in_the_centre_column_is_held(
        dev_deck: dict[Card, np.ndarray]) -> None:
    """A 3 with a 5's indices, each pip doubled by a fainter copy below it (past RIG.md's
    ranges a camera shaken during the exposure doubled a 3's so, and it was read as 5C at
    0.92): six blobs, all in the centre column."""
    three = _indexed_as(dev_deck, "3S", "5S")
    middle = three[_MIDDLE].astype(np.float32)
    ghost = np.full_like(middle, 255.0)
    ghost[30:] = middle[:-30]
    three[_MIDDLE] = np.minimum(middle, 255.0 - 0.6 * (255.0 - ghost)).astype(np.uint8)
    seen = look_at_middle(three)
    assert seen.blobs == 6
    assert centre_column_only(seen)
    reading = CornerReader().read_card(three)
    assert reading.rank == Rank.FIVE
    assert reading.rank_confidence < ACCEPT_THRESHOLD


def test_an_aces_lone_pip_weighs_no_rank(dev_deck: dict[Card, np.ndarray],
                                         counts: PipCounts) -> None:
    """It fits an odd number as well as an ace: a foreign ace's index read as 7 or J must
    not be pushed to the 7."""
    torn = _torn(Rank.SEVEN, Rank.JACK)
    assert np.array_equal(counts.weigh(torn, look_at_middle(flat_card(dev_deck, "AD"))), torn)


@pytest.mark.parametrize("number", ["2D", "4D", "6D", "8D", "10D", "JD", "QD", "KD"])
def test_a_sure_even_number_or_court_rank_with_an_aces_lone_pip_is_held(
        dev_deck: dict[Card, np.ndarray], number: str) -> None:
    """An ace with an even number's or a court card's indices (a shaken camera smeared an
    A into a 4; a foreign ace's "1" looks like a J): the index is sure of the rank, but a
    lone pip at the card's centre is no even number's and no court card's."""
    ace = _indexed_as(dev_deck, "AD", number)
    assert pip_places(look_at_middle(ace)) == {"centre-middle"}
    reading = CornerReader().read_card(ace)
    assert reading.rank == Card.parse(number).rank
    assert reading.rank_confidence < ACCEPT_THRESHOLD


@pytest.mark.parametrize("number", ["4C", "6C"])
def test_a_sure_4_or_6_with_a_pip_left_high_in_the_centre_column_is_held(
        dev_deck: dict[Card, np.ndarray], number: str) -> None:
    """A 2 with its lower pip under the thumb and the indices of a 4 or a 6 (the network
    read a 2 cut short by the outline as a 4): the pip left stands off the card's middle
    up and down, but high in the centre column, where a 4 and a 6 have none."""
    two = _indexed_as(dev_deck, "2C", number)
    thumbed = _under_thumbs(two, (0.5, 0.78))
    middle = look_at_middle(thumbed)
    assert middle.blobs == 1 and pip_places(middle) == {"centre-upper"}
    reading = CornerReader().read_card(thumbed)
    assert reading.rank == Card.parse(number).rank
    assert reading.rank_confidence < ACCEPT_THRESHOLD


@pytest.mark.parametrize("text", ["", "{", json.dumps({"format": "something else"}),
                                  json.dumps({"format": "faro-shoe pip counts"})])
def test_a_broken_table_is_a_model_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "pip_counts.json"
    path.write_text(text)
    with pytest.raises(ModelError, match="pip count table"):
        PipCounts.load(path)
    with pytest.raises(ModelError):
        PipCounts.load(tmp_path / "missing.json")
