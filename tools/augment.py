"""Training views for the index network: what locating and straightening a card in the box
gives, under the rig's light and camera, and corner indices set in Debian's typefaces.

Used only by tools/train_index_net.py (Pillow is needed for the typefaces, not by the
firmware).
"""

from __future__ import annotations

import functools
import glob
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from shoe.cards import Card, Rank, Suit
from tools.suit_shapes import drawn_suit, tight
from vision.indexnet import CORNER_H, CORNER_W
from vision.locate import locate
from vision.quad import CARD_H, CARD_W, straighten
from vision.sceneparams import Difficulty
from vision.simulator import SceneParams
from vision.stills import StillCamera, Thumb

#: The share of the simulated camera's shots with the dealer's thumb on the card's middle
#: (clear of the indices).
THUMB_SHARE = 0.3

_FONT_GLOBS = (
    "/usr/share/fonts/truetype/dejavu/DejaVu*.ttf",
    "/usr/share/fonts/truetype/liberation/*.ttf",
    "/usr/share/fonts/truetype/freefont/*.ttf",
    # Carlito alone: a face installed beside it would change the committed network's data.
    "/usr/share/fonts/truetype/crosextra/Carlito-*.ttf",
    "/usr/share/fonts/opentype/urw-base35/[A-Z]*.otf",
    "/usr/share/fonts/truetype/noto/NotoSans-*.ttf",
    "/usr/share/fonts/truetype/noto/NotoSerif-*.ttf",
    "/usr/share/fonts/truetype/noto/NotoSerifDisplay-*.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansMono-*.ttf",
    "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyre*.otf",
)
#: More typefaces for the index network (``fonts(wider=True)``), upright faces only: the
#: Debian packages named in tools/train_index_net.py.
_WIDER_FONT_GLOBS = (
    *(f"/usr/share/fonts/{kind}/{family}/*.[ot]tf" for kind in ("truetype", "opentype")
      for family in ("adf", "fonts-century-catalogue", "ebgaramond", "linux-libertine",
                     "fonts-oldstandard", "vollkorn", "roboto/slab", "roboto/unhinted/RobotoTTF",
                     "charis", "gentiumplus", "sortsmill", "fanwood", "quattrocento",
                     "lato", "open-sans", "cabin", "cantarell", "croscore", "oxygen",
                     "yanone-kaffeesatz", "bebas-neue", "league-spartan", "karla",
                     "solid-mirage", "arapey", "opendin", "lindenhill", "levien", "junction",
                     "manrope", "tuffy", "andika", "clear-sans", "inter", "b612",
                     "averia-gwf", "fonts-prociono")),
    "/usr/share/fonts/fonts-go/*.ttf",
    "/usr/share/fonts/truetype/crosextra/Caladea-*.ttf",
)
# Typefaces without Latin letters and digits drawn as such.
_NOT_TEXT = ("D050000L", "StandardSymbols", "Symbols", "Emoji", "Math")
# A card's index is set upright, so the wider set leaves these out.
_SLANTED = ("italic", "oblique", "slanted", "inclined")
_SUIT_TEXT = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


def fonts(wider: bool = False) -> tuple[list[str], list[str]]:
    """(typefaces for the rank, typefaces that draw the four suit symbols); ``wider`` adds
    the typefaces of ``_WIDER_FONT_GLOBS`` and leaves out slanted faces."""
    globs = _FONT_GLOBS + (_WIDER_FONT_GLOBS if wider else ())
    files = sorted({f for g in globs for f in glob.glob(g)})
    text = [f for f in files if not any(bad in Path(f).name for bad in _NOT_TEXT)
            and not (wider and any(s in Path(f).name.lower() for s in _SLANTED))]
    symbols = [f for f in files
               if any(k in Path(f).name for k in ("DejaVuSans", "FreeSerif", "FreeSans",
                                                   "NotoSansSymbols2", "DejaVuSerif"))]
    text = [f for f in text if _draws(f, "AKQJ1023456789O")]
    symbols = [f for f in symbols if _draws(f, "".join(_SUIT_TEXT.values()))]
    if len(text) < 10 or not symbols:
        raise SystemExit("install the font packages named in tools/train_index_net.py")
    return text, symbols


def _draws(font: str, chars: str) -> bool:
    """Whether a typeface has its own glyph for each character (not the missing-glyph box)."""
    missing = glyph_mask("\ue000", font, 40)
    return all(not np.array_equal(glyph_mask(c, font, 40), missing) for c in chars)


def _ink(rng: np.random.Generator, red: bool) -> tuple[int, int, int]:
    """A printing ink (BGR): reds from scarlet to crimson, blacks from black to navy."""
    if red:
        return (int(rng.integers(0, 70)), int(rng.integers(0, 60)), int(rng.integers(170, 240)))
    v = int(rng.integers(0, 70))
    return (v + int(rng.integers(0, 40)), v, v)


@functools.lru_cache(maxsize=4096)
def _font(path: str, size: int) -> Any:
    from PIL import ImageFont

    return ImageFont.truetype(path, size)


def glyph_mask(text: str, font: str, size: int) -> np.ndarray:
    """A tight mask (uint8) of text set in a typeface."""
    from PIL import Image, ImageDraw

    face = _font(font, size)
    image = Image.new("L", (size * 3, size * 2), 0)
    ImageDraw.Draw(image).text((size // 4, size // 4), text, font=face, fill=255)
    return tight(np.array(image))


def font_corner(card: Card, typefaces: list[str], symbol_faces: list[str],
                rng: np.random.Generator,
                pips: Sequence[dict[Suit, np.ndarray]] = (), *,
                upside_down: bool = False, varied: bool = False) -> np.ndarray:
    """A corner of a made-up card: its rank in a random typeface, the suit below (BGR).

    The suit comes from a symbol font, is drawn in a random shape, or is one of ``pips``
    (suit masks cut from printed decks), a third of the time each. Rank and suit are set in
    many sizes, weights and places: a network that saw them in one place only reads the
    place (a deck with a large, low suit had its clubs read as spades). With
    ``upside_down`` each is turned half round where it stands: the corner of a deck whose
    lower index is not turned round, lying upside down (no index to read there).
    """
    scale = 3
    cw, ch = round(CORNER_W * CARD_W) * scale, round(CORNER_H * CARD_H) * scale
    paper = np.array([rng.uniform(215, 255)] * 3) - rng.uniform(0, 25, 3) * [1, 0.5, 0]
    out = np.empty((ch, cw, 3), np.float32)
    out[:] = paper
    ink = np.array(_ink(rng, card.is_red), np.float32)
    rank_text = "10" if card.rank == Rank.TEN and rng.random() < 0.9 else card.rank.code
    if card.rank == Rank.TEN and rank_text == "10" and rng.random() < 0.15:
        rank_text = "1O"  # some decks draw the ten's nought as a letter-like O
    rank_h = int(rng.uniform(0.065, 0.15) * CARD_H * scale)
    mask = _weight(glyph_mask(rank_text, str(rng.choice(typefaces)), rank_h * 2), rng)
    squeeze = rng.uniform(0.55, 1.1) if len(rank_text) == 2 else rng.uniform(0.75, 1.2)
    w = max(2, round(mask.shape[1] * rank_h / mask.shape[0] * squeeze))
    rank_mask = cv2.resize(mask, (min(w, int(cw * 0.85)), rank_h), interpolation=cv2.INTER_AREA)
    suit_h = int(rank_h * rng.uniform(0.45, 1.05))
    sm = suit_symbol(card.suit, symbol_faces, rng, pips, suit_h * 2, varied=varied)
    suit_w = round(sm.shape[1] * suit_h / sm.shape[0] * rng.uniform(0.85, 1.2))
    suit_mask = cv2.resize(sm, (max(2, suit_w), suit_h), interpolation=cv2.INTER_AREA)
    if upside_down:
        rank_mask, suit_mask = rank_mask[::-1, ::-1], suit_mask[::-1, ::-1]
    x0 = int(rng.uniform(0.03, 0.11) * CARD_W * scale)
    y0 = int(rng.uniform(0.02, 0.07) * CARD_H * scale)
    centre = x0 + rank_mask.shape[1] / 2
    y1 = y0 + rank_h + int(rng.uniform(-0.05, 0.4) * rank_h)
    x1 = int(max(0, centre - suit_mask.shape[1] / 2 + rng.uniform(-0.2, 0.2) * rank_h))
    for m, (px, py) in ((rank_mask, (x0, y0)), (suit_mask, (x1, y1))):
        h, w = m.shape
        h, w = min(h, ch - py), min(w, cw - px)
        if h <= 0 or w <= 0:
            continue
        a = m[:h, :w, None].astype(np.float32) / 255
        out[py: py + h, px: px + w] = out[py: py + h, px: px + w] * (1 - a) + ink * a
    if rng.random() < 0.3:  # a border line, as many decks print one
        inset = int(rng.uniform(0.02, 0.05) * CARD_W * scale)
        cv2.rectangle(out, (inset, inset), (cw * 2, ch * 2), ink.tolist(), scale)
    small = cv2.resize(out, (cw // scale, ch // scale), interpolation=cv2.INTER_AREA)
    return np.clip(small, 0, 255).astype(np.uint8)


def suit_symbol(suit: Suit, symbol_faces: list[str], rng: np.random.Generator,
                pips: Sequence[dict[Suit, np.ndarray]] = (), size: int = 120, *,
                varied: bool = False) -> np.ndarray:
    """A suit's symbol (a tight uint8 mask) from a symbol font (set ``size`` pixels high),
    drawn in a random shape, or one of ``pips`` (suit masks cut from printed decks), a
    third of the time each; printed bolder or lighter half the time."""
    source = rng.random()
    deck_pips = [p[suit] for p in pips if suit in p]
    if source < 1 / 3:
        mask = glyph_mask(_SUIT_TEXT[suit], str(rng.choice(symbol_faces)), size)
    elif source < 2 / 3 or not deck_pips:
        mask = drawn_suit(suit, rng, varied)
    else:
        mask = deck_pips[int(rng.integers(len(deck_pips)))]
    return _weight(mask, rng)


def _weight(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A glyph printed bolder or lighter: its mask grown or thinned by up to 4% of its
    height, half the time."""
    if rng.random() < 0.5:
        return mask
    r = max(1, round(rng.uniform(0.01, 0.04) * mask.shape[0]))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    grow = rng.random() < 0.5
    out = cv2.dilate(mask, kernel) if grow else cv2.erode(mask, kernel)
    return out if out.any() else mask


def straightened_view(face: np.ndarray, rng: np.random.Generator,
                      through_index: float = 0.0) -> np.ndarray:
    """The card (BGRA face) as locate+straighten would hand it over: a slightly wrong
    outline, lips shaving the long edges, the box showing where the outline overshoots.
    With ``through_index``, each short side lies that share of the time 1-6% of the card's
    height inside it, cutting into an index printed near the edge."""
    h, w = face.shape[:2]
    pad = int(0.08 * h)
    background = rng.uniform(15, 110, 3)
    canvas = np.empty((h + 2 * pad, w + 2 * pad, 3), np.float32)
    canvas[:] = background
    alpha = face[:, :, 3:4].astype(np.float32) / 255
    canvas[pad:pad + h, pad:pad + w] = face[:, :, :3] * alpha + background * (1 - alpha)
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) + pad
    lip_left, lip_right = rng.uniform(0, 0.05, 2) * w * (rng.random() < 0.6)
    corners[[0, 3], 0] += lip_left
    corners[[1, 2], 0] -= lip_right
    corners += rng.normal(0, 0.008 * h, corners.shape).astype(np.float32)
    corners += rng.normal(0, 0.006 * h, 2).astype(np.float32)  # the whole outline shifted
    if through_index:
        # A side on a lip or on print, not on the card's edge. Without such views the
        # index network read ranks cut so surely wrong (a 6 as 10, an 8 as 9: docs/READER.md).
        top, foot = rng.uniform(0.01, 0.06, 2) * h * (rng.random(2) < through_index)
        corners[[0, 1], 1] += top
        corners[[2, 3], 1] -= foot
    target = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)
    # Seen smaller than straightened, sometimes: a card filling only 55% of the frame.
    shrink = rng.uniform(0.7, 1.0) if rng.random() < 0.4 else 1.0
    matrix = cv2.getPerspectiveTransform(corners, target * shrink)
    view = cv2.warpPerspective(canvas, matrix, (round(CARD_W * shrink), round(CARD_H * shrink)),
                               flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    if shrink < 1.0:
        view = cv2.resize(view, (CARD_W, CARD_H), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.5:
        view = view[::-1, ::-1]  # upside down: the same card to the reader
    return np.clip(view, 0, 255).astype(np.uint8)


def rig_shot(camera: StillCamera, face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One still of ``face`` by the simulated camera: upside down half the time, the dealer's
    thumb on it THUMB_SHARE of the time."""
    thumb = Thumb.random(rng) if rng.random() < THUMB_SHARE else None
    return camera.shoot(face, upside_down=bool(rng.random() < 0.5), thumb=thumb)


def located_shots(faces: dict[Card, np.ndarray], cards: Sequence[Card], sessions: int,
                  rng: np.random.Generator, difficulty: Difficulty = "hard"
                  ) -> Iterator[tuple[Card, np.ndarray]]:
    """Each of ``cards`` shot by :func:`rig_shot` once a session (a new box, camera and
    light each), located and straightened by the firmware's own code: (card, straightened
    card) for each frame located."""
    for _ in range(sessions):
        camera = StillCamera(SceneParams.random(rng, difficulty), rng, [faces[c] for c in cards])
        for card in cards:
            frame = rig_shot(camera, faces[card], rng)
            quad = locate(frame)
            if quad is not None:
                yield card, straighten(frame, quad)


def photometric(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The room's light and the camera: colour cast, gradient, glare, blur, noise, JPEG."""
    out: np.ndarray = image.astype(np.float32)
    h, w = out.shape[:2]
    out *= rng.uniform(0.75, 1.25, 3) * rng.uniform(0.35, 1.15)
    gy, gx = np.mgrid[0:h, 0:w].astype(np.float32)
    slope = rng.uniform(-0.5, 0.5, 2)
    out *= (1 + slope[0] * (gx / w - 0.5) + slope[1] * (gy / h - 0.5))[:, :, None]
    if rng.random() < 0.25:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(0.05, 0.3) * w
        glare = np.exp(-((gx - cx) ** 2 + (gy - cy) ** 2) / (2 * r * r))
        out += (glare * rng.uniform(40, 200))[:, :, None]
    sigma = rng.uniform(0, 1.3)
    if sigma > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    out += rng.normal(0, rng.uniform(0, 9), out.shape).astype(np.float32)
    out8: np.ndarray = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.8:
        _, buf = cv2.imencode(".jpg", out8, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 96))])
        out8 = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR))
    return out8


def negative_patch(view: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A corner-sized patch with no index in it: the card's middle, blank card, the box."""
    cw, ch = round(CORNER_W * CARD_W), round(CORNER_H * CARD_H)
    kind = rng.random()
    if kind < 0.6:
        x = int(rng.integers(int(0.3 * CARD_W), CARD_W - cw + 1))
        y = int(rng.integers(int(0.25 * CARD_H), CARD_H - ch - int(0.25 * CARD_H)))
        return view[y: y + ch, x: x + cw]
    patch = np.empty((ch, cw, 3), np.uint8)
    patch[:] = rng.uniform(20, 250, 3).astype(np.uint8)
    noise = rng.normal(0, rng.uniform(1, 25), patch.shape)
    return np.clip(patch + noise, 0, 255).astype(np.uint8)
