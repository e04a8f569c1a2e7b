"""Deck profiles: what one deck looks like, learned from a pass in a known order.

A profile holds the box's window (where the card lay during the pass) and, for each of the
52 cards, two small colour descriptors of the straightened card: the whole face, and its
index corner. Reading with a profile compares the card in view (both ways up) with all 52;
no index is needed, so it reads pip-only period decks, foreign letters and odd typefaces.

The file is a NumPy ``.npz`` (no pickles) with a JSON header naming the format and its
version; anything else is refused with :class:`ProfileError`.

>>> profile = DeckProfile.load("my-deck.faro-profile")     # doctest: +SKIP
>>> ProfileReader(profile).read(frame)                     # doctest: +SKIP
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from dataclasses import dataclass

import cv2
import numpy as np

from shoe.cards import FULL_DECK, Card, FaroError, Rank
from vision.locate import CARD_H, CARD_W, CardQuad, locate, straighten
from vision.pairwise import Placed, ink_colour, ink_map, place, tournament
from vision.profile_checks import capped, cross_check
from vision.reader import CORNER_H, CORNER_W, CornerReader
from vision.reading import Reading

__all__ = [
    "FORMAT",
    "VERSION",
    "DeckProfile",
    "ProfileError",
    "ProfileReader",
    "describe",
    "describe_ink",
    "effective_temperature",
]

FORMAT = "faro-shoe deck profile"
VERSION = 2

#: Descriptor sizes (width, height): the whole face, and the index corner.
_WHOLE = (36, 50)
_CORNER = (18, 30)
#: How far (descriptor pixels) the card may lie from where it lay while learning.
_SHIFT = 2
#: A similarity this good through the learned window needs no search for the card.
_GOOD_MATCH = 0.8
#: Below this similarity the card in view is none of the deck's (an empty box, a stranger).
MIN_SIMILARITY = 0.2
#: Levels of ink (0.._INK_LEVELS) the profile's ink maps keep.
_INK_LEVELS = 15
#: Turns similarities into probabilities (fitted by tools/calibrate_profile.py on dev decks,
#: then made a quarter more cautious).
DEFAULT_TEMPERATURE = 0.005
#: The pairwise check (vision.pairwise): rivals of another rank within _CLOSE of the best
#: similarity (at most _RIVALS of them) are ruled out by the ink where they differ, by at
#: least _EVIDENCE (fitted on dev decks), or the confidence is capped (profile_checks.CAP).
_CLOSE = 0.15
_RIVALS = 3
_EVIDENCE = 0.1
#: Inks this far apart in redness (vision.pairwise.ink_colour) are two colours.
_COLOURS_APART = 0.5
#: How much warmer the softmax is between aces (the least on dev decks that left no ace
#: surely wrong).
_SUIT_CAUTION = 3.0


def effective_temperature(temperature: float, best: float) -> float:
    """The softmax temperature for a card whose best similarity is ``best``.

    A frame that matches nothing well (glare over the pips, a thumb, deep shadow) gets a
    proportionally warmer softmax: its small margins mean less than on a clean frame.
    """
    return temperature * max(1.0 - best, 0.02) / 0.1


class ProfileError(FaroError):
    """A deck profile that cannot be used: unreadable, corrupt, or another format version."""


def _unit(vectors: np.ndarray) -> np.ndarray:
    """Zero-mean, unit-length rows: similarity by dot product, blind to light level."""
    v = vectors.astype(np.float32)
    v = v - v.mean(axis=-1, keepdims=True)
    norm = np.linalg.norm(v, axis=-1, keepdims=True)
    out: np.ndarray = v / np.maximum(norm, 1e-6)
    return out


def _print_only(image: np.ndarray) -> np.ndarray:
    """The print on the card, without the light: white-balanced, glare clipped to white,
    and the slow shading across the card (uneven light, a broad glare) taken away."""
    flat = image.reshape(-1, 3).astype(np.float32)
    white = np.percentile(flat, 90, axis=0)
    balanced = np.clip(flat / np.maximum(white, 24.0), 0.0, 1.0).reshape(image.shape)
    shading = cv2.GaussianBlur(balanced, (0, 0), image.shape[1] / 6)
    out: np.ndarray = balanced - shading
    return out


def describe(card: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(whole-face, corner) descriptor images (float32, H x W x 3) of a straightened card."""
    whole = cv2.resize(_face(card), _WHOLE, interpolation=cv2.INTER_AREA)
    cw, ch = round(CORNER_W * CARD_W), round(CORNER_H * CARD_H)
    corner = cv2.resize(card[:ch, :cw], _CORNER, interpolation=cv2.INTER_AREA)
    return _print_only(whole), _print_only(corner)


def describe_ink(card: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(ink, unknown) maps (float32, H x W, 0..1) of a straightened card's face, on the
    grid of its whole-face descriptor (vision.pairwise.ink_map)."""
    return ink_map(_face(card), _WHOLE)


def _face(card: np.ndarray) -> np.ndarray:
    if card.shape[:2] != (CARD_H, CARD_W):
        raise ValueError(f"expected a straightened card {CARD_H}x{CARD_W}, got {card.shape}")
    # Leave out a margin: the lips and the outline's error live there.
    return card[4:CARD_H - 4, 6:CARD_W - 6]


def _shifted_views(image: np.ndarray) -> np.ndarray:
    """Unit rows: the image's middle (a border of _SHIFT cut off) at every shift of up to
    _SHIFT pixels; the outline found in the box is never exactly where it was while
    learning, so each card is compared at its best alignment."""
    s = _SHIFT
    h, w = image.shape[:2]
    views = [image[dy:dy + h - 2 * s, dx:dx + w - 2 * s].ravel()
             for dy in range(2 * s + 1) for dx in range(2 * s + 1)]
    return _unit(np.stack(views))


def _middles(templates: np.ndarray) -> np.ndarray:
    """Unit rows: each template's middle, to compare with :func:`_shifted_views`."""
    s = _SHIFT
    return _unit(templates[:, s:-s, s:-s].reshape(len(templates), -1))


def _to_bytes(descriptors: np.ndarray) -> np.ndarray:
    return np.clip(np.round(descriptors * 127), -127, 127).astype(np.int8)


def _from_bytes(stored: np.ndarray) -> np.ndarray:
    if stored.dtype != np.int8:
        raise ValueError(f"descriptors stored as {stored.dtype}, not int8")
    out: np.ndarray = stored.astype(np.float32) / 127
    return out


def _to_fraction(values: np.ndarray) -> np.ndarray:
    # Sixteen levels of ink are plenty for counting pips, and pack far smaller than 256.
    return np.clip(np.round(values * _INK_LEVELS), 0, _INK_LEVELS).astype(np.uint8)


def _from_fraction(stored: np.ndarray) -> np.ndarray:
    if stored.dtype != np.uint8 or (stored.size and stored.max() > _INK_LEVELS):
        raise ValueError("ink maps not stored as uint8 levels")
    out: np.ndarray = stored.astype(np.float32) / _INK_LEVELS
    return out


@dataclass(frozen=True, slots=True, eq=False)
class DeckProfile:
    """One deck's window and its 52 cards' descriptors (rows in FULL_DECK order)."""

    name: str
    window: CardQuad | None
    whole: np.ndarray  # 52 x H x W x 3 float32 descriptor images; zeros where not learned
    corner: np.ndarray  # 52 x h x w x 3
    learned: np.ndarray  # 52 bool
    #: 52 x H x W: each card's ink (0..1) on the whole-face grid, for the pairwise check
    #: of close rivals (vision.pairwise).
    ink: np.ndarray
    temperature: float = DEFAULT_TEMPERATURE
    #: The deck's corner indices read right by the zero-shot reader on the whole pass, so
    #: that reader may veto (or back up) the profile's answer.
    index_check: bool = False

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
            whole=_to_bytes(self.whole),
            corner=_to_bytes(self.corner),
            learned=self.learned.astype(bool),
            ink=_to_fraction(self.ink),
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
                whole = _from_bytes(data["whole"])
                corner = _from_bytes(data["corner"])
                learned = data["learned"].astype(bool)
                ink = _from_fraction(data["ink"])
        except ProfileError:
            raise
        except FileNotFoundError:
            raise ProfileError(f"{path}: no such deck profile") from None
        except (OSError, ValueError, KeyError, UnicodeDecodeError, zipfile.BadZipFile,
                EOFError, TypeError) as exc:
            raise ProfileError(f"{path}: corrupt deck profile ({exc})") from None
        shapes = ((52, _WHOLE[1], _WHOLE[0], 3), (52, _CORNER[1], _CORNER[0], 3))
        if ((whole.shape, corner.shape) != shapes or learned.shape != (52,)
                or ink.shape != shapes[0][:3]):
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
        return cls(str(header.get("name", "")), quad, whole, corner, learned, ink,
                   temperature, index_check)


class ProfileReader:
    """Reads one learned deck by comparing the card in view with its 52 descriptors.

    When the profile says the deck's indices are standard (``index_check``), the zero-shot
    reader reads the corners too: a sure rank or suit that disagrees turns the answer into
    an abstention, and agreement makes it surer.
    """

    def __init__(self, profile: DeckProfile, corners: CornerReader | None = None) -> None:
        self.profile = profile
        self._learned = np.flatnonzero(profile.learned)
        self._whole = _middles(profile.whole[self._learned])
        self._corner = _middles(profile.corner[self._learned])
        # Where each card's row lies among the learned ones (the best shifts of _seen).
        self._rows = {int(card): row for row, card in enumerate(self._learned)}
        # How red each card's ink is, for the colour check of same-rank rivals.
        self._colours = [ink_colour(w, k) for w, k in zip(profile.whole, profile.ink,
                                                          strict=True)]
        self._corners = corners if corners is not None or not profile.index_check else (
            CornerReader())

    def read(self, frame: np.ndarray) -> Reading:
        seen = self._frame_seen(frame)
        if seen is None:
            return Reading(None, 0.0)
        return self._read_seen(seen)

    def frame_scores(self, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """(the straightened card, its similarities to the 52) for a frame, or None."""
        seen = self._frame_seen(frame)
        return None if seen is None else (seen.card, seen.scores)

    def _frame_seen(self, frame: np.ndarray) -> _Seen | None:
        # The card lies where the pass showed it (the spring holds it against the window).
        each = []
        if self.profile.window is not None:
            each.append(self._seen(straighten(frame, self.profile.window)))
        # Only when that matches poorly (the camera moved since?), look for the card itself.
        if not each or each[0].scores.max() < _GOOD_MATCH:
            quad = locate(frame)
            if quad is not None:
                each.append(self._seen(straighten(frame, quad)))
        if not each:
            return None
        return max(each, key=lambda s: float(s.scores.max()))

    def scores(self, card: np.ndarray) -> np.ndarray:
        """Similarity (-1..1) of a straightened card to each of the 52, either way up."""
        return self._seen(card).scores

    def _seen(self, card: np.ndarray) -> _Seen:
        """The card's similarities to the 52, and where each learned card matched best
        either way up (for the pairwise check)."""
        best = np.full(len(self._learned), -1.0, np.float32)
        shifts, wholes = [], []
        for view in (card, np.ascontiguousarray(card[::-1, ::-1])):
            whole, corner = describe(view)
            wholes.append(whole)
            by_shift = _shifted_views(whole) @ self._whole.T
            shifts.append(by_shift.argmax(axis=0))
            score = 0.6 * by_shift.max(axis=0) + 0.4 * (
                _shifted_views(corner) @ self._corner.T).max(axis=0)
            best = np.maximum(best, score)
        scores = np.full(52, -1.0, np.float32)
        scores[self._learned] = best
        return _Seen(card, scores, np.stack(shifts), wholes[0])

    def read_card(self, card: np.ndarray) -> Reading:
        """Read a straightened card."""
        return self._read_seen(self._seen(card))

    def _read_seen(self, seen: _Seen) -> Reading:
        reading = self._colour_check(self._decide(seen), seen)
        if self._corners is None or reading.card is None:
            return reading
        return cross_check(reading, self._corners.read_card(seen.card))

    def _decide(self, seen: _Seen) -> Reading:
        """The best match, unless close rivals exist: then the pairwise check decides
        between them, or caps the confidence when the print that would decide is hidden."""
        s = seen.scores
        top = int(s.argmax())
        if s[top] < MIN_SIMILARITY:
            return Reading(None, 0.0)
        # Rivals of another rank, the best matching card of each: the ink decides ranks. A
        # suit is a shape, which the correlation judges better than ink counts do, so the
        # winner's same-rank rivals keep their similarities.
        ranks = {FULL_DECK[top].rank}
        rivals: list[int] = []
        for j in np.argsort(-s):
            if s[j] < s[top] - _CLOSE or len(rivals) == _RIVALS:
                break
            if FULL_DECK[j].rank not in ranks:
                ranks.add(FULL_DECK[j].rank)
                rivals.append(int(j))
        close = [top, *rivals]
        if len(close) == 1:
            return self._match(s)
        side = 2 * _SHIFT + 1

        def both_ways(card: int) -> tuple[Placed, Placed]:
            ink = self.profile.ink[card]
            at = [divmod(int(seen.shift[o, self._rows[card]]), side) for o in (0, 1)]
            return place(ink, at[0], False, _SHIFT), place(ink, at[1], True, _SHIFT)

        ink, unknown = seen.ink()
        winner = tournament(ink, unknown, [both_ways(c) for c in close], _EVIDENCE)
        if winner is None:
            reading = self._match(s)
            return capped(reading, rank=True,
                           suit=any(FULL_DECK[c].suit != FULL_DECK[top].suit for c in rivals))
        # The rivals it beat are out; the rest of the deck keeps its similarities.
        out = s.copy()
        out[[c for c in close if c != close[winner]]] = -np.inf
        return self._match(out, close[winner])

    def _colour_check(self, reading: Reading, seen: _Seen) -> Reading:
        """A sure suit whose ink is the colour of a close rival of the same rank (red
        against black) is capped: the whole face's correlation weighs a lone pip's colour
        little."""
        if not reading.is_sure or reading.card is None:
            return reading
        i = FULL_DECK.index(reading.card)
        s = seen.scores
        mine = self._colours[i]
        for j, card in enumerate(FULL_DECK):
            if (j == i or card.rank != reading.card.rank or s[j] < s[i] - _CLOSE
                    or abs(mine - self._colours[j]) < _COLOURS_APART):
                continue
            view = ink_colour(seen.whole, seen.ink()[0])
            if abs(view - self._colours[j]) < abs(view - mine):
                return capped(reading, rank=False, suit=True)
        return reading

    def _match(self, scores: np.ndarray, i: int | None = None) -> Reading:
        """The softmax reading of card ``i`` (default: the best match)."""
        i = int(scores.argmax()) if i is None else i
        if scores[i] < MIN_SIMILARITY:
            return Reading(None, 0.0)
        z = (scores - scores.max()) / effective_temperature(self.profile.temperature,
                                                            float(scores.max()))
        # Another ace differs in one pip's shape only, which glare, blur and the light's
        # halo around a lone pip outweigh: its margins mean less.
        aces = _ACES[i] & (z < 0)
        z[aces] /= _SUIT_CAUTION
        p = np.exp(z)
        p /= p.sum()
        found = FULL_DECK[i]
        # Rank and suit confidences: all the probability on cards sharing each.
        rank_conf = float(sum(p[j] for j, c in enumerate(FULL_DECK) if c.rank == found.rank))
        suit_conf = float(sum(p[j] for j, c in enumerate(FULL_DECK) if c.suit == found.suit))
        return Reading(found, float(p[i]), found.rank, found.suit, rank_conf, suit_conf)


@dataclass(slots=True)
class _Seen:
    """A straightened card, its similarities (52, FULL_DECK order), the best shift of each
    learned card (rows in the reader's order) upright and turned, and its face descriptor."""

    card: np.ndarray
    scores: np.ndarray
    shift: np.ndarray  # 2 x learned
    whole: np.ndarray  # the upright face descriptor
    maps: tuple[np.ndarray, np.ndarray] | None = None

    def ink(self) -> tuple[np.ndarray, np.ndarray]:
        """The card's (ink, unknown) maps, made once and only when asked for."""
        if self.maps is None:
            self.maps = describe_ink(self.card)
        return self.maps


#: Pairs of aces: an ace is one pip, so its suit is that pip's shape alone.
_ACES = np.array([[a.rank == b.rank == Rank.ACE for b in FULL_DECK] for a in FULL_DECK])
