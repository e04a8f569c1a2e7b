"""Learning a deck profile from one pass of the deck through the box in a known order.

Each card of the pass comes with one or more frames (a still, or the resting frames of a
video). The card is located in each frame; the window is the median outline over the pass,
and every card is straightened through that window (as the reader will see it), described,
and its descriptors averaged. A card that cannot be located itself (a dark or borderless
design) is still learned through the window.

>>> outcome = learn_profile(zip(order, ([f] for f in frames)))   # doctest: +SKIP
>>> outcome.profile.save("mydeck.profile")                       # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from shoe.cards import FULL_DECK, Card, FaroError
from vision.descriptors import FINE, describe, describe_ink_and_light, unit
from vision.light import shown_white
from vision.locate import locate
from vision.pairwise import GLARE_RIM, glare_above_light
from vision.profile_checks import OVERRULES
from vision.quad import CARD_H, CARD_W, CardQuad, quad_from_corners, straighten, trimmed
from vision.reader import CornerReader, ModelError
from vision.stored import DeckProfile, stored_fine, stored_ink

__all__ = ["DarkDeckError", "LearnOutcome", "LearnProblem", "OrderError", "learn_profile",
           "learning_glare"]

#: Two cards of one deck this alike cannot be told apart by their descriptors.
_TOO_ALIKE = 0.985
#: A card's face is dark when its median brightness is under this share of its bright
#: print; a deck is dark when most of its faces are. Every aisleriot deck's median card is
#: at 1.0 (its paper is the brightest and most of it), KDE's dark oxygen deck at 0.2.
_DARK_FACE = 0.5
#: Glare in the pass (vision.pairwise.glare_above_light) over a card's print whose level is
#: under _BROAD_PRINT of the paper's there (print broader than the closing that finds the
#: paper: a picture's wig or robe), and a rim round it (vision.pairwise.GLARE_RIM).
_BROAD_PRINT = 0.8
#: A band of the box along a side of the window this deep or more (a share of the side) is
#: trimmed off (_on_the_paper): the lips' shadow along a card's edge is shallower. Looked
#: for within _BAND_REACH of each side: the box beyond a dark gap (under _GAP of the
#: paper's level), nowhere as light as paper (_NOT_PAPER).
_BOX_BAND = 0.03
_BAND_REACH = 0.12
_GAP, _NOT_PAPER = 0.35, 0.85


class OrderError(FaroError, ValueError):
    """A card order that does not fit the pass: duplicates, or a count that disagrees."""


class DarkDeckError(FaroError, ValueError):
    """A deck printed light on dark card: the reader's descriptors take print for what is
    darker than the card, and a profile of such a deck was surely wrong on a quarter of its
    reads (a blind deck, kde-oxygen), so none is made."""


@dataclass(frozen=True, slots=True)
class LearnProblem:
    """A card the pass could not learn well, and why."""

    card: Card
    reason: str

    def __str__(self) -> str:
        return f"{self.card.code}: {self.reason}"


@dataclass(frozen=True, slots=True)
class LearnOutcome:
    """The profile, the cards it could not learn well, and the share of a card's face that
    the pass's glare clipped white (the median over the cards: the spot lies alike on all).
    Print under it was learned faint or not at all, and the same light in a deal hides what
    tells two cards apart there (a six from a seven, its extra pip under the spot), so the
    reader holds such cards."""

    profile: DeckProfile
    problems: tuple[LearnProblem, ...]
    glare_clipped: float = 0.0


def learn_profile(
    views: Iterable[tuple[Card, Sequence[np.ndarray]]],
    *,
    name: str = "",
    on_card: Callable[[], None] | None = None,
) -> LearnOutcome:
    """A profile from (card, frames) pairs in pass order; ``on_card`` ticks a progress bar."""
    located: list[tuple[Card, list[np.ndarray], list[np.ndarray]]] = []
    quads: list[np.ndarray] = []
    seen: set[Card] = set()
    for card, frames in views:
        if card in seen:
            raise OrderError(f"{card.code} appears twice in the order")
        seen.add(card)
        cards, unplaced = [], []
        for frame in frames:
            quad = locate(frame)
            if quad is None:
                unplaced.append(frame)
            else:
                quads.append(quad.array())
                cards.append(frame)
        located.append((card, cards, unplaced))
        if on_card is not None:
            on_card()
    window = quad_from_corners(np.median(np.stack(quads), axis=0)) if quads else None
    if window is not None:
        window = _on_the_paper(window, [f for _, found, _ in located for f in found])
    return _build(located, window, name)


def _on_the_paper(window: CardQuad, frames: list[np.ndarray]) -> CardQuad:
    """The window with a band of the box trimmed off any side where most of the pass's
    cards show one (:func:`_box_bands`) _BOX_BAND deep or more.

    The locator may take the box's edge for the card's on every frame of a session alike:
    lattmann's pass at one seed was located 23 px above the card's top, on the box's wood
    under a reflection. The band then lies at the top of a card either way up, and a card
    seen the other way up from its learning lay off its learned card turned round: its
    pip-only 7S was read as 8S and AH as AS at 1.000."""
    sides = np.median([_box_bands(straighten(f, window)) for f in frames], axis=0)
    lengths = np.array([CARD_H, CARD_W, CARD_H, CARD_W])
    cut = np.where(sides >= _BOX_BAND * lengths, sides, 0)
    return trimmed(window, *cut) if cut.any() else window


def _box_bands(card: np.ndarray) -> list[int]:
    """How deep a band of the box runs along each side (top, right, bottom, left) of a
    straightened card, in pixels: up to the innermost row (or column) within _BAND_REACH
    of the side that is a dark gap across the card (under _GAP of the paper's level), where
    no row outside it is as light as paper. A printed frame line has paper outside it."""
    light = card.max(axis=2).astype(np.float32)
    paper = float(np.percentile(light, 90))
    rows, columns = light.mean(axis=1), light.mean(axis=0)
    bands = []
    for line in (rows, columns[::-1], rows[::-1], columns):
        reach = line[:round(_BAND_REACH * len(line))]
        gaps = np.flatnonzero(reach < _GAP * paper)
        edge = int(gaps[-1]) + 1 if gaps.size else 0
        bands.append(edge if (line[:edge] < _NOT_PAPER * paper).all() else 0)
    return bands


def _build(located: list[tuple[Card, list[np.ndarray], list[np.ndarray]]],
           window: CardQuad | None, name: str) -> LearnOutcome:
    whole = np.zeros((52, 0), np.float32)
    corner = np.zeros((52, 0), np.float32)
    ink = np.zeros((52, 0), np.float32)
    fine = np.zeros((52, *FINE), np.float32)
    learned = np.zeros(52, bool)
    dark: list[bool] = []
    lights: list[np.ndarray] = []  # each learned card's paper level, in pass order
    white: list[float] = []  # the share of each learned card's face glare showed white
    lit: list[int] = []
    problems: list[LearnProblem] = []
    index = {c: i for i, c in enumerate(FULL_DECK)}
    for card, found, unplaced in located:
        if not found and unplaced and window is not None:
            problems.append(LearnProblem(card, "card not found in its frames; learned "
                                               "from the window where the others lay"))
        if window is None or not (found or unplaced):
            problems.append(LearnProblem(card, "no card found in its frames"))
            continue
        # Every card through the same window, as the reader will see them: the same
        # outline for all, not each frame's own estimate of it.
        cards = [straighten(f, window) for f in (*found, *unplaced)]
        dark.append(_is_dark(cards[0]))
        inks, papers = zip(*(describe_ink_and_light(c) for c in cards), strict=True)
        lights.append(np.mean(papers, axis=0))
        white.append(shown_white(papers))
        lit.append(index[card])
        described = [describe(c) for c in cards]
        w = np.mean([d[0] for d in described], axis=0)
        k = np.mean([d[1] for d in described], axis=0)
        if whole.shape[1] == 0:
            whole = np.zeros((52, *w.shape), np.float32)
            corner = np.zeros((52, *k.shape), np.float32)
            ink = np.zeros((52, *w.shape[:2]), np.float32)
        whole[index[card]], corner[index[card]] = w, k
        # As the file will keep it (vision.profile: a few levels of ink).
        ink[index[card]] = stored_ink(np.mean([i[0] for i in inks], axis=0))
        fine[index[card]] = stored_fine(np.mean([i[2] for i in inks], axis=0))
        learned[index[card]] = True
    if whole.shape[1] == 0:
        raise OrderError("no card could be found in any frame: nothing to learn")
    if sum(dark) > len(dark) / 2:
        raise DarkDeckError(
            f"{sum(dark)} of {len(dark)} cards have dark faces with light print: faro-shoe "
            "reads print darker than the card, and cannot learn this deck")
    for card in FULL_DECK:
        if not learned[index[card]] and not any(p.card == card for p in problems):
            problems.append(LearnProblem(card, "not in the pass"))
    glare = np.zeros((52, *FINE), np.uint8)
    glare[lit] = learning_glare(lights)
    profile = DeckProfile(name, window, whole, corner, learned, ink, fine,
                          index_check=_indices_read_right(located), glare=glare)
    problems.extend(_confusions(profile))
    return LearnOutcome(profile, tuple(problems), float(np.median(white)))


def learning_glare(lights: list[np.ndarray]) -> np.ndarray:
    """For each learned card, where the pass's glare lay on its broad print (1, else 0; the
    fine maps' grid), from the paper's level on each card (one map per card, in the order
    given; vision.descriptors.describe_ink_and_light).

    The light over the window is the paper's level as most cards show it (its 90th
    percentile over the cards: a big picture or index hides the paper on some). Light
    falling off across the card is a plane; glare is a spot above it. Print on paper under
    the spot is scaled back from the glared paper round it (vision.pairwise.fine_ink_map);
    broad print (a wig, a robe) has no paper round it and was learned fainter. A card
    learned the other way up had another part of its face there, so that two cards may
    differ there by the light, not their print (a blind deck's JC, its grey wig's stripes
    under the pass's glare, fitted the JS's print better than its own, at 1.000).
    """
    each = np.stack(lights).astype(np.float32)
    light = np.percentile(each, 90, axis=0)
    glare = glare_above_light(light)
    broad = each < _BROAD_PRINT * light
    return np.stack([cv2.dilate((glare & b).astype(np.uint8), GLARE_RIM) for b in broad])


def _is_dark(card: np.ndarray) -> bool:
    """Whether a straightened card's face is mostly darker than its bright print."""
    grey = cv2.cvtColor(card, cv2.COLOR_BGR2GRAY)
    return bool(np.median(grey) < _DARK_FACE * max(float(np.percentile(grey, 95)), 1.0))


def _indices_read_right(located: list[tuple[Card, list[np.ndarray], list[np.ndarray]]]
                        ) -> bool:
    """Whether the zero-shot reader reads this deck's indices: never at even odds on a
    wrong rank or suit on the pass (where the check would overrule the profile), and sure
    of most cards (not a pip-only or foreign-lettered deck)."""
    try:
        reader = CornerReader()
    except ModelError:
        return False  # the profile reads on its own
    sure_right = 0
    for card, found, _ in located:
        for frame in found:
            reading = reader.read(frame)
            wrong_rank = reading.rank != card.rank and reading.rank_confidence >= OVERRULES
            wrong_suit = reading.suit != card.suit and reading.suit_confidence >= OVERRULES
            if wrong_rank or wrong_suit:
                return False
            sure_right += reading.is_sure and reading.card == card
    return sure_right >= 0.8 * len(located)


def _confusions(profile: DeckProfile) -> list[LearnProblem]:
    """Cards too alike to tell apart, either way up, one problem for each group of them: the
    reader compares the card in view with each learned card both ways, and a pass shows
    cards both ways. A group is the cards joined by such pairs (a pip-only deck's numbers
    of a suit, without their numerals, are one picture: one line, not 28 pairs)."""
    whole = unit(profile.whole.reshape(52, -1))
    corner = unit(profile.corner.reshape(52, -1))
    # A card turned half round: its face turned, its two corners swapped (vision.stored
    # keeps the bottom right one turned).
    whole_turned = unit(profile.whole[:, ::-1, ::-1].reshape(52, -1))
    corner_turned = unit(profile.corner[:, ::-1].reshape(52, -1))
    alike = np.maximum(0.6 * whole @ whole.T + 0.4 * corner @ corner.T,
                       0.6 * whole @ whole_turned.T + 0.4 * corner @ corner_turned.T)
    np.fill_diagonal(alike, -1.0)
    too_alike = (alike > _TOO_ALIKE) & profile.learned[:, None] & profile.learned[None, :]
    problems, grouped = [], np.zeros(52, bool)
    for first in np.flatnonzero(too_alike.any(axis=1)):
        if grouped[first]:
            continue
        group = np.zeros(52, bool)
        group[first] = True
        while (grown := group | too_alike[group].any(axis=0)).sum() > group.sum():
            group = grown
        grouped |= group
        others = [FULL_DECK[i].code for i in np.flatnonzero(group) if i != first]
        problems.append(LearnProblem(FULL_DECK[first], (
            f"looks like {others[0]}: the reader will abstain on both" if len(others) == 1 else
            f"{', '.join(others[:-1])} and {others[-1]} look like it or like each other: "
            f"the reader will abstain on all {len(others) + 1}")))
    return problems
