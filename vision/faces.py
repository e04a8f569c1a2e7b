"""Built-in card faces drawn with OpenCV, for the demo when no deck is given.

A plain standard design: white card with rounded corners, the rank and a small suit in the
top-left corner and again, turned round, in the bottom-right; pips in the usual layout, or a
framed letter for the court cards. Red hearts and diamonds, black spades and clubs.

>>> builtin_face(Card.parse("QH"), 350).shape
(350, 250, 3)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from shoe.cards import FULL_DECK, Card, Suit

__all__ = ["CARD_ASPECT", "FaceStyle", "builtin_deck", "builtin_face"]

#: Width over height of a standard (poker) card, 63.5 × 88.9 mm.
CARD_ASPECT = 63.5 / 88.9

_RED = (35, 30, 200)
_BLACK = (35, 30, 30)
_SUPERSAMPLE = 3

# Pip centres as fractions of the card (x, y); pips below the middle are drawn upside down.
_L, _C, _R = 0.3, 0.5, 0.7
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((_C, 0.5),),
    2: ((_C, 0.2), (_C, 0.8)),
    3: ((_C, 0.2), (_C, 0.5), (_C, 0.8)),
    4: ((_L, 0.2), (_R, 0.2), (_L, 0.8), (_R, 0.8)),
    5: ((_L, 0.2), (_R, 0.2), (_C, 0.5), (_L, 0.8), (_R, 0.8)),
    6: ((_L, 0.2), (_R, 0.2), (_L, 0.5), (_R, 0.5), (_L, 0.8), (_R, 0.8)),
    7: ((_L, 0.2), (_R, 0.2), (_C, 0.35), (_L, 0.5), (_R, 0.5), (_L, 0.8), (_R, 0.8)),
    8: ((_L, 0.2), (_R, 0.2), (_C, 0.35), (_L, 0.5), (_R, 0.5), (_C, 0.65), (_L, 0.8),
        (_R, 0.8)),
    9: ((_L, 0.2), (_R, 0.2), (_L, 0.4), (_R, 0.4), (_C, 0.5), (_L, 0.6), (_R, 0.6),
        (_L, 0.8), (_R, 0.8)),
    10: ((_L, 0.2), (_R, 0.2), (_C, 0.3), (_L, 0.4), (_R, 0.4), (_L, 0.6), (_R, 0.6),
         (_C, 0.7), (_L, 0.8), (_R, 0.8)),
}


_FONTS = (cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_COMPLEX,
          cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_COMPLEX_SMALL)


@dataclass(frozen=True, slots=True)
class FaceStyle:
    """A card design: the default is the built-in deck; :meth:`random` draws other designs
    (typeface, index size and place, pip size, card and ink colours, corner radius) to try
    a reader on designs that are in no package."""

    font: int = cv2.FONT_HERSHEY_DUPLEX
    italic: bool = False
    weight: float = 1.0  # stroke thickness, relative
    index_height: float = 0.085  # of the card's height
    index_x: float = 0.055  # left edge of the index, of the card's width
    index_y: float = 0.035  # top of the index, of the card's height
    index_suit: float = 0.105  # the small suit's size, of the card's width
    pip: float = 0.16  # a pip's size, of the card's width
    paper: tuple[int, int, int] = (255, 255, 255)
    red: tuple[int, int, int] = _RED
    black: tuple[int, int, int] = _BLACK
    corner: float = 0.055  # corner radius, of the card's width

    @classmethod
    def random(cls, rng: np.random.Generator) -> FaceStyle:
        paper = int(rng.integers(225, 256))
        return cls(
            font=_FONTS[int(rng.integers(len(_FONTS)))],
            italic=bool(rng.random() < 0.2),
            weight=float(rng.uniform(0.4, 1.3)),
            index_height=float(rng.uniform(0.07, 0.11)),
            index_x=float(rng.uniform(0.05, 0.08)),
            index_y=float(rng.uniform(0.025, 0.05)),
            index_suit=float(rng.uniform(0.08, 0.12)),
            pip=float(rng.uniform(0.13, 0.18)),
            paper=(paper - int(rng.integers(0, 20)), paper - int(rng.integers(0, 8)), paper),
            red=(int(rng.integers(0, 60)), int(rng.integers(0, 50)), int(rng.integers(160, 235))),
            black=(int(rng.integers(0, 70)),) * 2 + (int(rng.integers(0, 50)),),
            corner=float(rng.uniform(0.03, 0.08)),
        )


def builtin_face(card: Card, height: int = 350, *, alpha: bool = False,
                 style: FaceStyle | None = None) -> np.ndarray:
    """The built-in face of ``card``: BGR on white, or BGRA with ``alpha=True``."""
    return _face(card, height, alpha, style or FaceStyle()).copy()


def builtin_deck(height: int = 350, *, alpha: bool = False,
                 style: FaceStyle | None = None) -> dict[Card, np.ndarray]:
    """All 52 built-in faces (in another design with ``style``)."""
    return {card: builtin_face(card, height, alpha=alpha, style=style) for card in FULL_DECK}


@functools.lru_cache(maxsize=128)
def _face(card: Card, height: int, alpha: bool, style: FaceStyle) -> np.ndarray:
    if height < 40:
        raise ValueError(f"card height too small: {height}")
    s = _SUPERSAMPLE
    h = height * s
    w = round(height * CARD_ASPECT) * s
    colour = style.red if card.is_red else style.black
    canvas = np.full((h, w, 3), style.paper, np.uint8)
    # The index, drawn in the top half; turning the top half round gives the bottom one.
    _draw_index(canvas, card, colour, style)
    rank = int(card.rank)
    if rank <= 10:
        pip = round((0.34 if rank == 1 else style.pip) * w)
        for x, y in _PIPS[rank]:
            _stamp(canvas, _suit_mask(card.suit, pip), (x * w, y * h), colour, flip=y > 0.5)
    else:
        _draw_court(canvas, card, colour, style)
    mask = _rounded_mask(h, w, radius=round(style.corner * w))
    # A thin grey edge, as printed cards have.
    inner = cv2.erode(mask, np.ones((2 * s + 1, 2 * s + 1), np.uint8),
                      borderType=cv2.BORDER_CONSTANT, borderValue=0)
    edge = cv2.subtract(mask, inner)
    canvas[edge > 0] = (150, 150, 150)
    size = (w // s, h // s)
    small = cv2.resize(canvas, size, interpolation=cv2.INTER_AREA)
    small_mask = cv2.resize(mask, size, interpolation=cv2.INTER_AREA)
    if alpha:
        return np.dstack([small, small_mask])
    a = small_mask.astype(np.float32)[:, :, None] / 255.0
    return (small.astype(np.float32) * a + 255 * (1 - a) + 0.5).astype(np.uint8)


def _draw_index(canvas: np.ndarray, card: Card, colour: tuple[int, int, int],
                style: FaceStyle) -> None:
    h, w = canvas.shape[:2]
    box_h = round(style.index_height * h)
    box_w = round(box_h * 1.1)
    x0, y0 = round(style.index_x * w), round(style.index_y * h)
    text = _text_patch(card.rank.code, box_w, box_h, style)
    pip = round(style.index_suit * w)
    for flip in (False, True):
        view = canvas[::-1, ::-1] if flip else canvas
        region = view[y0: y0 + box_h, x0: x0 + box_w]
        region[text > 127] = colour
        centre = (x0 + box_w / 2, y0 + box_h + 0.012 * h + pip / 2)
        _stamp(view, _suit_mask(card.suit, pip), centre, colour, flip=False)


def _draw_court(canvas: np.ndarray, card: Card, colour: tuple[int, int, int],
                style: FaceStyle) -> None:
    h, w = canvas.shape[:2]
    x0, y0, x1, y1 = round(0.22 * w), round(0.13 * h), round(0.78 * w), round(0.87 * h)
    cv2.rectangle(canvas, (x0, y0), (x1, y1), colour, max(2, w // 90), cv2.LINE_AA)
    inner = max(2, w // 40)
    cv2.rectangle(canvas, (x0 + inner, y0 + inner), (x1 - inner, y1 - inner), (60, 170, 215),
                  max(1, w // 150), cv2.LINE_AA)
    # Double-headed: the letter and a pip in the top half, and turned round in the bottom.
    letter = _text_patch(card.rank.code, round(0.3 * w), round(0.24 * h), style)
    pip = round(0.17 * w)
    for flip in (False, True):
        view = canvas[::-1, ::-1] if flip else canvas
        ly, lx = round(0.17 * h), round(0.27 * w)
        region = view[ly: ly + letter.shape[0], lx: lx + letter.shape[1]]
        region[letter > 127] = colour
        _stamp(view, _suit_mask(card.suit, pip), (0.66 * w, 0.3 * h), colour, flip=False)
    cv2.line(canvas, (x0 + inner, h // 2), (x1 - inner, h // 2), colour, max(1, w // 200))


def _text_patch(text: str, width: int, height: int, style: FaceStyle) -> np.ndarray:
    """``text`` in the style's typeface, fitted to height × at most width (uint8 mask)."""
    font, scale = style.font | (cv2.FONT_ITALIC if style.italic else 0), 4.0
    thickness = max(2, round((9 if len(text) == 1 else 8) * style.weight))
    (tw, th), _base = cv2.getTextSize(text, font, scale, thickness)
    patch = np.zeros((th + 2 * thickness, tw + 2 * thickness), np.uint8)
    cv2.putText(patch, text, (thickness, th + thickness), font, scale, 255, thickness,
                cv2.LINE_AA)
    ys, xs = np.nonzero(patch > 127)
    patch = patch[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]
    # Narrow ranks (1 letter) keep their shape; "10" is condensed into the same box.
    target_w = min(width, round(patch.shape[1] * height / patch.shape[0]))
    out = np.zeros((height, width), np.uint8)
    resized = cv2.resize(patch, (target_w, height), interpolation=cv2.INTER_AREA)
    off = (width - target_w) // 2
    out[:, off: off + target_w] = resized
    return out


@functools.lru_cache(maxsize=64)
def _suit_mask(suit: Suit, size: int) -> np.ndarray:
    """A suit symbol filling a size × size box (uint8 mask, point of a heart downwards)."""
    k = 4
    n = size * k
    m = np.zeros((n, n), np.uint8)

    def circle(cx: float, cy: float, r: float) -> None:
        cv2.circle(m, (round(cx * n), round(cy * n)), round(r * n), 255, -1, cv2.LINE_AA)

    def poly(points: list[tuple[float, float]]) -> None:
        pts = np.array([[round(x * n), round(y * n)] for x, y in points], np.int32)
        cv2.fillPoly(m, [pts], 255, cv2.LINE_AA)

    if suit is Suit.HEARTS:
        circle(0.29, 0.32, 0.24)
        circle(0.71, 0.32, 0.24)
        poly([(0.07, 0.42), (0.5, 0.95), (0.93, 0.42), (0.5, 0.3)])
    elif suit is Suit.DIAMONDS:
        poly([(0.5, 0.02), (0.88, 0.5), (0.5, 0.98), (0.12, 0.5)])
    elif suit is Suit.SPADES:
        circle(0.29, 0.6, 0.23)
        circle(0.71, 0.6, 0.23)
        poly([(0.07, 0.52), (0.5, 0.03), (0.93, 0.52), (0.5, 0.7)])
        poly([(0.5, 0.6), (0.32, 0.98), (0.68, 0.98)])
    else:
        circle(0.5, 0.27, 0.21)
        circle(0.26, 0.6, 0.21)
        circle(0.74, 0.6, 0.21)
        poly([(0.5, 0.45), (0.32, 0.98), (0.68, 0.98)])
        circle(0.5, 0.55, 0.1)
    return cv2.resize(m, (size, size), interpolation=cv2.INTER_AREA)


def _stamp(canvas: np.ndarray, mask: np.ndarray, centre: tuple[float, float],
           colour: tuple[int, int, int], *, flip: bool) -> None:
    """Paint ``mask`` (turned round if ``flip``) in ``colour`` centred at ``centre``."""
    if flip:
        mask = mask[::-1, ::-1]
    size = mask.shape[0]
    x0, y0 = round(centre[0] - size / 2), round(centre[1] - size / 2)
    region = canvas[y0: y0 + size, x0: x0 + size]
    a = (mask[: region.shape[0], : region.shape[1]].astype(np.float32) / 255.0)[:, :, None]
    region[:] = (region * (1 - a) + np.array(colour, np.float32) * a + 0.5).astype(np.uint8)


def _rounded_mask(h: int, w: int, radius: int) -> np.ndarray:
    mask = np.zeros((h, w), np.uint8)
    r = radius
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return mask
