"""How a deck profile's file keeps its descriptors and ink maps: descriptors as signed
bytes, ink maps in a few levels. Learning keeps what reading will see (stored_ink,
stored_fine), so the pass and the file agree."""

from __future__ import annotations

import numpy as np

__all__ = ["FINE_FLOOR", "FINE_LEVELS", "INK_LEVELS", "from_bytes", "from_fraction",
           "stored_fine", "stored_ink", "to_bytes", "to_fraction"]

#: Levels of ink (0..INK_LEVELS) the profile's ink maps keep; the fine maps (shapes, not
#: counts of ink) keep fewer, and nothing fainter than FINE_FLOOR (the noise of a single
#: learning frame): the profile stays under 300 kB.
INK_LEVELS = 15
FINE_LEVELS = 7
FINE_FLOOR = 0.15


def to_bytes(descriptors: np.ndarray) -> np.ndarray:
    """Descriptors (-1..1) as the file keeps them: signed bytes."""
    return np.clip(np.round(descriptors * 127), -127, 127).astype(np.int8)


def from_bytes(stored: np.ndarray) -> np.ndarray:
    """Descriptors back from the file's bytes; anything but int8 is a ValueError."""
    if stored.dtype != np.int8:
        raise ValueError(f"descriptors stored as {stored.dtype}, not int8")
    out: np.ndarray = stored.astype(np.float32) / 127
    return out


def to_fraction(values: np.ndarray, levels: int = INK_LEVELS) -> np.ndarray:
    """Ink (0..1) as the file keeps it: ``levels`` steps in a byte."""
    # Sixteen levels of ink are plenty for counting pips, and pack far smaller than 256.
    return np.clip(np.round(values * levels), 0, levels).astype(np.uint8)


def from_fraction(stored: np.ndarray, levels: int = INK_LEVELS) -> np.ndarray:
    """Ink back from the file's levels; anything else is a ValueError."""
    if stored.dtype != np.uint8 or (stored.size and stored.max() > levels):
        raise ValueError("ink maps not stored as uint8 levels")
    out: np.ndarray = stored.astype(np.float32) / levels
    return out


def stored_ink(ink: np.ndarray) -> np.ndarray:
    """Ink maps as the profile's file keeps them (learning uses what reading will)."""
    return from_fraction(to_fraction(ink))


def stored_fine(fine: np.ndarray) -> np.ndarray:
    """Fine ink maps as the profile's file keeps them (learning uses what reading will)."""
    return from_fraction(to_fraction(np.where(fine < FINE_FLOOR, 0.0, fine), FINE_LEVELS),
                         FINE_LEVELS)
