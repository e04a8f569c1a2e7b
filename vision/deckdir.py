"""Users' own decks: a folder of card images, one per card, named by its code.

>>> faces = load_deck_dir("~/my-deck")          # doctest: +SKIP
>>> faces[Card.parse("QH")].shape[0]            # doctest: +SKIP
350
"""

from __future__ import annotations

import concurrent.futures
import os
import re
import subprocess
import tempfile
from pathlib import Path

import cv2
import numpy as np

from shoe.cards import FULL_DECK, Card, FaroError, InvalidCardError
from vision.corpus import on_white, rsvg_convert

__all__ = ["DeckDirError", "load_deck_dir"]


class DeckDirError(FaroError, ValueError):
    """A deck folder with missing, duplicate or unreadable card images."""


_IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".svg", ".svgz")
_CODE_STEM = re.compile(r"^(10|[2-9TtAaJjQqKk])[SHDCshdc♠♥♦♣]$")


def load_deck_dir(path: str | os.PathLike[str], height: int = 350, *,
                  alpha: bool = False) -> dict[Card, np.ndarray]:
    """The 52 faces in a folder of per-card images named by code (``QH.png``, ``10h.svg``).

    Files whose names are not card codes (a back, a joker, a readme) are ignored. Raises
    :class:`DeckDirError` naming the missing, duplicated or unreadable cards.
    """
    folder = Path(path)
    if not folder.is_dir():
        raise DeckDirError(f"not a folder: {folder}")
    found: dict[Card, Path] = {}
    for file in sorted(folder.iterdir()):
        stem = file.name.split(".")[0]
        if file.suffix.lower() not in _IMAGE_SUFFIXES or not _CODE_STEM.match(stem):
            continue
        try:
            card = Card.parse(stem)
        except InvalidCardError:
            continue
        if card in found:
            raise DeckDirError(
                f"{card.code} twice in {folder}: {found[card].name} and {file.name}")
        found[card] = file
    missing = [c.code for c in FULL_DECK if c not in found]
    if missing:
        raise DeckDirError(
            f"{folder} lacks {len(missing)} card(s): {' '.join(missing[:13])}"
            + (" …" if len(missing) > 13 else "")
            + " (files are named by card code, e.g. QH.png, 10H.svg)")
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        faces = dict(zip(found, pool.map(lambda f: _load_face(f, height), found.values()),
                         strict=True))
    return {c: faces[c] if alpha else on_white(faces[c]) for c in FULL_DECK}


def _load_face(file: Path, height: int) -> np.ndarray:
    """One card image as BGRA, ``height`` tall."""
    if file.suffix.lower() in (".svg", ".svgz"):
        with tempfile.TemporaryDirectory(prefix="faro-shoe-") as tmp:
            out = Path(tmp) / "card.png"
            proc = subprocess.run([rsvg_convert(), "-h", str(height), "-o", str(out), str(file)],
                                  capture_output=True, text=True, timeout=60, check=False)
            image = cv2.imread(str(out), cv2.IMREAD_UNCHANGED) if out.is_file() else None
        if proc.returncode != 0:
            image = None
    else:
        image = cv2.imread(str(file), cv2.IMREAD_UNCHANGED)
    if image is None or image.size == 0:
        raise DeckDirError(f"cannot read card image {file}")
    if image.dtype != np.uint8:
        image = cv2.convertScaleAbs(image, alpha=255.0 / max(1, int(image.max())))
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGRA)
    elif image.shape[2] == 3:
        image = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
    if image.shape[0] != height:
        width = max(1, round(image.shape[1] * height / image.shape[0]))
        shrink = image.shape[0] > height
        image = cv2.resize(image, (width, height),
                           interpolation=cv2.INTER_AREA if shrink else cv2.INTER_CUBIC)
    return image
