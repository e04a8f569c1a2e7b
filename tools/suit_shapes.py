"""Suit symbols for the networks' made-up corners and pips: drawn from a few parameters, and
cut from the pips of the training decks.

Symbol fonts draw a handful of spades and clubs, all alike; printed decks round the spade's
shoulders, fatten the club's leaves, flare or hide the stems. A network that has seen only
the fonts takes a rounded spade for a club. Used by tools/train_index_net.py and
tools/train_glyph_net.py.
"""

from __future__ import annotations

import cv2
import numpy as np

from shoe.cards import Card, Rank, Suit

_SIZE = 240  # drawing canvas, pixels a side


def _bezier(p0: np.ndarray, p1: np.ndarray, p2: np.ndarray, n: int = 24) -> np.ndarray:
    t = np.linspace(0, 1, n)[:, None]
    return (1 - t) ** 2 * p0 + 2 * (1 - t) * t * p1 + t**2 * p2


def _heart(canvas: np.ndarray, rng: np.random.Generator, top: float, bottom: float,
           radius: float) -> float:
    """Two round lobes (``radius``, of the canvas) meeting in a point below them (drawn point
    down); returns the height of the lobes' centres, as a fraction of the canvas. The lobes
    stay inside the canvas."""
    s = _SIZE
    r = radius * s
    gap = min(rng.uniform(0.55, 0.95) * r, 0.48 * s - r)  # lobe centre from the middle
    cy = top * s + r
    tip = np.array([s / 2, bottom * s])
    for side in (-1, 1):
        centre = (round(s / 2 + side * gap), round(cy))
        cv2.circle(canvas, centre, round(r), 255, -1, cv2.LINE_AA)
        outer = np.array([s / 2 + side * (gap + r * 0.98), cy + r * rng.uniform(0.0, 0.35)])
        # The side from the lobe to the point: straight, bulging or drawn in.
        middle = (outer + tip) / 2 + np.array([side * rng.uniform(-0.03, 0.09) * s, 0])
        curve = _bezier(outer, middle, tip)
        polygon = np.vstack([[[s / 2, cy]], curve, [[s / 2, cy]]])
        cv2.fillPoly(canvas, [np.round(polygon).astype(np.int32)], 255, cv2.LINE_AA)
    cv2.fillPoly(canvas, [np.round(np.array(
        [[s / 2 - gap, cy], [s / 2 + gap, cy], tip])).astype(np.int32)], 255, cv2.LINE_AA)
    return float(cy / s)


def _stem(canvas: np.ndarray, rng: np.random.Generator, top: float) -> None:
    """A stem from the body down to the foot: narrow or wide, flared or straight."""
    s = _SIZE
    neck = rng.uniform(0.015, 0.06) * s
    foot = neck + rng.uniform(0.0, 0.16) * s
    bottom = rng.uniform(0.9, 0.98) * s
    sag = rng.uniform(0.0, 0.6)  # how far the flanks bow in
    left = _bezier(np.array([s / 2 - neck, top * s]),
                   np.array([s / 2 - neck - (foot - neck) * (1 - sag), bottom - 0.05 * s]),
                   np.array([s / 2 - foot, bottom]))
    right = left[::-1] * [-1, 1] + [s, 0]
    cv2.fillPoly(canvas, [np.round(np.vstack([left, right])).astype(np.int32)], 255,
                 cv2.LINE_AA)


def _club(canvas: np.ndarray, rng: np.random.Generator, varied: bool = False) -> None:
    """Three round leaves around a filled middle, on a stem. ``varied`` draws leaves that
    may run together into one squat body, and a top leaf larger or smaller than the others."""
    s = _SIZE
    r = rng.uniform(0.15, 0.22) * s
    top_r = r * (rng.uniform(0.8, 1.15) if varied else 1.0)
    top = (s / 2, rng.uniform(0.02, 0.05) * s + top_r)
    spread = rng.uniform(0.6 if varied else 0.85, 1.45) * r  # the leaves overlapping or apart
    drop = rng.uniform(0.75 if varied else 1.0, 1.7) * r
    leaves = [top, (s / 2 - spread, top[1] + drop), (s / 2 + spread, top[1] + drop)]
    for (x, y), radius in zip(leaves, (top_r, r, r), strict=True):
        cv2.circle(canvas, (round(x), round(y)), round(radius), 255, -1, cv2.LINE_AA)
    middle = np.array(leaves) * [1, 1] + [[0, r * 0.4], [r * 0.4, 0], [-r * 0.4, 0]]
    cv2.fillPoly(canvas, [np.round(middle).astype(np.int32)], 255, cv2.LINE_AA)
    _stem(canvas, rng, (top[1] + drop) / s)


def _diamond(canvas: np.ndarray, rng: np.random.Generator) -> None:
    """Four points joined by straight, drawn-in or bulging sides."""
    s = _SIZE
    half_w = rng.uniform(0.3, 0.46) * s
    points = np.array([[s / 2, 0.02 * s], [s / 2 + half_w, s / 2], [s / 2, 0.98 * s],
                       [s / 2 - half_w, s / 2]])
    bow = rng.uniform(-0.06, 0.05) * s  # < 0 drawn in, > 0 bulging
    outline = []
    for a, b in zip(points, np.roll(points, -1, axis=0), strict=True):
        mid = (a + b) / 2
        away = mid - s / 2
        outline.append(_bezier(a, mid + away / np.linalg.norm(away) * bow, b))
    cv2.fillPoly(canvas, [np.round(np.vstack(outline)).astype(np.int32)], 255, cv2.LINE_AA)


def _cubic(p0: np.ndarray, p1: np.ndarray, p2: np.ndarray, p3: np.ndarray,
           n: int = 32) -> np.ndarray:
    t = np.linspace(0, 1, n)[:, None]
    return (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t**2 * p2 + t**3 * p3


def _ogee_spade(canvas: np.ndarray, rng: np.random.Generator) -> None:
    """A spade whose sides leave the point steeply, drawn in, and swell out to a round
    lower body (an onion dome), on a stem."""
    s = _SIZE
    half_w = rng.uniform(0.36, 0.48) * s
    tip = np.array([s / 2, 0.02 * s])
    widest = rng.uniform(0.4, 0.6) * s
    below = rng.uniform(0.18, 0.3) * s  # the round body's depth under its widest row
    outline = []
    for side in (-1, 1):
        # Leaving the point nearly upright (the sides drawn in), then out to the widest row.
        steep = np.array([s / 2 + side * rng.uniform(0.0, 0.2) * half_w,
                          tip[1] + rng.uniform(0.25, 0.6) * (widest - tip[1])])
        swell = np.array([s / 2 + side * half_w, widest - rng.uniform(0.15, 0.5) * widest])
        outline.append(_cubic(tip, steep, swell, np.array([s / 2 + side * half_w, widest])))
    polygon = np.vstack([outline[0], outline[1][::-1]])
    cv2.fillPoly(canvas, [np.round(polygon).astype(np.int32)], 255, cv2.LINE_AA)
    cv2.ellipse(canvas, (round(s / 2), round(widest)), (round(half_w), round(below)), 0, 0,
                180, 255, -1, cv2.LINE_AA)
    _stem(canvas, rng, (widest + 0.6 * below) / s)


def drawn_suit(suit: Suit, rng: np.random.Generator, varied: bool = False) -> np.ndarray:
    """A tight uint8 mask of one suit symbol in a random shape. ``varied`` adds shapes the
    index network never learned from (spades whose point swells to a round body, squat
    clubs whose leaves run together), for the glyph network's training only: the index
    network's draws stay as they were."""
    canvas = np.zeros((_SIZE, _SIZE), np.uint8)
    if suit == Suit.HEARTS:
        _heart(canvas, rng, rng.uniform(0.02, 0.08), rng.uniform(0.88, 0.98),
               rng.uniform(0.2, 0.29))
    elif suit == Suit.SPADES and varied and rng.random() < 0.4:
        _ogee_spade(canvas, rng)
    elif suit == Suit.SPADES:
        body = np.zeros_like(canvas)
        # A heart turned over, its lobes low and its point well clear of them: a spade's
        # point is what tells it from a club's round top leaf.
        radius = rng.uniform(0.17, 0.25)
        lobes_end = rng.uniform(0.62, 0.78)
        top = min(1 - lobes_end, 0.98 - 3.2 * radius)
        centres = _heart(body, rng, max(top, 0.02), 0.98, radius)
        canvas[:] = body[::-1]
        _stem(canvas, rng, 1 - centres)  # from inside the body: no gap under the lobes
    elif suit == Suit.CLUBS:
        _club(canvas, rng, varied)
    else:
        _diamond(canvas, rng)
    angle = rng.uniform(-6, 6)
    turn = cv2.getRotationMatrix2D((_SIZE / 2, _SIZE / 2), angle, rng.uniform(0.8, 0.95))
    return tight(cv2.warpAffine(canvas, turn, (_SIZE, _SIZE)))


def tight(mask: np.ndarray) -> np.ndarray:
    """The mask cropped to its ink (a 1 x 1 blank if it has none)."""
    ys, xs = np.nonzero(mask > 40)
    if len(ys) == 0:
        return np.zeros((1, 1), np.uint8)
    return mask[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]


def deck_pips(faces: dict[Card, np.ndarray]) -> dict[Suit, np.ndarray]:
    """Each suit's pip as a mask, cut from the top pip of that suit's three (BGRA faces).

    The top pip stands upright. A suit whose three shows no clean pip is left out.
    """
    pips = {}
    for suit in Suit:
        face = faces[Card(Rank.THREE, suit)]
        h, w = face.shape[:2]
        y0, y1, x0, x1 = int(0.02 * h), int(0.6 * h), int(0.22 * w), int(0.78 * w)
        middle = face[y0:y1, x0:x1]
        bgr = middle[:, :, :3].astype(np.int16)
        saturation = bgr.max(axis=2) - bgr.min(axis=2)
        ink = ((bgr.min(axis=2) < 150) | (saturation > 90)) & (middle[:, :, 3] > 128)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8))
        best = None
        for i in range(1, count):
            x, y, bw, bh, area = stats[i]
            inside = x > 0 and y > 0 and x + bw < x1 - x0 and y + bh < y1 - y0
            sized = 0.05 * w < bw < 0.4 * w and 0.05 * h < bh < 0.3 * h
            solid = area > 0.35 * bw * bh
            if inside and sized and solid and (best is None or y < stats[best][1]):
                best = i
        if best is not None:
            x, y, bw, bh, _ = stats[best]
            pips[suit] = np.where(labels[y:y + bh, x:x + bw] == best, 255, 0).astype(np.uint8)
    return pips
