"""Find the card in the box's window and straighten it.

The card is the large bright, low-saturation region of the frame (vision.region); the box's
frame around it is dull metal and the table cloth further out. What a reflection or the
dealer's hand joins to it is cut off, and a bay a dark thumb leaves in it closed over; its
four sides are then fitted (vision.outline). An outline too short for a card is searched
further out for the card's edges; still short, it is a part of the card, and the later tries
look on for the whole.

>>> quad = locate(frame)                      # doctest: +SKIP
>>> card = straighten(frame, quad)            # vision.quad: CARD_H x CARD_W x 3, portrait
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Literal

import cv2
import numpy as np

from vision.outline import fit_quad, near_picture_edges, refine_sides, rough_sides
from vision.pixels import darkest_channel
from vision.quad import CARD_H, CARD_W, CardQuad, plausible, quad_from_corners, straighten
from vision.region import (
    card_masks,
    closings,
    cut_arms,
    hull_if_solid,
    largest_blob,
    largest_blobs,
    runs_off_picture,
)

__all__ = ["SHORTEST_OUTLINE", "locate", "look_deeper"]

#: The locator's reaches (frame pixels) are those of RIG.md's 640 x 480 frames: a taller
#: frame (1280 x 720, 1920 x 1080) is located reduced to this height, where its card, which
#: fills a share of the height, is as large as in those frames.
_RIG_HEIGHT = 480
#: Work at about a quarter of that height: enough to find a card that fills over half of
#: it. By the height, not the width: a wide frame's card is as many work pixels high as a
#: 4:3 frame's. The frame is reduced by a whole factor: by area by any other, a 1280 x 720
#: frame took 4 ms where 640 x 480 takes 0.2 (OpenCV's fast path takes whole factors only).
_WORK_H = 120

#: look_deeper searches each side this far into the card (frame pixels; the first search
#: goes 14): outlines drawn out onto a reflection beside the card lay 21-37 pixels out.
_DEEP = 42
#: How far (frame pixels) the sides of a quadrilateral fitted to the region's hull, once
#: the edges confirm it, are searched again out of it: twice as far as found sides
#: (vision.outline), since a hull may lie well inside the card (_confirmed). 20 left more
#: outlines close to the card, but one cut off an index that was then misread.
_HULL_REACH = 28
#: An outline shorter than this share of the frame's height is a part of the card: the
#: camera's mount makes a card 55-90% of it (RIG.md). Beside the thumb, the lower right of a
#: tigullio QS, cut off by the thumb and the queen's picture, was located 0.43 of the frame
#: high; its one index, twice its size straightened, was read as QC at 0.985.
SHORTEST_OUTLINE = 0.5
#: How far out of an outline too short for a card (a share of its height) its sides are
#: searched for the card's edges (_grown): a row of print across the card's end cut off
#: some 0.25 of it.
_GROW = 0.3
#: An outline wider than this for its height may be a part of the card too (_grown). Most
#: decks' cards are 0.64-0.72 as wide as they are tall: a 0.714 card's own outline is at most
#: 0.725 so over 600 simulated hard scenes, and 99% of the tuning decks' outlines located
#: right are under 0.738. A row of print or a glare across the card's end cut outlines off
#: at 0.745-0.8. The widest cards (kde-penguins, 0.75) are searched so on a third of their
#: frames and stay put: no taller outline with the card's margin inside lies out of them.
_SQUATTEST = 0.74
#: A second outline whose corners all lie within this (frame pixels) of the first is the
#: same one, and would be read the same.
_SAME_OUTLINE = 2.0
#: The card's paper is at least this share of its region (court cards and big pips are the
#: rest; on simulated hard frames of 14 dev decks no card was under 0.29).
_MIN_WHITE = 0.15
_CUT_ACROSS = np.ones((11, 1), np.uint8)
_CUT_ALONG = np.ones((1, 11), np.uint8)
_REGROW = np.ones((11, 11), np.uint8)
_OPENING = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (13, 13))
#: The opened region's blobs tried for the card, largest first: the card, and what a
#: reflection joined to it (_opened_outline).
_OPENED_BLOBS = 2
#: The band (pixels of the straightened card) inside an outline found at another level
#: than the first, and the least share of the paper's lightness within (its 75th
#: percentile: court cards' print is much of it) that the band's median has. Round the
#: whole box the band lay on its metal, and a held-out 9S under the thumb, a small 8D past
#: RIG.md's range and a tango AS under the thumb were read surely wrong (as 8S, 4D and KS,
#: their bands at 0.20, 0.36 and 0.41); of 462 cards so found and read right, 435 measured
#: half or more, and most of the rest lay on the box too, read right by luck.
_RIM = np.zeros((CARD_H, CARD_W), bool)
_RIM[3:-3, 3:-3] = True
_RIM[12:-12, 12:-12] = False
_PAPER_RIM = 0.5
#: The opened region fills at least this share of its hull: court art inside is fine,
#: cloth around the box or glare is not.
_SOLID = 0.85
#: The region as it was, a thumb's bay in it, fills at least this share of its hull (a
#: thumb is a third of the card wide and reaches some 40% up it).
_BAYED = 0.8
#: ... and in the last try, where the bay runs on into dark print above the thumb's tip.
#: Of the 15 tuning decks' frames under a thumb (seeds 41 and 42, hard light), 134 of 1 800
#: found no card; so 90 were found, at 0.60-0.80, and none read wrongly (docs/READER.md).
_DEEP_BAY = 0.6
#: How a region is tried for the card (_candidate).
_Step = Literal["first", "parted", "bayed"]



def locate(frame: np.ndarray) -> CardQuad | None:
    """The card's outline in a BGR frame, or None when no card-shaped bright region shows."""
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise ValueError(f"expected a BGR frame, got shape {frame.shape}")
    lightness, scale = _lightness(frame)
    part = None
    for quad in _tries(frame, lightness, scale):
        quad = _grown(lightness, quad)
        whole = quad.height >= SHORTEST_OUTLINE * lightness.shape[0]
        # After a part, a whole outline must have the card's margin inside it.
        if whole and (part is None or _paper_rim(lightness, quad)):
            return quad.scaled(1 / scale)
        # Too short for a card: a part of one, which the later tries may find whole. A
        # glare spot on a paris JS, the paper round it parted from the rest by the jack's
        # picture, was found first, and the card was held, read from no index.
        part = part or quad
    return None if part is None else part.scaled(1 / scale)


def _lightness(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """The frame's darkest channel, on which the sides are refined (the card's white is
    bright in all three), at most _RIG_HEIGHT high; and its scale to the frame."""
    lightness = darkest_channel(frame)
    if frame.shape[0] <= _RIG_HEIGHT:
        return lightness, 1.0
    scale = _RIG_HEIGHT / frame.shape[0]
    # By the factors, not a size: the frame then maps onto the copy at exactly ``scale``.
    # Linear, not by area: from 1280 x 720, 0.3 ms where by area took 1.4 (one core).
    return cv2.resize(lightness, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR), scale


def _tries(frame: np.ndarray, lightness: np.ndarray, lightness_scale: float
           ) -> Iterator[CardQuad]:
    """The outlines of card-shaped bright regions of the frame, in the pixels of
    ``lightness`` (the frame resized by ``lightness_scale``), as the tries below find them,
    in turn."""
    factor = max(1, round(frame.shape[0] / _WORK_H))
    small = cv2.resize(frame, None, fx=1 / factor, fy=1 / factor, interpolation=cv2.INTER_AREA)
    scale = 1 / (factor * lightness_scale)  # work pixels per pixel of ``lightness``
    masks = card_masks(small)
    first_mask, first_white = next(masks)
    quad = _search(lightness, first_mask, first_white, scale)
    if quad is not None:
        yield quad
    # A saturated cloth bright enough to pass for print, joined to the card by a reflection
    # across the box's metal: the card's white alone, its print filled in.
    quad = _best_candidate(lightness, first_white.astype(np.uint8) * 255, first_white, scale,
                           None, False)
    if quad is not None:
        yield quad
    # One level need not split the card's paper from all else. A light cloth and the box's
    # lit lower rim, as bright as the paper, joined an anglo_bitmap 8H to the cloth round
    # the box: the level between them and the paper parts them. A glare spot on a dim
    # atlasnye QC over dark cloth was all that the first level found: the level between
    # the cloth and the paper finds the card. Only where the tries above found no card, or
    # only a part of one: on a frame with no card every try fails, and these two searches
    # took an empty box from 18 ms to 65.
    levels = [(first_mask, first_white)]
    for mask, white in masks:
        levels.append((mask, white))
        quad = _search(lightness, mask, white, scale)
        if quad is not None and _paper_rim(lightness, quad):
            yield quad
    # A court card's print, dark and across the card from edge to edge, may part its paper
    # in two (an orell KD in a dark room: the opening cut the narrow margin left beside the
    # robe, and neither half was tall enough for a card). Then the two largest parts
    # together, if the edges confirm their outline.
    for joined in closings(first_mask):
        quad = _best_candidate(lightness, joined, first_white, scale, None, False, "parted")
        if quad is not None:
            yield quad
    # A dark thumb's bay may run on into dark print above its tip (an ace's big pip, a
    # court figure) and leave too deep a bay for the hull: then each level's region's own
    # hull, filling less of it, if the edges confirm it and the card's margin lies inside.
    for mask, white in levels:
        for joined in closings(mask):
            quad = _best_candidate(lightness, joined, white, scale, None, False, "bayed")
            if quad is not None and _paper_rim(lightness, quad):
                yield quad


def _grown(lightness: np.ndarray, quad: CardQuad) -> CardQuad:
    """The outline, or where it is too short or too squat for a whole card, the card's own
    edges found further out of it (_GROW), if they lie as a card's do with its margin inside.

    A row of black print across a card's end (dondorf's index beside a pip at each side)
    may part the thin white strip beyond it from the rest of the card's white, and the
    opening drops the strip: the outline's side then lay along the print, the row and its
    index cut off, and the card was held, read from one corner. On a large card the
    outline so cut is still tall enough, but too squat.
    """
    h = lightness.shape[0]
    if quad.height >= SHORTEST_OUTLINE * h and quad.width <= _SQUATTEST * quad.height:
        return quad
    refined = refine_sides(lightness, quad.array(), outward=round(_GROW * quad.height))
    if refined is None:
        return quad
    grown = quad_from_corners(refined)
    if (grown.height <= quad.height + _SAME_OUTLINE or not plausible(grown, h)
            or not _paper_rim(lightness, grown)):
        return quad
    return replace(grown, fitted=quad.fitted)


def _paper_rim(lightness: np.ndarray, quad: CardQuad) -> bool:
    """Whether the outline has the card's margin inside its edge: a band there as light as
    the paper within, not the box's frame round a card found whole inside it."""
    card = straighten(lightness, quad)
    return bool(np.median(card[_RIM]) >= _PAPER_RIM * np.percentile(card[~_RIM], 75))


def look_deeper(frame: np.ndarray, quad: CardQuad) -> CardQuad | None:
    """A second outline, each side of ``quad`` searched three times as far into the card,
    or None where that finds no card-shaped outline, or the same one.

    A reflection on the box's metal just past the card can be joined to it across the
    box's dark inner edge: the outline then takes it in, and its side lies on the metal,
    past the first search's reach from the card's edge. The index in that corner sits lower
    than the network learned, and was read as another rank (a four-colour KH as a 5 at
    0.92). The first search stays short: reading again costs as much as the first read.
    """
    lightness, scale = _lightness(frame)
    quad = quad.scaled(scale)
    refined = refine_sides(lightness, quad.array(), inward=_DEEP)
    if refined is None or np.abs(refined - quad.array()).max() <= _SAME_OUTLINE:
        return None
    deeper = quad_from_corners(refined)
    return deeper.scaled(1 / scale) if plausible(deeper, lightness.shape[0]) else None


def _search(lightness: np.ndarray, mask: np.ndarray, white: np.ndarray, scale: float
            ) -> CardQuad | None:
    # Failing all else, the card may lie against one side of the picture (a camera set off
    # centre), where cloth and the box usually are.
    for at_side in (False, True):
        # A reflection streak across the box's metal can join the card to a light cloth on
        # both sides; cutting thin bands (across, then along) parts them again.
        for joined in closings(mask):
            for kernel in (None, _CUT_ACROSS, _CUT_ALONG):
                cut = joined if kernel is None else cv2.morphologyEx(joined, cv2.MORPH_OPEN,
                                                                     kernel)
                quad = _best_candidate(lightness, cut, white, scale,
                                       None if kernel is None else joined, at_side)
                if quad is not None:
                    return quad
    return None


def _best_candidate(lightness: np.ndarray, mask: np.ndarray, white: np.ndarray, scale: float,
                    uncut: np.ndarray | None, at_side: bool, step: _Step = "first"
                    ) -> CardQuad | None:
    """The largest region of the mask that can be the card: enough of it white paper (a
    saturated cloth, red or brown, is all "print"), as ``step`` tries it (_candidate).

    ``uncut`` is the mask before thin bands were cut from it: a region found in the cut
    mask gets back what the cut took from its own edges (a narrow white margin above the
    print), not what lies further out.
    """
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    best: CardQuad | None = None
    best_area = 0.0
    for label in np.argsort(-stats[1:, cv2.CC_STAT_AREA])[:4] + 1:
        if stats[label, cv2.CC_STAT_AREA] < 0.04 * mask.size:
            break
        region = labels == label
        if uncut is not None:
            near = cv2.dilate(region.astype(np.uint8), _REGROW)
            region = (near > 0) & (uncut > 0)
        if np.count_nonzero(white[region]) < _MIN_WHITE * np.count_nonzero(region):
            continue
        candidate = _candidate(lightness, region, scale, at_side, step)
        if candidate is not None and stats[label, cv2.CC_STAT_AREA] > best_area:
            best, best_area = candidate, float(stats[label, cv2.CC_STAT_AREA])
    return best


def _candidate(lightness: np.ndarray, region: np.ndarray, scale: float, at_side: bool,
               step: _Step = "first") -> CardQuad | None:
    """The region's outline if it can be the card: solid, portrait, the right size. By
    ``step``: "first", its opened outline, else its hull; in the last tries (_found), over
    regions already tried, "parted", the opened region's two largest parts together
    (_opened_outline), or "bayed", its hull alone, which it may fill less."""
    contours, _ = cv2.findContours(region.astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros(region.shape, np.uint8)
    cv2.drawContours(filled, contours, -1, 1, cv2.FILLED)
    # Mostly card-coloured inside, not a ring: the box's own frame around a dark floor.
    if np.count_nonzero(region) < 0.4 * np.count_nonzero(filled):
        return None
    if step != "bayed":
        found = _opened_outline(lightness, filled, scale, at_side, step == "parted")
        if found is not None or step == "parted":
            return found
    # A thumb darker than the paper leaves a bay in the region, and the strip of card
    # beside it may be narrower than the opening, which then cuts it off with the card's
    # corner: the region's own hull, if the edges confirm it, is this step's last try.
    blob = largest_blob(filled)
    hull = None if blob is None else hull_if_solid(blob[0], _BAYED if step == "first"
                                                   else _DEEP_BAY)
    return None if hull is None else _confirmed(lightness, fit_quad(hull), scale, at_side,
                                                sides_found=False)


def _opened_outline(lightness: np.ndarray, filled: np.ndarray, scale: float, at_side: bool,
                    parted: bool = False) -> CardQuad | None:
    # Cut off what a reflection on the metal or a glare spot joins to the card (thin
    # arms), then what is narrower than the card that is left (the dealer's thumb). Cut
    # off so, the card need not be the largest blob left: a reflection streak too tall for
    # the thin cuts (vision.region) joined an atlasnye 9D to a light cloth larger than it,
    # which the opening then parted from the card and kept.
    opened = cv2.morphologyEx(filled, cv2.MORPH_OPEN, _OPENING)
    if parted:
        # The card in two parts: the outline of both, confirmed as a hull's is.
        parts = largest_blobs(opened, 2)
        sides = None if len(parts) < 2 else rough_sides(parts[0][1] | parts[1][1])
        return None if sides is None else _confirmed(lightness, sides, scale, at_side,
                                                     sides_found=False)
    for blob in largest_blobs(opened, _OPENED_BLOBS):
        found = _blob_outline(lightness, blob, scale, at_side)
        if found is not None:
            return found
    return None


def _blob_outline(lightness: np.ndarray, blob: tuple[np.ndarray, np.ndarray], scale: float,
                  at_side: bool) -> CardQuad | None:
    """The outline of one blob of the opened region (its outline and itself filled), the
    dealer's hand cut off it, if it can be the card."""
    hand = None
    if runs_off_picture(blob[1]):
        kept, hand = cut_arms(blob[1])
        found = largest_blob(kept)
        if found is None:
            return None
        blob = found
    contour, opened = blob
    # A solid outline (court art inside is fine), not cloth around the box or glare.
    hull = hull_if_solid(contour, _SOLID)
    if hull is None:
        return None
    sides = rough_sides(opened, hand)
    return _confirmed(lightness, sides if sides is not None else fit_quad(hull), scale, at_side,
                      sides_found=sides is not None)


def _confirmed(lightness: np.ndarray, corners_small: np.ndarray, scale: float,
               at_side: bool, sides_found: bool) -> CardQuad | None:
    """The outline from rough corners (in work pixels), refined on the frame's edges
    (``lightness``: its darkest channel), if it can be the card; the rough one if the
    edges do not settle it but its sides were found (not only fitted to a hull). A hull
    the edges confirm is refined again, its sides searched further out (_HULL_REACH)."""
    h, w = lightness.shape
    rough = quad_from_corners(corners_small / scale)
    if not plausible(rough, h, square=False):
        return None
    # The box's metal frame lies between the card and the picture's sides; a region that
    # runs into a side is cloth or the box, not the card, unless ``at_side`` (the last try)
    # and into one side only, clear of the top and the bottom (cloth runs on past them).
    near = near_picture_edges(rough.array(), (h, w))
    left, right, top, bottom = (bool(near[:, side].any()) for side in range(4))
    if (left or right) and (not at_side or (left and right) or top or bottom):
        return None
    refined = refine_sides(lightness, rough.array())
    quad = None if refined is None else quad_from_corners(refined)
    if quad is None or not plausible(quad, h, square=sides_found):
        # A side that locked onto a big index or a shadow: the rough outline is better, if
        # its sides were found. A hull's quadrilateral that no edge confirms is a guess
        # (under a thumb it cut off an index, and a 3 was surely read as a jack).
        return rough if sides_found and plausible(rough, h) else None
    if sides_found:
        return quad
    # A hull may lie well inside the card: beside a thumb, a kde-ancient-egyptians 6D's
    # hull stopped 23 pixels above the card's lower edge, where its side, searched 14
    # pixels out, settled on noise and cut off the index (read as 9D at 0.998). Where the
    # edges confirm a hull, its sides are found again searched further out. Only there: a
    # hull the nearer search leaves unconfirmed, confirmed by the further one, stopped the
    # search before the outline it would have found next (95 pixels off at a corner).
    further = refine_sides(lightness, rough.array(), outward=_HULL_REACH)
    wider = None if further is None else quad_from_corners(further)
    # The outline returned must be square; the hull and the refinement that confirmed it
    # need not be (a hull round a thumb's bay may be sheared where the card is not).
    square = [q for q in (wider, quad) if q is not None and plausible(q, h)]
    return replace(square[0], fitted=True) if square else None
