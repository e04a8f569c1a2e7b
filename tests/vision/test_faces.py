"""The built-in faces the demo deals when no deck is given."""

from __future__ import annotations

import cv2
import numpy as np

from shoe.cards import FULL_DECK, Card
from vision.faces import CARD_ASPECT, builtin_deck, builtin_face
from vision.scene import index_margin


def _red(face: np.ndarray) -> np.ndarray:
    b, g, r = (face[:, :, i].astype(int) for i in range(3))
    return (r > 150) & (r - g > 80) & (r - b > 80)


def _ink(face: np.ndarray) -> np.ndarray:
    return face.min(axis=2) < 128


def test_faces_have_a_cards_shape() -> None:
    face = builtin_face(Card.parse("7C"), 300)
    assert face.shape[0] == 300 and face.dtype == np.uint8 and face.shape[2] == 3
    assert abs(face.shape[1] / 300 - CARD_ASPECT) < 0.01


def test_all_52_faces_differ_and_red_suits_are_red() -> None:
    deck = builtin_deck(160)
    assert set(deck) == set(FULL_DECK)
    small = {cv2.resize(f, (40, 56), interpolation=cv2.INTER_AREA).tobytes()
             for f in deck.values()}
    assert len(small) == 52
    for card, face in deck.items():
        red = _red(face).mean()
        assert (red > 0.01) if card.is_red else (red == 0), card


def test_corners_are_rounded_and_transparent_with_alpha() -> None:
    face = builtin_face(Card.parse("AS"), 200, alpha=True)
    assert face.shape[2] == 4
    assert face[0, 0, 3] == 0 and face[-1, -1, 3] == 0 and face[100, 70, 3] == 255
    assert builtin_face(Card.parse("AS"), 200)[0, 0].min() == 255


def test_index_in_two_corners_turned_round() -> None:
    for code in ("10H", "QS", "AD", "3C"):
        face = builtin_face(Card.parse(code), 350)
        h, w = face.shape[:2]
        corner = _ink(face[: int(0.25 * h), : int(0.2 * w)])
        opposite = _ink(face[::-1, ::-1][: int(0.25 * h), : int(0.2 * w)])
        assert corner.mean() > 0.04, code
        # The bottom-right index is the top-left one turned round (to a pixel or so).
        assert (corner ^ opposite).mean() < 0.02, code


def test_rank_indices_differ_between_ranks() -> None:
    h, w = 350, round(350 * CARD_ASPECT)
    corners = {}
    for card in (Card.parse(f"{r}S") for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9",
                                                 "10", "J", "Q", "K")):
        corners[card] = _ink(builtin_face(card, h)[int(0.03 * h): int(0.13 * h),
                                                   int(0.04 * w): int(0.2 * w)])
    cards = list(corners)
    for i, a in enumerate(cards):
        for b in cards[i + 1:]:
            assert (corners[a] ^ corners[b]).mean() > 0.05, (a, b)


def test_pip_count_matches_the_rank() -> None:
    for rank in range(2, 11):
        face = builtin_face(Card.parse(f"{rank}D"), 350)
        h, w = face.shape[:2]
        middle = _red(face)[int(0.1 * h): int(0.9 * h), int(0.2 * w): int(0.8 * w)]
        _n, _labels, stats, _ = cv2.connectedComponentsWithStats(middle.astype(np.uint8))
        pips = (stats[1:, cv2.CC_STAT_AREA] > 200).sum()
        assert pips == rank, rank


def test_lips_of_three_millimetres_leave_the_indices_visible() -> None:
    # 3 mm of a 63.5 mm card is 4.7 % of its width.
    for code in ("10H", "QC", "AS"):
        assert index_margin(builtin_face(Card.parse(code), 350)) > 3 / 63.5


def test_random_styles_are_other_designs_of_the_same_cards() -> None:
    from vision.faces import FaceStyle

    rng = np.random.default_rng(0)
    styles = [FaceStyle.random(rng) for _ in range(3)]
    assert len(set(styles)) == 3
    plain = builtin_face(Card.parse("KH"), 200)
    for style in styles:
        deck = builtin_deck(120, style=style)
        small = {cv2.resize(f, (30, 42), interpolation=cv2.INTER_AREA).tobytes()
                 for f in deck.values()}
        assert len(small) == 52
        face = builtin_face(Card.parse("KH"), 200, style=style)
        assert face.shape == plain.shape and not np.array_equal(face, plain)
        assert _red(face).mean() > 0.01
        assert index_margin(face) > 3 / 63.5  # lips of 3 mm leave the index alone
