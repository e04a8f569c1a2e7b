"""The middle of the card as a second witness: picture or pips, spade or club."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import cv2
import numpy as np
import pytest

import vision.glyphs
from shoe.cards import Card, Rank, Suit
from vision.blacksuit import COLOURED_INK
from vision.crosscheck import CAP, check, contradicts, counts_pips, look_at_middle
from vision.glyphs import BlackSuitEvidence, GlyphNet, black_suit_evidence
from vision.hearts import ink_colour
from vision.indices import RED_INK, find_indices, index_corners, rank_encloses_counter
from vision.locate import locate
from vision.pipcount import PipCounts
from vision.pixels import LIT, paper_colour
from vision.printstate import (
    SHARP_ENOUGH,
    SMEARED,
    TELLS_COLOUR,
    _corner_edges,
    colour_lost,
    dimmed_corners,
    print_blur,
    print_smear,
    smeared,
)
from vision.quad import CARD_H, CARD_W, straighten
from vision.reading import ACCEPT_THRESHOLD, Reading
from vision.sceneparams import SceneParams
from vision.sensor import smear
from vision.stills import render_frame

from straightened import flat, flat_card, sure

Faces = Callable[..., dict[Card, np.ndarray]]


@pytest.fixture(scope="module")
def glyphs() -> GlyphNet:
    return GlyphNet.load()


@pytest.mark.parametrize("deck", ["anglo", "paris", "bellot"])
def test_court_cards_contradict_a_number(deck_faces: Faces, deck: str) -> None:
    faces = deck_faces(deck, 350)
    courts = [c for c in faces if c.rank >= Rank.JACK]
    middles = [look_at_middle(flat_card(faces, c.code)) for c in courts]
    # The check only speaks when the picture is clear; most court cards are.
    assert sum(contradicts(Rank.EIGHT, m) for m in middles) >= 9
    assert not any(contradicts(c.rank, m) for c, m in zip(courts, middles, strict=True))


def test_a_card_with_no_print_found_anywhere_is_held(glyphs: GlyphNet) -> None:
    # The box's own frame round its dark floor, as the locator took it in an empty box: no
    # index in either corner, nothing in the middle. Whatever the network reads there holds.
    frame = np.full((CARD_H, CARD_W, 3), 90, np.uint8)
    frame[30:-30, 25:-25] = 20
    assert look_at_middle(frame).blobs == 0
    assert find_indices(frame) == (None, None)
    for code in ("10C", "7H", "AS", "KD"):
        assert check(sure(code), frame, glyphs).confidence <= CAP


@pytest.mark.parametrize("deck", ["anglo", "paris", "bellot"])
def test_a_card_whose_middle_shows_nothing_is_held_only_with_no_index_either(
        deck_faces: Faces, deck: str, glyphs: GlyphNet) -> None:
    # Its middle painted over with paper, as pale pips out of focus fade: the index stands.
    card = flat_card(deck_faces(deck, 350), "9C").copy()
    card[17:-17, 37:-37] = card[5, CARD_W // 2]  # the middle the check looks at
    assert look_at_middle(card).blobs == 0
    assert check(sure("9C"), card, glyphs) == sure("9C")


@pytest.mark.parametrize("deck", ["anglo", "paris", "bellot"])
@pytest.mark.parametrize("code", ["2H", "5C", "8S", "10D"])
def test_a_number_card_contradicts_a_court_rank(deck_faces: Faces, deck: str, code: str) -> None:
    middle = look_at_middle(flat_card(deck_faces(deck, 350), code))
    assert contradicts(Rank.KING, middle)
    assert not contradicts(Card.parse(code).rank, middle)


@pytest.mark.parametrize("deck", ["anglo", "paris", "bellot"])
def test_no_number_card_contradicts_its_own_rank(deck_faces: Faces, deck: str) -> None:
    faces = deck_faces(deck, 350)
    for card in (c for c in faces if Rank.TWO <= c.rank <= Rank.TEN):
        assert not contradicts(card.rank, look_at_middle(flat_card(faces, card.code))), card


@pytest.mark.parametrize("code", ["3D", "8S", "10C"])
def test_the_box_past_a_card_located_too_large_does_not_spoil_the_count(
        deck_faces: Faces, code: str) -> None:
    card = flat_card(deck_faces("anglo", 350), code)
    clean = look_at_middle(card)
    # The locator's outline a few pixels too high: the box's dark edge across the top of
    # the middle (straightened 252 px high, the middle starts at 7% of it).
    card[16:21] = 40
    edged = look_at_middle(card)
    assert counts_pips(clean) and counts_pips(edged)
    assert edged.blobs == clean.blobs == Card.parse(code).rank


@pytest.mark.parametrize("code", ["3D", "9D", "10C"])
def test_the_box_past_the_card_cut_short_by_the_thumb_does_not_spoil_the_count(
        deck_faces: Faces, code: str) -> None:
    card = flat_card(deck_faces("anglo", 350), code)
    clean = look_at_middle(card)
    # The outline a little too low, the box's dark edge across the foot of the middle (it
    # ends at 93% of 252 px), but a thumb the paper's colour, no ink, hides its left part:
    # the strip left runs over the right 57% of the middle (which spans x 38-142).
    lined = card.copy()
    card[230:234, 83:142] = 40
    edged = look_at_middle(card)
    assert counts_pips(clean) and counts_pips(edged)
    assert edged.blobs == clean.blobs == Card.parse(code).rank
    # As wide a line clear of the edge is print (a court picture's frame line), not the box.
    lined[224:228, 83:142] = 40
    assert look_at_middle(lined).widest > 0.5


@pytest.mark.parametrize("code", ["3D", "9H", "10C"])
@pytest.mark.parametrize("at_top", [False, True])
def test_the_box_in_a_band_across_the_middles_edge_does_not_spoil_the_count(
        deck_faces: Faces, code: str, at_top: bool) -> None:
    """A card located far too large (the paper and the box's wood alike under candles): the
    wood past the card's edge shows as a band across the middle from its lower or upper
    edge, too high for a strip. It kept a 9H's pips from contradicting a K the corner
    network was sure of."""
    face = deck_faces("anglo", 350)[Card.parse(code)]
    wood = round(0.15 * face.shape[0])
    padded = cv2.copyMakeBorder(face, wood * at_top, wood * (not at_top), 0, 0,
                                cv2.BORDER_CONSTANT, value=(30, 80, 140))
    middle = look_at_middle(flat(padded))
    assert counts_pips(middle) and contradicts(Rank.KING, middle)
    assert middle.blobs == Card.parse(code).rank
    assert middle.banded and not look_at_middle(flat_card(deck_faces("anglo", 350), code)).banded


@pytest.mark.parametrize("skin", [(45, 60, 95), (120, 150, 200)])
@pytest.mark.parametrize("code", ["2D", "7S", "9H", "10C"])
def test_the_dealers_thumb_over_the_middle_is_no_picture(deck_faces: Faces, code: str,
                                                        skin: tuple[int, int, int]) -> None:
    """The thumb rises from the card's lower edge over the middle, its hand below: a blob
    that tall and broad made a picture of it, and a number card read rightly was held."""
    card = flat_card(deck_faces("anglo", 350), code)
    _thumb_on(card, skin)
    middle = look_at_middle(card)
    assert not contradicts(Card.parse(code).rank, middle), middle
    assert middle.blobs <= Card.parse(code).rank  # pips under the thumb are hidden, not added
    assert middle.thumbed  # and the middle says a thumb may hide them


@pytest.mark.parametrize("code", ["KS", "QH", "JD"])
def test_a_court_card_under_the_thumb_is_still_a_picture(deck_faces: Faces, code: str) -> None:
    """The thumb joins the picture, which reaches up past it: the whole is no thumb."""
    card = flat_card(deck_faces("anglo", 350), code)
    _thumb_on(card, (45, 60, 95))
    assert contradicts(Rank.EIGHT, look_at_middle(card))


def _thumb_on(card: np.ndarray, skin: tuple[int, int, int],
              tip_at: tuple[float, float] = (0.42, 0.55),
              rim: tuple[int, int, int] | None = None) -> None:
    """The dealer's thumb drawn on a straightened card: its tip over the middle (at
    ``tip_at``, shares of the card), its hand running off the card's lower edge; ``rim``,
    the colour of its lit edge, two pixels wide."""
    tip = (round(tip_at[0] * CARD_W), round(tip_at[1] * CARD_H))
    for colour, inset in ((rim, 0), (skin, 2)) if rim else ((skin, 0),):
        half_width = round(0.15 * CARD_W) - inset
        cv2.ellipse(card, tip, (half_width, half_width + 4), 0, 180, 360, colour, -1)
        cv2.rectangle(card, (tip[0] - half_width, tip[1]), (tip[0] + half_width, CARD_H),
                      colour, -1)


def test_a_pip_the_thumb_cuts_counts_but_is_not_measured(deck_faces: Faces) -> None:
    """A dark thumb, its lit edge parting it from a pip it covers in part: the piece counts
    as a pip, but its size and its place are left out. Measured, it kept a 6D's pips from
    counting as of one size, so their places could not hold a 9 read from a turned index."""
    card = flat_card(deck_faces("anglo", 350), "6D")
    _thumb_on(card, (45, 60, 95), tip_at=(0.35, 0.6), rim=(200, 215, 225))
    middle = look_at_middle(card)
    assert middle.blobs == 5 and counts_pips(middle) and len(middle.places) == 4
    assert not PipCounts.load().layout_fits(Rank.NINE, middle)
    assert PipCounts.load().layout_fits(Rank.SIX, middle)


def _under_hard_light(face: np.ndarray, code: str, seed: int) -> np.ndarray:
    """``face`` shot by the rig's camera under hard light, located and straightened."""
    rng = np.random.default_rng([seed, sum(map(ord, code))])
    return _located(render_frame(face, SceneParams.random(rng, "hard"), rng))


def _located(frame: np.ndarray) -> np.ndarray:
    """The card of a frame, located and straightened."""
    quad = locate(frame)
    assert quad is not None
    return straighten(frame, quad)


def test_pips_printed_pale_count_whole(deck_faces: Faces) -> None:
    """A four-colour deck prints its spades blue and its clubs green, paler than black. With
    the paper sought too near, such a pip looked pale inside, and showed as a broken ring
    whose pieces counted as pips: a 2S showed six, and its rank was held."""
    faces = deck_faces("neoclassical_4_color", 350, alpha=True)
    counted_right = 0
    for code in ("2S", "3S", "7S", "10S", "8C"):
        card = Card.parse(code)
        for seed in range(6):
            middle = look_at_middle(_under_hard_light(faces[card], code, seed))
            assert not contradicts(card.rank, middle), (code, seed, middle.blobs)
            counted_right += middle.blobs == card.rank
    assert counted_right >= 20  # of 30: glare and the lips hide some (13 counted so before)


def test_a_small_club_cut_at_its_necks_counts_as_one_pip(deck_faces: Faces) -> None:
    """ornamental prints small clubs. The opening that keeps thin strokes from joining pips
    cut them at their necks under hard light, into three leaves and a stem: a 4C's middle
    showed 13 blobs, a 7C's 18, and a 2C's rank was held for 8. At most the corners' large
    suit signs, reaching into the middle at its sides, count more than the pips now."""
    faces = deck_faces("ornamental", 350, alpha=True)
    for code in ("2C", "3C", "4C", "5C", "6C", "7C"):
        card = Card.parse(code)
        for seed in range(6):
            middle = look_at_middle(_under_hard_light(faces[card], code, seed))
            assert not contradicts(card.rank, middle), (code, seed, middle.blobs)
            assert middle.blobs <= card.rank + 2, (code, seed, middle.blobs)


@pytest.mark.parametrize("code", ["4H", "6D", "8C", "5S", "9D"])
def test_a_glare_beside_the_pips_is_paper_not_print(deck_faces: Faces, code: str) -> None:
    """The paper sought far enough to take in the largest pip must not take in a glare's
    light: taken as the paper's around it, that light made the paper beside the glare look
    dark as print, in a ring that joined the pips into a picture."""
    face = deck_faces("anglo", 350, alpha=True)[Card.parse(code)]
    for seed in range(8):
        middle = look_at_middle(_under_hard_light(face, code, seed))
        assert counts_pips(middle) and middle.blobs == Card.parse(code).rank, seed


def test_a_foreign_ace_read_as_a_seven_is_contradicted(deck_faces: Faces) -> None:
    # This deck indexes its aces "T" (Cyrillic), which the index network takes for a 7;
    # the ace's picture spans the middle, wider than any column of pips.
    faces = deck_faces("slavic_costumes", 350)
    for suit in "SHDC":
        assert contradicts(Rank.SEVEN, look_at_middle(flat_card(faces, "A" + suit))), suit


def test_a_contradicted_reading_is_capped_below_the_threshold(deck_faces: Faces,
                                                             glyphs: GlyphNet) -> None:
    faces = deck_faces("anglo", 350)
    for truth, misread in (("QH", "8H"), ("7C", "7S"), ("6D", "JD"), ("9S", "9C")):
        capped = check(sure(misread), flat_card(faces, truth), glyphs)
        assert capped.card == Card.parse(misread)  # still offered, no longer sure
        assert capped.confidence <= CAP < ACCEPT_THRESHOLD
        assert not capped.is_sure


def test_a_right_reading_keeps_its_confidence(deck_faces: Faces, glyphs: GlyphNet) -> None:
    faces = deck_faces("anglo", 350)
    for code in ("QH", "7C", "7S", "6D", "9S", "AS", "KC"):
        assert check(sure(code), flat_card(faces, code), glyphs) == sure(code)


def test_an_unsure_reading_is_left_alone(deck_faces: Faces, glyphs: GlyphNet) -> None:
    unsure = Reading(Card.parse("8H"), 0.3, Rank.EIGHT, Suit.HEARTS, 0.5, 0.6)
    assert check(unsure, flat_card(deck_faces("anglo", 350), "QH"), glyphs) == unsure


def _lower_suit_printed_upright(card: np.ndarray) -> np.ndarray:
    """The card as a deck that prints its lower suit glyph unturned shows it: on its head
    in the bottom-right corner turned round to be read."""
    found = find_indices(card)[1]
    assert found is not None and found.suit is not None
    ys, xs = np.nonzero(found.labels == found.suit)
    turned = card[::-1, ::-1].copy()  # that corner turned round is at the top left
    box = turned[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    box[:] = box[::-1].copy()
    return np.ascontiguousarray(turned[::-1, ::-1])


@pytest.mark.parametrize("rank", ["A", "5", "8", "10", "K"])
def test_a_heart_on_its_head_holds_a_diamond(deck_faces: Faces, glyphs: GlyphNet,
                                            rank: str) -> None:
    # The index network never saw a heart on its head (the dev decks turn their lower
    # indices) and may name it a diamond surely. Such an index is printed unturned, its rank
    # upside down where the corner is turned round to be read: a 6 or a 9 is held too.
    faces = deck_faces("anglo", 350)
    hearts = _lower_suit_printed_upright(flat_card(faces, rank + "H"))
    held = check(sure(rank + "D"), hearts, glyphs)
    assert not held.is_sure and held.suit_confidence <= CAP
    for upside_down in ("6", "9"):
        assert check(sure(upside_down + "D"), hearts, glyphs).rank_confidence <= CAP
    assert check(sure(rank + "H"), hearts, glyphs) == sure(rank + "H")
    # A diamond on its head is a diamond.
    diamonds = _lower_suit_printed_upright(flat_card(faces, rank + "D"))
    assert check(sure(rank + "D"), diamonds, glyphs) == sure(rank + "D")


@pytest.mark.parametrize("deck", ["berlin", "lattmann", "rheinland"])
def test_a_german_queen_read_as_a_jack_is_capped(deck_faces: Faces, glyphs: GlyphNet,
                                                 deck: str) -> None:
    # These decks index their queens "D" (Dame); the index network may take it for a J.
    # A D encloses a counter as tall as itself; no J or K does.
    faces = deck_faces(deck, 350)
    for suit in "SHDC":
        capped = check(sure("J" + suit), flat_card(faces, "Q" + suit), glyphs)
        assert not capped.is_sure, (deck, suit)
        assert capped.rank_confidence <= CAP


@pytest.mark.parametrize("deck", ["anglo", "paris", "bellot", "orell", "dondorf"])
def test_no_standard_jack_or_king_encloses_a_counter(deck_faces: Faces, deck: str) -> None:
    faces = deck_faces(deck, 350)
    for code in (r + s for r in "JK" for s in "SHDC"):
        card = flat_card(faces, code)
        assert not any(map(rank_encloses_counter, find_indices(card))), (deck, code)


@pytest.mark.parametrize("deck", ["berlin", "ancient_french", "tarocco", "slavic_costumes"])
def test_a_bowl_in_one_half_of_the_rank_is_no_counter(deck_faces: Faces, deck: str) -> None:
    """A German jack's B, a French or Italian king's R and a Cyrillic jack's В enclose bowls,
    but none spans the rank's middle as a Q's does."""
    faces, shot = deck_faces(deck, 350), deck_faces(deck, 350, alpha=True)
    for code in (r + s for r in "JK" for s in "SHDC"):
        cards = [flat_card(faces, code)]
        cards += [_under_hard_light(shot[Card.parse(code)], code, seed) for seed in range(3)]
        for card in cards:
            assert not any(map(rank_encloses_counter, find_indices(card))), (deck, code)


def test_orells_queens_show_their_counter_under_hard_light(deck_faces: Faces) -> None:
    """orell's Q hangs a long tail under its bowl, which so fills only half the rank's
    height: a counter sought as tall as 0.6 of it was found in 31 of these 48 corners."""
    faces = deck_faces("orell", 350, alpha=True)
    found = 0
    for code in ("QS", "QH", "QD", "QC"):
        for seed in range(6):
            card = _under_hard_light(faces[Card.parse(code)], code, seed)
            found += sum(map(rank_encloses_counter, find_indices(card)))
    assert found >= 40  # of 48 corners: the lips and the glare hide some (46 now)


@pytest.mark.parametrize("deck", ["anglo", "paris", "bellot", "orell", "dondorf"])
def test_a_queen_read_as_a_king_or_a_jack_is_held(deck_faces: Faces, glyphs: GlyphNet,
                                                  deck: str) -> None:
    # A Q's bowl is a counter too, its tail making the glyph taller than the bowl.
    faces = deck_faces(deck, 350)
    for suit in "SHDC":
        queen = flat_card(faces, "Q" + suit)
        for misread in ("K" + suit, "J" + suit):
            held = check(sure(misread), queen, glyphs)
            assert not held.is_sure and held.rank_confidence <= CAP, (deck, misread)
        assert check(sure("Q" + suit), queen, glyphs) == sure("Q" + suit)


@pytest.mark.parametrize("deck", ["anglo", "paris", "bellot"])
def test_print_blur_grows_with_the_cameras_blur(deck_faces: Faces, deck: str) -> None:
    faces = deck_faces(deck, 350)
    for code in ("KS", "AC", "5C", "10D"):
        card = flat_card(faces, code)
        measured = [print_blur(cv2.GaussianBlur(card, (0, 0), s) if s else card)
                    for s in (0.0, 1.0, 2.0, 3.0)]
        assert measured == sorted(measured), (code, measured)
        # The straightened render is itself soft (some one pixel); a thin stroke blurred
        # wider than itself fades as well as spreads, so small print reads low (paris's
        # aces measure 3 pixels more at 2.46), never as sharp as the learned range.
        assert measured[0] <= SHARP_ENOUGH < measured[-1] - 0.4, (code, measured)


def test_a_blank_corner_has_no_sharp_print() -> None:
    assert print_blur(np.full((CARD_H, CARD_W, 3), 230, np.uint8)) > SHARP_ENOUGH


@pytest.mark.parametrize("deck", ["anglo", "paris", "bellot"])
def test_print_smear_grows_with_a_shake_in_any_direction(deck_faces: Faces, deck: str) -> None:
    faces = deck_faces(deck, 350)
    for code in ("KS", "AC", "5C", "10D", "8H"):
        # As soft as the camera leaves it within the rig's ranges: not smeared.
        card = cv2.GaussianBlur(flat_card(faces, code), (0, 0), 1.0)
        assert print_smear(card) < SMEARED
        for angle in (0, 45, 90, 150):
            smeared = [print_smear(smear(card, (length, angle))) for length in (0, 5, 10)]
            assert smeared == sorted(smeared) and smeared[-1] > SMEARED, (code, angle, smeared)


def test_print_smear_is_the_worst_directions_tenth_percentile(deck_faces: Faces) -> None:
    # One sort serves all eight directions: the same as numpy's percentile of each.
    faces = deck_faces("paris", 350)
    for code in ("QS", "7C", "10D"):
        card = smear(cv2.GaussianBlur(flat_card(faces, code), (0, 0), 1.0), (6, 30))
        per_corner = []
        for sigma, facing in _corner_edges(card, darkest=True):
            bins = np.floor_divide(facing + 90 / 8, 180 / 8).astype(int) % 8
            per_corner.append(max(float(np.percentile(sigma[bins == b], 10)) for b in range(8)
                                  if (bins == b).sum() >= 5))
        assert print_smear(card) == pytest.approx(min(per_corner), rel=1e-12), code


def test_pale_coloured_ink_is_not_taken_for_smeared_print(deck_faces: Faces) -> None:
    # A four-colour deck's yellow diamonds: on grey, their JD measured smeared (3.55).
    faces = deck_faces("neoclassical_4_color", 350)
    for code in ("JD", "KD", "8D", "3D"):
        card = cv2.GaussianBlur(flat_card(faces, code), (0, 0), 1.0)
        assert print_smear(card) < SMEARED, code
        assert print_smear(smear(card, (10, 45))) > SMEARED, code


def test_pale_print_beside_the_box_is_not_taken_for_smeared_print(deck_faces: Faces) -> None:
    # Blue spades under hard light, each outline a little outside the card: the box's edge
    # was the corner's steepest, the print too pale against it to count, and the box's edge
    # alone measured 2.93-3.04. Against the print past the box, they are sharp.
    faces = deck_faces("neoclassical_4_color", 350, alpha=True)
    for code, seed in (("6S", 30), ("10S", 15), ("10S", 23), ("8S", 7), ("8S", 19)):
        card = _under_hard_light(faces[Card.parse(code)], code, seed)
        assert print_smear(card) > SMEARED > print_smear(card, past_box=True), (code, seed)
        assert not smeared(card), (code, seed)


def test_print_smeared_both_ways_is_smeared(deck_faces: Faces) -> None:
    # A camera shaken smears the print, and the box's edge with it. (Not always far enough:
    # this deck's paler 8S, smeared so after it was straightened, measures 2.5-2.7 past the
    # box, and it measured 2.6-2.9 at some angles against the box's edge too.)
    faces = deck_faces("neoclassical_4_color", 350, alpha=True)
    for code, seed in (("6S", 30), ("10S", 15)):
        card = _under_hard_light(faces[Card.parse(code)], code, seed)
        for angle in (0, 45, 90, 135):
            assert smeared(smear(card, (10, angle))), (code, seed, angle)


@pytest.mark.parametrize("suit", ["H", "C", "S"])
def test_a_queen_read_on_blurred_print_with_no_counter_is_held(
        deck_faces: Faces, glyphs: GlyphNet, suit: str) -> None:
    """Past RIG.md's ranges a shaken bellot JC was read as QC at 0.90. A Q's print closes
    a counter across its rank's middle: on print blurred past what the index network
    learned, a Q is held where no corner shows one."""
    faces = deck_faces("bellot", 350)
    queen = sure("Q" + suit)
    jack = cv2.GaussianBlur(flat_card(faces, "J" + suit), (0, 0), 2.0)
    assert print_blur(jack) > SHARP_ENOUGH
    held = check(queen, jack, glyphs)
    assert held.card == queen.card and not held.is_sure and held.rank_confidence <= CAP
    # The queen itself, as blurred, shows its counter: its rank stands (a spade's suit is
    # held on such print where no glyph says it).
    blurred = cv2.GaussianBlur(flat_card(faces, "Q" + suit), (0, 0), 2.0)
    assert any(map(rank_encloses_counter, find_indices(blurred)))
    assert check(queen, blurred, glyphs).rank_confidence == queen.rank_confidence


def test_a_reading_of_smeared_print_is_held(deck_faces: Faces, glyphs: GlyphNet) -> None:
    card = flat_card(deck_faces("anglo", 350), "8H")
    assert check(sure("8H"), card, glyphs) == sure("8H")
    held = check(sure("8H"), smear(card, (12, 110)), glyphs)
    assert held.card == Card.parse("8H") and not held.is_sure
    assert max(held.confidence, held.rank_confidence, held.suit_confidence) <= CAP


@pytest.mark.parametrize("code", ["2S", "8C", "QH", "5D"])
def test_the_suit_is_held_where_the_light_leaves_a_channel_unlit(
        deck_faces: Faces, glyphs: GlyphNet, code: str) -> None:
    """Under candle light with the camera's white balance off, black ink looked red."""
    face = deck_faces("anglo", 350)[Card.parse(code)]

    def seen(kelvin: float, white_balance: float) -> np.ndarray:
        frame = render_frame(face, SceneParams(colour_temp_k=kelvin, white_balance=white_balance),
                             np.random.default_rng(5))
        quad = locate(frame)
        assert quad is not None
        return straighten(frame, quad)

    warmest = seen(2700, 0.2)  # RIG.md's warmest light, the least of its cast removed
    candle = seen(1900, 0.0)
    assert not colour_lost(warmest) and colour_lost(candle)
    assert check(sure(code), warmest, glyphs) == sure(code)
    held = check(sure(code), candle, glyphs)
    assert held.card == Card.parse(code) and not held.is_sure
    assert held.rank_confidence == sure(code).rank_confidence
    assert held.suit_confidence <= CAP


def test_the_suit_is_held_where_a_channel_is_lit_too_dimly_to_tell_red_from_black(
        deck_faces: Faces, glyphs: GlyphNet) -> None:
    """At 2200 K, the white balance off, the paper's blue is a quarter of its red: lit, but
    a plastic 7S was read as 7D at 0.93 so (`--beyond colour`)."""
    frame = render_frame(deck_faces("plastic", 350)[Card.parse("7S")],
                         SceneParams(colour_temp_k=2200, white_balance=0.0),
                         np.random.default_rng(5))
    quad = locate(frame)
    assert quad is not None
    card = straighten(frame, quad)
    for corner in index_corners(card):
        paper = paper_colour(corner, 2)
        assert LIT * paper.max() < paper.min() < TELLS_COLOUR * paper.max()
    assert colour_lost(card)
    held = check(sure("7D"), card, glyphs)
    assert held.rank_confidence == sure("7D").rank_confidence and held.suit_confidence <= CAP


def test_a_corner_glare_clips_white_says_nothing_for_the_light(
        deck_faces: Faces, glyphs: GlyphNet) -> None:
    """Under light whose blue lit the paper at a quarter of its red, a neoclassical_4_color
    3S (its spades printed blue, orange in that light) was read as 3D at 0.995: glare over
    its other index corner clipped that corner's paper white, which measured as lit."""
    face = deck_faces("neoclassical_4_color", 350)[Card.parse("3S")]
    glare = ((0.85, 0.9, 0.25, 1.5),)  # over the lower index corner

    def seen(kelvin: float, white_balance: float) -> np.ndarray:
        params = SceneParams(colour_temp_k=kelvin, white_balance=white_balance, glare=glare)
        frame = render_frame(face, params, np.random.default_rng(5))
        quad = locate(frame)
        assert quad is not None
        return straighten(frame, quad)

    candle = seen(2200, 0.0)
    assert dimmed_corners(candle) == 1 and colour_lost(candle)
    held = check(sure("3D"), candle, glyphs)
    assert held.rank_confidence == sure("3D").rank_confidence and held.suit_confidence <= CAP
    warmest = seen(2700, 0.2)  # RIG.md's warmest light: no corner dim, glare or not
    assert dimmed_corners(warmest) == 0 and not colour_lost(warmest)


@pytest.mark.parametrize(("deck", "code"), [("bellot", "KS"), ("tango_nuevo", "KC")])
def test_a_black_suit_no_glyph_judges_stands_on_sharp_print_and_a_club_on_blurred(
        deck_faces: Faces, glyphs: GlyphNet, deck: str, code: str) -> None:
    # bellot's king of spades shows no suit glyph the network takes for a spade or a club
    # (its spade runs broadly into the sceptre's top), and tango_nuevo prints none under
    # its index (black_suit_evidence(...).shaped == 0): the index network's word is all
    # there is.
    card = flat_card(deck_faces(deck, 350), code)
    assert black_suit_evidence(card, glyphs).shaped == 0
    assert check(sure(code), card, glyphs) == sure(code)
    # Blurred past what it learned, its word alone no longer makes a spade sure: blur runs
    # a club's leaves together into a spade. It never makes a spade of a club, which stands.
    # (Blurred by 2 pixels: by more, tango_nuevo's print measures as smeared, which holds
    # any reading.)
    blurred = cv2.GaussianBlur(card, (0, 0), 2.0)
    assert print_blur(blurred) > SHARP_ENOUGH
    assert black_suit_evidence(blurred, glyphs).shaped == 0
    read = check(sure(code), blurred, glyphs)
    if code.endswith("C"):
        assert read == sure(code)
    else:
        assert read.card == Card.parse(code)
        assert read.suit_confidence <= CAP and not read.is_sure


def _blue(card: np.ndarray) -> np.ndarray:
    """The card with its red ink printed blue, as a four-colour deck prints its diamonds."""
    return np.ascontiguousarray(card[..., ::-1])


@pytest.mark.parametrize("deck", ["paris", "orell", "dondorf"])
@pytest.mark.parametrize("code", ["AD", "5D", "KD"])
def test_a_black_suit_read_from_coloured_glyphs_of_no_black_shape_is_held(
        deck_faces: Faces, glyphs: GlyphNet, deck: str, code: str) -> None:
    # The index network learned two-colour decks and the dev decks' four-colour ones, whose
    # spades are blue: a diamond printed blue was read as a spade at up to 1.0. The glyphs
    # show no spade or club, and their ink is not black.
    blue = _blue(flat_card(deck_faces(deck, 350), code))
    assert black_suit_evidence(blue, glyphs).shaped == 0
    spade = sure(code[:-1] + "S")
    held = check(spade, blue, glyphs)
    assert held.rank == spade.rank and held.suit_confidence <= CAP and not held.is_sure


@pytest.mark.parametrize("deck", ["paris", "orell", "dondorf"])
def test_a_rank_the_middle_contradicts_leaves_the_suits_rules_to_judge_the_suit(
        deck_faces: Faces, glyphs: GlyphNet, deck: str) -> None:
    # The audit counts the suit on its own confidence: a blue diamond read as a spade, its
    # rank held by the middle, must not keep a sure spade.
    blue = _blue(flat_card(deck_faces(deck, 350), "8D"))
    held = check(sure("KS"), blue, glyphs)
    assert held.rank_confidence <= CAP and held.suit_confidence <= CAP


@pytest.mark.parametrize("deck", ["anglo_modern_4_color", "neoclassical_4_color"])
@pytest.mark.parametrize("code", ["5S", "KS", "5C", "KC"])
def test_spades_and_clubs_printed_in_colour_stand_where_the_glyphs_show_their_shape(
        deck_faces: Faces, glyphs: GlyphNet, deck: str, code: str) -> None:
    card = flat_card(deck_faces(deck, 350), code)
    assert check(sure(code), card, glyphs) == sure(code)


def test_a_black_suit_read_from_a_coloured_rank_with_no_glyph_found_is_held(
        deck_faces: Faces, glyphs: GlyphNet) -> None:
    # paris's KH printed blue: no suit glyph is found beside the king's picture, and the
    # coloured rank says the ink is not black.
    blue = _blue(flat_card(deck_faces("paris", 350), "KH"))
    indices = find_indices(blue)
    assert all(found is not None and found.suit is None for found in indices)
    held = check(sure("KC"), blue, glyphs)
    assert held.rank == Rank.KING and held.suit_confidence <= CAP and not held.is_sure


def _red_ink_printed(face: np.ndarray, bgr: tuple[int, int, int]) -> np.ndarray:
    """The face with its red ink printed in another colour."""
    colour = face[..., :3].astype(np.float32)
    ink = np.clip((colour[..., 2] - colour[..., 1]) / 200, 0, 1)[..., None]  # how red
    out = face.copy()
    out[..., :3] = np.clip(colour * (1 - ink) + np.array(bgr) * ink, 0, 255)
    return out


def test_a_diamond_printed_dark_blue_is_held_though_its_ink_measures_less_than_red(
        deck_faces: Faces, glyphs: GlyphNet) -> None:
    # Under the rig's hard light the camera leaves a dark blue less coloured than red ink
    # (RED_INK tells red from black): orell's 5D so printed was read as 5S at 0.999.
    face = _red_ink_printed(deck_faces("orell", 350, alpha=True)[Card.parse("5D")],
                            (170, 60, 20))  # a dark blue
    card = _under_hard_light(face, "5D", 1)
    inks = [ink_colour(found) for found in find_indices(card) if found is not None]
    assert inks and all(COLOURED_INK <= ink < RED_INK for ink in inks), inks
    held = check(sure("5S"), card, glyphs)
    assert held.suit_confidence <= CAP and not held.is_sure


def test_a_black_suit_read_on_a_number_card_whose_ink_nothing_found_is_held(
        deck_faces: Faces, glyphs: GlyphNet) -> None:
    # Dark past RIG.md's range, dark blue ink on dim paper: the glyph search found no index
    # in either corner, nor a pip, so nothing measured the ink (an npm four-colour deck's
    # 9D was read as 9S at 0.98 so). Print faded to 30% of its contrast is as faint.
    def faint(code: str, contrast: float) -> np.ndarray:
        card = flat_card(deck_faces("anglo", 350), code).astype(np.float32)
        return (255.0 * (1.0 - contrast) + contrast * card).astype(np.uint8)

    nine = faint("9D", 0.3)
    assert find_indices(nine) == (None, None)
    assert black_suit_evidence(nine, glyphs, Rank.NINE).pips_seen == 0
    held = check(sure("9S"), nine, glyphs)
    assert held.suit_confidence <= CAP and not held.is_sure
    # At 40% the search finds the index and the pips, and they speak.
    nine = faint("9S", 0.4)
    assert None not in find_indices(nine)
    assert check(sure("9S"), nine, glyphs) == sure("9S")


@pytest.mark.parametrize("deck", ["paris", "dondorf"])
@pytest.mark.parametrize(("code", "misread"), [("5H", "5C"), ("QH", "QC"), ("9D", "9S"),
                                               ("KD", "KS")])
def test_a_heart_or_a_diamond_in_black_ink_is_no_black_suit(
        deck_faces: Faces, glyphs: GlyphNet, deck: str, code: str, misread: str) -> None:
    # A deck printed in one ink: both corners show a glyph, black, and neither is a spade's
    # or a club's shape.
    face = _red_ink_printed(deck_faces(deck, 350)[Card.parse(code)], (20, 20, 20))
    card = flat_card({Card.parse(code): face}, code)
    indices = find_indices(card)
    assert all(found is not None and found.suit is not None for found in indices)
    assert black_suit_evidence(card, glyphs).shaped == 0
    held = check(sure(misread), card, glyphs)
    assert held.suit_confidence <= CAP and not held.is_sure


def _corner_glyphs_painted_out(card: np.ndarray, corners: tuple[int, ...] = (0, 1)
                               ) -> np.ndarray:
    """The card with the suit glyph under each index (of ``corners``) painted over in the
    paper's white, as where the glyph goes unfound (run into the rank, under the thumb)."""
    out = card.copy()
    for corner, found in enumerate(find_indices(card)):
        if corner not in corners:
            continue
        assert found is not None and found.suit is not None
        view = out[::-1, ::-1] if corner else out  # the corner at the top left, as found
        h, w = found.labels.shape
        view[:h, :w][found.labels == found.suit] = 255
    return out


def test_glyphs_that_only_lean_to_the_suit_read_judge_as_no_glyph(
        deck_faces: Faces, glyphs: GlyphNet) -> None:
    # anglo's QS under hard light: its spade found in one corner only, blurred, and named a
    # spade short of saying it (2.2). It stands as with no glyph, on sharp print only.
    card = _corner_glyphs_painted_out(flat_card(deck_faces("anglo", 350), "QS"), corners=(1,))
    leaning = BlackSuitEvidence(corners=-2.2, pips=0.0, shaped=1)
    assert not leaning.says
    assert check(sure("QS"), card, glyphs, evidence=leaning) == sure("QS")
    blurred = check(sure("QS"), cv2.GaussianBlur(card, (0, 0), 2.5), glyphs, evidence=leaning)
    assert blurred.suit_confidence <= CAP and not blurred.is_sure
    # Leaning to the other black suit, or with a glyph against the suit, it is held.
    for doubt in (replace(leaning, corners=2.2),
                  replace(leaning, corners=-2.2, shaped=2, dissent=3.0)):
        held = check(sure("QS"), card, glyphs, evidence=doubt)
        assert held.suit_confidence <= CAP and not held.is_sure


def _eight_of_diamonds_in_black_ink(faces: dict[Card, np.ndarray]) -> np.ndarray:
    """A deck's 8D, straightened, its red ink printed black: a deck printed in one ink."""
    face = _red_ink_printed(faces[Card.parse("8D")], (20, 20, 20))
    return flat_card({Card.parse("8D"): face}, "8D")


def test_glyphs_of_the_suit_read_that_only_lean_to_it_are_no_glyphs_of_another_shape(
        deck_faces: Faces, glyphs: GlyphNet) -> None:
    # plastic's 4S and JS under hard light: both corners' glyphs, and the 4's pips, named
    # spades, together short of saying it (3.3). Judged as no glyph, they are no glyphs of
    # another shape either (a heart or a diamond in black ink, which holds the card).
    queen = flat_card(deck_faces("anglo", 350), "QS")
    assert all(found is not None and found.suit is not None for found in find_indices(queen))
    both_corners = BlackSuitEvidence(corners=-3.4, pips=0.0, shaped=2)
    assert check(sure("QS"), queen, glyphs, evidence=both_corners) == sure("QS")
    one_shapeless = replace(both_corners, corners=-2.0, shaped=1)
    assert check(sure("QS"), queen, glyphs, evidence=one_shapeless) == sure("QS")
    # Pips that are no spade or club still hold a black suit the corners lean to.
    eight = _eight_of_diamonds_in_black_ink(deck_faces("paris", 350))
    shapeless_pips = BlackSuitEvidence(corners=-2.0, pips=0.0, shaped=2, pips_seen=4)
    held = check(sure("8S"), eight, glyphs, evidence=shapeless_pips)
    assert held.suit_confidence <= CAP and not held.is_sure
    spade_pips = replace(shapeless_pips, pips=-1.3, shaped=6, pips_shaped=4)
    assert check(sure("8S"), eight, glyphs, evidence=spade_pips) == sure("8S")


def test_two_glyphs_shaped_as_spades_whose_stems_the_blur_took_confirm_a_spade(
        deck_faces: Faces, glyphs: GlyphNet) -> None:
    # anglo_bitmap's QS under hard light: both corners' spades, their stems blurred away,
    # named neither spade nor club (0.53 and 0.90), leaning to a spade (3.2). Two glyphs of
    # no black suit's shape hold a black suit (a heart or a diamond in black ink), but not
    # two shaped as spades without their stems (vision.glyphs.stemless_spade).
    queen = flat_card(deck_faces("anglo", 350), "QS")
    assert all(found is not None and found.suit is not None for found in find_indices(queen))
    shapeless = BlackSuitEvidence(corners=-3.2, pips=0.0, shaped=0)
    held = check(sure("QS"), queen, glyphs, evidence=shapeless)
    assert held.suit_confidence <= CAP and not held.is_sure
    stemless = replace(shapeless, stemless=2)
    assert check(sure("QS"), queen, glyphs, evidence=stemless) == sure("QS")
    # One beside a glyph of another shape still holds it; and they confirm no club.
    assert not check(sure("QS"), queen, glyphs, evidence=replace(stemless, stemless=1)).is_sure
    assert not check(sure("QC"), queen, glyphs, evidence=stemless).is_sure


#: A hard scene of the black court cards' survey (seed 5): print blurred 1.45, under which
#: anglo_bitmap's spades lose their stems, a pixel or two thin.
STEMS_BLURRED_AWAY = SceneParams(
    card_height_frac=0.678, center_shift=(0.57, 0.31), rotation_deg=-3.5,
    tilt_deg=(-1.08, -5.24), camera_height_mm=109.9, upside_down=True, slot_side="left",
    lips_mm=(2.48, 1.04), window_ends_mm=(1.8, 2.2), frame_width_mm=10.75,
    metal_bgr=(50, 51, 58), reflection=0.0, reflection_pos=0.95, cloth_bgr=(40, 90, 30),
    colour_temp_k=3475.0, white_balance=0.66, exposure=0.93, gradient=0.086,
    gradient_angle_deg=195.2, glare=((0.575, 0.821, 0.285, 0.876),), noise_sigma=2.87,
    blur_sigma=1.45, jpeg_quality=65, skin_bgr=(45, 60, 95), gamma=0.81, saturation=0.99,
    sharpen=0.0, barrel=0.1)


@pytest.mark.parametrize("code", ["QS", "KS"])
def test_spades_whose_stems_the_blur_took_stand_on_simulated_frames(
        deck_faces: Faces, glyphs: GlyphNet, monkeypatch: pytest.MonkeyPatch, code: str
        ) -> None:
    # Where both corners' spades are cut out stemless and named neither spade nor club, the
    # spade stands; without the shape's test they were held as a heart or a diamond in
    # black ink.
    face = deck_faces("anglo_bitmap", 350, alpha=True)[Card.parse(code)]
    stemless = []
    for seed in range(10):
        card = _located(render_frame(face, STEMS_BLURRED_AWAY, np.random.default_rng(seed),
                                     offset_px=2.65))
        evidence = black_suit_evidence(card, glyphs, Card.parse(code).rank)
        if evidence.shaped == 0 and evidence.stemless == 2:
            stemless.append(card)
    assert len(stemless) >= 4
    assert all(check(sure(code), card, glyphs) == sure(code) for card in stemless)
    monkeypatch.setattr(vision.glyphs, "stemless_spade", lambda glyph: False)
    assert not any(check(sure(code), card, glyphs).is_sure for card in stemless)


@pytest.mark.parametrize("deck", ["paris", "dondorf"])
@pytest.mark.parametrize(("code", "misread"), [("4D", "4S"), ("9D", "9S"), ("7H", "7C")])
def test_pips_of_no_black_shape_hold_a_black_suit_with_no_glyph_found(
        deck_faces: Faces, glyphs: GlyphNet, deck: str, code: str, misread: str) -> None:
    # A deck printed in one ink, its corners' glyphs unfound: the pips are cut out and
    # named, and none is a spade's or a club's shape. A black card's pips are: it stands.
    def unfound(code: str) -> np.ndarray:
        face = _red_ink_printed(deck_faces(deck, 350)[Card.parse(code)], (20, 20, 20))
        card = _corner_glyphs_painted_out(flat_card({Card.parse(code): face}, code))
        assert all(found is None or found.suit is None for found in find_indices(card))
        return card

    card = unfound(code)
    evidence = black_suit_evidence(card, glyphs, Card.parse(code).rank)
    assert evidence.shaped == 0 and evidence.pips_seen > 0
    held = check(sure(misread), card, glyphs)
    assert held.suit_confidence <= CAP and not held.is_sure
    assert check(sure(misread), unfound(misread), glyphs) == sure(misread)


@pytest.mark.parametrize("deck", ["paris", "dondorf"])
def test_pips_of_no_black_shape_overrule_a_corner_glyph_named_a_spade(
        deck_faces: Faces, glyphs: GlyphNet, deck: str) -> None:
    # A diamond in black ink under broad glare, its corner glyph named a spade (log-odds
    # 7.0, past RIG.md's range): the four pips cut out, none a spade or a club, hold it.
    # Where two of them are spades, the spade stands.
    card = _eight_of_diamonds_in_black_ink(deck_faces(deck, 350))
    corner_says_spade = BlackSuitEvidence(corners=-7.0, pips=0.0, shaped=1, pips_seen=4)
    held = check(sure("8S"), card, glyphs, evidence=corner_says_spade)
    assert held.suit_confidence <= CAP and not held.is_sure
    two_spade_pips = replace(corner_says_spade, pips=-3.0, shaped=3, pips_shaped=2)
    assert check(sure("8S"), card, glyphs, evidence=two_spade_pips) == sure("8S")
