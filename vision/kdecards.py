"""Blind decks: card designs from KDE's card decks (Debian's kdegames-card-data-kf5).

These decks joined the corpus after the reader was built and tuned, and the reader is never
tuned on them: like :data:`vision.corpus.HELD_OUT_DECKS`, they say how it does on designs it
has never met, and unlike those, nobody had looked at the reader's misses on them before
their first measurement. Only the designs not drawn in an aisleriot deck are taken (KDE's
dondorf, paris, tigullio and Nicu's two decks are twins or siblings of aisleriot's).

Each KDE deck is one SVG with an element per card (``1_club``, ``queen_heart``). Rendered
alone (``rsvg-convert --export-id``), an element's canvas may hold more than the card (a clip
path, the page), so the card is cropped to its opaque pixels. It is rendered twice: once to
measure the card, once at the scale that gives the height asked. :mod:`vision.corpus` names
the elements, sizes the faces and caches them, as for its own decks.
"""

from __future__ import annotations

import concurrent.futures
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path

import cv2
import numpy as np

from shoe.cards import Card

__all__ = ["KDE_DIR", "PREFIX", "render_faces", "theme_file"]

KDE_DIR = Path("/usr/share/carddecks")
#: Blind decks are named ``kde-<folder>`` (``kde-penguins`` for ``svg-penguins``).
PREFIX = "kde-"


def theme_file(deck: str) -> Path | None:
    """The SVG of a blind deck, if kdegames-card-data-kf5 is installed."""
    folder = KDE_DIR / f"svg-{deck.removeprefix(PREFIX)}"
    found = sorted(folder.glob("*.svgz")) + sorted(folder.glob("*.svg"))
    return found[0] if found else None


def render_faces(svg_text: str, elements: Mapping[Card, str], tall: float, rsvg: str
                 ) -> dict[Card, np.ndarray]:
    """Each card's element of a KDE deck's SVG, rendered alone and cropped to the card
    (BGRA, about ``tall`` pixels high). Raises ValueError for an element that does not
    render."""
    with tempfile.TemporaryDirectory(prefix="faro-shoe-") as tmp:
        svg = Path(tmp) / "deck.svg"
        svg.write_text(svg_text, encoding="utf-8")

        def one(element: str) -> np.ndarray:
            return _render_card(svg, element, tall, rsvg, Path(tmp))

        # rsvg-convert runs as a subprocess: two at once use both cores.
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            return dict(zip(elements, pool.map(one, elements.values()), strict=True))


def _render_card(svg: Path, element: str, tall: float, rsvg: str, tmp: Path) -> np.ndarray:
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
        zoom *= tall / card.shape[0]
    return card
