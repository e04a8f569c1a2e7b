"""A deck profile as its file keeps it (:class:`DeckProfile`): descriptors as signed bytes,
ink maps in a few levels. Learning keeps what reading will see (stored_ink, stored_fine), so
the pass and the file agree.

The file is a NumPy ``.npz`` (no pickles) with a JSON header naming the format and its
version; anything else is refused with :class:`ProfileError`.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from dataclasses import dataclass

import numpy as np

from shoe.cards import FULL_DECK, Card, FaroError
from vision.descriptors import CORNER, FINE, WHOLE
from vision.quad import CardQuad

__all__ = ["DEFAULT_TEMPERATURE", "FINE_FLOOR", "FINE_LEVELS", "FORMAT", "INK_LEVELS",
           "VERSION", "DeckProfile", "ProfileError", "from_bytes", "from_fraction",
           "stored_fine", "stored_ink", "to_bytes", "to_fraction"]

#: Levels of ink (0..INK_LEVELS) the profile's ink maps keep; the fine maps (shapes, not
#: counts of ink) keep fewer, and nothing fainter than FINE_FLOOR (the noise of a single
#: learning frame): the profile stays under 300 kB.
INK_LEVELS = 15
FINE_LEVELS = 7
FINE_FLOOR = 0.15
#: The header's format name and version: a file of another version is refused, and the deck
#: learned again.
FORMAT = "faro-shoe deck profile"
VERSION = 5

#: Turns similarities into probabilities (fitted by tools/calibrate_profile.py on dev decks,
#: then made a quarter more cautious).
DEFAULT_TEMPERATURE = 0.005


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


class ProfileError(FaroError):
    """A deck profile that cannot be used: unreadable, corrupt, or another format version."""


@dataclass(frozen=True, slots=True, eq=False)
class DeckProfile:
    """One deck's window and its 52 cards' descriptors (rows in FULL_DECK order)."""

    name: str
    window: CardQuad | None
    whole: np.ndarray  # 52 x H x W x 3 float32 descriptor images; zeros where not learned
    corner: np.ndarray  # 52 x 2 x h x w x 3: top left, bottom right turned
    learned: np.ndarray  # 52 bool
    #: 52 x H x W: each card's ink (0..1) on the whole-face grid, for the pairwise check
    #: of close rivals (vision.pairwise).
    ink: np.ndarray
    #: 52 x h x w: each card's ink at half the straightened card's resolution, for telling
    #: the suits of a rank apart by their pips' shapes (vision.suits).
    fine: np.ndarray
    temperature: float = DEFAULT_TEMPERATURE
    #: The deck's corner indices read right by the zero-shot reader on the whole pass, so
    #: that reader may veto (or back up) the profile's answer.
    index_check: bool = False
    #: 52 x h x w uint8: where the pass's glare lay on each card's broad print (1, else 0;
    #: on the fine maps' grid, vision.learn.learning_glare): a court picture there is known
    #: less well.
    glare: np.ndarray | None = None

    @property
    def missing(self) -> list[Card]:
        return [c for c, ok in zip(FULL_DECK, self.learned, strict=True) if not ok]

    def save(self, path: str | os.PathLike[str]) -> None:
        header = {
            "format": FORMAT,
            "version": VERSION,
            "name": self.name,
            "cards": [c.code for c in FULL_DECK],
            "window": None if self.window is None else [list(p) for p in self.window.corners],
            "temperature": self.temperature,
            "index_check": self.index_check,
        }
        buffer = io.BytesIO()
        np.savez_compressed(
            buffer,
            header=np.frombuffer(json.dumps(header).encode(), np.uint8),
            # The print minus its shading lies within -1..1: a byte each is plenty.
            whole=to_bytes(self.whole),
            corner=to_bytes(self.corner),
            learned=self.learned.astype(bool),
            ink=to_fraction(self.ink),
            fine=to_fraction(self.fine, FINE_LEVELS),
            glare=(np.zeros((52, *FINE), np.uint8) if self.glare is None
                   else (self.glare > 0).astype(np.uint8)),
        )
        tmp = f"{os.fspath(path)}.tmp"
        with open(tmp, "wb") as f:
            f.write(buffer.getvalue())
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> DeckProfile:
        try:
            with np.load(path, allow_pickle=False) as data:
                header = json.loads(bytes(data["header"]).decode())
                if not isinstance(header, dict) or header.get("format") != FORMAT:
                    raise ProfileError(f"{path}: not a faro-shoe deck profile")
                if header.get("version") != VERSION:
                    raise ProfileError(
                        f"{path}: deck profile version {header.get('version')!r}, this "
                        f"faro-shoe reads version {VERSION}: run 'faro-shoe learn' again")
                if header.get("cards") != [c.code for c in FULL_DECK]:
                    raise ProfileError(f"{path}: deck profile lists unexpected cards")
                whole = from_bytes(data["whole"])
                corner = from_bytes(data["corner"])
                learned = data["learned"].astype(bool)
                ink = from_fraction(data["ink"])
                fine = from_fraction(data["fine"], FINE_LEVELS)
                glare = to_fraction(from_fraction(data["glare"], 1), 1)
        except ProfileError:
            raise
        except FileNotFoundError:
            raise ProfileError(f"{path}: no such deck profile") from None
        except (OSError, ValueError, KeyError, UnicodeDecodeError, zipfile.BadZipFile,
                EOFError, TypeError) as exc:
            raise ProfileError(f"{path}: corrupt deck profile ({exc})") from None
        shapes = ((52, WHOLE[1], WHOLE[0], 3), (52, 2, CORNER[1], CORNER[0], 3))
        if ((whole.shape, corner.shape) != shapes or learned.shape != (52,)
                or ink.shape != shapes[0][:3] or fine.shape != (52, *FINE)
                or glare.shape != (52, *FINE)):
            raise ProfileError(f"{path}: corrupt deck profile (wrong array shapes)")
        if not np.isfinite(whole).all() or not np.isfinite(corner).all():
            raise ProfileError(f"{path}: corrupt deck profile (not finite)")
        try:
            window = header.get("window")
            quad = None if window is None else CardQuad(tuple((float(x), float(y))
                                                              for x, y in window))
            if quad is not None and len(quad.corners) != 4:
                raise ValueError("window needs four corners")
            temperature = float(header.get("temperature", DEFAULT_TEMPERATURE))
            index_check = bool(header.get("index_check", False))
        except (TypeError, ValueError) as exc:
            raise ProfileError(f"{path}: corrupt deck profile ({exc})") from None
        return cls(str(header.get("name", "")), quad, whole, corner, learned, ink, fine,
                   temperature, index_check, glare)
