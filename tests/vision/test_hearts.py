"""Hearts against diamonds from the outline of the suit glyph under each index (vision.hearts)."""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np
import pytest

from shoe.cards import FULL_DECK, Card, Rank, Suit
from vision.hearts import (
    DIAMOND_SHAPE,
    EVIDENCE,
    HEART_SHAPE,
    RANK_OVER_GLYPH,
    RED_INK,
    heart_on_its_head,
    ink_colour,
    pips_deny,
    red_pips_say,
    red_suit_log_odds,
    red_suits_torn,
    top_less_bottom,
    weigh_red_suits,
)
from vision.indexnet import SUIT_CLASSES
from vision.indices import IndexBlobs, find_indices
from vision.locate import locate
from vision.quad import straighten
from vision.reader import CornerReader
from vision.simulator import SceneParams
from vision.stills import StillCamera, render_frame

from straightened import flat, sure

HEARTS, DIAMONDS = SUIT_CLASSES.index(Suit.HEARTS), SUIT_CLASSES.index(Suit.DIAMONDS)
RED = [c for c in FULL_DECK if c.suit in (Suit.HEARTS, Suit.DIAMONDS)]


def _suits(**shares: float) -> np.ndarray:
    """Suit probabilities in the network's order, from shares by suit letter."""
    return np.array([shares.get(s.value, 0.0) for s in SUIT_CLASSES])


def _says(card: np.ndarray) -> float:
    return red_suit_log_odds(find_indices(card))


def _index_of(glyph: np.ndarray, colour: float = 0.6, rank_height: int | None = None
              ) -> IndexBlobs:
    """An index corner whose suit glyph (label 2) is ``glyph`` (0/1), printed in ink of
    this colour (red by default), under a rank (label 1) as tall as it unless given."""
    h, w = glyph.shape
    labels = np.zeros((2 * h, w), np.int32)
    labels[h - (h if rank_height is None else rank_height):h, w // 4:3 * w // 4] = 1
    labels[h:] = glyph.astype(np.int32) * 2
    return IndexBlobs((labels > 0).astype(np.float32), np.full(labels.shape, colour, np.float32),
                      labels, 1, 2)


def _heart() -> np.ndarray:
    heart = np.zeros((40, 40), np.uint8)
    cv2.circle(heart, (12, 12), 9, 1, -1)
    cv2.circle(heart, (27, 12), 9, 1, -1)
    cv2.fillConvexPoly(heart, np.array([[4, 16], [35, 16], [20, 36]]), 1)
    return heart


def _diamond() -> np.ndarray:
    diamond = np.zeros((40, 40), np.uint8)
    cv2.fillConvexPoly(diamond, np.array([[20, 2], [34, 19], [20, 37], [6, 19]]), 1)
    return diamond


@pytest.mark.parametrize("deck", ["anglo", "paris", "bellot"])
def test_each_red_card_of_a_dev_deck_shows_its_suit_in_its_glyphs(
        deck_faces: Callable[..., dict[Card, np.ndarray]], deck: str) -> None:
    faces = deck_faces(deck, 350)
    said = 0
    for card in RED:
        straight = flat(faces[card])
        odds = _says(straight)
        assert odds == 0 or (odds > 0) == (card.suit == Suit.HEARTS), (deck, card, odds)
        said += odds != 0
    assert said >= len(RED) - 2  # a court card's index may lie too close to its picture


def test_through_the_camera_no_glyph_names_the_other_red_suit(
        deck_faces: Callable[..., dict[Card, np.ndarray]]) -> None:
    faces = deck_faces("anglo", 350, alpha=True)
    rng = np.random.default_rng(3)
    camera = StillCamera(SceneParams.random(rng, "hard"), rng, list(faces.values()))
    said = 0
    for card in RED:
        frame = camera.shoot(faces[card], upside_down=bool(rng.random() < 0.5))
        quad = locate(frame)
        assert quad is not None, card
        odds = _says(straighten(frame, quad))
        assert odds == 0 or (odds > 0) == (card.suit == Suit.HEARTS), (card, odds)
        said += odds != 0
    assert said >= 0.8 * len(RED)


def test_a_heart_is_broad_at_the_top_and_a_diamond_is_not() -> None:
    heart, diamond = _heart(), _diamond()
    heart_shape, diamond_shape = top_less_bottom(heart), top_less_bottom(diamond)
    assert heart_shape is not None and heart_shape >= HEART_SHAPE
    assert diamond_shape is not None and abs(diamond_shape) <= DIAMOND_SHAPE
    assert top_less_bottom(np.zeros_like(heart)) is None  # nothing to measure
    assert top_less_bottom(cv2.resize(heart, (5, 5))) is None  # too coarse
    # A heart on its head (a lower index printed unturned) is a heart still; a diamond
    # turned is a diamond.
    assert red_suit_log_odds([_index_of(heart[::-1]), None]) == pytest.approx(EVIDENCE)
    assert red_suit_log_odds([_index_of(heart), _index_of(heart[::-1])]) == pytest.approx(
        2 * EVIDENCE)
    assert red_suit_log_odds([_index_of(diamond[::-1])]) == pytest.approx(-EVIDENCE)


def test_only_a_heart_stands_on_its_head() -> None:
    heart, diamond = _heart(), _diamond()
    assert heart_on_its_head([None, _index_of(heart[::-1])])
    assert not heart_on_its_head([_index_of(heart), None])
    assert not heart_on_its_head([_index_of(diamond[::-1]), _index_of(diamond)])
    assert not heart_on_its_head([_index_of(heart[::-1], colour=0.05)])  # black ink
    assert not heart_on_its_head([None, None])
    # Over a sliver (the card's edge taken for the rank), the "glyph" may be an A.
    tall = int(np.ptp(np.flatnonzero(heart.any(axis=1)))) + 1
    assert not heart_on_its_head([_index_of(heart[::-1], rank_height=3)])
    least = math.ceil(RANK_OVER_GLYPH * tall)
    assert heart_on_its_head([_index_of(heart[::-1], rank_height=least)])


def test_a_diamond_in_one_corner_outweighs_a_heart_on_its_head_in_the_other() -> None:
    # A deck that prints its lower index upright shows the heart upright in the other
    # corner. A diamond's glyph cut out with a piece of its glared rank, or blurred, measured
    # as a heart on its head in one corner while the other corner's was a plain diamond.
    heart, diamond = _heart(), _diamond()
    assert heart_on_its_head([_index_of(heart), _index_of(heart[::-1])])
    assert not heart_on_its_head([_index_of(diamond), _index_of(heart[::-1])])
    assert not heart_on_its_head([_index_of(heart[::-1]), _index_of(diamond[::-1])])


def test_only_a_glyph_of_red_ink_says_a_red_suit() -> None:
    # A black blob under a red rank is a piece of a picture (a king's ermine, say).
    diamond = _diamond()
    assert red_suit_log_odds([_index_of(diamond, colour=RED_INK)]) == pytest.approx(-EVIDENCE)
    assert red_suit_log_odds([_index_of(diamond, colour=0.05)]) == 0.0


@pytest.mark.parametrize("deck", ["anglo", "paris"])
def test_a_dev_decks_red_glyphs_are_of_red_ink_and_its_black_ones_are_not(
        deck_faces: Callable[..., dict[Card, np.ndarray]], deck: str) -> None:
    faces = deck_faces(deck, 350)
    for card in FULL_DECK:
        straight = flat(faces[card])
        for found in find_indices(straight):
            if found is not None and found.suit is not None:
                red = card.suit in (Suit.HEARTS, Suit.DIAMONDS)
                assert (ink_colour(found) >= RED_INK) == red, (card, ink_colour(found))


def test_the_glyphs_settle_a_network_torn_between_the_red_suits() -> None:
    torn = _suits(H=0.5, D=0.5)
    assert red_suits_torn(torn[HEARTS], torn[DIAMONDS])
    hearts = weigh_red_suits(torn, HEARTS, DIAMONDS, EVIDENCE)
    diamonds = weigh_red_suits(torn, HEARTS, DIAMONDS, -2 * EVIDENCE)
    assert hearts[HEARTS] > 0.97 and diamonds[DIAMONDS] > 0.99
    assert hearts.sum() == pytest.approx(1.0) and diamonds.sum() == pytest.approx(1.0)


def test_the_glyphs_raise_no_suit_the_network_hardly_weighs() -> None:
    # A glyph misshapen by glare must not overturn a clear reading.
    clear = _suits(H=0.05, D=0.95)
    assert np.array_equal(weigh_red_suits(clear, HEARTS, DIAMONDS, 2 * EVIDENCE), clear)
    # Nor pick a red suit for black ink, nor move what they say nothing about.
    black = _suits(S=0.6, C=0.2, H=0.1, D=0.1)
    assert not red_suits_torn(black[HEARTS], black[DIAMONDS])
    assert np.array_equal(weigh_red_suits(black, HEARTS, DIAMONDS, EVIDENCE), black)
    torn = _suits(H=0.4, D=0.6)
    assert np.array_equal(weigh_red_suits(torn, HEARTS, DIAMONDS, 0.0), torn)
    assert not red_suits_torn(0.995, 0.005)


@pytest.mark.parametrize("deck", ["anglo", "paris", "bellot"])
def test_a_number_cards_pips_are_shaped_as_its_red_suit(
        deck_faces: Callable[..., dict[Card, np.ndarray]], deck: str) -> None:
    faces = deck_faces(deck, 350)
    for card in RED:
        shown = red_pips_say(flat(faces[card]))
        # A 2 shows two pips, too few to say; an ace one; a court card a picture.
        assert shown is (card.suit if Rank.THREE <= card.rank <= Rank.TEN else None), card


def _corners_painted_out(card: np.ndarray) -> np.ndarray:
    """The card with both index corners painted the paper's colour, as glare may wash them."""
    out = card.copy()
    h, w = card.shape[:2]
    paper = np.median(card[h // 2 - 5:h // 2 + 5, 2:8].reshape(-1, 3), axis=0)
    out[:round(0.3 * h), :round(0.2 * w)] = paper
    out[h - round(0.3 * h):, w - round(0.2 * w):] = paper
    return out


@pytest.mark.parametrize("rank", ["3", "6", "10"])
def test_pips_deny_the_other_red_suit(deck_faces: Callable[..., dict[Card, np.ndarray]],
                                      rank: str) -> None:
    faces = deck_faces("anglo", 350)
    for suit, other in (("H", "D"), ("D", "H")):
        card = flat(faces[Card.parse(rank + suit)])
        for shown in (card, _corners_painted_out(card)):
            indices = find_indices(shown)
            assert pips_deny(sure(rank + other), shown, indices)
            assert not pips_deny(sure(rank + suit), shown, indices)


def test_the_pips_deny_no_black_suit_nor_a_court_card(
        deck_faces: Callable[..., dict[Card, np.ndarray]]) -> None:
    faces = deck_faces("anglo", 350)
    for read, shown in (("6S", "6D"), ("6C", "6H"), ("QD", "QH"), ("AD", "AH")):
        card = flat(faces[Card.parse(shown)])
        assert not pips_deny(sure(read), card, find_indices(card))


def test_only_pips_of_red_ink_say_a_red_suit(
        deck_faces: Callable[..., dict[Card, np.ndarray]]) -> None:
    # In the dark, blobs of the sensor's noise on the dim paper were cut out as pips, grey,
    # and measured as diamonds; a red suit is no grey blob's to say.
    faces = deck_faces("anglo", 350)
    for code in ("6H", "9D"):
        card = flat(faces[Card.parse(code)])
        grey = cv2.cvtColor(cv2.cvtColor(card, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        assert red_pips_say(card) is Card.parse(code).suit and red_pips_say(grey) is None
        other = "6D" if code == "6H" else "9H"
        assert pips_deny(sure(other), card, [None, None])
        assert not pips_deny(sure(other), grey, [None, None])


def test_the_pips_are_not_asked_where_both_corners_show_the_suit_read(
        deck_faces: Callable[..., dict[Card, np.ndarray]]) -> None:
    diamonds = flat(deck_faces("anglo", 350)[Card.parse("6D")])
    hearts = [_index_of(_heart()), _index_of(_heart()[::-1])]
    assert not pips_deny(sure("6H"), diamonds, hearts)
    assert pips_deny(sure("6H"), diamonds, [hearts[0], None])


#: Two broad glare spots (past RIG.md's glare range) over both index corners of a card
#: upside down: a neoclassical 6H, one corner's heart washed out, the other's washed to a
#: diamond's shape, was read as 6D at 0.967.
GLARED_CORNERS = SceneParams(
    card_height_frac=0.605, center_shift=(-0.596, 0.381), rotation_deg=4.52,
    tilt_deg=(-0.025, 5.75), camera_height_mm=125.4, upside_down=True,
    lips_mm=(2.63, 0.044), window_ends_mm=(1.75, 2.80), frame_width_mm=8.57,
    metal_bgr=(57, 62, 67), reflection=0.0, reflection_pos=0.079, cloth_bgr=(150, 150, 150),
    colour_temp_k=6155.0, white_balance=0.636, exposure=0.589, gradient=0.293,
    gradient_angle_deg=109.5, glare=((0.110, 0.235, 0.440, 0.930), (0.737, 0.776, 0.334, 0.960)),
    noise_sigma=7.50, blur_sigma=1.15, jpeg_quality=92, gamma=1.088, saturation=1.074,
    sharpen=0.0)


def test_a_heart_whose_corners_glare_washed_out_is_no_sure_diamond(
        deck_faces: Callable[..., dict[Card, np.ndarray]]) -> None:
    face = deck_faces("neoclassical", 350, alpha=True)[Card.parse("6H")]
    reader = CornerReader()
    for seed in range(6):
        reading = reader.read(render_frame(face, GLARED_CORNERS, np.random.default_rng(seed)))
        assert reading.card == Card.parse("6H") or not reading.is_sure, (seed, reading)
