"""The state of the print in the index corners: how blurred, how smeared, and whether the
light leaves its colour to be told at all.

The index network learned print as sharp as RIG.md's ranges leave it, and red against black
in light that lights every channel of the paper. Past that, its word on a card is not to be
trusted alone, and :mod:`vision.crosscheck` and the reader ask these measures before they let
it stand.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.indices import index_corners
from vision.pixels import darkest_channel, lit_channels, ninetieth, paper_colour

__all__ = [
    "SHARP_ENOUGH",
    "SMEARED",
    "colour_lost",
    "dimmed_corners",
    "print_blur",
    "print_smear",
    "smeared",
]

#: Where no glyph is shaped like a spade or a club, the index network's word for a black suit
#: stands alone only on print this sharp: its edges blurred by at most this Gaussian sigma
#: (pixels of the straightened card, as :func:`print_blur` measures it). The network learned
#: corners blurred as far as RIG.md's hard range (some 1.4 pixels here); blurred further, a
#: club's leaves run together and it read clubs as spades at 0.91-0.97 (a camera focused
#: for a metre, not 10 cm: they measured 1.89-2.20). The measure is rough (frames within
#: the range measure up to 1.9 in 99 of 100), so it holds some blurred readings, not all.
#: The 37 sure black readings with no glyph to judge by in 2 704 hard and normal benchmark
#: frames measured 1.0-1.89; one (1.89) is held.
SHARP_ENOUGH = 1.8
#: Print smeared past this (:func:`print_smear`, the sigma across its most blurred direction)
#: holds any reading: the index network learned no camera moving during the exposure. A
#: simulated camera shaken 4-12 frame pixels (`bench/vision_accuracy.py --beyond shake`, 13
#: decks, seeds 2024 and 777) read 17 of 2 704 frames surely wrong, a rank mostly (8 as 7, 9
#: as 5, an ace as 4), their print smeared 2.93-4.2. Within RIG.md's ranges the hard frames
#: of the same seeds measured up to 2.90 and 3.05 (orell's 10D both times; 1 in 2 704 over).
#: A third seed, kept to check it, left 1 of its 10 (2.82): the hold is partial.
#: Measured since on the darkest channel (print_smear), on the 16 standard-indexed dev
#: decks, seeds 2024 and 777: of 6 556 frames within the ranges, hard and normal, 3 measure
#: over 2.9 (up to 3.02), where grey had 20 (up to 3.57; pale ink, above all the
#: four-colour decks' yellow diamonds); of 3 262 shaken frames, the 32 read surely wrong
#: without the hold measure 2.96-4.28 (on grey 2.81-4.2). Measured both ways (smeared:
#: against all of each corner and against its print past the box; tools/measure_print_smear.py,
#: the same decks and seeds): within the ranges 1 of 6 592 frames measures over 2.9 (2.93;
#: 3 measured one way), and of the 17 shaken frames read surely wrong without the hold now,
#: 1 measures under it (bellot's JC read as QC, 2.66, as measured one way).
SMEARED = 2.9
#: The box beyond the card's edge is sought this many pixels into an index corner from its
#: top and its left side, as rows and columns darker than _BOX_DARK of the paper.
_BOX_REACH = 12
_BOX_DARK = 0.75
#: print_blur's window (pixels): wide enough to span an edge blurred that far.
_EDGE_SPAN = np.ones((15, 15), np.uint8)
#: print_smear tells edges facing this many directions apart (22.5 degrees each).
_DIRECTIONS = 8


#: A channel of the paper dimmer than this share of its brightest, in both index corners,
#: leaves red and black too alike for the network to tell (colour_lost). Within RIG.md's
#: ranges the least share was 0.38 in the corner more evenly lit; past them, at 0.24 and
#: 0.25, a plastic 7S under candle light was read as 7D at 0.93. Above vision.pixels.LIT,
#: under which a channel carries mostly noise.
TELLS_COLOUR = 0.3
#: A channel of the paper at this level or brighter is clipped by the sensor, or nearly.
_CLIPPED = 250


def colour_lost(card: np.ndarray) -> bool:
    """Whether the light leaves a channel of the paper dim (under TELLS_COLOUR of the
    brightest) in both index corners, or in one where glare clips the other, so that the
    ink's colour, red against black, cannot be told.

    Under candle light with the camera's white balance off, the paper's red clipped at 255
    while its blue sat at an eighth of it: black ink, as dark in the clipped red as the
    clipping allowed, looked red, and anglo_poker's 2S was read as 2D at 0.98 and 0.93
    (`--beyond colour`, seeds 5 and 6). Over 1 636 hard frames of the 16 standard-indexed
    dev decks the paper's least lit channel was 0.38 of its brightest at the least, in the
    corner more evenly lit (docs/READER.md).

    A corner whose paper is clipped (its brightest channel at _CLIPPED or more) cannot show
    the light to be even: the clipping hides how much brighter that channel is, so one dim
    corner is enough beside it. Past RIG.md's colour range a neoclassical_4_color 3S, its
    blue ink orange under light whose blue lit the paper at a quarter of its red, was read
    as 3D at 0.995: its other corner, under glare, measured 0.43.
    """
    papers = _corner_papers(card)
    dimmed = [_dimmed(paper) for paper in papers]
    return any(dimmed) and all(dim or paper.max() >= _CLIPPED
                               for dim, paper in zip(dimmed, papers, strict=True))


def dimmed_corners(card: np.ndarray) -> int:
    """In how many index corners the light leaves a channel of the paper under TELLS_COLOUR
    of the brightest."""
    return sum(map(_dimmed, _corner_papers(card)))


def _corner_papers(card: np.ndarray) -> list[np.ndarray]:
    """The paper's colour (B, G, R) in each index corner."""
    return [paper_colour(corner, 2) for corner in index_corners(card)]


def _dimmed(paper: np.ndarray) -> bool:
    """Whether a channel of a paper colour is under TELLS_COLOUR of the brightest."""
    return not lit_channels(paper, TELLS_COLOUR).all()


def print_blur(card: np.ndarray) -> float:
    """How blurred the index corners' print is: the Gaussian sigma, in pixels of the
    straightened card, of the sharpest corner's edges (a little more than the camera's own
    blur, for the resampling on the way).

    A step of height R blurred by sigma has its steepest slope R / (sigma * sqrt(2 pi)); the
    sharpest tenth of the steep edge pixels, their height taken as the span of grey around
    them, gives sigma.
    """
    return min((_tenth(sigma) for sigma, _ in _corner_edges(card, darkest=False)),
               default=float("inf"))


def smeared(card: np.ndarray) -> bool:
    """Whether the index corners' print is smeared past SMEARED, as :func:`print_smear`
    measures it both ways: its edges judged steep against all of each corner, and against
    its print past the box beyond the card's edge. A camera shaken smears both. Judged
    against the box's edge alone, pale print went unseen (neoclassical_4_color's blue 6S
    measured 3.02, seed 36); judged against pale print alone, in dim light, the sensor's
    noise passed for edges (its 10S measured 4.64). The second way is measured only where
    the first says smeared: most frames are not."""
    return print_smear(card) > SMEARED and print_smear(card, past_box=True) > SMEARED


def print_smear(card: np.ndarray, past_box: bool = False) -> float:
    """How blurred the index corners' print is across its most blurred direction: as
    :func:`print_blur`, but for the edges facing each of eight directions apart, the worst
    direction taken (the sharper corner counts). A camera moving during the exposure smears
    the print along its path and leaves the edges across it sharp, which print_blur sees.
    With ``past_box``, an edge is steep against the corner's print past the box beyond the
    card's edge (:func:`_past_box`), not against the box's own edge where it shows.

    Measured on each pixel's darkest channel: on grey, pale coloured ink (a four-colour
    deck's yellow diamonds, blue spades) shows so little contrast that the few edges found,
    some of them not the print's, measured one direction smeared past SMEARED on sharp
    print."""
    smears = []
    for sigma, facing in _corner_edges(card, darkest=True, past_box=past_box):
        bins = np.floor_divide(facing + 90 / _DIRECTIONS, 180 / _DIRECTIONS).astype(int)
        bins %= _DIRECTIONS
        # One sort for all directions: by direction, then by sigma within each.
        ordered = sigma[np.lexsort((sigma, bins))]
        facing_each = np.split(ordered, np.cumsum(np.bincount(bins, minlength=_DIRECTIONS))[:-1])
        smears.append(max((_tenth_of_sorted(s) for s in facing_each if len(s) >= 5),
                          default=float("inf")))
    return min(smears, default=float("inf"))


def _tenth(values: np.ndarray) -> float:
    """The 10th percentile (as numpy's, interpolated), without np.percentile's overhead:
    print_blur takes one for each index corner on the readings it judges."""
    return _tenth_of_sorted(np.sort(values))


def _tenth_of_sorted(ordered: np.ndarray) -> float:
    """:func:`_tenth` of values already sorted (print_smear sorts all directions at once)."""
    at = 0.1 * (len(ordered) - 1)
    low = int(at)
    high = min(low + 1, len(ordered) - 1)
    return float(ordered[low] + (ordered[high] - ordered[low]) * (at - low))


def _past_box(plane: np.ndarray) -> tuple[slice, slice]:
    """The part of an index corner past the box beyond the card's edge and its reach: the
    rows from its top and the columns from its left side (the card's edges there, as
    :func:`vision.quad.corners` turns them) whose median is darker than _BOX_DARK of the
    paper, each run unbroken from the side, and the edge window's reach past them. Print
    fills less than half of a row or a column there."""
    dark = _BOX_DARK * float(ninetieth(plane[::2, ::2].ravel()))
    rows = _from_the_side(np.median(plane[:_BOX_REACH], axis=1) < dark)
    columns = _from_the_side(np.median(plane[:, :_BOX_REACH], axis=0) < dark)
    reach = _EDGE_SPAN.shape[0] // 2 + 1
    return np.s_[rows + reach if rows else None:, columns + reach if columns else None:]


def _from_the_side(dark: np.ndarray) -> int:
    """How many of the flags lead unbroken from the first."""
    return len(dark) if dark.all() else int(np.argmin(dark))


def _corner_edges(card: np.ndarray, darkest: bool, past_box: bool = False
                  ) -> list[tuple[np.ndarray, np.ndarray]]:
    """For each index corner with print, the blur sigma at each steep edge pixel (as
    print_blur says) and the way the edge faces (its gradient's angle, 0-180 degrees), on
    grey or on each pixel's ``darkest`` channel. An edge is steep against the corner's
    steepest, or (``past_box``) against the steepest of its part past the box beyond the
    card's edge (:func:`_past_box`)."""
    edges_of = []
    for corner in index_corners(card):
        plane = darkest_channel(corner) if darkest else cv2.cvtColor(corner, cv2.COLOR_BGR2GRAY)
        grey = cv2.GaussianBlur(plane.astype(np.float32), (0, 0), 0.7)  # noise is no edge
        dx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
        dy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
        slope = np.hypot(dx, dy) / 8.0
        span = cv2.dilate(grey, _EDGE_SPAN) - cv2.erode(grey, _EDGE_SPAN)
        # The box is sought only _BOX_REACH into the corner: most of the corner lies past it.
        part = _past_box(plane) if past_box else np.s_[:, :]
        edges = (span > 0.6 * span[part].max()) & (slope > 0.25 * slope[part].max())
        if edges.sum() >= 5:
            sigma = span[edges] / (np.sqrt(2 * np.pi) * slope[edges])
            edges_of.append((sigma, np.degrees(np.arctan2(dy[edges], dx[edges])) % 180))
    return edges_of
