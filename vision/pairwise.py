"""Telling close candidates apart on the print where their learned cards differ.

The profile's similarity is a correlation over the whole face: one pip among seven changes
it little, and glare in the learning pass or in view can outweigh it. Here the card in view
is compared with two candidates at a time only where their learned ink differs (a seven's
extra pip against a six), on ink maps that glare does not mark, and only on what the camera
could see: pixels clipped to white, and the dealer's thumb, are unknown, not paper or ink.
Hidden evidence decides nothing.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from vision.pixels import lit_channels, paper_colour

__all__ = ["GLARE_RIM", "Placed", "Verdict", "clipped_by_glare", "colour_distance", "compare",
           "fine_ink_map", "glare_above_light", "ink_against_paper", "ink_colour",
           "learned_glare_unknown", "place", "thumb_over", "tournament"]

#: A pixel whose darkest channel is at least this is clipped to white.
_CLIPPED = 248
#: The closing that finds the paper around print (half-resolution pixels: wider than a pip).
_PAPER_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (17, 17))
#: Ink differences below this (of full ink) are the noise of a single learning frame.
_NOISE = 0.1
#: Ink both candidates have at least this much of sets their contrast.
_SHARED = 0.2
#: Ink the other candidate has less than this share of is missing there, not faded.
_FADED = 0.3
#: Ink this dark counts for its colour.
_INKED = 0.4
#: The share of a pip's place that must be seen before ink found there counts fully.
_FAIR_SHARE = 0.5
#: Under a glare spot, ink at least this deep is seen; fainter is unknown.
_GLARED_INK = 0.3
#: Glare: paper this share of its typical level above the plane of the light over the card
#: (light falling off across the card is a plane; glare is a spot above it).
_GLARE_LIFT = 0.08
#: A rim round glare (half-resolution pixels): its edge fades into the light's plane.
GLARE_RIM = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
#: Glare that leaves ink less than this of its contrast hides it.
_LEAST_CONTRAST = 0.3
#: A side's own ink shown at this share of its depth or more is there; at _ABSENT or less,
#: it is not.
_PRESENT = 0.45
_NEAR = np.ones((3, 3), np.uint8)
_ABSENT = 0.15
#: The dealer's thumb over the face (half-resolution pixels; a thumb is some 30 across, a
#: pip 8-14): print darker by _THUMB_DARK than the paper round it, found by a closing wider
#: than a thumb, glare capped at the paper's typical level (bellot's pip-only 8S under a
#: light thumb, in warm light: the nail 0.76-0.82 of that paper, the skin 0.5-0.65, the
#: paper shaded towards the card's edge 0.84 at the least), ...
_THUMB_PAPER = cv2.getStructuringElement(cv2.MORPH_RECT, (41, 41))
_THUMB_DARK = 0.12
#: ... still there once an opening wider than any pip or stroke took those away, ...
_THUMB_BODY = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (17, 17))
#: ... its parts within a light nail's rim of each other one body, ...
_THUMB_PARTS = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (11, 11))
#: ... that runs in from one edge of the face at least this share of the way across, with
#: its soft rim and shadow round it, and a rank check's cell more (it counts a cell's ink
#: shown where a cell next to it has it: orell's pip-only 7C was read as an eight for the
#: rim's skin beside the eight's pip under the thumb). (A court picture printed out to the
#: card's edge may do so too, and parts of it are then unknown: bellot's kings.)
_THUMB_REACH = 0.25
_THUMB_SHADOW = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (15, 15))


@dataclass(frozen=True, slots=True)
class Placed:
    """A learned ink map over the view's upright one: ``ink`` (H x W) where it lies over the
    view, ``cover`` where it covers the view at all, and ``glare`` where the learning pass's
    glare lay on it (1 inside), if that is known."""

    ink: np.ndarray
    cover: np.ndarray
    glare: np.ndarray | None = None


@dataclass(frozen=True, slots=True)
class Verdict:
    """How the view sides between two candidates: ``evidence`` +1 for the first, -1 for the
    second, 0 undecided; ``visible`` the share of their difference the camera could see."""

    evidence: float
    visible: float


def fine_ink_map(inner: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(ink 0..1, unknown 0 or 1) of a card's face at half its resolution
    (:func:`ink_against_paper`)."""
    ink, unknown, _ = ink_against_paper(inner)
    return ink, unknown


def ink_against_paper(inner: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(ink 0..1, unknown 0 or 1, the paper's level 0..255 it is measured against) of a
    card's face at half its resolution.

    Ink is how much darker than the paper around it a pixel is, in its darkest channel
    (red ink is dark in green and blue) of those the light lets the paper show. The paper's
    level comes from a closing (print smaller than a pip taken out). Glare adds light to
    paper and ink alike, which shrinks the ink's contrast by the typical paper over the
    glared paper: the ink is scaled back up by that. Where glare clips the paper white, ink
    may hide: unknown, print on that paper too (unless the whole card is that bright: then
    clipping is the exposure, not glare). So is the face under the dealer's thumb
    (:func:`thumb_over`).
    """
    grey = _half_darkest(inner)
    closed, paper, typical = _paper(grey)
    contrast = np.clip(typical / paper, _LEAST_CONTRAST, 1.0)
    ink = np.clip((1.0 - grey / paper) / contrast, 0.0, 1.0)
    # Print inside a glare spot lies on paper clipped white: how bright that paper really
    # is, and so how deep the print, nobody knows: a pip there may look faint, not absent.
    # Ink it does show is there (glare only takes ink away).
    clipped = ((grey >= _CLIPPED) | ((closed >= _CLIPPED) & (ink < _GLARED_INK))
               if _glare_can_clip(typical) else np.zeros_like(grey, bool))
    hidden = np.maximum(clipped.astype(np.float32),
                        (contrast <= _LEAST_CONTRAST).astype(np.float32))
    return ink, np.maximum(hidden, _thumb_in(grey, typical)), paper


def clipped_by_glare(light: np.ndarray) -> np.ndarray:
    """Where a card's paper level (as :func:`ink_against_paper` gives it) is clipped white by
    glare (bool), print there unseen; nowhere if the whole card is that bright, for then it
    is the exposure."""
    if not _glare_can_clip(float(np.median(light))):
        return np.zeros(light.shape, bool)
    clipped: np.ndarray = light >= _CLIPPED
    return clipped


def _glare_can_clip(typical: float) -> bool:
    """Whether paper clipped white on a card whose typical paper is at ``typical`` is glare,
    not the exposure."""
    return typical < _CLIPPED - 8


def thumb_over(inner: np.ndarray) -> np.ndarray:
    """Where the dealer's thumb (or hand) lies over a card's face, at half its resolution
    as :func:`fine_ink_map` maps it: 1 there, 0 elsewhere. It is a body of print broader
    than any pip, darker than the paper round it, that runs in from one edge of the face a
    quarter of the way across or more (but not on to the opposite edge), with its shadow. A
    court card's picture that the thumb touches joins it, and is taken in too.

    The thumb hides print, and its skin is darker than the paper: seen as ink, a thumb over
    the place of a seven's extra pip made a six a seven, at 1.000 (pip-only decks read with
    a profile, the thumb on half the frames), and one over a three's foot made an ace of
    diamonds a three while glare hid its head."""
    grey = _half_darkest(inner)
    return _thumb_in(grey, _paper(grey)[2])


def _thumb_in(grey: np.ndarray, typical: float) -> np.ndarray:
    """:func:`thumb_over` on the face's darkest lit channel at half resolution, its paper
    ``typical`` of that level."""
    # Glare is brighter than the paper: the paper between two glare spots is no darker than
    # the paper at large, only than the spots.
    capped = np.minimum(grey, typical)
    paper = cv2.morphologyEx(capped, cv2.MORPH_CLOSE, _THUMB_PAPER)
    dark = (capped < (1.0 - _THUMB_DARK) * paper).astype(np.uint8)
    body = cv2.morphologyEx(dark, cv2.MORPH_OPEN, _THUMB_BODY)
    # Its parts a light nail's rim splits off are one thumb (orell's pip-only 7C: the skin
    # below the nail, alone, reached less than a quarter of the way across). Each group
    # grew from the body, so holds some of it.
    count, groups = cv2.connectedComponents(cv2.dilate(body, _THUMB_PARTS), connectivity=8)
    h, w = grey.shape
    over = np.zeros((h, w), np.uint8)
    inked = body > 0
    for i in range(1, count):
        part = (groups == i) & inked
        ys, xs = np.nonzero(part)
        top, bottom = ys.min() <= 1, ys.max() >= h - 2
        left, right = xs.min() <= 1, xs.max() >= w - 2
        reach = max((ys.max() + 1 - ys.min()) / h if top != bottom else 0.0,
                    (xs.max() + 1 - xs.min()) / w if left != right else 0.0)
        if reach >= _THUMB_REACH:
            over[part] = 1
    return cv2.dilate(over, _THUMB_SHADOW).astype(np.float32)


def glare_above_light(light: np.ndarray) -> np.ndarray:
    """Where a paper level (as :func:`ink_against_paper` gives it) lies lifted by glare above the
    light's plane (bool). The plane is fitted again without what lies off it, below (print
    the closing left: a picture, a deck of big pictures) or above (the glare itself)."""
    h, w = light.shape
    basis = _plane_basis(h, w)
    level = light.astype(np.float64).ravel()
    typical = max(float(np.median(level)), 1.0)
    fit = np.ones(h * w, bool)
    for _ in range(3):
        # Least squares by its normal equations: three unknowns (a general solver took
        # some 0.3 ms more a read).
        on = basis[fit]
        coef = np.linalg.solve(on.T @ on, on.T @ level[fit])
        near = np.abs(level - basis @ coef) < _GLARE_LIFT * typical / 2
        if near.sum() < near.size // 4:
            break
        fit = near
    lifted: np.ndarray = (level - basis @ coef).reshape(h, w) > _GLARE_LIFT * typical
    return lifted


@functools.cache
def _plane_basis(h: int, w: int) -> np.ndarray:
    """A plane's terms (1, x, y; x and y 0..1) at each pixel of an h x w map, a row each."""
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    return np.stack([np.ones_like(xs), xs / w, ys / h], axis=-1).reshape(-1, 3)


def _paper(grey: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """(the closing that takes print smaller than a pip out, the paper's level it gives,
    softened, and that level's median: the typical paper) of a face's darkest channel."""
    closed = cv2.morphologyEx(grey, cv2.MORPH_CLOSE, _PAPER_KERNEL)
    paper = np.maximum(cv2.GaussianBlur(closed, (0, 0), 1.5), 8.0)
    return closed, paper, float(np.median(paper))


def _half_darkest(inner: np.ndarray) -> np.ndarray:
    """A face's darkest lit channel (float32) at half its resolution."""
    return cv2.resize(_darkest_lit_channel(inner), (inner.shape[1] // 2, inner.shape[0] // 2),
                      interpolation=cv2.INTER_AREA).astype(np.float32)


def _darkest_lit_channel(image: np.ndarray) -> np.ndarray:
    """The per-pixel minimum of the channels whose paper is lit (vision.pixels.LIT, the paper
    as the face's 90th percentile says): an unlit channel's noise passed for ink (under
    candle light a seven was read as an eight at 1.000)."""
    channels = cv2.split(image)
    paper = paper_colour(image, 4)
    lit = [c for c, on in zip(channels, lit_channels(paper), strict=True) if on]
    out = lit[0]
    for channel in lit[1:]:
        out = cv2.min(out, channel)
    return out


def ink_colour(whole: np.ndarray, ink: np.ndarray) -> np.ndarray:
    """The colour of a face descriptor's (BGR, vision.descriptors.describe) ink where its ink
    map is dark: each channel's share of the darkening (black ink darkens all three alike,
    red ink green and blue, a yellow blue alone). Shares, not a red-green ratio: a ratio of
    two channels the ink hardly darkens (yellow in red and green) is noise."""
    where = ink > _INKED
    if not where.any():
        return np.full(3, 1 / 3, np.float32)
    dark = np.maximum(-whole[where].mean(axis=0), 0.0)
    out: np.ndarray = (dark / max(float(dark.sum()), 1e-6)).astype(np.float32)
    return out


def colour_distance(a: np.ndarray, b: np.ndarray) -> float:
    """How far apart two inks' colours (:func:`ink_colour`) are: 0 alike, up to 2."""
    return float(np.abs(a - b).sum())


def place(ink: np.ndarray, shift: tuple[int, int], turned: bool, border: int,
          glare: np.ndarray | None = None) -> Placed:
    """A learned ink map's middle (``border`` cut off) at the shift (dy, dx) where its card
    matched the view, in the upright view's coordinates (turned half round if it matched
    that way), with where the learning pass's ``glare`` lay on it, if given."""
    h, w = ink.shape
    out = np.zeros((3, h, w), np.float32)
    dy, dx = shift
    middle = ink[border:-border, border:-border]
    spots = np.zeros_like(middle) if glare is None else glare[border:-border, border:-border]
    out[:, dy:dy + h - 2 * border, dx:dx + w - 2 * border] = (
        middle, np.ones_like(middle), spots)
    if turned:
        out = out[:, ::-1, ::-1]
    return Placed(out[0], out[1], None if glare is None else out[2])


def learned_glare_unknown(a: np.ndarray, a_glare: np.ndarray | None, b: np.ndarray,
                          b_glare: np.ndarray | None) -> np.ndarray:
    """Where a difference between two learned ink maps may be the learning pass's glare
    (1 inside): under either card's glare, where that card has the less ink, since glare
    only takes ink away."""
    out = np.zeros_like(a)
    for ink, glare, other in ((a, a_glare, b), (b, b_glare, a)):
        if glare is not None:
            out = np.maximum(out, glare * (ink < other))
    return out


def fit(view: np.ndarray, placed: Placed) -> float:
    """Correlation of the view's ink with a placed map's ink where it covers the view."""
    a = view * placed.cover
    a, b = a - a.mean(), placed.ink - placed.ink.mean()
    return float((a * b).sum() / max(float(np.sqrt((a * a).sum() * (b * b).sum())), 1e-9))


def compare(view: np.ndarray, unknown: np.ndarray, a: Placed, b: Placed) -> Verdict:
    """Which of two placed ink maps the view's ink agrees with, where they differ.

    Each side's own ink (where it has ink the other has not) is looked for in the view.
    Glare and blur only ever take ink away, so ink found there counts fully even when
    faint, while ink missing counts only as far as the camera could see it.
    """
    both = a.cover * b.cover
    # Each map at the view's contrast (blur and light change the ink's depth, the learning
    # frames' too), judged on the ink both share: a missing pip must not seem to fade the
    # rest.
    shared = (np.minimum(a.ink, b.ink) > _SHARED) * both
    if not shared.any():
        shared = both
    ta, tb = ((min(max(float((view * t.ink * shared).sum())
                       / max(float((t.ink * t.ink * shared).sum()), 1e-9), 0.3), 2.0) * t.ink)
              for t in (a, b))
    # The pass's glare only took ink away: where the card learned under it has the less ink
    # of the two, the difference may be the glare's (tango_nuevo's pip-only 4S and 7S, one
    # picture, learned each way up under one spot: the 4S's big spade faded where the view
    # showed it whole, and the 4S was read as the 7S at 1.000).
    if a.glare is not None or b.glare is not None:
        unknown = np.maximum(unknown, learned_glare_unknown(a.ink, a.glare, b.ink, b.glare))
    seen = both * (1 - unknown)
    # A cell's ink counts as shown where any cell next to it has it: the two candidates
    # matched at whole descriptor pixels, so their pips may lie a pixel apart. Not ink
    # beyond what both cover: there neither was placed to say whose it is (Атласные's 7,
    # its index cut at the map's edge, lent its stem to an 8's stroke beside it).
    near = cv2.dilate(view * both, _NEAR)
    # What paper shows so (where neither candidate has ink) is the sensor's noise, not ink:
    # in a dark room, dilated, it passed for a seven's extra pip at 1.000.
    blank = (np.maximum(a.ink, b.ink) < _NOISE) & (seen > 0)
    if blank.any():
        near = np.maximum(near - float(np.median(near[blank])), 0.0)
    votes, weights, total, visible = [], [], 0.0, 0.0
    # (Glare on the learning pass over a pip matters little here: a pip lies on paper, by
    # which its ink is scaled back. Over broad print it is unknown, above, where given.)
    for mine, theirs, sign in ((ta, tb, 1.0), (tb, ta, -1.0)):
        # Ink the other lacks altogether: a pip it has but faded (glare on the learning
        # pass) is no difference.
        other = cv2.dilate(theirs, _NEAR)
        extra = np.maximum(mine - other - _NOISE, 0.0) * (other < _FADED * mine) * both
        energy = float(extra.sum())
        if energy <= 1e-9:
            continue
        shown = float((extra * seen).sum())
        total, visible = total + energy, visible + shown
        if shown <= 1e-9:
            votes.append(0.0)
            weights.append(energy)
            continue
        # How much of this side's own ink the view shows (1: all of it, 0: none).
        present = float((np.minimum(near / np.maximum(mine, 1e-6), 1.0) * extra * seen).sum())
        present /= shown
        vote = float(np.clip((present - _ABSENT) / (_PRESENT - _ABSENT) * 2 - 1, -1.0, 1.0))
        # Ink seen is ink there (once a fair share of the place is seen: a glare spot's rim
        # can look inked); ink not seen is only as sure as the share seen.
        share = shown / energy
        votes.append(sign * vote * (min(1.0, share / _FAIR_SHARE) if vote > 0 else share))
        weights.append(energy)
    if not weights:
        return Verdict(0.0, 0.0)
    evidence = float(np.dot(votes, weights) / sum(weights))
    return Verdict(evidence, visible / total)


def tournament(view: np.ndarray, unknown: np.ndarray,
               candidates: list[tuple[Placed, Placed]], evidence: float) -> int | None:
    """The candidate (index) that the view's visible ink prefers to every other one by at
    least ``evidence``, or None. Each candidate comes either way up (upright, turned)."""
    ways = [_ways_up(view, unknown, pair, evidence) for pair in candidates]
    n = len(ways)
    for i in range(n):
        if all(min(compare(view, unknown, a, b).evidence for a in ways[i] for b in ways[j])
               >= evidence for j in range(n) if j != i):
            return i
    return None


def _ways_up(view: np.ndarray, unknown: np.ndarray, pair: tuple[Placed, Placed],
             evidence: float) -> tuple[Placed, ...]:
    """A candidate the way up its ink fits the view best, and the other way too unless the
    view's visible ink rules that out: a verdict must then hold either way. (The way that
    fits best alone read bellot's 9D as an eight under the thumb: the nine lay turned, and
    its off-centre middle pip, all that tells its two ways apart, lay under the thumb; it
    fitted best upright, its pip where the view showed paper.)"""
    best, other = sorted(pair, key=lambda p: fit(view, p), reverse=True)
    if compare(view, unknown, best, other).evidence >= evidence:
        return (best,)
    return best, other
