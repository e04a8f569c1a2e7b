"""The quick per-pixel statistics give numpy's own results, to the bit."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from shoe.cards import Card
from vision.pixels import brightest_channel, darkest_channel, lit_channels, ninetieth, paper_colour

Faces = Callable[..., dict[Card, np.ndarray]]


@pytest.mark.parametrize("code", ["QH", "7C"])
def test_channel_extremes_are_numpys(deck_faces: Faces, code: str) -> None:
    face = deck_faces("paris", 350)[Card.parse(code)]
    assert np.array_equal(darkest_channel(face), face.min(axis=2))
    assert np.array_equal(brightest_channel(face), face.max(axis=2))
    level = face.astype(np.float32) / 255
    assert np.array_equal(darkest_channel(level), level.min(axis=2))


@pytest.mark.parametrize("count", [1, 2, 7, 431, 2560])
def test_ninetieth_is_numpys_percentile(deck_faces: Faces, count: int) -> None:
    face = deck_faces("paris", 350)[Card.parse("KS")]
    channels = face.reshape(-1, 3)[:: max(1, face.size // 3 // count)][:count].astype(np.float32)
    assert np.array_equal(ninetieth(channels), np.percentile(channels, 90, axis=0))
    assert float(ninetieth(channels[:, 1])) == float(np.percentile(channels[:, 1], 90))


def test_the_paper_colour_and_its_lit_channels(deck_faces: Faces) -> None:
    face = deck_faces("paris", 350)[Card.parse("KS")]
    sample = face[::3, ::3].reshape(-1, 3).astype(np.float32)
    assert np.array_equal(paper_colour(face, 3), np.percentile(sample, 90, axis=0))
    # Candle light with no white balance: the blue paper at an eighth of the red.
    assert lit_channels(np.array([30.0, 180.0, 255.0])).tolist() == [False, True, True]
    assert lit_channels(np.array([77.0, 180.0, 255.0])).all()
