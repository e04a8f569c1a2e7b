"""Blind decks: card designs from KDE's card decks (Debian's kdegames-card-data-kf5).

These decks joined the corpus after the reader was built and tuned, and the reader is never
tuned on them: like :data:`vision.corpus.HELD_OUT_DECKS`, they say how it does on designs it
has never met, and unlike those, nobody had looked at the reader's misses on them before
their first measurement. Only the designs not drawn in an aisleriot deck are taken (KDE's
dondorf, paris, tigullio and Nicu's two decks are twins or siblings of aisleriot's).

Each KDE deck is one SVG with an element per card (``1_club``, ``queen_heart``). Rendered
alone (``rsvg-convert --export-id``), an element's canvas may hold more than the card (a clip
path, the page), so the card is cropped to its opaque pixels. It is rendered twice: once to
measure the card, once at the scale that gives the height asked.
"""

from __future__ import annotations

import concurrent.futures
import gzip
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path

import cv2
import numpy as np

from shoe.cards import Card, Rank, Suit

__all__ = ["KDE_DIR", "PREFIX", "element_id", "render_cards", "theme_file"]

KDE_DIR = Path("/usr/share/carddecks")
#: Blind decks are named ``kde-<folder>`` (``kde-penguins`` for ``svg-penguins``).
PREFIX = "kde-"

_SUIT_IDS = {Suit.CLUBS: "club", Suit.DIAMONDS: "diamond", Suit.HEARTS: "heart",
             Suit.SPADES: "spade"}
_COURT_IDS = {Rank.JACK: "jack", Rank.QUEEN: "queen", Rank.KING: "king"}
#: Rendered this much larger than asked, then shrunk: shrinking is kinder than enlarging.
_OVERSAMPLE = 1.15


def element_id(card: Card) -> str:
    """The SVG element id of a card in a KDE deck: ``queen_heart``, ``10_club``, ``1_spade``."""
    rank = _COURT_IDS.get(card.rank, str(int(card.rank)))
    return f"{rank}_{_SUIT_IDS[card.suit]}"


def theme_file(deck: str) -> Path | None:
    """The SVG of a blind deck, if kdegames-card-data-kf5 is installed."""
    folder = KDE_DIR / f"svg-{deck.removeprefix(PREFIX)}"
    found = sorted(folder.glob("*.svgz")) + sorted(folder.glob("*.svg"))
    return found[0] if found else None


def render_cards(source: Path, cards: Mapping[Card, Path], height: int, rsvg: str) -> None:
    """Render each card of a KDE deck to its PNG path (BGRA, ``height`` tall)."""
    with tempfile.TemporaryDirectory(prefix="faro-shoe-") as tmp:
        svg = Path(tmp) / "deck.svg"
        data = source.read_bytes()
        svg.write_bytes(gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data)

        def one(item: tuple[Card, Path]) -> None:
            card, path = item
            face = _render_card(svg, element_id(card), height, rsvg, Path(tmp))
            width = max(1, round(face.shape[1] * height / face.shape[0]))
            face = cv2.resize(face, (width, height), interpolation=cv2.INTER_AREA)
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp_png = path.with_name(f".{path.stem}.tmp.png")
            if not cv2.imwrite(str(tmp_png), face):
                raise OSError(f"could not write {tmp_png}")
            tmp_png.replace(path)

        # rsvg-convert runs as a subprocess: two at once use both cores.
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(one, cards.items()))


def _render_card(svg: Path, element: str, height: int, rsvg: str, tmp: Path) -> np.ndarray:
    out = tmp / f"{element}.png"
    zoom = 1.0
    for _ in range(2):
        proc = subprocess.run([rsvg, "-i", element, "-z", f"{zoom:.5f}", "-o", str(out),
                               str(svg)], capture_output=True, text=True, timeout=120,
                              check=False)
        image = cv2.imread(str(out), cv2.IMREAD_UNCHANGED) if proc.returncode == 0 else None
        if image is None or image.ndim != 3 or image.shape[2] != 4:
            raise ValueError(f"rsvg-convert could not render {element} of {svg.name}: "
                             f"{proc.stderr.strip()[:200]}")
        opaque = image[:, :, 3] > 128
        rows, cols = np.flatnonzero(opaque.any(axis=1)), np.flatnonzero(opaque.any(axis=0))
        if rows.size == 0:
            raise ValueError(f"{element} of {svg.name} draws nothing")
        card = image[rows[0]: rows[-1] + 1, cols[0]: cols[-1] + 1]
        zoom *= _OVERSAMPLE * height / card.shape[0]
    return card
