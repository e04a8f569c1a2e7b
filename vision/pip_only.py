"""The pip-only variant of a deck: its corner indices painted over in the card's own
colour, for the "period deck without indices" that a learned profile must read.

>>> plain = paint_out_deck(render_deck("anglo", 350))  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

from shoe.cards import Card, Rank
from vision.corpus import on_white

__all__ = ["PIP_ONLY_DECKS", "paint_out_deck", "paint_out_indices", "period_deck",
           "single_headed"]

#: Decks whose pip-only variant (paint_out_deck) has no index left in any corner
#: (checked on all 52 cards of each at 200 px). The others keep a few indices (dondorf,
#: guyenne-classic, paris: where an index touches a club pip; neoclassical: one king) or
#: have indices too big to find (ornamental, tango, tango_nuevo).
PIP_ONLY_DECKS: tuple[str, ...] = (
    "ancient_french", "anglo", "anglo_bitmap", "anglo_modern", "anglo_modern_4_color",
    "anglo_poker", "atlasnye", "atlasnye_skat", "bellot", "berlin", "gnomangelo",
    "gnomangelo_bitmap", "lattmann", "orell", "plastic", "rheinland", "simplistic",
    "slavic_costumes", "tarocco", "tigullio", "Атласные")


# Where a corner index may lie, as fractions of the card's width and height: it starts
# within the first 12 % of the width (pips start further in), is at most 30 % wide and ends
# above 40 % of the height, with blank card around it.
_INDEX_START, _INDEX_WIDTH, _INDEX_DEPTH = 0.12, 0.30, 0.40


# An index box as fractions of the card: (x0, y0, x1, y1), in one of the four corners.
_Box = tuple[float, float, float, float]
_CORNERS = ((False, False), (True, False), (False, True), (True, True))  # flip x, flip y


def paint_out_indices(face: np.ndarray) -> np.ndarray:
    """The face with its corner indices painted over in the card's own background colour.

    In each corner it looks for a mark near the edge that is set apart by blank card from
    everything further in (the index: rank over suit), and paints over that mark's box.
    Pips, the court picture and the border stay. Where a court picture runs into the index
    nothing is found; :func:`paint_out_deck` handles those cards from the rest of the deck.
    """
    return _paint(face, _find_index_boxes(face))


def paint_out_deck(faces: Mapping[Card, np.ndarray]) -> dict[Card, np.ndarray]:
    """The pip-only variant of a whole deck (a "period deck without indices").

    A deck prints its indices in the same place on every card, so each corner is painted
    over wherever any card's index was found there (the union of their boxes, which holds a
    "10"), also on cards where the court picture touches the index and hides it from
    :func:`paint_out_indices`. On decks whose court cards have no index (guyenne-classic)
    this cuts a notch out of the picture. The court cards stay double-headed, which real
    period decks are not.
    """
    found = {card: _find_index_boxes(face) for card, face in faces.items()}
    deck_boxes: list[_Box | None] = []
    for corner in range(len(_CORNERS)):
        boxes = [b[corner] for b in found.values() if b[corner] is not None]
        if len(boxes) < max(4, len(faces) // 4):
            deck_boxes.append(None)  # this deck prints no index in this corner
            continue
        xy = np.array(boxes)
        # Leave out boxes that strayed (took in part of a pip or a picture): every edge must
        # lie near the deck's median edge (a "10" reaches a little further in).
        median = np.median(xy, axis=0)
        slack = np.array([0.4, 0.25, 0.4, 0.25]) * np.tile(median[2:] - median[:2], 2)
        xy = xy[(np.abs(xy - median) <= slack).all(axis=1)]
        if len(xy) < 4:
            deck_boxes.append(None)
            continue
        deck_boxes.append((float(xy[:, 0].min()), float(xy[:, 1].min()),
                           float(xy[:, 2].max()), float(xy[:, 3].max())))
    colour = np.median([_background(on_white(f)) for f in faces.values()], axis=0)
    # A corner where the deck prints no index gets nothing, whatever one card seemed to show.
    return {card: _paint(face, [None if deck is None else _union(own, deck)
                                if _fits(own, deck) else deck
                                for own, deck in zip(found[card], deck_boxes, strict=True)],
                         colour)
            for card, face in faces.items()}


def period_deck(faces: Mapping[Card, np.ndarray]) -> dict[Card, np.ndarray]:
    """A "period deck" made from a modern one: no indices (:func:`paint_out_deck`) and, if
    its court pictures are double-headed, single-headed court cards (:func:`single_headed`).
    """
    plain = paint_out_deck(faces)
    courts = [card for card in plain if card.rank >= Rank.JACK]
    similar = [s for s in (_mirror_similarity(plain[c]) for c in courts) if s is not None]
    if not similar or float(np.median(similar)) < 0.75:
        return plain  # courts drawn otherwise (a big letter, a one-way figure): leave them
    return {card: single_headed(face) if card in courts else face
            for card, face in plain.items()}


def single_headed(face: np.ndarray) -> np.ndarray:
    """A double-headed court card made single-headed: the top half of its picture stretched
    over the whole picture, so the card has an up and a down as period court cards do."""
    out = face.copy()
    box = _picture_box(face)
    if box is None:
        return out
    x0, y0, x1, y1 = box
    top = face[y0: (y0 + y1) // 2, x0:x1]
    out[y0:y1, x0:x1] = cv2.resize(top, (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR)
    return out


def _picture_box(face: np.ndarray) -> tuple[int, int, int, int] | None:
    """The box (x0, y0, x1, y1) of a card's picture, inside its corner margins, or None."""
    bgr = on_white(face)
    h, w = bgr.shape[:2]
    distance = np.abs(bgr.astype(np.int16) - _background(bgr).astype(np.int16)).max(axis=2)
    ink = distance > 40
    ink[:, : int(0.1 * w)] = ink[:, w - int(0.1 * w):] = False
    ink[: int(0.05 * h)] = ink[h - int(0.05 * h):] = False
    rows, cols = np.flatnonzero(ink.mean(axis=1) > 0.05), np.flatnonzero(ink.mean(axis=0) > 0.05)
    if rows.size < 0.3 * h or cols.size == 0:
        return None  # no picture to speak of
    return int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1


def _mirror_similarity(face: np.ndarray) -> float | None:
    """How alike the picture's top half and its bottom half turned round are (-1..1)."""
    box = _picture_box(face)
    if box is None:
        return None
    x0, y0, x1, y1 = box
    grey = cv2.cvtColor(on_white(face)[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.float32)
    half = (y1 - y0) // 2
    a, b = grey[:half], grey[::-1, ::-1][:half]
    a, b = a - a.mean(), b - b.mean()
    return float((a * b).sum() / (np.sqrt((a * a).sum() * (b * b).sum()) + 1e-6))


def _fits(own: _Box | None, deck: _Box | None) -> bool:
    """Whether a card's own box is no bigger than the deck's allows (see paint_out_deck)."""
    if own is None or deck is None:
        return True
    return (own[2] - own[0] <= 1.6 * (deck[2] - deck[0])
            and own[3] - own[1] <= 1.3 * (deck[3] - deck[1]))


def _union(a: _Box | None, b: _Box | None) -> _Box | None:
    if a is None or b is None:
        return a or b
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _background(bgr: np.ndarray) -> np.ndarray:
    """The card's own colour: the commonest colour of a ring just inside its edge (court
    pictures and pips leave that margin blank)."""
    h, w = bgr.shape[:2]
    a, b = round(0.025 * w) + 1, round(0.055 * w) + 1
    ring = np.concatenate([
        bgr[b: h - b, a: b].reshape(-1, 3), bgr[b: h - b, w - b: w - a].reshape(-1, 3),
        bgr[a: b, b: w - b].reshape(-1, 3), bgr[h - b: h - a, b: w - b].reshape(-1, 3)])
    # The brightest half of the ring is card, not ink or border.
    grey = ring.sum(axis=1)
    return np.median(ring[grey >= np.median(grey)], axis=0)


def _find_index_boxes(face: np.ndarray) -> list[_Box | None]:
    """The index box in each corner (top-left, top-right, bottom-left, bottom-right)."""
    bgr = on_white(face)
    h, w = bgr.shape[:2]
    opaque: np.ndarray = np.ones((h, w), np.uint8)
    if face.shape[2] == 4:
        # Keep off the outline that follows the rounded corners.
        k = max(3, round(0.05 * w))
        opaque = cv2.erode((face[:, :, 3] > 200).astype(np.uint8), np.ones((k, k), np.uint8))
    inset = np.zeros((h, w), bool)
    inset[int(0.015 * h): h - int(0.015 * h), int(0.015 * w): w - int(0.015 * w)] = True
    distance = np.abs(bgr.astype(np.int16) - _background(bgr).astype(np.int16)).max(axis=2)
    ink = (distance > 40) & (opaque > 0) & inset
    boxes: list[_Box | None] = []
    for flip_x, flip_y in _CORNERS:
        box = _index_box(ink[::-1 if flip_y else 1, ::-1 if flip_x else 1])
        if box is None:
            boxes.append(None)
            continue
        x0, y0, x1, y1 = box
        if flip_x:
            x0, x1 = w - 1 - x1, w - 1 - x0
        if flip_y:
            y0, y1 = h - 1 - y1, h - 1 - y0
        boxes.append((x0 / w, y0 / h, (x1 + 1) / w, (y1 + 1) / h))
    return boxes


def _paint(face: np.ndarray, boxes: list[_Box | None], colour: np.ndarray | None = None
           ) -> np.ndarray:
    """Paint the boxes over in ``colour``, sparing any pip that reaches into one."""
    out = face.copy()
    h, w = face.shape[:2]
    bgr = on_white(face)
    paint_colour = (_background(bgr) if colour is None else colour).astype(np.uint8)
    distance = np.abs(bgr.astype(np.int16) - paint_colour.astype(np.int16)).max(axis=2)
    ink = np.where(distance > 40, 255, 0).astype(np.uint8)
    _count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    for box in boxes:
        if box is None:
            continue
        x0, y0 = max(0, int(box[0] * w) - 1), max(0, int(box[1] * h) - 1)
        x1, y1 = min(w, round(box[2] * w) + 1), min(h, round(box[3] * h) + 1)
        inside = labels[y0:y1, x0:x1]
        spare = np.zeros((y1 - y0, x1 - x0), np.uint8)
        for label in np.unique(inside):
            if label == 0:
                continue
            area = stats[label, cv2.CC_STAT_AREA]
            within = int((inside == label).sum())
            # A pip: a mark of modest size lying mostly outside the box. (An index lies
            # inside it; a court picture is far bigger and loses its corner.)
            if within < 0.6 * area and area < 0.04 * h * w:
                spare[inside == label] = 255
        spare = cv2.dilate(spare, np.ones((3, 3), np.uint8))  # and its soft edge
        region = out[y0:y1, x0:x1, :3]
        region[spare == 0] = paint_colour
    return out


def _index_box(ink: np.ndarray) -> tuple[int, int, int, int] | None:
    """The box (x0, y0, x1, y1) of a top-left corner index in an ink mask, or None."""
    h, w = ink.shape
    depth, width = int(_INDEX_DEPTH * h), int(_INDEX_WIDTH * w)
    strip = ink[:depth, :width].copy()
    # A thick printed border runs the whole strip; it is not the index.
    strip[:, strip.mean(axis=0) > 0.7] = False
    strip[strip.mean(axis=1) > 0.7, :] = False
    gap, row_gap = max(1, round(0.008 * w)), max(3, round(0.05 * h))
    columns = np.flatnonzero(strip.sum(axis=0) > 0)
    while columns.size and columns[0] <= _INDEX_START * w:
        x0 = x1 = int(columns[0])
        while x1 + 1 < width and strip[:, x1 + 1: x1 + 1 + gap].any():
            x1 += 1
        if x1 + gap >= width:
            return None  # runs on into the card's picture: not an index
        band = strip[:, x0: x1 + 1]
        rows = np.flatnonzero(band.any(axis=1))
        y0 = y1 = int(rows[0])
        while y1 + 1 < depth and band[y1 + 1: y1 + 1 + row_gap].any():
            y1 += 1
        if y1 + row_gap >= depth:
            return None
        if y1 - y0 >= 0.06 * h and x1 - x0 >= 0.025 * w:
            return x0, y0, x1, y1
        columns = columns[columns > x1]  # a speck (a scrap of the outline): look further in
    return None
