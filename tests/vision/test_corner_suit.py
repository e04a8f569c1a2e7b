"""The suit glyphs under the corner indices as a witness for spades against clubs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import cv2
import numpy as np
import pytest

from shoe.cards import FULL_DECK, Card, Suit
from vision.corner_suit import corner_black_suit, glyph_notch, index_corners
from vision.crosscheck import CAP, check
from vision.locate import CARD_H, CARD_W, locate, straighten
from vision.reading import Reading
from vision.simulator import SceneParams, render_frame

Faces = Callable[..., dict[Card, np.ndarray]]
BLACK = [c for c in FULL_DECK if c.suit in (Suit.SPADES, Suit.CLUBS)]


def _straight(face: np.ndarray) -> np.ndarray:
    return cv2.resize(face, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize("deck", ["anglo", "dondorf", "orell", "neoclassical"])
def test_clean_glyphs_name_their_own_suit(deck_faces: Faces, deck: str) -> None:
    faces = deck_faces(deck, 350)
    said = {card: corner_black_suit(_straight(faces[card])) for card in BLACK}
    assert all(s in (None, card.suit) for card, s in said.items())
    assert sum(s == card.suit for card, s in said.items()) >= 24  # of 26


def test_a_club_glyph_has_deep_notches_and_a_spade_glyph_not(deck_faces: Faces) -> None:
    faces = deck_faces("anglo", 350)
    for rank in ("A", "7", "K"):
        spade, club = (index_corners(_straight(faces[Card.parse(rank + s)]))[0] for s in "SC")
        spade_depth, club_depth = glyph_notch(spade), glyph_notch(club)
        assert spade_depth is not None and club_depth is not None
        assert spade_depth < 0.07 < 0.12 < club_depth


def test_a_corner_without_an_index_says_nothing() -> None:
    blank = np.full((CARD_H, CARD_W, 3), 230, np.uint8)
    assert glyph_notch(index_corners(blank)[0]) is None
    assert corner_black_suit(blank) is None


@pytest.mark.parametrize("deck", ["anglo", "gnomangelo", "atlasnye"])
def test_simulated_frames_never_name_the_other_suit(deck_faces: Faces, deck: str) -> None:
    faces = deck_faces(deck, 350, alpha=True)
    rng = np.random.default_rng(11)
    named = 0
    for card in BLACK:
        params = replace(SceneParams.random(rng, "normal"), upside_down=bool(rng.random() < 0.5))
        frame = render_frame(faces[card], params, rng)
        quad = locate(frame)
        assert quad is not None
        said = corner_black_suit(straighten(frame, quad))
        assert said in (None, card.suit), card
        named += said == card.suit
    assert named >= 20  # of 26


@pytest.mark.parametrize(("truth", "misread"), [("KC", "KS"), ("AS", "AC"), ("QS", "QC")])
def test_a_sure_suit_swap_on_a_card_without_pips_is_capped(deck_faces: Faces, truth: str,
                                                           misread: str) -> None:
    # Court cards and aces show no row of pips in the middle: the glyphs alone catch it.
    card = Card.parse(misread)
    sure = Reading(card, 0.98, card.rank, card.suit, 0.99, 0.99)
    capped = check(sure, _straight(deck_faces("anglo", 350)[Card.parse(truth)]))
    assert capped.card == card and capped.rank == card.rank
    assert capped.suit_confidence <= CAP and capped.confidence <= CAP
    assert capped.rank_confidence == 0.99  # faro settles on rank: that stays sure
