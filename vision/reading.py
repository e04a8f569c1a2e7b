"""What the reader says about one frame, and the shape every reader has."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, TypeVar

import cv2
import numpy as np

from shoe.cards import Card, FaroError, Rank, Suit

__all__ = ["ACCEPT_THRESHOLD", "ModelError", "Reader", "Reading", "load_network", "onnx_net",
           "softmax"]

_Loaded = TypeVar("_Loaded")


class ModelError(FaroError):
    """A reader's network files are missing or unusable."""


#: A reading at or above this confidence is taken as sure; below it the deal holds it.
ACCEPT_THRESHOLD = 0.9


@dataclass(frozen=True, slots=True)
class Reading:
    """The reader's answer for one frame: the card, or None where it abstains.

    ``rank``/``suit`` may be set when only one of them is sure (the audit needs both, faro
    settles on rank); ``confidence`` is for the whole card, in 0–1.
    """

    card: Card | None
    confidence: float
    rank: Rank | None = None
    suit: Suit | None = None
    rank_confidence: float = 0.0
    suit_confidence: float = 0.0

    @property
    def is_sure(self) -> bool:
        return self.card is not None and self.confidence >= ACCEPT_THRESHOLD


class Reader(Protocol):
    """Anything that names the card in a BGR frame of the box's window."""

    def read(self, frame: np.ndarray) -> Reading: ...


def softmax(logits: np.ndarray, temperature: float) -> np.ndarray:
    """Probabilities over the last axis from a network's logits, at its fitted temperature."""
    z = logits / temperature
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    out: np.ndarray = e / e.sum(axis=-1, keepdims=True)
    return out


#: OpenCV 5's classic engine runs these small networks faster than its new one (the index
#: network 0.77 against 1.22 ms a corner, fastest of 500 on one core), with the same outputs
#: to 1e-6. It is chosen only for a model read from a file (from bytes, OpenCV 5.0 takes
#: the new engine whatever is asked). OpenCV 4 has only the classic engine.
_CLASSIC_ENGINE: int | None = getattr(cv2.dnn, "ENGINE_CLASSIC", None)


def onnx_net(model: Path) -> cv2.dnn.Net:
    """An ONNX model file read into ``cv2.dnn``, on its classic engine where there are two.

    That engine runs a batch of two wrong (as OpenCV 4 does): give it one input at a time.
    """
    if not model.is_file():
        raise FileNotFoundError(f"no such file: {model}")
    if _CLASSIC_ENGINE is None:
        return cv2.dnn.readNetFromONNX(str(model))
    return cv2.dnn.readNetFromONNX(str(model), _CLASSIC_ENGINE)


def load_network(stem: str, what: str, folder: Path | None,
                 build: Callable[[cv2.dnn.Net, dict[str, Any]], _Loaded]) -> _Loaded:
    """``build(net, meta)`` from ``<stem>.onnx`` read into ``cv2.dnn`` and its calibration
    ``<stem>.json``, both in ``folder`` (default: the packaged ones in ``vision/data``).

    Files missing, corrupt or short of a field are a :class:`ModelError` naming ``what``.
    """
    try:
        data = resources.files("vision") / "data" if folder is None else folder
        meta = json.loads((data / f"{stem}.json").read_text())
        with resources.as_file(data / f"{stem}.onnx") as model:
            net = onnx_net(model)
        return build(net, meta)
    except (OSError, KeyError, ValueError, cv2.error) as exc:
        raise ModelError(f"cannot load the {what}: {exc}") from exc
