"""The zero-shot reader on real rendered cards through the real simulator."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest
from pytest_mock import MockerFixture

from shoe.cards import Card, Rank, Suit
from vision.corpus import render_deck
from vision.courtcards import SURE_CORNER
from vision.crosscheck import CAP, cap_rank, cap_suit, look_at_middle
from vision.indexnet import (
    PATCH_H,
    PATCH_W,
    RANK_CLASSES,
    SUIT_CLASSES,
    IndexNet,
    corner_patches,
)
from vision.indices import IndexBlobs, find_indices, index_near_edge, turn_glyphs
from vision.locate import locate, look_deeper
from vision.quad import CARD_H, CARD_W, CardQuad, straighten
from vision.reader import MARGIN, CornerReader, ModelError, load_reader
from vision.reading import ACCEPT_THRESHOLD, Reading
from vision.sceneparams import SceneParams
from vision.stills import StillCamera, Thumb, nearer_edge, render_frame
from vision.unturned import turned_witness

from learning_pass import (
    DEV_DECK,
    HELD_OUT_DECK,
    REFLECTION_PAST_THE_TOP,
    empty_box,
    faces,
    stills,
    table_cloth,
)
from straightened import flat, flat_card

CARDS = [Card.parse(c) for c in ("AS", "10H", "QD", "7C", "KH", "2S", "JC", "9D", "3H", "8S")]


@pytest.fixture(scope="module")
def reader() -> CornerReader:
    return CornerReader()


@pytest.mark.parametrize("deck", [DEV_DECK, HELD_OUT_DECK])
def test_reads_known_cards_of_a_dev_and_a_held_out_deck(reader: CornerReader, deck: str) -> None:
    readings = [reader.read(f) for f in stills(deck, CARDS, seed=41)]
    sure = [(r.card, c) for r, c in zip(readings, CARDS, strict=True) if r.is_sure]
    wrong = [(r, c) for r, c in sure if r != c]
    assert not wrong
    assert len(sure) >= len(CARDS) - 1
    for r in readings:
        assert 0.0 <= r.confidence <= 1.0


def test_reads_the_card_either_way_up(reader: CornerReader) -> None:
    frame = stills(DEV_DECK, [Card.parse("QH")], seed=42)[0]
    upright, turned = reader.read(frame), reader.read(np.ascontiguousarray(frame[::-1, ::-1]))
    assert upright.card == turned.card == Card.parse("QH")


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (320, 240)])
def test_reads_frames_of_the_other_sizes_a_camera_may_be_set_to(
        reader: CornerReader, dev_deck: dict[Card, np.ndarray], size: tuple[int, int]) -> None:
    # RIG.md's 640x480 is configurable: the card fills as much of the frame's height.
    rng = np.random.default_rng(43)
    for card in CARDS[:5]:
        frame = render_frame(dev_deck[card], SceneParams.random(rng, "normal", size), rng)
        assert frame.shape == (size[1], size[0], 3)
        reading = reader.read(frame)
        assert reading.is_sure and reading.card == card, (card, reading)


@pytest.mark.parametrize("frame", [empty_box(3), empty_box(6), empty_box(86), empty_box(173),
                                   table_cloth(4)],
                         ids=["empty box", "empty box, light cloth", "the box's frame read as 10C",
                              "the same, lit otherwise", "table cloth"])
def test_abstains_where_there_is_no_card(reader: CornerReader, frame: np.ndarray) -> None:
    reading = reader.read(frame)
    assert reading.confidence < ACCEPT_THRESHOLD
    assert not reading.is_sure


def test_an_unsure_reading_looks_again_past_a_reflection_on_the_metal(
        reader: CornerReader) -> None:
    # The outline's top lies out on a reflection past the card's edge (test_locate): the
    # top-left index sits low in its corner and reads as another rank, and the two corners
    # disagree. The second look, deeper into the card, reads it surely. (The 4D's four
    # pips in plain view settle it at the first look: its rank is counted exactly.)
    deck = faces("neoclassical_4_color")
    for seed, code in enumerate(("KH", "QS", "4D")):
        card = Card.parse(code)
        frame = StillCamera(REFLECTION_PAST_THE_TOP, np.random.default_rng(seed),
                            [deck[card]]).shoot(deck[card])
        quad = locate(frame)
        assert quad is not None
        first = reader.read_card(straighten(frame, quad))
        if code == "4D":
            assert first.card == card and first.is_sure
        else:
            assert not first.is_sure, code
        reading = reader.read(frame)
        assert reading.card == card and reading.is_sure, code


#: A frame of the thumb survey (seed 30): the outline's foot lies along the thumb, 50-55 px
#: short of the card, so its lower index falls outside it.
FOOT_ON_THE_THUMB = SceneParams(
    card_height_frac=0.711, center_shift=(0.79, -0.92), rotation_deg=-5.7,
    tilt_deg=(5.5, -3.15), camera_height_mm=82.1, upside_down=True, slot_side="left",
    lips_mm=(0.05, 1.94), window_ends_mm=(1.24, 1.8), frame_width_mm=13.0,
    metal_bgr=(61, 62, 68), reflection=0.93, reflection_pos=0.52, cloth_bgr=(90, 50, 30),
    colour_temp_k=4491.0, white_balance=0.66, exposure=0.64, gradient=0.015,
    gradient_angle_deg=83.2, glare=((0.607, 0.657, 0.256, 0.395), (0.201, 0.465, 0.114, 0.326)),
    noise_sigma=8.2, blur_sigma=0.57, jpeg_quality=58, skin_bgr=(80, 110, 160), gamma=0.98,
    saturation=0.71, sharpen=0.0, barrel=0.0)


#: The outlines the locator found there (by seed) before it searched a squat outline further
#: out (vision.locate._SQUATTEST), 0.82 as wide as high: their foot on the thumb.
FOOT_ON_THE_THUMB_OUTLINES = {
    4: CardQuad(((340.3, 34.9), (565.7, 16.2), (582.3, 278.9), (376.9, 298.2))),
    10: CardQuad(((337.9, 34.0), (565.9, 16.4), (581.9, 277.4), (375.1, 302.7))),
    11: CardQuad(((338.0, 35.0), (565.7, 18.3), (582.3, 278.2), (375.8, 303.0))),
    39: CardQuad(((339.5, 35.6), (565.4, 17.5), (582.8, 277.3), (376.4, 300.8)))}


def test_the_second_look_stands_only_where_it_mends_the_corners(reader: CornerReader) -> None:
    # bellot's 6S with its lower index outside the outline: the upper corner's narrow 6,
    # beside the card's dark edge, reads as 10, held. The outline searched deeper still
    # leaves the lower index out, and reads 10S more surely (0.945 with seed 10, a sure
    # wrong reading): that second reading must not stand.
    face = render_deck("bellot", 350, alpha=True)[Card.parse("6S")]
    for seed, quad in FOOT_ON_THE_THUMB_OUTLINES.items():
        frame = StillCamera(FOOT_ON_THE_THUMB, np.random.default_rng(seed), [face]).shoot(
            face, thumb=Thumb(0.433, 0.628), offset_px=1.45)
        first = reader.read_card(straighten(frame, quad))
        deeper = look_deeper(frame, quad)
        assert deeper is not None
        again = reader.read_card(straighten(frame, deeper))
        assert first.card == again.card == Card.parse("10S"), seed
        assert again.confidence > first.confidence, seed
        assert reader._look_deeper(frame, quad, first) == first, seed
        # The locator now finds the card whole, its outline searched further out.
        read = reader.read(frame)
        assert read.card == Card.parse("6S") and read.is_sure, seed


def test_corner_patches_are_the_networks_input() -> None:
    card = np.full((252, 180, 3), 255, np.uint8)
    patches = corner_patches(card)
    assert patches.shape == (2, 3, PATCH_H, PATCH_W)
    assert patches.dtype == np.float32


def test_each_corner_reads_as_it_would_alone(dev_deck: dict[Card, np.ndarray]) -> None:
    # OpenCV 4.x ran a batch of two patches wrong (the second corner's rank): the two
    # corners must come out as each does on its own, whatever OpenCV is installed.
    net = IndexNet.load()
    patches = np.concatenate([corner_patches(cv2.resize(dev_deck[Card.parse(code)],
                                                        (CARD_W, CARD_H)))
                              for code in ("KH", "7C")])
    ranks, suits = net.probabilities(patches)
    for i, patch in enumerate(patches):
        alone_rank, alone_suit = net.probabilities(patch[None])
        np.testing.assert_allclose(ranks[i], alone_rank[0], atol=1e-5)
        np.testing.assert_allclose(suits[i], alone_suit[0], atol=1e-5)
    assert [int(r) for r in ranks.argmax(axis=1)] == [12, 12, 6, 6]  # K, K, 7, 7


def test_a_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="cannot load"):
        IndexNet.load(tmp_path)


def test_a_model_file_missing_or_corrupt_beside_its_calibration_is_a_clear_error(
        tmp_path: Path) -> None:
    packaged = Path(__file__).resolve().parents[2] / "vision" / "data"
    shutil.copy(packaged / "index_net.json", tmp_path)
    with pytest.raises(ModelError, match="no such file"):
        IndexNet.load(tmp_path)
    (tmp_path / "index_net.onnx").write_bytes(b"not a network")
    with pytest.raises(ModelError, match="cannot load the index network"):
        IndexNet.load(tmp_path)


def test_load_reader_without_a_profile_is_zero_shot() -> None:
    assert isinstance(load_reader(None), CornerReader)


def test_corners_of_two_different_cards_are_not_read_surely(
        reader: CornerReader, dev_deck: dict[Card, np.ndarray]) -> None:
    # Each corner alone is sure of its card; together they are doubt, neither one winning.
    for top, bottom in (("6H", "9H"), ("KS", "QS"), ("7C", "7S")):
        straight, other = flat_card(dev_deck, top), flat_card(dev_deck, bottom)
        h, w = round(0.5 * CARD_H), round(0.5 * CARD_W)
        straight[h:, w:] = other[h:, w:]  # the bottom-right corner from the other card
        reading = reader.read_card(straight)
        assert not reading.is_sure, (top, bottom, reading)


def test_corners_naming_two_ranks_stand_only_where_the_pips_count_one_exactly(
        reader: CornerReader, dev_deck: dict[Card, np.ndarray]) -> None:
    # A 9C whose lower index, printed upright, was read upside down as 6 and whose upper
    # one was read as 10: its nine pips stood where a 10's do, and made a sure 10C of it.
    ten = _lower_index_of(flat_card(dev_deck, "10C"), flat_card(dev_deck, "6C"))
    exact = reader.read_card(ten)
    assert exact.is_sure and exact.card == Card.parse("10C"), exact
    # Its lower centre pip painted out: nine pips, in places a 10 has and a 6 has not.
    paper = ten[CARD_H // 2, CARD_W // 2].tolist()
    cv2.circle(ten, (round(0.5 * CARD_W), round(0.69 * CARD_H)), 14, paper, -1)
    assert not reader.read_card(ten).is_sure


def _lower_index_of(card: np.ndarray, other: np.ndarray) -> np.ndarray:
    """The straightened card with the lower index of another (clear of the pips)."""
    h, w = round(0.25 * CARD_H), round(0.2 * CARD_W)
    out = card.copy()
    out[CARD_H - h:, CARD_W - w:] = other[CARD_H - h:, CARD_W - w:]
    return out


def _blank_middle(card: np.ndarray) -> np.ndarray:
    """The straightened card with all between its index corners painted the paper's colour:
    no pip and no picture."""
    h, w = round(0.25 * CARD_H), round(0.2 * CARD_W)
    out = card.copy()
    out[h:CARD_H - h, w:CARD_W - w] = card[CARD_H // 2, 3]
    return out


def _paint_out_pips(card: np.ndarray, keep: Callable[[float, float], bool]) -> np.ndarray:
    """The straightened card with the middle's pips painted out where ``keep(x, y)`` (shares
    of the card) is false."""
    out, paper = card.copy(), card[CARD_H // 2, 3].tolist()
    for x, y in look_at_middle(card).places:
        if not keep(x, y):
            cv2.circle(out, (round(x * CARD_W), round(y * CARD_H)), 14, paper, -1)
    return out


@pytest.mark.parametrize(("code", "other"), [("9C", "6C"), ("6D", "9D")])
def test_corners_naming_a_6_and_a_9_are_settled_by_where_the_pips_stand(
        reader: CornerReader, dev_deck: dict[Card, np.ndarray], code: str, other: str) -> None:
    # A deck that prints its lower index unturned shows a 9 as a 6 in the corner turned to
    # read it (kde-ancient-egyptians). A pip hidden, the count does not settle it, but where
    # the pips stand does: a 9's side rows between the ends and its centre pip are no 6's,
    # a 6's middle row is no 9's.
    card = _lower_index_of(flat_card(dev_deck, code), flat_card(dev_deck, other))
    lowest = max(look_at_middle(card).places, key=lambda place: place[1])
    one_hidden = _paint_out_pips(card, lambda x, y: (x, y) != lowest)
    assert len(look_at_middle(one_hidden).places) == int(code[0]) - 1
    reading = reader.read_card(one_hidden)
    assert reading.is_sure and reading.card == Card.parse(code), reading
    # Pips only where both a 6 and a 9 have them (the four at the ends) say neither.
    ends = _paint_out_pips(card, lambda _, y: abs(y - 0.5) > 0.2)
    assert len(look_at_middle(ends).places) == 4
    assert not reader.read_card(ends).is_sure


def test_one_index_read_alone_through_an_outline_fitted_to_the_hull_is_held(
        reader: CornerReader, dev_deck: dict[Card, np.ndarray]) -> None:
    # Such an outline that leaves one index off the card lies off there, and may cut the
    # other index as well: what that one says alone is not sure.
    for code in ("8S", "KH", "3D"):
        whole = flat_card(dev_deck, code)
        assert reader.read_card(whole, fitted=True).is_sure
        one_index = whole.copy()
        h, w = round(0.25 * CARD_H), round(0.2 * CARD_W)
        one_index[CARD_H - h:, CARD_W - w:] = whole[CARD_H // 2, CARD_W - 3]  # paper
        alone = reader.read_card(one_index)
        assert alone.is_sure and alone.card == Card.parse(code), alone
        assert not reader.read_card(one_index, fitted=True).is_sure


def test_an_index_printed_unturned_stands_for_itself_through_an_outline_fitted_to_the_hull(
        reader: CornerReader, dev_deck: dict[Card, np.ndarray]) -> None:
    # A deck that prints its lower index unturned shows it upside down in the corner turned
    # to read it, where the network sees no index. Through an outline fitted to the hull,
    # that index turned back and naming the rank shows the outline holds both indices: the
    # card stands (a kde-ancient-egyptians 2D was held). Painted out, it is held.
    for code in ("KH", "3D", "2S", "5H"):
        printed = flat_card(dev_deck, code)
        found = find_indices(printed)[1]
        assert found is not None and found.suit is not None
        unturned = turn_glyphs(printed, 1, found)
        reading = reader.read_card(unturned, fitted=True)
        assert reading.is_sure and reading.card == Card.parse(code), reading
        h, w = round(0.25 * CARD_H), round(0.2 * CARD_W)
        unturned[CARD_H - h:, CARD_W - w:] = printed[CARD_H // 2, CARD_W - 3]  # paper
        assert not reader.read_card(unturned, fitted=True).is_sure


def test_one_index_read_alone_through_an_outline_too_short_for_a_card_is_held(
        reader: CornerReader, dev_deck: dict[Card, np.ndarray]) -> None:
    # The camera's mount makes a card 55-90% of the frame's height: an outline under half
    # of it may be a part of the card (beside the thumb), its one index twice its size.
    for code in ("8S", "KH"):
        whole = dev_deck[Card.parse(code)]
        one_index = whole.copy()
        h, w = whole.shape[:2]
        one_index[h - round(0.25 * h):, w - round(0.2 * w):] = whole[h // 2, w - 3]  # paper
        for face, high, sure in ((whole, 0.46, True), (one_index, 0.75, True),
                                 (one_index, 0.46, False)):
            frame = StillCamera(SceneParams(card_height_frac=high), np.random.default_rng(0),
                                [face]).shoot(face)
            reading = reader.read(frame)
            assert reading.card == Card.parse(code) and reading.is_sure == sure, (high, reading)


def test_one_index_read_alone_through_an_outline_too_squat_for_a_card_is_held(
        reader: CornerReader, dev_deck: dict[Card, np.ndarray]) -> None:
    # A card is 0.64-0.75 as wide as it is high: an outline wider for its height is a part
    # of the card, its foot cut off (at the dealer's thumb), its one index stretched.
    for code in ("8S", "3D", "QC"):
        whole = dev_deck[Card.parse(code)]
        top = whole[:round(0.74 * whole.shape[0])]
        for face, sure in ((whole, True), (top, False)):
            frame = StillCamera(SceneParams(), np.random.default_rng(0), [face]).shoot(face)
            reading = reader.read(frame)
            assert reading.card == Card.parse(code) and reading.is_sure == sure, reading
            # The suit comes from that one cut index too; the audit counts it apart.
            assert (reading.suit_confidence >= ACCEPT_THRESHOLD) == sure, reading


@pytest.mark.parametrize("code", ["QH", "10S", "7D"])
def test_one_index_read_alone_through_an_outline_that_took_in_the_box_is_held(
        dev_deck: dict[Card, np.ndarray], code: str) -> None:
    # Under candle light the paper and the box's wood are alike, and an outline may take in
    # the wood below the card (past RIG.md's colour range an npm QH so located was read as
    # 10H at 0.996 from its upper corner). The wood shows across the card's middle as a
    # band; the lower corner, on the wood, shows no index.
    face = dev_deck[Card.parse(code)]
    wood = round(0.15 * face.shape[0])
    padded = cv2.copyMakeBorder(face, 0, wood, 0, 0, cv2.BORDER_CONSTANT, value=(30, 80, 140))
    card = flat(padded)
    assert look_at_middle(card).banded
    reading = CornerReader().read_card(card)
    assert reading.card == Card.parse(code) and not reading.is_sure, reading
    assert CornerReader().read_card(flat_card(dev_deck, code)).is_sure


def _lower_index(faces: dict[Card, np.ndarray], code: str) -> tuple[np.ndarray, IndexBlobs]:
    """One face straightened, and its lower index's glyphs as :func:`find_indices` finds
    them."""
    printed = flat_card(faces, code)
    found = find_indices(printed)[1]
    assert found is not None
    return printed, found


@pytest.mark.parametrize(("code", "misprint"), [("KH", "JH"), ("KS", "JS"), ("KC", "JC"),
                                              ("JS", "QS"), ("JH", "KH"), ("JC", "QC")])
def test_an_index_printed_unturned_witnesses_the_other_corner(
        reader: CornerReader, dev_deck: dict[Card, np.ndarray], mocker: MockerFixture,
        code: str, misprint: str) -> None:
    # A deck that prints its lower index unturned, the rank still over the glyph, shows it
    # upside down in the corner turned to read it, where the network sees no index; its
    # glyphs turned back where they stand, it must name the card the upper index names.
    # (An index printed unturned as one block is test_pipcount's upright lower index.)
    printed, found = _lower_index(dev_deck, code)
    for together in (False, True):  # turned back where it was turned
        assert np.array_equal(turn_glyphs(turn_glyphs(printed, 1, found, together), 1, found,
                                          together), printed)
    card = turn_glyphs(printed, 1, found)  # the lower index printed unturned
    alone = reader.read_card(card)
    assert alone.is_sure and alone.card == Card.parse(code), alone
    h, w = round(0.25 * CARD_H), round(0.2 * CARD_W)
    other = card.copy()
    other[:h, :w] = flat_card(dev_deck, misprint)[:h, :w]  # the upper index another card's
    assert not reader.read_card(other).is_sure
    # And the rank is held where a check holds the card for its suit: the audit counts it.
    mocker.patch("vision.reader.check", side_effect=lambda reading, *_: cap_suit(reading))
    assert reader.read_card(other).rank_confidence < ACCEPT_THRESHOLD
    mocker.stopall()
    if code.startswith("J"):
        # A J on its head is in part a 4 to the network (kde-ancient-egyptians' JD was held
        # at 0.83): that corner's vote holds the J the upper corner names surely. Turned
        # back, it names the J surely too, and the upper corner speaks alone; without it,
        # the vote holds the card.
        mocker.patch("vision.reader.turned_witness", return_value=(None, None))
        assert not reader.read_card(card).is_sure


@pytest.mark.parametrize(("code", "together"), [("JD", False), ("JD", True), ("KD", True),
                                                ("6D", True)])
def test_an_index_on_its_head_that_passes_for_another_rank_still_witnesses(
        reader: CornerReader, dev_deck: dict[Card, np.ndarray], mocker: MockerFixture,
        code: str, together: bool) -> None:
    # The lower index printed unturned, glyph by glyph or as one block, may pass for another
    # rank on its head (kde-ancient-egyptians' A was read there as a J at 0.98): that
    # corner's vote holds the card. Turned back, it names the upper corner's rank.
    printed, found = _lower_index(dev_deck, code)
    card = turn_glyphs(printed, 1, found, together)
    ranks, _ = IndexNet.load().probabilities(corner_patches(card))
    assert ranks[1, -1] < 0.5  # the corner shows an index
    assert RANK_CLASSES[int(ranks[1, :-1].argmax())] != Card.parse(code).rank
    reading = reader.read_card(card)
    assert reading.is_sure and reading.card == Card.parse(code), reading
    mocker.patch("vision.reader.turned_witness", return_value=(None, None))
    assert not reader.read_card(card).is_sure


@pytest.mark.parametrize(("as_it_stands", "witnessed"), [(Rank.QUEEN, True), (Rank.FOUR, False)])
def test_a_corner_naming_the_rank_either_way_up_is_no_witness(
        dev_deck: dict[Card, np.ndarray], as_it_stands: Rank, witnessed: bool) -> None:
    # The upper corner reads 4 surely; the lower, turned back, reads 4 too. That witnesses
    # the 4 only where the lower corner, as it stands, names another rank (an index on its
    # head): a glyph blurred round reads alike either way up (a blurred QH read as 4 in
    # both corners, past RIG.md's range).
    ranks = np.zeros((2, len(RANK_CLASSES)))
    ranks[:, -1] = 0.05
    ranks[0, RANK_CLASSES.index(Rank.FOUR)] = 0.95
    ranks[1, RANK_CLASSES.index(as_it_stands)] = 0.55
    ranks[1, RANK_CLASSES.index(Rank.SEVEN)] = 0.40
    turned, alone = turned_witness(lambda card, corner: Rank.FOUR, flat_card(dev_deck, "4H"),
                                   ranks, RANK_CLASSES.index(Rank.FOUR))
    assert (alone == 0) == witnessed and (turned is not None) == witnessed


@pytest.mark.parametrize(("code", "upper"), [("9D", "6D"), ("6D", "9D"), ("6H", "9H")])
def test_a_six_and_a_nine_do_not_witness_each_other_turned_back(
        reader: CornerReader, dev_deck: dict[Card, np.ndarray], code: str, upper: str) -> None:
    # A 6 turned half round is a 9. Where one corner reads a 6 and the other a 9, and no
    # pip is there to count, the corner turned back would witness whichever rank the vote
    # leaned to: this 9D was read as 6D at 0.9999.
    card = flat_card(dev_deck, code)
    h, w = round(0.25 * CARD_H), round(0.2 * CARD_W)
    card[:h, :w] = flat_card(dev_deck, upper)[:h, :w]
    assert not reader.read_card(_blank_middle(card)).is_sure


@pytest.mark.parametrize("leaning", [Suit.CLUBS, Suit.SPADES])
def test_the_glyphs_decide_a_suit_the_network_is_unsure_of_on_sharp_print_only(
        deck_faces: Callable[..., dict[Card, np.ndarray]], mocker: MockerFixture,
        leaning: Suit) -> None:
    # An index network leaning to one black suit (0.63), as on a card out of focus past
    # RIG.md's range: the glyphs decide on sharp print, where they are as sure as they
    # learned to be, but not on blurred print, where a club's corner glyphs ran together
    # into spades (a blind deck's AC was read surely as AS).
    net = IndexNet.load()
    ranks = np.zeros((2, len(RANK_CLASSES)))
    ranks[:, RANK_CLASSES.index(Rank.ACE)] = 1.0
    suits = np.zeros((2, len(SUIT_CLASSES)))
    suits[:, SUIT_CLASSES.index(leaning)] = 0.63
    suits[:, SUIT_CLASSES.index(Suit.SPADES if leaning == Suit.CLUBS else Suit.CLUBS)] = 0.37
    mocker.patch.object(IndexNet, "probabilities", return_value=(ranks, suits))
    reader = CornerReader(net)
    card = flat_card(deck_faces("dondorf", 350), "AS")
    sharp = reader.read_card(card)
    assert sharp.card == Card.parse("AS") and sharp.is_sure
    blurred = reader.read_card(cv2.GaussianBlur(card, (0, 0), 2.0))
    assert not blurred.is_sure and blurred.suit_confidence < ACCEPT_THRESHOLD


def _reading_hearts(mocker: MockerFixture, ranks: np.ndarray) -> CornerReader:
    """A reader whose index network gives these corners' ``ranks``, and hearts surely."""
    suits = np.zeros((2, len(SUIT_CLASSES)))
    suits[:, SUIT_CLASSES.index(Suit.HEARTS)] = 1.0
    net = IndexNet.load()
    mocker.patch.object(IndexNet, "probabilities", return_value=(ranks, suits))
    return CornerReader(net)


def test_a_rank_torn_between_a_queen_and_a_jack_is_settled_by_the_queens_counter(
        deck_faces: Callable[..., dict[Card, np.ndarray]], mocker: MockerFixture) -> None:
    # orell's queens, in a typeface the index network never learned, were held under hard
    # light, read Q at 0.59-0.88 against J. A Q's bowl encloses a counter, a J's print none.
    ranks = np.zeros((2, len(RANK_CLASSES)))
    ranks[:, RANK_CLASSES.index(Rank.QUEEN)] = 0.6
    ranks[:, RANK_CLASSES.index(Rank.JACK)] = 0.4
    reader = _reading_hearts(mocker, ranks)
    faces = deck_faces("orell", 350)
    queen = reader.read_card(flat_card(faces, "QH"))
    assert queen.is_sure and queen.card == Card.parse("QH"), queen
    jack = reader.read_card(flat_card(faces, "JH"))
    assert not jack.is_sure and jack.rank_confidence < ACCEPT_THRESHOLD, jack


@pytest.mark.parametrize("upper", [{Rank.QUEEN: 0.85, Rank.NINE: 0.15},
                                   {Rank.JACK: 0.55, Rank.QUEEN: 0.31, Rank.NINE: 0.14}])
def test_a_queen_torn_with_a_nine_or_named_a_jack_in_one_corner_is_settled_by_its_counter(
        deck_faces: Callable[..., dict[Card, np.ndarray]], mocker: MockerFixture,
        upper: dict[Rank, float]) -> None:
    # orell's QH under hard light, its pale picture in pieces that show no picture (painted
    # out here): read Q at 0.85 against a 9 in both corners, or (the upper row here) J at
    # 0.55 in one corner and Q at 0.91 in the other. A 9's bowl seldom closes across the
    # rank's middle, a J's print never; where a corner names a J, the counter in its own
    # print refutes it.
    ranks = np.zeros((2, len(RANK_CLASSES)))
    for rank, share in upper.items():
        ranks[0, RANK_CLASSES.index(rank)] = share
    ranks[1, RANK_CLASSES.index(Rank.QUEEN)] = 0.91
    ranks[1, RANK_CLASSES.index(Rank.NINE)] = 0.09
    reader = _reading_hearts(mocker, ranks)
    faces = deck_faces("orell", 350)
    queen = reader.read_card(_blank_middle(flat_card(faces, "QH")))
    assert queen.is_sure and queen.card == Card.parse("QH"), queen
    for other in ("JH", "9H"):
        misread = reader.read_card(_blank_middle(flat_card(faces, other)))
        assert not misread.is_sure and misread.rank_confidence < ACCEPT_THRESHOLD, misread


def test_an_index_printed_near_the_edge_is_read_again_within_a_margin_of_paper(
        reader: CornerReader, dev_deck: dict[Card, np.ndarray], mocker: MockerFixture) -> None:
    # anglo's KH with its design 7.5% of the card nearer the edge all round, and the box's
    # lips over its long edges: the network doubts the index the outline's side comes so
    # close to (0.87-0.90). Shrunk within a margin of its own paper, it is read surely.
    face = nearer_edge(dev_deck[Card.parse("KH")], 0.075)
    for seed in (1, 2):
        frame = StillCamera(SceneParams(), np.random.default_rng(seed), [face]).shoot(face)
        quad = locate(frame)
        assert quad is not None
        first = reader.read_card(straighten(frame, quad))
        assert first.card == Card.parse("KH") and not first.is_sure, first
        reading = reader.read(frame)
        assert reading.card == Card.parse("KH") and reading.is_sure, reading
    # A reading a check holds is not read again.
    margin = mocker.spy(sys.modules[CornerReader.__module__], "within_margin")
    mocker.patch("vision.reader.check", side_effect=lambda reading, *_: cap_rank(reading))
    assert not reader.read(frame).is_sure
    margin.assert_not_called()


def test_the_look_within_a_margin_only_confirms_the_card_the_first_look_leaned_to(
        reader: CornerReader, dev_deck: dict[Card, np.ndarray], mocker: MockerFixture) -> None:
    # anglo's 7S, its design 8% nearer the edge: the first look leans to 4S, unsure; the
    # look within a margin reads 7S surely. The second look is a second chance for a
    # misreading too, and names no card the first did not.
    face = nearer_edge(dev_deck[Card.parse("7S")], 0.08)
    frame = StillCamera(SceneParams(), np.random.default_rng(1), [face]).shoot(face)
    confirmed = mocker.spy(sys.modules[CornerReader.__module__], "_confirmed")
    reading = reader.read(frame)
    assert reading.card == Card.parse("4S") and not reading.is_sure, reading
    again = confirmed.call_args.args[1].reading
    assert again.card == Card.parse("7S") and again.is_sure, again


#: A frame within RIG.md's ranges (`bench/vision_accuracy.py --difficulty hard --seed 38`,
#: orell's QH): the outline lies a pixel off the card's left side, on the box's dark edge.
_OFF_BY_A_PIXEL = SceneParams(
    card_height_frac=0.834866512497467, center_shift=(-0.3908496814495426, -0.47943465494691595),
    rotation_deg=0.7491820549066501, tilt_deg=(7.395879068855031, 5.354698410496221),
    camera_height_mm=85.52447386110784, lips_mm=(2.716328453475014, 2.809986936304509),
    window_ends_mm=(2.139637798866242, 0.1599957951434321), frame_width_mm=12.801011677741725,
    metal_bgr=(80, 80, 80), reflection=0.7351474042921906, reflection_pos=0.03887542590952919,
    cloth_bgr=(90, 50, 30), colour_temp_k=4162.07938173218, white_balance=0.2739464890025078,
    exposure=0.6831893098705133, gradient=0.007871941447953612,
    gradient_angle_deg=265.42225327222917, noise_sigma=7.0618369071847535,
    blur_sigma=1.298484951647431, jpeg_quality=None, gamma=1.0440312596240902,
    saturation=1.0110323706755533, sharpen=0.9643331389242065)

#: A frame within RIG.md's ranges (`--foreign --seed 27`, tarocco's QC, indexed D).
_FOREIGN_QUEEN = SceneParams(
    card_height_frac=0.7347381623504265, center_shift=(-0.517363538252738, 0.16353257868535054),
    rotation_deg=4.279274519405224, tilt_deg=(-2.289939829106973, 0.2340463352648552),
    camera_height_mm=109.07151288400064, upside_down=True, slot_side="left",
    lips_mm=(1.5428597868587728, 0.9344261295212267),
    window_ends_mm=(2.427920950542304, 0.7581054303416568), frame_width_mm=12.721725099174282,
    metal_bgr=(66, 67, 73), reflection_pos=0.25186469770839737, cloth_bgr=(30, 30, 30),
    colour_temp_k=2783.707564391057, white_balance=0.2196360808658056,
    exposure=1.0234697745404415, gradient=0.18088778202846129,
    gradient_angle_deg=160.79493628571208, noise_sigma=1.8581795538963055,
    blur_sigma=0.46540259546833235, jpeg_quality=54, gamma=0.8981153569286388,
    saturation=0.7926662401195994, sharpen=0.8588329285604581)


def _first_look(reader: CornerReader, frame: np.ndarray
                ) -> tuple[CardQuad, np.ndarray, Reading]:
    """The outline found in a frame, the card it straightens, and the reader's first look
    at that card."""
    quad = locate(frame)
    assert quad is not None
    card = straighten(frame, quad)
    return quad, card, reader.read_card(card, quad.fitted)


def test_corners_torn_with_one_sure_of_the_rank_are_read_again_within_a_margin(
        reader: CornerReader, deck_faces: Callable[..., dict[Card, np.ndarray]]) -> None:
    # orell's QH, its outline a pixel off the card's left side: that corner shows the box's
    # dark edge beside the Q, and the network reads it as 10 or J while the other corner
    # names the Q surely. The deeper look finds no other outline; within a margin both
    # corners read the Q.
    face = deck_faces("orell", 350, alpha=True)[Card.parse("QH")]
    for seed in (2, 12):
        frame = render_frame(face, _OFF_BY_A_PIXEL, np.random.default_rng(seed),
                             offset_px=2.69)
        _, card, first = _first_look(reader, frame)
        assert first.card == Card.parse("QH") and not first.is_sure, first
        ranks, _ = reader._net.probabilities(corner_patches(card))
        queen = RANK_CLASSES.index(Rank.QUEEN)
        assert ranks.argmax(axis=1).tolist() != [queen, queen]
        assert ranks[:, queen].max() >= SURE_CORNER
        reading = reader.read(frame)
        assert reading.card == Card.parse("QH") and reading.is_sure, reading


def test_corners_torn_with_neither_sure_are_not_read_again_within_a_margin(
        reader: CornerReader, deck_faces: Callable[..., dict[Card, np.ndarray]]) -> None:
    # tarocco's queen, indexed D, which the network does not know: torn between a 10 and a
    # J, neither corner sure. Within a margin both corners read the D as a 10, surely; a
    # second look is a second chance for a misreading, and it is not taken.
    face = deck_faces("tarocco", 350, alpha=True)[Card.parse("QC")]
    for seed in (4, 5):
        frame = render_frame(face, _FOREIGN_QUEEN, np.random.default_rng(seed),
                             offset_px=1.44)
        quad, card, first = _first_look(reader, frame)
        assert first.card == Card.parse("10C") and not first.is_sure, first
        again = reader._read_card(card, quad.fitted, margin=MARGIN).reading
        assert again.card == Card.parse("10C") and again.is_sure, again
        assert reader.read(frame) == first


#: A frame past RIG.md's colour range (`bench/vision_accuracy.py --beyond colour --seed 2`):
#: candle light (2200 K), the camera's white balance off, a glare over the upper corner.
_CANDLE_AND_GLARE = SceneParams(
    card_height_frac=0.687, center_shift=(0.898, -0.474), rotation_deg=0.85,
    tilt_deg=(-6.81, -8.4), camera_height_mm=121.0, upside_down=True, lips_mm=(0.75, 0.93),
    window_ends_mm=(1.83, 0.91), frame_width_mm=11.6, metal_bgr=(77, 81, 82),
    cloth_bgr=(40, 90, 30), colour_temp_k=2200.0, white_balance=0.0, exposure=0.926,
    gradient=0.39, gradient_angle_deg=26.5, glare=((0.28, 0.119, 0.237, 0.489),
                                                   (0.133, 0.363, 0.259, 0.357)),
    noise_sigma=3.35, blur_sigma=0.5, jpeg_quality=93, gamma=0.854, saturation=1.28,
    barrel=0.108)


def test_the_look_within_a_margin_settles_no_colour(
        reader: CornerReader, deck_faces: Callable[..., dict[Card, np.ndarray]]) -> None:
    # The look within a margin is for an index nearer the edge than the network learned,
    # not for the light, which falls within the margin the same. tango's 10S under candle
    # light and a glare over one corner: its 10 sure, its suit torn between a spade and a
    # diamond. Within the margin both corners say diamond, and it was read as 10D at
    # 0.92-0.98. (The light's own check holds that suit now too: one corner's paper is dim,
    # and the glare clips the other's.)
    face = deck_faces("tango", 350)[Card.parse("10S")]
    for seed in range(4):
        frame = render_frame(face, _CANDLE_AND_GLARE, np.random.default_rng(seed),
                             offset_px=1.0)
        quad, card, first = _first_look(reader, frame)
        assert first.rank_confidence >= ACCEPT_THRESHOLD and not first.is_sure, first
        again = reader._read_card(card, quad.fitted, margin=MARGIN).reading
        assert again.card == Card.parse("10D") and again.suit_confidence <= CAP, again
        assert reader.read(frame) == first


#: A frame within RIG.md's ranges (`bench/vision_accuracy.py --difficulty normal`, seed 2024).
_REFLECTION_BESIDE = SceneParams(
    card_height_frac=0.7, center_shift=(0.62, -0.139), rotation_deg=1.68,
    tilt_deg=(-3.8, -1.11), camera_height_mm=114.4, lips_mm=(1.96, 1.19),
    window_ends_mm=(2.0, 2.97), frame_width_mm=9.94, metal_bgr=(73, 74, 81), reflection=0.916,
    reflection_pos=0.552, cloth_bgr=(40, 40, 120), colour_temp_k=4458.0, white_balance=0.614,
    exposure=0.709, gradient=0.075, gradient_angle_deg=31.7,
    glare=((0.627, 0.742, 0.27, 0.599), (0.349, 0.287, 0.102, 0.576)), noise_sigma=7.07,
    blur_sigma=0.935, jpeg_quality=86, gamma=1.116, saturation=0.868)


def test_the_look_within_a_margin_still_settles_a_heart_torn_with_a_diamond(
        reader: CornerReader, deck_faces: Callable[..., dict[Card, np.ndarray]]) -> None:
    # tango_nuevo's QD, a corner doubting its index (0.16): the first look is unsure of the
    # queen and of the diamond against a heart, but sure the ink is red. The outline, 0.77
    # as wide as high, cuts off the card's foot. (With seeds 2, 5 and 7 the locator now
    # finds the card whole, and the first look is held at 0.81-0.82, its corners agreeing.)
    face = deck_faces("tango_nuevo", 350, alpha=True)[Card.parse("QD")]
    for seed in (3, 6):
        frame = render_frame(face, _REFLECTION_BESIDE, np.random.default_rng(seed),
                             offset_px=1.0)
        quad = locate(frame)
        assert quad is not None and quad.width > 0.76 * quad.height
        first = reader.read_card(straighten(frame, quad), quad.fitted)
        assert first.card == Card.parse("QD") and not first.is_sure, first
        reading = reader.read(frame)
        assert reading.card == Card.parse("QD") and reading.is_sure, reading


def test_an_index_printed_into_the_cards_edge_is_read_within_a_margin(
        reader: CornerReader, deck_faces: Callable[..., dict[Card, np.ndarray]]) -> None:
    # kde-penguins prints its Q against the card's top; printed 3% of the card nearer
    # still, the glyph search loses it in the edge, and the network doubts in one corner
    # that there is an index at all. Held at 0.87, the QC is read surely within a margin of
    # its paper.
    face = nearer_edge(deck_faces("kde-penguins", 350)[Card.parse("QC")], 0.03)
    rng = np.random.default_rng(1)
    frame = StillCamera(SceneParams.random(rng, "hard"), rng, [face]).shoot(face)
    _, card, first = _first_look(reader, frame)
    assert not index_near_edge(find_indices(card))
    assert first.card == Card.parse("QC") and not first.is_sure, first
    reading = reader.read(frame)
    assert reading.card == Card.parse("QC") and reading.is_sure, reading


@pytest.mark.parametrize(("deck", "code"), [("bellot", "6H"), ("bellot", "6S"),
                                          ("kde-penguins", "8S"), ("kde-penguins", "8D")])
def test_an_index_cut_by_the_cards_edge_is_read_or_held_never_misread(
        reader: CornerReader, deck_faces: Callable[..., dict[Card, np.ndarray]], deck: str,
        code: str) -> None:
    # bellot and kde-penguins print their ranks 0.008-0.012 of the card's height below its
    # top: with their designs 3.5% nearer the edge the rank's top is cut off, as an
    # outline through the index cuts it. A network that never saw an index so cut read a
    # 6 as 10 or 7 and an 8 as 9 surely (91 of 180 such hard frames); it learns them now.
    face = nearer_edge(deck_faces(deck, 350)[Card.parse(code)], 0.035)
    right = 0
    for seed in range(4):
        rng = np.random.default_rng(seed)
        frame = StillCamera(SceneParams.random(rng, "hard"), rng, [face]).shoot(face)
        reading = reader.read(frame)
        assert reading.card == Card.parse(code) or not reading.is_sure, (seed, reading)
        right += reading.is_sure
    assert right >= 2


@pytest.mark.parametrize(("deck", "near"), [("anglo", False), ("ancient_french", False),
                                            ("bellot", True)])
def test_only_an_index_printed_near_the_edge_is_looked_at_within_a_margin(
        deck_faces: Callable[..., dict[Card, np.ndarray]], deck: str, near: bool) -> None:
    # bellot prints its ranks 0.012-0.016 of the card's height from its top; anglo 0.052,
    # ancient_french 0.044. Looked at within a margin wherever a reading was unsure, the
    # network confirmed ancient_french's V, which it leans to read as K, surely (its
    # corners showing an index, "no index" at 0.01 at most).
    for code in ("KH", "JS", "7D", "10C"):
        card = flat_card(deck_faces(deck, 350), code)
        assert index_near_edge(find_indices(card)) == near, code
