"""The dev corpus: card faces rendered from Debian's gnome-cards-data (and KDE's decks).

Every aisleriot theme (``/usr/share/aisleriot/cards/*.svgz``) is one SVG laid out as a grid
of 13 columns by 5 rows: clubs, diamonds, hearts, spades (ace to king), then the jokers and
the back. Aisleriot itself slices the theme by that grid, and so do we: ``rsvg-convert
--export-id club_10`` returns wrong bounding boxes for most themes (whole rows, or a glyph),
while the per-card ids (``club_1`` … ``club_10``, ``club_jack``, ``club_queen``, ``club_king``;
the same scheme in every installed theme) only confirm that the 52 cards are there.

Faces are BGR ``uint8`` arrays, the card cropped to its own outline; outside the rounded
corners they are white, or transparent with ``alpha=True`` (BGRA), which is what the
simulator uses to composite the card over the box.

>>> face = render_card("anglo", Card.parse("QH"), height=200)
>>> face.shape[0]
200
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import cv2
import numpy as np

from shoe.cards import FULL_DECK, Card, FaroError, Suit
from vision import kdecards

__all__ = [
    "BLIND_DECKS",
    "DEV_DECKS",
    "HELD_OUT_DECKS",
    "THEME_DIR",
    "CorpusUnavailableError",
    "DeckInfo",
    "UnknownDeckError",
    "cache_dir",
    "deck_info",
    "list_decks",
    "on_white",
    "render_card",
    "render_deck",
    "rsvg_convert",
    "standard_dev_decks",
]

THEME_DIR = Path("/usr/share/aisleriot/cards")

IndexStyle = Literal["standard", "foreign", "partial", "split"]


class CorpusUnavailableError(FaroError):
    """gnome-cards-data or rsvg-convert is not installed."""


class UnknownDeckError(FaroError, ValueError):
    """A deck name that is not an installed aisleriot theme."""


@dataclass(frozen=True, slots=True)
class DeckInfo:
    """One aisleriot theme as the reader sees it.

    ``index_style``: ``standard`` (A K Q J 10–2 on every card), ``foreign`` (other letters
    on the court cards or the ace, e.g. B/D/K, V/D/R, Cyrillic), ``partial`` (court cards
    without corner indices), ``split`` (the rank in one top corner, the suit in the other).
    """

    name: str
    index_style: IndexStyle
    suits_french: bool
    notes: str = ""
    four_colour: bool = False  # suits not only red and black (green clubs, blue spades …)


# Surveyed by eye from full renders of gnome-cards-data 3.22 (the letters are the corner
# indices of jack, queen, king, and the ace where it differs).
_SURVEY: dict[str, DeckInfo] = {
    d.name: d
    for d in (
        DeckInfo("ancient_french", "foreign", True, "1 V D R; cream card"),
        DeckInfo("anglo", "standard", True),
        DeckInfo("anglo_bitmap", "standard", True, "raster twin of anglo"),
        DeckInfo("anglo_modern", "standard", True),
        DeckInfo("anglo_modern_4_color", "standard", True,
                 "four colours: green clubs, yellow diamonds, blue spades", four_colour=True),
        DeckInfo("anglo_poker", "standard", True, "large indices"),
        DeckInfo("atlasnye", "standard", True, "Russian art, J Q K indices"),
        DeckInfo("atlasnye_skat", "foreign", True, "B D K; yellow diamonds, green spades",
                 four_colour=True),
        DeckInfo("bellot", "standard", True, "heavy outline"),
        DeckInfo("berlin", "foreign", True, "B D K; pale print"),
        DeckInfo("dondorf", "standard", True, "thick black border, indices top and bottom"),
        DeckInfo("gnomangelo", "standard", True),
        DeckInfo("gnomangelo_bitmap", "standard", True, "raster twin of gnomangelo"),
        DeckInfo("guyenne-classic", "partial", True, "court cards without indices; black border"),
        DeckInfo("lattmann", "foreign", True, "B D K"),
        DeckInfo("neoclassical", "standard", True),
        DeckInfo("neoclassical_4_color", "standard", True,
                 "four colours: green clubs, yellow diamonds, blue spades", four_colour=True),
        DeckInfo("orell", "standard", True, "cream card"),
        DeckInfo("ornamental", "standard", True, "very large indices; cream card"),
        DeckInfo("paris", "standard", True, "thick black border"),
        DeckInfo("plastic", "standard", True, "rounded sans indices"),
        DeckInfo("rheinland", "foreign", True, "B D K; cream card"),
        DeckInfo("simplistic", "standard", True, "court cards show only a big letter"),
        DeckInfo("slavic_costumes", "foreign", True, "Cyrillic Т В Д К"),
        DeckInfo("swiss-xvii", "partial", False,
                 "acorns, bells, roses, shields; court cards without indices"),
        DeckInfo("tango", "standard", True, "grey gradient card, big pips"),
        DeckInfo("tango_nuevo", "standard", True, "huge index, no small suit under it"),
        DeckInfo("tarocco", "foreign", True, "F D R (Italian)"),
        DeckInfo("tigullio", "standard", True),
        DeckInfo("Атласные", "foreign", True, "Cyrillic Т В Д К; twin of atlasnye"),
        # Blind decks (vision.kdecards), surveyed by eye from renders of
        # kdegames-card-data-kf5 22.12.
        DeckInfo("kde-ancient-egyptians", "standard", True,
                 "cream card; the lower index is not turned round"),
        DeckInfo("kde-jolly-royal", "standard", True,
                 "grey gradient; court cards show a big letter"),
        DeckInfo("kde-oxygen", "split", True, "dark grey and dark red cards"),
        DeckInfo("kde-oxygen-air", "split", True, "grey card, silhouette court cards"),
        DeckInfo("kde-oxygen-white", "split", True, "white card, silhouette court cards"),
        DeckInfo("kde-penguins", "standard", True, "black border; penguin court cards"),
        DeckInfo("kde-standard", "standard", True, "pixel-drawn court cards"),
    )
}

#: Decks never used to tune the reader; accuracy on them is reported separately. Each is
#: alone in its design family (no twin or sibling among the dev decks), four with standard
#: indices in different typefaces and one foreign-indexed (Cyrillic).
HELD_OUT_DECKS: tuple[str, ...] = (
    "anglo_poker", "plastic", "simplistic", "tigullio", "slavic_costumes")

#: Decks from another package (kdegames-card-data-kf5, :mod:`vision.kdecards`), never
#: used to tune the reader and first measured only after it was built; optional.
BLIND_DECKS: tuple[str, ...] = tuple(n for n in _SURVEY if n.startswith(kdecards.PREFIX))

#: The French-suited decks the reader may be tuned on.
DEV_DECKS: tuple[str, ...] = tuple(
    sorted(
        (n for n, d in _SURVEY.items()
         if d.suits_french and n not in HELD_OUT_DECKS and n not in BLIND_DECKS),
        key=str.casefold,
    )
)

# Grid rows of an aisleriot theme, and the element ids that prove a card is present.
_SUIT_ROWS = {Suit.CLUBS: 0, Suit.DIAMONDS: 1, Suit.HEARTS: 2, Suit.SPADES: 3}
_SUIT_IDS = {Suit.CLUBS: "club", Suit.DIAMONDS: "diamond", Suit.HEARTS: "heart",
             Suit.SPADES: "spade"}
_RANK_IDS = {1: "1", 11: "jack", 12: "queen", 13: "king"}
_GRID_COLUMNS, _GRID_ROWS = 13, 5
# Render a little larger than asked, then shrink each card to the exact height: shrinking is
# kinder than enlarging (and an aisleriot card fills only 90–100 % of its grid cell).
_OVERSAMPLE = 1.15


def card_element_id(card: Card) -> str:
    """The SVG element id of a card in every aisleriot theme: ``heart_queen``, ``club_10``."""
    return f"{_SUIT_IDS[card.suit]}_{_rank_id(card)}"


def _kde_element_id(card: Card) -> str:
    """The SVG element id of a card in a KDE deck: ``queen_heart``, ``10_club``."""
    return f"{_rank_id(card)}_{_SUIT_IDS[card.suit]}"


def _rank_id(card: Card) -> str:
    return _RANK_IDS.get(int(card.rank), str(int(card.rank)))


def cache_dir() -> Path:
    """``$XDG_CACHE_HOME/faro-shoe/cards`` (default ``~/.cache/faro-shoe/cards``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "faro-shoe" / "cards"


def rsvg_convert() -> str:
    """The path of rsvg-convert (librsvg2-bin), which renders every SVG face here."""
    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise CorpusUnavailableError(
            "rsvg-convert not found: install the Debian package librsvg2-bin")
    return exe


def _theme_path(deck: str) -> Path:
    if not deck or "/" in deck or deck.startswith("."):
        raise UnknownDeckError(f"not a deck name: {deck!r}")
    if deck in BLIND_DECKS:
        found = kdecards.theme_file(deck)
        if found is None:
            raise CorpusUnavailableError(
                f"no {deck} in {kdecards.KDE_DIR}: install the Debian package "
                "kdegames-card-data-kf5")
        return found
    if not THEME_DIR.is_dir():
        raise CorpusUnavailableError(
            f"no card themes in {THEME_DIR}: install the Debian package gnome-cards-data")
    path = THEME_DIR / f"{deck}.svgz"
    if not path.is_file():
        path = THEME_DIR / f"{deck}.svg"
    if not path.is_file():
        known = ", ".join(sorted(_installed_names(), key=str.casefold))
        raise UnknownDeckError(f"no deck named {deck!r} in {THEME_DIR}; installed: {known}")
    return path


def _installed_names() -> list[str]:
    if not THEME_DIR.is_dir():
        return []
    blind = [n for n in BLIND_DECKS if kdecards.theme_file(n) is not None]
    return [p.name.split(".")[0] for p in THEME_DIR.iterdir()
            if p.suffix in (".svgz", ".svg")] + blind


def deck_info(deck: str) -> DeckInfo:
    """What is known about an installed deck (a theme not surveyed is assumed standard)."""
    _theme_path(deck)
    return _SURVEY.get(deck) or DeckInfo(deck, "standard", True, "not surveyed")


def standard_dev_decks() -> list[str]:
    """The dev decks indexed A K Q J 10-2: what the zero-shot reader's lines are measured on."""
    return [d for d in DEV_DECKS if deck_info(d).index_style == "standard"]


def list_decks(*, french_only: bool = True) -> list[DeckInfo]:
    """Every installed deck with the 52 cards (French-suited only, unless asked otherwise)."""
    if not THEME_DIR.is_dir():
        raise CorpusUnavailableError(
            f"no card themes in {THEME_DIR}: install the Debian package gnome-cards-data")
    infos = [deck_info(n) for n in sorted(_installed_names(), key=str.casefold)]
    return [i for i in infos if i.suits_french or not french_only]


def _cache_paths(deck: str, height: int) -> dict[Card, Path]:
    folder = cache_dir() / deck / str(height)
    return {c: folder / f"{c.code}.png" for c in FULL_DECK}


def render_deck(deck: str, height: int = 350, *, alpha: bool = False) -> dict[Card, np.ndarray]:
    """All 52 faces of an installed deck, ``height`` pixels tall, from the cache if there.

    A cold render draws the whole theme once with rsvg-convert (1–3 s) and caches each card
    as a BGRA PNG under :func:`cache_dir`.
    """
    if height < 16:
        raise ValueError(f"card height too small: {height}")
    paths = _cache_paths(deck, height)
    for attempt in range(2):
        if attempt or not all(p.is_file() for p in paths.values()):
            _render_to_cache(deck, height, paths)
        faces: dict[Card, np.ndarray] = {}
        for card, path in paths.items():
            bgra = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
            if bgra is None or bgra.ndim != 3 or bgra.shape[2] != 4:
                break
            faces[card] = bgra if alpha else on_white(bgra)
        else:
            return faces
        # A damaged cache file: render again rather than hand back garbage.
    raise CorpusUnavailableError(
        f"cannot read back the rendered cards of {deck!r} from {cache_dir()}")


def render_card(deck: str, card: Card, height: int = 350, *, alpha: bool = False) -> np.ndarray:
    """One face of an installed deck (BGR on white, or BGRA with ``alpha=True``)."""
    path = _cache_paths(deck, height)[card]
    bgra = cv2.imread(str(path), cv2.IMREAD_UNCHANGED) if path.is_file() else None
    if bgra is None or bgra.ndim != 3 or bgra.shape[2] != 4:
        return render_deck(deck, height, alpha=alpha)[card]
    return bgra if alpha else on_white(bgra)


def _render_to_cache(deck: str, height: int, paths: Mapping[Card, Path]) -> None:
    source = _theme_path(deck)
    text = _svg_text(source)
    if deck in BLIND_DECKS:
        try:
            faces = kdecards.render_faces(text, {c: _kde_element_id(c) for c in paths},
                                          height * _OVERSAMPLE, rsvg_convert())
        except ValueError as exc:
            raise CorpusUnavailableError(str(exc)) from exc
        for card, path in paths.items():
            _store(faces[card], height, path)
        return
    missing = [c for c in FULL_DECK if f'id="{card_element_id(c)}"' not in text]
    if missing:
        raise UnknownDeckError(
            f"deck {deck!r} lacks {len(missing)} of the 52 cards, e.g. {missing[0].code}")
    sheet = _render_sheet(source, _GRID_ROWS * round(height * _OVERSAMPLE))
    cell_w = sheet.shape[1] / _GRID_COLUMNS
    cell_h = sheet.shape[0] / _GRID_ROWS
    for card, path in paths.items():
        row, col = _SUIT_ROWS[card.suit], int(card.rank) - 1
        cell = sheet[round(row * cell_h): round((row + 1) * cell_h),
                     round(col * cell_w): round((col + 1) * cell_w)]
        _store(_crop_to_card(cell, deck, card), height, path)


def _store(face: np.ndarray, height: int, path: Path) -> None:
    """Cache a rendered face, shrunk to ``height``."""
    width = max(1, round(face.shape[1] * height / face.shape[0]))
    path.parent.mkdir(parents=True, exist_ok=True)
    _write_atomically(path, cv2.resize(face, (width, height), interpolation=cv2.INTER_AREA))


def _svg_text(source: Path) -> str:
    import gzip

    data = source.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data.decode("utf-8", errors="replace")


def _render_sheet(source: Path, sheet_height: int) -> np.ndarray:
    with tempfile.TemporaryDirectory(prefix="faro-shoe-") as tmp:
        out = Path(tmp) / "sheet.png"
        proc = subprocess.run(
            [rsvg_convert(), "-h", str(sheet_height), "-o", str(out), str(source)],
            capture_output=True, text=True, timeout=120, check=False)
        sheet = cv2.imread(str(out), cv2.IMREAD_UNCHANGED) if out.is_file() else None
    if proc.returncode != 0 or sheet is None:
        raise CorpusUnavailableError(
            f"rsvg-convert could not render {source}: {proc.stderr.strip()[:200]}")
    if sheet.ndim == 2 or sheet.shape[2] != 4:
        sheet = cv2.cvtColor(sheet, cv2.COLOR_GRAY2BGRA if sheet.ndim == 2 else cv2.COLOR_BGR2BGRA)
    return sheet


def _crop_to_card(cell: np.ndarray, deck: str, card: Card) -> np.ndarray:
    """The card inside its grid cell: the bounding box of its opaque pixels."""
    opaque = cell[:, :, 3] > 128
    rows, cols = np.flatnonzero(opaque.any(axis=1)), np.flatnonzero(opaque.any(axis=0))
    if rows.size == 0 or (rows[-1] - rows[0]) < cell.shape[0] // 2:
        raise UnknownDeckError(f"deck {deck!r}: no card drawn where {card.code} should be")
    return cell[rows[0]: rows[-1] + 1, cols[0]: cols[-1] + 1]


def _write_atomically(path: Path, image: np.ndarray) -> None:
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.png")
    if not cv2.imwrite(str(tmp), image):
        raise OSError(f"could not write {tmp}")
    os.replace(tmp, path)


def on_white(bgra: np.ndarray) -> np.ndarray:
    """A BGRA face composited on white (BGR); a BGR face is returned as it is."""
    if bgra.ndim == 3 and bgra.shape[2] == 3:
        return bgra
    alpha = bgra[:, :, 3:4].astype(np.float32) / 255.0
    out = bgra[:, :, :3].astype(np.float32) * alpha + 255.0 * (1.0 - alpha)
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)
