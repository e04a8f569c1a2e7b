"""Telling cards of one rank apart: by their ink's colour, or by the shapes of their pips at
half the card's resolution.

Cards of one rank lay out their pips alike: only the pips' shapes (a spade's point against a
club's leaves, a heart's notch against a diamond's corners) tell their suits apart, and on
the profile's whole-face descriptor (36 x 50) a pip is a few pixels wide, so that
correlation weighs a suit little and glare or blur can outweigh it. Here each candidate's
learned ink (vision.pairwise.fine_ink_map, some 12 pixels a pip) is aligned with the view's
and compared with it only where the candidates differ, and only where the camera could see:
glare clipped white decides nothing. Cards of two colours are told by the colour of the ink
in view instead (a heart turned half round is nearly a spade without its stem).

>>> suit_tournament(fine, unknown, colour, candidates)   # doctest: +SKIP
0
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.pairwise import colour_distance, learned_glare_unknown

__all__ = ["COLOURS_APART", "COLOUR_EVIDENCE", "SEEN_ENOUGH", "SHAPE_EVIDENCE", "Aligned",
           "Candidate", "align", "colour_verdict", "corners_only", "each_corner", "shape_verdict",
           "solid", "suit_tournament"]

#: Candidates whose inks are COLOURS_APART or more apart (vision.pairwise.colour_distance)
#: are told apart by the ink's colour, the view at least COLOUR_EVIDENCE nearer one; others
#: by their pips' shapes, by SHAPE_EVIDENCE. Fitted on 6 240 frames of the 20 pip-only dev
#: decks (seeds 5, 11, 13, normal and hard): the truth's worst evidence against a close
#: rival was +0.01 (shapes) and +0.32 (colour); red and black inks lay 0.41-0.65 apart, a
#: four-colour deck's spades and clubs (two dark inks) 0.27 (0.19-0.35 since, over more
#: learning passes).
SHAPE_EVIDENCE = 0.2
COLOUR_EVIDENCE = 0.5
COLOURS_APART = 0.3

#: Inks this far apart, short of COLOURS_APART, are two dark ones (a four-colour deck's
#: spades and clubs, 0.19-0.35 apart as the learning pass's light goes): their colour may
#: still veto the shapes. (tools/measure_suit_pairs.py: on 92 close pairs 0.1-0.3 apart,
#: the truth's colour leaned at worst -0.31 to the other card, short of -COLOUR_EVIDENCE.)
_TWO_DARK_INKS = 0.15
#: A view with more than this many times a card's dark ink is darkened by the light, not
#: print (candles with the white balance off: six times an ace's ink), and its shapes may
#: not stand in for the colour.
_CAST = 2.0

#: How far (half-resolution pixels) a learned map may lie from the view: the descriptors'
#: shift of up to two pixels is some five here.
_SEARCH = 6
#: Where two candidates' softened inks differ by this much (of full ink) or more, they
#: differ (a single learning frame's noise is some 0.1).
_DIFFERS = 0.25
#: The candidates and the view are blurred this much (pixels) before comparing: the view is
#: never as sharp as the learning pass, nor aligned to the pixel.
_SOFTEN = 1.0
#: The share of the candidates' difference that must be seen for the shapes to decide, and
#: the share of their ink the view must show for its colour to decide (ink clipped white by
#: glare has no colour: a red ace under glare must not pass for a black one).
SEEN_ENOUGH = 0.5
#: Ink this dark counts for its colour (as vision.pairwise.ink_colour).
_INKED = 0.4
_NEAR = np.ones((3, 3), np.uint8)
#: Two candidates that differ over fewer pixels than this differ by a speck, not a shape
#: (the small suit glyph of a court card's index differs over 27 or more; the specks that
#: named KD for a KH whose suit is printed mid-card, over 6).
_LEAST_DIFFERENCE = 20
#: A court card's corners (fractions of the map's width and height): its suit is printed
#: there, while its picture's broad shading differs between two learning frames by more
#: than a pip (a blind deck's dark silhouettes named QC for a QS at 1.000).
_COURT_CORNER = (0.3, 0.25)
#: A candidate is brought to the view's contrast on its ink clear of the view's glare where
#: at least this share of its ink seen lies there; else on all its ink seen. (Fitted on the
#: paper round a pip wholly under a spot, a gain is noise: a dev deck's AD in view fitted
#: the AH's wider heart, -0.86; deciding alone, that read it as AH at 0.94.)
_CLEAR_OF_GLARE = 0.25
#: The ink levels at which hollows are filled (:func:`solid`).
_FILL_LEVELS = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
#: The hollows filled (pixels of the fine map). The closing leaves dark what of a pip its
#: disc fits in, some 230 pixels at the least (of tango_nuevo's learned KD, blurred,
#: 130-170 lay under 0.3-0.5 of ink); an ornate Q's counter was 47. The largest pips, an
#: ace's, are some 30 pixels across.
_HOLLOW_AREA = (100, 800)


@dataclass(frozen=True, slots=True)
class Aligned:
    """A learned fine ink map over the view's upright one: ``ink`` where it lies over the
    view (softened by _SOFTEN), ``cover`` where it covers the view at all, ``hidden`` where
    glare lay on it while it was learned (where it has the less ink of a difference, unknown,
    as the view's glare is)."""

    ink: np.ndarray
    cover: np.ndarray
    hidden: np.ndarray


def align(view: np.ndarray, learned: np.ndarray, glare: np.ndarray | None = None) -> Aligned:
    """A learned fine ink map (its middle, _SEARCH cut off) where and whichever way up it
    best matches the view's. Each candidate finds its own way up: a card with one pip in
    the middle looks alike both ways on the whole face, and the way up matters to a pip's
    shape (a heart turned half round is nearly a spade without its stem). The learning
    pass's ``glare`` goes with it."""
    h, w = learned.shape
    b = _SEARCH
    middle = np.ascontiguousarray(learned[b:h - b, b:w - b])
    best: tuple[float, int, int, bool] = (-np.inf, 0, 0, False)
    for turned in (False, True):
        target = np.ascontiguousarray(view[::-1, ::-1]) if turned else view
        result = cv2.matchTemplate(target, middle, cv2.TM_CCOEFF_NORMED)
        _, score, _, (x, y) = cv2.minMaxLoc(result)
        if score > best[0]:
            best = (score, x, y, turned)
    _, x, y, turned = best
    ink = np.zeros((h, w), np.float32)
    cover = np.zeros((h, w), np.float32)
    hidden = np.zeros((h, w), np.float32)
    ink[y:y + h - 2 * b, x:x + w - 2 * b] = middle
    cover[y:y + h - 2 * b, x:x + w - 2 * b] = 1.0
    if glare is not None:
        hidden[y:y + h - 2 * b, x:x + w - 2 * b] = glare[b:h - b, b:w - b]
    if turned:
        ink, cover, hidden = ink[::-1, ::-1], cover[::-1, ::-1], hidden[::-1, ::-1]
    return Aligned(cv2.GaussianBlur(ink, (0, 0), _SOFTEN), cover, hidden)


def solid(ink: np.ndarray) -> np.ndarray:
    """The ink map with each hollow of a pip's size that ink encloses raised to the ink
    round it (a fill of its holes, at _FILL_LEVELS).

    The paper under a pip is found by a closing (vision.pairwise.fine_ink_map), which
    leaves the middle of a pip as wide as the closing's disc dark: the pip's ink comes out
    a ring there, and solid where blur narrows the pip. tango_nuevo's suit signs are as
    wide: a learned ring fitted a solid heart's middle worse than a solid diamond did, and
    a KD in view was read as its KH at 1.000 (and a KH as a KD, its learned heart solid). A
    letter's counter is smaller, and a frame round the pips or a picture larger: filled,
    they differ between two frames by a pixel's gap in the line round them (a blind deck's
    ornate Q, its counter filled in one frame only, named a QH a QD at 0.95).
    """
    out = ink.copy()
    # A border round the map, below every level: the piece holding it is outside, any other
    # piece below a level a hollow.
    framed = np.pad(ink, 1, constant_values=-1.0)
    for level in _FILL_LEVELS:
        count, labels = cv2.connectedComponents((framed < level).astype(np.uint8),
                                                connectivity=4)
        areas = np.bincount(labels.ravel(), minlength=count)
        pip_sized = (areas >= _HOLLOW_AREA[0]) & (areas <= _HOLLOW_AREA[1])
        pip_sized[[0, labels[0, 0]]] = False  # the ink, and the outside
        if pip_sized.any():
            np.maximum(out, level, out=out, where=pip_sized[labels[1:-1, 1:-1]])
    return out


def corners_only(shape: tuple[int, ...]) -> np.ndarray:
    """A mask (1 inside) of a map's four corners, where a court card prints its suit."""
    mask: np.ndarray = np.sum(each_corner(shape), axis=0)
    return mask


def each_corner(shape: tuple[int, ...]) -> list[np.ndarray]:
    """A mask (1 inside) of each of a map's four corners, as :func:`corners_only` takes
    them together."""
    h, w = shape[:2]
    dy, dx = round(_COURT_CORNER[1] * h), round(_COURT_CORNER[0] * w)
    masks = []
    for rows in (slice(0, dy), slice(h - dy, h)):
        for cols in (slice(0, dx), slice(w - dx, w)):
            mask = np.zeros((h, w), np.float32)
            mask[rows, cols] = 1.0
            masks.append(mask)
    return masks


def shape_verdict(view: np.ndarray, unknown: np.ndarray, a: Aligned, b: Aligned,
                  region: np.ndarray | None = None, tone_free: bool = False,
                  glare: np.ndarray | None = None) -> tuple[float, float]:
    """(evidence, visible): how much better the view's ink fits ``a`` than ``b`` where they
    differ (+1: only ``a`` fits, -1: only ``b``), and the share of that place seen; only
    inside ``region`` (a mask) if one is given. ``tone_free``: each candidate is brought to
    the view's contrast on that place alone, so that print of one shape in a lighter or a
    darker ink fits either. ``glare``: where glare lifts the view's paper (1 inside)."""
    soft = [a.ink, b.ink]
    near = cv2.GaussianBlur(view, (0, 0), _SOFTEN)
    both = a.cover * b.cover * (1.0 if region is None else region)
    # The pass's glare only took ink away: where the card learned under it has the more
    # ink of the two, that ink is known; where it has the less, it may be the glare's.
    learned_unknown = learned_glare_unknown(soft[0], a.hidden, soft[1], b.hidden)
    seen = both * (np.maximum(unknown, learned_unknown) < 0.5)
    differ = cv2.dilate((np.abs(soft[0] - soft[1]) > _DIFFERS).astype(np.uint8), _NEAR)
    place = differ.astype(np.float32) * both
    # The share seen is of what the learning pass knows of the difference.
    total = float((place * (learned_unknown < 0.5)).sum())
    if total < _LEAST_DIFFERENCE:
        return 0.0, 0.0
    where = place * seen
    visible = float(where.sum()) / total
    # The view's glare, where it is not clipped white, may take ink away too: ink the view
    # shows there is there, but ink it lacks there may be the glare's doing, and a candidate
    # with more ink there is not held to it (a blind deck's pip-only AS, a spot's shoulder
    # over its middle, fitted the AC's club better than its own spade: read AC at 1.000).
    errors = []
    for t in soft:
        # Each candidate at the view's contrast (glare and blur change the ink's depth),
        # fitted on all the ink seen (clear of the view's glare, _CLEAR_OF_GLARE), so that
        # the difference alone cannot fit it; or, tone free, on the difference alone.
        fitted_on = where if tone_free else seen
        if glare is not None:
            clear = fitted_on * (1.0 - glare)
            if float((t * t * clear).sum()) >= _CLEAR_OF_GLARE * float((t * t * fitted_on).sum()):
                fitted_on = clear
        gain = float((near * t * fitted_on).sum()) / max(float((t * t * fitted_on).sum()),
                                                         1e-9)
        residual = near - np.clip(gain, 0.3, 2.0) * t
        if glare is not None:
            residual[(glare > 0) & (residual < 0)] = 0.0
        errors.append(float(((residual ** 2) * where).sum()))
    return (errors[1] - errors[0]) / max(errors[0] + errors[1], 1e-9), visible


#: A view's fine ink map and each candidate's aligned over it.
Compared = tuple[np.ndarray, list[Aligned]]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A card of the rank in view: its learned fine ink map, its ink's colour
    (vision.pairwise.ink_colour), where glare lay on it while it was learned, if that is to
    count (vision.learn.learning_glare), and its fine map made :func:`solid`, if kept made
    (else it is made when compared)."""

    fine: np.ndarray
    colour: np.ndarray
    glare: np.ndarray | None = None
    filled: np.ndarray | None = None


def colour_verdict(view: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    """How much nearer the view's ink colour is to ``a``'s than to ``b``'s, by their
    distance (+1: at ``a``, -1: at ``b``)."""
    return float(np.clip((colour_distance(view, b) - colour_distance(view, a))
                         / max(colour_distance(a, b), 1e-6), -1.0, 1.0))


def suit_tournament(view: np.ndarray, unknown: np.ndarray, colour: np.ndarray,
                    candidates: list[Candidate], evidence: float = SHAPE_EVIDENCE,
                    colour_evidence: float = COLOUR_EVIDENCE,
                    colours_apart: float = COLOURS_APART, court: bool = False,
                    glare: Callable[[], np.ndarray] | None = None) -> int | None:
    """The candidate (index) the view prefers to every other one, or None: to one of another
    colour (inks at least ``colours_apart`` in redness) by its ink's colour, by at least
    ``colour_evidence``; to one of its colour by the pips' shapes, by at least
    ``evidence``, with enough of their difference seen. (A heart turned half round is
    nearly a spade without its stem: shapes alone do not tell the colours apart.) On a
    number card the two witnesses meet: where the colour decides nothing but leans one
    way, the shapes may decide for that way (not on a view the light darkens all over).
    On any card, where two inks are _TWO_DARK_INKS apart and the colour says the other,
    the shapes may not decide.
    Court cards (``court``) are compared in their corners first (:func:`corners_only`), and
    over the whole card only where the corners decide nothing, nor one corner says one card
    and another the other (:func:`each_corner`). Pips and the corners are compared as they
    are and with their hollows filled (:func:`solid`). ``glare`` gives where glare lifts
    the view's paper (:func:`shape_verdict`), asked for only where the shapes are compared:
    with what the view lacks there forgiven, the shapes must still pick the same card."""
    inked = float((view > _INKED).sum())
    dark = [float((c.fine > _INKED).sum()) for c in candidates]

    # Pips and the suit signs of the corners are compared both as they are and filled
    # (solid): either may decide, not against the other, and the filled maps only where
    # the maps as they are show a difference. Filling closes letters' counters and a
    # framed picture's pieces too: dondorf's pip-only QC, filled, fitted the QH's corners
    # (-0.31), as it was the QC's (+0.92); its pip-only court cards, no suit in their
    # corners, showed differences there only filled. A court picture is compared as it is.
    corners = corners_only(view.shape) if court else None
    passes = [(True, corners), (False, None)] if court else [(True, None)]
    # A court picture beyond its corners: a region asked for apart (corners_say_other).
    regions: list[np.ndarray | None] = [region for _, region in passes]
    regions += [] if corners is None else [1.0 - corners]
    beyond = len(passes)

    @functools.cache
    def view_glare() -> np.ndarray:
        return np.zeros_like(view) if glare is None else glare()

    @functools.cache
    def compared(filled: bool) -> Compared:
        if not filled:
            return view, [align(view, c.fine, c.glare) for c in candidates]
        seen = solid(view)
        return seen, [align(seen, solid(c.fine) if c.filled is None else c.filled, c.glare)
                      for c in candidates]

    @functools.cache
    def shapes(i: int, j: int, filled: bool, step: int, forgiven: bool = False,
               tone_free: bool = False) -> tuple[float, float]:
        """:func:`shape_verdict` of cards i and j in the region of pass ``step`` (or
        ``beyond`` the corners), made once (the answer is asked again with the view's glare
        forgiven)."""
        seen, placed = compared(filled)
        return shape_verdict(seen, unknown, placed[i], placed[j], regions[step],
                             tone_free, view_glare() if forgiven else None)

    def prefers(i: int, j: int, step: int, glare_too: bool = False) -> bool:
        filled_too, region = passes[step]
        a, b = candidates[i], candidates[j]
        apart = colour_distance(a.colour, b.colour)
        leaning = colour_verdict(colour, a.colour, b.colour)
        if apart >= colours_apart:
            if inked >= SEEN_ENOUGH * min(dark[i], dark[j]) and leaning >= colour_evidence:
                return True
            # The colour undecided (ink faint in warm light, or half under glare): a number
            # card's pips may still decide, where the colour leans their way too, unless the
            # light itself darkens the view (_CAST).
            if court or leaning <= 0 or inked > _CAST * max(dark[i], dark[j]):
                return False
        elif apart >= _TWO_DARK_INKS and leaning <= -colour_evidence:
            # A four-colour deck's spades and clubs: the shapes may not overrule the colour
            # (a blue ace of spades half under glare fitted the green club's shape). Nor a
            # court card's, its picture's colours mixed: a blind deck's red JH (its inks
            # 0.2 from the JC's) fitted the JC's shapes better than the JD's, at 1.000.
            return False
        score, visible = shapes(i, j, False, step)
        if visible < SEEN_ENOUGH:  # no difference seen in the maps as they are
            return False
        if court and region is None:
            if corners_say_other(i, j):
                score, visible = shapes(i, j, False, beyond)
                if visible < SEEN_ENOUGH:
                    return False
            # A court picture may differ in one ink's tone alone, which the light's
            # contrast across the card decides as much as the print: a blind deck's four
            # queens are one figure, the QC's bust grey and the QS's navy. Brought to the
            # view's contrast over that bust alone, a QC in warm light fitted both (-0.17);
            # over all its ink, the QS (+0.27), and it was read QS at 1.000. Both must hold.
            score = min(score, shapes(i, j, False, step, tone_free=True)[0])
        forgiven = glare_too and view_glare().any()
        if forgiven:
            score = min(score, shapes(i, j, False, step, forgiven=True)[0])
        scores = [score]
        if filled_too:
            filled, visible = shapes(i, j, True, step)
            if forgiven:
                filled = min(filled, shapes(i, j, True, step, forgiven=True)[0])
            scores += [filled] if visible >= SEEN_ENOUGH else []
        # Under the view's glare only the maps as they are may say the other card: filled,
        # they would forgive the fill too, ink the print lacks (dondorf's pip-only KS: its
        # corners filled fitted the KC's at -1.00 with the fill forgiven, +0.62 without;
        # as they are, +0.81 either way).
        return max(scores) >= evidence and (score if forgiven else min(scores)) > -evidence

    def corners_say_other(i: int, j: int) -> bool:
        """Whether the corners, as they are or filled, prefer card j to card i. Then the
        whole card may prefer i only by its picture beyond the corners: where the two maps
        disagree there, the whole card, compared as it is, would side with one of them.
        tango_nuevo's pip-only KD showed a solid diamond, learned as a ring (a sign as wide
        as the paper's closing): its corners as they are fitted the KS's solid spade better
        (+0.62), filled the KD's diamond (-0.67), and the whole card as it is read KS at
        1.000; beyond the corners the KD fits a little better (+0.21). dondorf's pip-only
        QC, its framed picture's pieces filled in its corners, fitted the QH's there (-0.83;
        +0.83 as they are): its picture beyond them tells it (+0.88)."""
        return any(visible >= SEEN_ENOUGH and said <= -evidence
                   for said, visible in (shapes(i, j, filled, 0) for filled in (False, True)))

    def corners_disagree(i: int, j: int) -> bool:
        """Whether one corner prefers card i to card j and another j to i. The whole card
        may not decide then: one of them may be the rank's print, learned from two frames
        a pixel apart, the other the suit. tango_nuevo prints a court card's K in one top
        corner and its suit in the other: a K in view that fitted the KS's better (-0.98
        in its corner; the club's corner +0.34 for the KC, the corners together +0.04)
        outweighed the club over the whole card, and a KC was read as KS at 1.000."""
        seen, placed = compared(False)
        said = [shape_verdict(seen, unknown, placed[i], placed[j], corner)
                for corner in each_corner(view.shape)]
        scores = [score for score, visible in said if visible >= SEEN_ENOUGH]
        return bool(scores) and max(scores) >= evidence and min(scores) <= -evidence

    n = len(candidates)
    for step, (_, region) in enumerate(passes):
        for i in range(n):
            rivals = [j for j in range(n) if j != i]
            if all(prefers(i, j, step) for j in rivals):
                if court and region is None and any(corners_disagree(i, j) for j in rivals):
                    return None
                # The view's glare may have taken ink away: the shapes must hold with what
                # the view lacks under it forgiven too (asked again, each verdict made
                # once). Forgiving lacks alone favours the card with the more ink
                # there, so this only holds: the suit is left to no one, and a court card's
                # corners held so are not passed on to the whole card (passed on, a blind
                # deck's pip-only QC, one figure with its QS, was read as QS).
                if not all(prefers(i, j, step, glare_too=True) for j in rivals):
                    return None
                return i
    return None
