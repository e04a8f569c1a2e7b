"""Clean faces laid flat as the locator hands a card over, and the sure readings the index
network gives of them: what the tests of the reader's witnesses start from."""

from __future__ import annotations

import cv2
import numpy as np

from shoe.cards import Card
from vision.quad import CARD_H, CARD_W
from vision.reading import Reading


def flat(face: np.ndarray) -> np.ndarray:
    """One clean face as the locator straightens a card: CARD_H x CARD_W."""
    return cv2.resize(face, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)


def flat_card(faces: dict[Card, np.ndarray], code: str) -> np.ndarray:
    """The face of ``code`` in a rendered deck, straightened."""
    return flat(faces[Card.parse(code)])


def sure(card: Card | str) -> Reading:
    """A sure reading of ``card``, as the index network would give it."""
    card = Card.parse(card) if isinstance(card, str) else card
    return Reading(card, 0.99, card.rank, card.suit, 0.995, 0.995)
