"""Telling the suits of one rank apart on a pip-only deck: the pips' shapes and the ink's
colour (vision.suits), and the profile reader that uses them."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import pytest

from shoe.cards import FULL_DECK, Card, Rank
from vision.corpus import on_white
from vision.descriptors import FINE, describe, describe_ink_and_light
from vision.learn import learn_profile
from vision.pairwise import colour_distance, fine_ink_map, ink_colour
from vision.profile import ProfileReader
from vision.quad import straighten
from vision.stored import DeckProfile
from vision.suits import Candidate, colour_verdict, solid, suit_tournament

from learning_pass import DEV_DECK, faces, learning_pass, stills
from straightened import flat_card

ACES = [Card.parse(c) for c in ("AS", "AH", "AD", "AC")]
THREES = [Card.parse(c) for c in ("3S", "3H", "3D", "3C")]


@pytest.fixture(scope="module")
def dev_pip_only_profile() -> DeckProfile:
    """A profile of a dev deck with its indices painted out."""
    frames = learning_pass(DEV_DECK, pip_only=True)
    return learn_profile(zip(FULL_DECK, ([f] for f in frames), strict=True)).profile


def _candidates(profile: DeckProfile, cards: list[Card]) -> list[Candidate]:
    rows = [FULL_DECK.index(c) for c in cards]
    return [Candidate(profile.fine[i], ink_colour(profile.whole[i], profile.ink[i]))
            for i in rows]


def _view(profile: DeckProfile, frame: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(fine ink, fine unknown, ink colour) of the card in view, through the window."""
    assert profile.window is not None
    card = straighten(frame, profile.window)
    (ink, _, fine, unknown), _ = describe_ink_and_light(card)
    return fine, unknown, ink_colour(describe(card)[0], ink)


@pytest.mark.parametrize("cards", [ACES, THREES], ids=["aces", "threes"])
def test_the_pips_shapes_and_colour_pick_the_suit_of_a_rank(
        dev_pip_only_profile: DeckProfile, cards: list[Card]) -> None:
    candidates = _candidates(dev_pip_only_profile, cards)
    for k, frame in enumerate(stills(DEV_DECK, cards, seed=41, pip_only=True, same_rig_as=5)):
        fine, unknown, colour = _view(dev_pip_only_profile, frame)
        assert suit_tournament(fine, unknown, colour, candidates) == k, cards[k]


def test_hidden_pips_decide_no_suit(dev_pip_only_profile: DeckProfile) -> None:
    """Glare clipping the whole face white hides the shapes: spades and clubs (one colour)
    stay undecided rather than guessed."""
    black = [Card.parse("AS"), Card.parse("AC")]
    frame = stills(DEV_DECK, black[:1], seed=43, pip_only=True, same_rig_as=5)[0]
    fine, unknown, colour = _view(dev_pip_only_profile, frame)
    candidates = _candidates(dev_pip_only_profile, black)
    assert suit_tournament(fine, unknown, colour, candidates) == 0
    hidden = np.ones_like(unknown)
    assert suit_tournament(fine, hidden, colour, candidates) is None


def test_ink_hidden_by_glare_has_no_colour(dev_pip_only_profile: DeckProfile) -> None:
    """A red ace whose pip glare clipped white shows no ink, which ink_colour calls black:
    that must not rule out the red ace."""
    reds_and_black = [Card.parse("AH"), Card.parse("AS")]
    frame = stills(DEV_DECK, reds_and_black[:1], seed=43, pip_only=True, same_rig_as=5)[0]
    fine, unknown, colour = _view(dev_pip_only_profile, frame)
    candidates = _candidates(dev_pip_only_profile, reds_and_black)
    assert suit_tournament(fine, unknown, colour, candidates) == 0
    clipped = np.zeros_like(fine)
    no_ink = ink_colour(np.zeros((50, 36, 3), np.float32), np.zeros((50, 36), np.float32))
    assert suit_tournament(clipped, np.ones_like(unknown), no_ink, candidates) is None


def test_red_and_black_inks_are_colours_apart(dev_pip_only_profile: DeckProfile) -> None:
    colours = {c: ink_colour(dev_pip_only_profile.whole[i], dev_pip_only_profile.ink[i])
               for i, c in enumerate(FULL_DECK)}
    assert colour_distance(colours[Card.parse("5H")], colours[Card.parse("5S")]) > 0.4
    assert colour_distance(colours[Card.parse("5H")], colours[Card.parse("5D")]) < 0.1
    red, black = colours[Card.parse("5H")], colours[Card.parse("5C")]
    assert colour_verdict(red, red, black) == 1.0
    assert colour_verdict(black, red, black) == -1.0


def test_reads_pip_only_aces_and_threes_surely(dev_pip_only_profile: DeckProfile) -> None:
    """An ace's suit is one pip's shape; the whole face's correlation alone left aces
    unsure (or surely wrong)."""
    reader = ProfileReader(dev_pip_only_profile)
    cards = ACES + THREES
    readings = [reader.read(f) for f in stills(DEV_DECK, cards, seed=47, pip_only=True,
                                               same_rig_as=5)]
    sure = [(r.card, c) for r, c in zip(readings, cards, strict=True) if r.is_sure]
    assert all(card == truth for card, truth in sure), sure
    assert len(sure) >= len(cards) - 1
    assert all(r.rank_confidence > 0.9 for r, c in zip(readings, cards, strict=True)
               if c.rank == Rank.ACE)


def _court_map(club: bool, shading: float) -> np.ndarray:
    """A court card's fine ink map: its suit in two corners, a broad shaded picture."""
    ink = np.zeros(FINE, np.float32)
    h, w = FINE
    cv2.ellipse(ink, (w // 2, h // 2), (w // 4, h // 3), 0, 0, 360, shading, -1)
    for x, y in ((9, 10), (w - 10, h - 11)):
        _draw_suit(ink, club, x, y)
    return ink


def _draw_suit(ink: np.ndarray, club: bool, x: int, y: int) -> None:
    """A club's three leaves or a spade's point, some 11 pixels wide, about (x, y)."""
    if club:
        for dx, dy in ((-3, 1), (3, 1), (0, -3)):
            cv2.circle(ink, (x + dx, y + dy), 3, 1.0, -1)
    else:
        cv2.fillConvexPoly(ink, np.array([(x, y - 6), (x - 5, y + 3), (x + 5, y + 3)]), 1.0)


def _fine(deck: dict[Card, np.ndarray], code: str, blur: float
          ) -> tuple[np.ndarray, np.ndarray]:
    """The fine (ink, unknown) maps of a clean face, straightened and blurred ``blur`` px."""
    card = flat_card(deck, code)
    return fine_ink_map((cv2.GaussianBlur(card, (0, 0), blur) if blur else card)[4:-4, 6:-6])


def test_a_pip_as_wide_as_the_papers_closing_is_filled_and_a_counter_is_not(
        deck_faces: Callable[..., dict[Card, np.ndarray]]) -> None:
    """tango_nuevo's diamond is as wide as the closing that finds the paper: sharp, its ink
    map is a ring, and solid() fills it. The 8's counters beside it, and a standard deck's
    pips and the counters of its indices, are left as they are."""
    tango = deck_faces("tango_nuevo", 240)
    ink = _fine(tango, "8D", 0.0)[0]
    filled = solid(ink)
    changed = filled > ink + 0.05
    ys, xs = np.nonzero(changed)
    y, x = round(ys.mean()), round(xs.mean())
    assert ink[y, x] < 0.3 <= 0.5 <= filled[y, x]
    assert xs.min() > ink.shape[1] // 2 and ys.max() < ink.shape[0] // 4  # the diamond
    for code in ("8S", "10D", "AS", "6H"):
        ink = _fine(deck_faces("anglo", 240), code, 0.0)[0]
        assert (solid(ink) == ink).all(), code


def test_a_diamond_learned_as_a_ring_is_told_from_a_heart_seen_blurred(
        deck_faces: Callable[..., dict[Card, np.ndarray]]) -> None:
    """tango_nuevo's QD learned sharp (its diamond a ring) and its QH learned blurred: a QD
    in view, as blurred, is picked. Compared as the maps were, the ring's hollow middle
    left the two undecided."""
    tango = deck_faces("tango_nuevo", 240)
    red = np.array([0.6, 0.3, 0.1], np.float32)
    learned = [Candidate(_fine(tango, "QD", 0.0)[0], red),
               Candidate(_fine(tango, "QH", 1.5)[0], red)]
    view, unknown = _fine(tango, "QD", 1.5)
    assert suit_tournament(view, unknown, red, learned, court=True) == 0


@pytest.mark.parametrize("rival", ["QH", "QD"])
def test_a_framed_court_picture_filled_decides_no_suit(rival: str) -> None:
    """dondorf's pip-only court cards print no suit in their corners, and their picture
    stands in a frame line: filled, its pieces there differ between two frames. A QC learned
    blurred and seen sharper is told from a queen learned sharp by its whole picture, not
    by its corners filled (which named the rival)."""
    dondorf = {c: on_white(f) for c, f in faces("dondorf", pip_only=True).items()}
    grey = np.array([0.4, 0.33, 0.27], np.float32)
    learned = [Candidate(_fine(dondorf, "QC", 1.2)[0], grey),
               Candidate(_fine(dondorf, rival, 0.0)[0], grey)]
    view, unknown = _fine(dondorf, "QC", 0.5)
    assert suit_tournament(view, unknown, grey, learned, court=True) == 0


@pytest.mark.parametrize("under", ["top half", "left half", "whole card"])
def test_under_the_views_glare_a_court_cards_corners_decide_as_they_are(under: str) -> None:
    """dondorf's pip-only court cards print no suit in their corners; filled, the framed
    picture's pieces there are broad ink, more of it in the QD's than in the QS's. Under
    the view's glare a card's ink beyond the view's is forgiven: forgiven on the filled
    maps, the QD's fill held a QS in view, whose corners as they are tell it at once."""
    dondorf = {c: on_white(f) for c, f in faces("dondorf", pip_only=True).items()}
    grey = np.array([0.4, 0.33, 0.27], np.float32)
    learned = [Candidate(_fine(dondorf, "QS", 1.2)[0], grey),
               Candidate(_fine(dondorf, "QD", 0.0)[0], grey)]
    view, unknown = _fine(dondorf, "QS", 0.5)
    h, w = FINE
    glare = np.zeros(FINE, np.float32)
    glare[{"top half": np.s_[:h // 2], "left half": np.s_[:, :w // 2],
           "whole card": np.s_[:]}[under]] = 1.0
    assert suit_tournament(view, unknown, grey, learned, court=True,
                           glare=lambda: glare) == 0


def test_a_court_cards_suit_is_told_in_its_corners_not_by_its_pictures_shading() -> None:
    """Two learning frames shade a broad picture differently, by more than a pip differs:
    over the whole card the shading decides, in the corners the suit does."""
    spade, club = _court_map(False, 0.35), _court_map(True, 0.9)
    view = _court_map(False, 0.9)  # the spade, its picture shaded as the club was learned
    colour = np.zeros(3, np.float32)
    candidates = [Candidate(spade, colour), Candidate(club, colour)]
    unknown = np.zeros(FINE, np.float32)
    assert suit_tournament(view, unknown, colour, candidates) == 1
    assert suit_tournament(view, unknown, colour, candidates, court=True) == 0


def _with_k(club: bool, scale: float = 1.0, shift: int = 0) -> np.ndarray:
    """A court card's fine ink map: its suit in the top left corner, a picture, and a tall
    K at the top right reaching out of its corner, as a learning frame may show it:
    ``scale`` times as large, ``shift`` pixels to the right."""
    ink = np.zeros(FINE, np.float32)
    h, w = FINE
    cv2.ellipse(ink, (w // 2, 2 * h // 3), (w // 4, h // 4), 0, 0, 360, 0.5, -1)
    _draw_suit(ink, club, 12, 12)
    k = np.zeros(FINE, np.float32)
    x = w - 24
    for start, end in (((x, 5), (x, 45)), ((x + 2, 27), (x + 15, 5)), ((x + 3, 23), (x + 15, 45))):
        cv2.line(k, start, end, 1.0, 3)
    move = cv2.getRotationMatrix2D((x + 7, 25), 0.0, scale)
    move[0, 2] += shift
    return np.maximum(ink, cv2.warpAffine(k, move, (w, h)))


def test_corners_that_disagree_leave_the_suit_to_no_one() -> None:
    """Two learning frames show a court card's rank index a pixel apart: in a corner of its
    own, and over the whole card, the K then differs between the two candidates more than
    their suits do. The corners disagree (the suit's says club, the K's spade) and decide
    nothing together; the whole card, which the K outweighs, named the spade."""
    spade, club = _with_k(club=False), _with_k(club=True, scale=0.9, shift=1)
    view = cv2.GaussianBlur(_with_k(club=True), (0, 0), 1.5)
    colour = np.zeros(3, np.float32)
    unknown = np.zeros(FINE, np.float32)
    candidates = [Candidate(spade, colour), Candidate(club, colour)]
    assert suit_tournament(view, unknown, colour, candidates) == 0  # the whole card alone
    assert suit_tournament(view, unknown, colour, candidates, court=True) is None


def _wigged(stripes: bool) -> np.ndarray:
    """A court card's fine ink map with no suit in its corners: a broad picture, with or
    without stripes across the top of it (one figure, two suits)."""
    ink = np.zeros(FINE, np.float32)
    h, w = FINE
    cv2.ellipse(ink, (w // 2, h // 2), (w // 4, h // 3), 0, 0, 360, 1.0, 2)
    if stripes:
        for y in range(h // 4, h // 2, 5):
            cv2.line(ink, (w // 3, y), (2 * w // 3, y), 1.0, 2)
    return ink


def test_a_court_picture_under_the_learning_glare_decides_no_suit() -> None:
    """Where glare lay on the learning pass, a court picture's print was learned fainter:
    two court cards that differ only there are not told apart by it."""
    striped, plain = _wigged(True), _wigged(False)
    colour = np.zeros(3, np.float32)
    unknown = np.zeros(FINE, np.float32)
    glare = np.zeros(FINE, np.float32)
    h, w = FINE
    glare[h // 5: h // 2 + 3, w // 4: 3 * w // 4] = 1.0
    learned = [Candidate(striped, colour), Candidate(plain, colour)]
    assert suit_tournament(striped, unknown, colour, learned, court=True) == 0
    assert suit_tournament(plain, unknown, colour, learned, court=True) == 1
    under_glare = [Candidate(striped, colour, glare), Candidate(plain, colour, glare)]
    assert suit_tournament(striped, unknown, colour, under_glare, court=True) is None
    assert suit_tournament(plain, unknown, colour, under_glare, court=True) is None


def _bust(depth: float) -> np.ndarray:
    """A court card's fine ink map with no suit in its corners: a figure's outline above a
    bust printed ``depth`` deep (one figure, its bust in a lighter or a darker ink)."""
    ink = _wigged(False)
    h, w = FINE
    ink[h - 16: h - 4, w // 3: 2 * w // 3] = depth
    return ink


def test_one_figure_with_a_lighter_or_darker_bust_decides_no_suit() -> None:
    """A blind deck's four queens are one figure, the QC's bust grey and the QS's navy. How
    deep a bust looks is the light's contrast there as much as its ink: a QC in warm light
    fitted the QS, the navy bust at the contrast of the rest of its ink, and was read QS at
    1.000. Print of one shape fits either card at the contrast of the bust alone."""
    grey, navy = _bust(0.3), _bust(0.6)
    colour = np.zeros(3, np.float32)
    unknown = np.zeros(FINE, np.float32)
    candidates = [Candidate(navy, colour), Candidate(grey, colour)]
    seen = 0.72 * navy  # the figure's lines at 0.72, its bust 0.43: the navy's contrast
    assert suit_tournament(seen, unknown, colour, candidates, court=True) is None
    # A difference of shape still decides, at any contrast.
    striped = [Candidate(_wigged(True), colour), Candidate(_wigged(False), colour)]
    assert suit_tournament(0.72 * _wigged(True), unknown, colour, striped, court=True) == 0


def test_cards_that_differ_by_a_speck_are_not_told_apart() -> None:
    """A court card whose suit is printed mid-card differs in its corners by a speck of
    noise only: the corners decide nothing there, whatever that speck says."""
    king = _court_map(False, 0.5)
    speck = king.copy()
    speck[8:10, 16:18] = 1.0
    colour = np.zeros(3, np.float32)
    candidates = [Candidate(king, colour), Candidate(speck, colour)]
    unknown = np.zeros(FINE, np.float32)
    assert suit_tournament(speck, unknown, colour, candidates, court=True) is None


def test_a_four_colour_decks_colour_vetoes_the_shapes_of_its_dark_suits() -> None:
    """A four-colour deck prints spades blue and clubs green: inks too near to decide alone,
    but a blue ace read by its shape as the club (half its pip under glare) must not be.
    (The learning pass's light, seed 7, leaves the two inks 0.23 apart; 0.28-0.39 in six
    others.)"""
    frames = learning_pass("neoclassical_4_color", pip_only=True, seed=7)
    profile = learn_profile(zip(FULL_DECK, ([f] for f in frames), strict=True)).profile
    spade, club = _candidates(profile, [Card.parse("AS"), Card.parse("AC")])
    assert 0.2 < colour_distance(spade.colour, club.colour) < 0.3
    frame = stills("neoclassical_4_color", [Card.parse("AC")], seed=43, pip_only=True,
                   same_rig_as=7)[0]
    fine, unknown, colour = _view(profile, frame)
    assert suit_tournament(fine, unknown, colour, [spade, club]) == 1
    # The club's shapes in view, the spade's colour: the colour says no.
    assert suit_tournament(fine, unknown, spade.colour, [spade, club]) is None


def test_a_court_cards_colour_vetoes_its_shapes_too() -> None:
    """A court card's ink is its picture's colours mixed: a red jack's may lie only 0.2 from
    a black one's, too near to decide alone. Where the view's colour says one card, the
    other's shapes may not decide (a blind deck's red JH fitted the JC's shapes better than
    the JD's, at 1.000)."""
    spade, club = _court_map(False, 0.9), _court_map(True, 0.9)
    dark = np.array([0.32, 0.37, 0.31], np.float32)
    warm = np.array([0.43, 0.36, 0.21], np.float32)
    candidates = [Candidate(spade, warm), Candidate(club, dark)]
    unknown = np.zeros(FINE, np.float32)
    assert suit_tournament(club, unknown, dark, candidates, court=True) == 1
    assert suit_tournament(club, unknown, warm, candidates, court=True) is None


@pytest.mark.parametrize(("red_share", "read"), [(0.6, 0), (0.4, None)])
def test_where_the_colour_leans_short_of_deciding_the_shapes_may(
        dev_pip_only_profile: DeckProfile, red_share: float, read: int | None) -> None:
    """A red ace in warm light or half under glare: its colour between red and black. The
    diamond's shape decides where the colour leans red, and nothing where it leans black."""
    cards = [Card.parse("AD"), Card.parse("AS")]
    candidates = _candidates(dev_pip_only_profile, cards)
    frame = stills(DEV_DECK, cards[:1], seed=43, pip_only=True, same_rig_as=5)[0]
    fine, unknown, _ = _view(dev_pip_only_profile, frame)
    between = red_share * candidates[0].colour + (1 - red_share) * candidates[1].colour
    assert suit_tournament(fine, unknown, between, candidates) == read
    # Candles with the white balance off darken the whole view: no shape stands in there.
    cast = np.clip(fine + 0.45, 0.0, 1.0)
    assert suit_tournament(cast, unknown, between, candidates) is None
