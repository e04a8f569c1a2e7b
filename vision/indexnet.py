"""The corner-index network: its input (a corner of the straightened card, normalised) and
its calibrated rank and suit probabilities, through ``cv2.dnn``.

The network is trained by ``tools/train_index_net.py`` (two members from different seeds,
averaged in one file) and read by :class:`vision.reader.CornerReader`.

>>> net = IndexNet.load()                               # doctest: +SKIP
>>> ranks, suits = net.probabilities(corner_patches(card))  # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from shoe.cards import Rank, Suit
from vision.pixels import ninetieth
from vision.quad import corners
from vision.reading import ModelError, load_network, softmax

__all__ = [
    "CORNER_H",
    "CORNER_W",
    "PATCH_H",
    "PATCH_W",
    "RANK_CLASSES",
    "SUIT_CLASSES",
    "IndexNet",
    "corner_patches",
    "normalise_patch",
]

#: The corner region read for an index, as fractions of the straightened card.
CORNER_W = 0.30
CORNER_H = 0.34
#: The network's input, in pixels (height x width), three colour channels.
PATCH_H = 64
PATCH_W = 40
#: The network's rank outputs: the 13 ranks, then "no index here".
RANK_CLASSES: tuple[Rank | None, ...] = (*Rank, None)
SUIT_CLASSES: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)

_MODEL_STEM = "index_net"


def normalise_patch(patch: np.ndarray) -> np.ndarray:
    """A BGR corner crop as the network's input: 3 x PATCH_H x PATCH_W float32.

    Each channel is divided by the card's own white (a high percentile), so warm, cool
    and dim light all give the same input; the colour of the ink survives.
    """
    small = cv2.resize(patch, (PATCH_W, PATCH_H), interpolation=cv2.INTER_AREA)
    flat = small.reshape(-1, 3).astype(np.float32)
    white = ninetieth(flat)
    scaled = flat / np.maximum(white, 24.0)
    out = np.clip(scaled, 0.0, 1.25).reshape(PATCH_H, PATCH_W, 3) - 0.5
    return np.ascontiguousarray(out.transpose(2, 0, 1))


def corner_patches(card: np.ndarray) -> np.ndarray:
    """The two index corners of a straightened card, as a batch of network inputs.

    Row 0 is the top-left corner; row 1 the bottom-right corner turned half round.
    """
    return np.stack([normalise_patch(c) for c in corners(card, CORNER_W, CORNER_H)])


@dataclass(frozen=True, slots=True)
class IndexNet:
    """The corner-index network loaded into ``cv2.dnn``, with its calibration."""

    net: cv2.dnn.Net
    rank_temperature: float
    suit_temperature: float

    @classmethod
    def load(cls, folder: Path | None = None) -> IndexNet:
        """Load ``index_net.onnx`` and ``index_net.json`` (default: the packaged ones)."""

        def build(net: cv2.dnn.Net, meta: dict[str, Any]) -> IndexNet:
            if (meta["patch_h"], meta["patch_w"]) != (PATCH_H, PATCH_W):
                raise ModelError(f"index network expects {meta['patch_h']}x{meta['patch_w']}")
            return cls(net, float(meta["rank_temperature"]), float(meta["suit_temperature"]))

        return load_network(_MODEL_STEM, "index network", folder, build)

    def probabilities(self, patches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Calibrated rank (N x 14) and suit (N x 4) probabilities for a batch of patches."""
        ranks, suits = [], []
        # One patch at a time: OpenCV 4.x (and 5's classic engine, vision.reading) runs this
        # graph right for one patch, but a batch of two wrong (seen with 4.14: a KH corner
        # read as 6; 5.0 returns one row).
        for patch in patches.astype(np.float32):
            self.net.setInput(patch[None])
            rank_logits, suit_logits = self.net.forward(["rank", "suit"])
            ranks.append(rank_logits.reshape(-1))
            suits.append(suit_logits.reshape(-1))
        return (
            softmax(np.stack(ranks), self.rank_temperature),
            softmax(np.stack(suits), self.suit_temperature),
        )
