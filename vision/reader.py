"""The zero-shot reader: rank and suit from the corner indices, through a small network.

The card is located and straightened (:mod:`vision.locate`); its top-left corner, and its
bottom-right corner turned half round, each show an index the right way up whichever way the
card lies. A small convolutional network (:mod:`vision.indexnet`: two, trained from
different seeds and averaged in one file by ``tools/train_index_net.py`` on many decks,
typefaces and suit shapes, run through ``cv2.dnn``) names rank and suit in each corner, in
colour, so red against black weighs in on the suit. The two corners must agree: their
probabilities are averaged, so a disagreement lowers the confidence instead of picking one.
The pips counted in the card's middle weigh the rank (:mod:`vision.pipcount`), and a court
card's picture and a queen's counter weigh against the numbers (:mod:`vision.courtcards`);
the suit glyphs' outlines hearts against diamonds (:mod:`vision.hearts`), the suit glyphs
cut out alone spades against clubs (:mod:`vision.glyphs`), and the middle and the suit
glyphs may then hold a reading they contradict (:mod:`vision.crosscheck`); so may a corner
that shows an index the network sees none in (a lower index printed unturned), read again
turned back (where it names the other corner's rank so, that corner speaks alone). Corners
that disagree may mean an outline with a side off the card: the reader then looks again, the
sides searched deeper into the card (:func:`vision.locate.look_deeper`); where they name a 6
and a 9, the pips' places may settle which. A reading unsure with corners that agree, whose
index stands nearer the card's edge than the network learned, is read again with the card
shrunk within a margin of its paper (:func:`vision.quad.within_margin`), unless it is unsure
whether the ink is red or black; so is one whose corners disagree after the deeper look,
where one of them names the rank surely. A second look only ever confirms the card the
first one leaned to.

>>> reader = CornerReader()                 # doctest: +SKIP
>>> reader.read(frame)                      # doctest: +SKIP
Reading(card=Card.parse('QH'), confidence=0.998, ...)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from shoe.cards import Card, Rank, Suit
from vision.courtcards import REFUTED_BY_COUNTER, SURE_CORNER, weigh_counter, weigh_picture
from vision.crosscheck import Middle, cap_rank, cap_suit, check, look_at_middle
from vision.glyphs import BLACK_SHARE, GlyphNet, black_suit_evidence, weigh_black_suits
from vision.hearts import red_suit_log_odds, red_suits_torn, weigh_red_suits
from vision.indexnet import (
    CORNER_H,
    CORNER_W,
    RANK_CLASSES,
    SUIT_CLASSES,
    IndexNet,
    corner_patches,
    normalise_patch,
)
from vision.indices import IndexBlobs, find_indices, index_near_edge, rank_encloses_counter
from vision.locate import SHORTEST_OUTLINE, locate, look_deeper
from vision.pipcount import PipCounts, counts_exactly, pip_places
from vision.printstate import SHARP_ENOUGH, dimmed_corners, print_blur
from vision.quad import CardQuad, corners, straighten, within_margin
from vision.reading import ACCEPT_THRESHOLD, ModelError, Reading
from vision.unturned import TURNED_PAIR, TurnedBack, check_unturned, turned_witness, unseen

if TYPE_CHECKING:
    from vision.profile import ProfileReader

__all__ = ["CornerReader", "ModelError", "load_reader"]

#: An outline wider than this for its height is a part of the card, its top or its foot cut
#: off: the widest deck's cards are 0.75 wide for their height (kde-penguins; most are
#: 0.64-0.72), and the box's lips only hide some of a card's width. Cut off at the dealer's
#: thumb, a big-indexed JD was located 0.83 as wide as high; straightened, its corner held the
#: J alone, its diamond pushed below it, and it was read as JH at 0.932.
SQUATTEST_OUTLINE = 0.8
_SPADES, _HEARTS, _DIAMONDS, _CLUBS = (SUIT_CLASSES.index(s) for s in
                                       (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS))

#: The margin of its own paper (a share of each side) the card is shrunk within for the
#: network's second look at a reading that is not sure (:func:`vision.quad.within_margin`):
#: an index printed close to the card's edge, or come close to the outline where the box's
#: lips hide the edge, then stands where the network learned indices (kde-penguins' Q,
#: printed 0.012 of the card's height from its top, was held at 0.72 with "no index" at
#: 0.32 in one corner; within the margin it was read at 0.997).
MARGIN = 0.02
#: An index printed so near the edge that its print runs into it is lost to the glyph
#: search too; the network then doubts in one corner that there is an index at all
#: (kde-penguins' Q: "no index" at 0.06-0.44 in a corner reading Q otherwise). A corner
#: doubting so much, where both name the same rank, is looked at within a margin too; the
#: foreign letters confirmed wrongly showed "no index" at 0.01 at most.
INDEX_DOUBT = 0.05

class CornerReader:
    """Reads any standard-indexed deck with no setup (a :class:`~vision.reading.Reader`)."""

    def __init__(self, net: IndexNet | None = None, glyphs: GlyphNet | None = None,
                 pips: PipCounts | None = None) -> None:
        self._net = net or IndexNet.load()
        self._glyphs = glyphs or GlyphNet.load()
        self._pips = pips or PipCounts.load()

    def read(self, frame: np.ndarray) -> Reading:
        """Locate, straighten and read the card in a BGR frame. A reading held only because
        its corners disagree looks again, at the outline searched deeper into the card."""
        quad = locate(frame)
        if quad is None:
            return Reading(None, 0.0)
        # An outline shorter than the camera's mount makes any card, or squatter than any
        # card is, is a part of one.
        short = quad.height < SHORTEST_OUTLINE * frame.shape[0]
        squat = quad.width > SQUATTEST_OUTLINE * quad.height
        doubtful = quad.fitted or short or squat
        card = straighten(frame, quad)
        first = self._read_card(card, doubtful, squat)
        if first.reading.is_sure or first.held:
            return first.reading
        reading = first.reading
        if first.torn:
            reading = self._look_deeper(frame, quad, reading)
            # Where a corner names the rank surely, the other's doubt may be the outline's
            # too: a pixel off the card there, it shows the box's dark edge beside the
            # index, which the network took for print (orell's Q read as a 10, the edge
            # for its 1). The look within a margin follows. Only then: foreign letters torn
            # with no corner sure (a D read as 10, an F as K) were read surely so.
            if reading.is_sure or first.rank_in_a_corner < SURE_CORNER:
                return reading
        # Nor where the light leaves the ink's colour in doubt (_Look.colour_unsure).
        if reading.card is None or (first.colour_unsure and dimmed_corners(card)):
            return reading
        # The first look's glyph search, where it ran, is not run again.
        if (not first.torn and first.index_doubt < INDEX_DOUBT
                and not index_near_edge(first.indices or find_indices(card))):
            return reading
        # Nothing held the reading, but an index stands nearer the card's edge than the
        # network learned, or one corner is sure of the rank and the other torn from it:
        # it reads the corners again within a margin.
        again = self._read_card(card, doubtful, squat, MARGIN)
        return _confirmed(reading, again) if again.reading.is_sure else reading

    def _look_deeper(self, frame: np.ndarray, quad: CardQuad, reading: Reading) -> Reading:
        """The reading, or a surer one of the same card where the corners disagree."""
        # The corners disagree: a side of the outline may lie out on a reflection beside the
        # card, which puts that corner's index where the network misreads it.
        deeper = look_deeper(frame, quad)
        if deeper is None:
            return reading
        return _confirmed(reading, self._read_card(straighten(frame, deeper), False))

    def read_card(self, card: np.ndarray, fitted: bool = False) -> Reading:
        """Read a card already straightened to CARD_H x CARD_W (``fitted``: from an outline
        fitted to the hull of its region, :attr:`vision.quad.CardQuad.fitted`)."""
        return self._read_card(card, fitted).reading

    def _read_card(self, card: np.ndarray, doubtful: bool, squat: bool = False,
                   margin: float = 0.0) -> _Look:
        """The reading, and how it came (:class:`_Look`). ``doubtful``: the outline may be
        off the card; ``squat``: it is a part of one, too squat for a card; ``margin``: the
        index network reads the card shrunk within so much of its paper
        (:func:`vision.quad.within_margin`), the rest of the reader the card as it is."""
        ranks, suits = self._net.probabilities(
            corner_patches(within_margin(card, margin) if margin else card))
        # A number card's pips, counted in the middle, witness its rank; a court card's
        # picture, that it is no number.
        middle = look_at_middle(card)

        def weighed(voters: np.ndarray, counter: bool = False) -> np.ndarray:
            return weigh_picture(self._pips.weigh(corner_vote(voters), middle), middle, ranks,
                                 counter)

        voters = ranks
        rank_p = weighed(voters)
        rank_i = int(rank_p.argmax())
        turned, alone = None, None
        if RANK_CLASSES[rank_i] is not None and rank_p[rank_i] < ACCEPT_THRESHOLD:
            # A corner with a lower index printed unturned may vote against the other: where
            # it names the other's rank once turned back, the other speaks alone.
            turned, alone = turned_witness(self._sure_rank, card, ranks, rank_i)
            if alone is not None:
                voters = ranks[[alone]]
                rank_p = weighed(voters)
                rank_i = int(rank_p.argmax())
        indices = None if turned is None else turned.indices
        # A rank still unsure may be a Q torn with a J or a K, or with a number: a counter in
        # the rank's print weighs against those, the numbers where the middle is a picture.
        if RANK_CLASSES[rank_i] is not None and rank_p[rank_i] < ACCEPT_THRESHOLD:
            indices = indices or find_indices(card)
            if any(map(rank_encloses_counter, indices)):
                rank_p = weigh_counter(weighed(voters, counter=True))
                rank_i = int(rank_p.argmax())
        rank = RANK_CLASSES[rank_i]
        rank_conf = float(rank_p[rank_i]) if rank is not None else 0.0
        shows = _shows_index(ranks)
        suit_p = ((shows / shows.sum())[:, None] * suits).sum(axis=0)
        # A heart or a diamond the network is torn on: the glyphs under the indices weigh in.
        if red_suits_torn(suit_p[_HEARTS], suit_p[_DIAMONDS]):
            indices = indices or find_indices(card)
            suit_p = weigh_red_suits(suit_p, _HEARTS, _DIAMONDS, red_suit_log_odds(indices))
        # Black ink: the glyphs cut out alone weigh spades against clubs.
        evidence = None
        if rank is not None and suit_p[_SPADES] + suit_p[_CLUBS] >= BLACK_SHARE:
            indices = indices or find_indices(card)
            evidence = black_suit_evidence(card, self._glyphs, rank, indices)
            # The glyphs decide only on print as sharp as they learned from: out of focus
            # past RIG.md's range a club's corner glyphs ran together into spades, and a
            # kde-jolly-royal AC that the network leaned to as a club (0.63) was read
            # surely as AS (0.999). On blurred print the network must be sure of the suit
            # itself, and the glyphs only confirm it (vision.crosscheck).
            leans_club = suit_p[_CLUBS] > suit_p[_SPADES]
            sure = max(suit_p[_CLUBS], suit_p[_SPADES]) >= ACCEPT_THRESHOLD
            if evidence.says and ((sure and (evidence.total > 0) == leans_club)
                                  or print_blur(card) <= SHARP_ENOUGH):
                suit_p = weigh_black_suits(suit_p, _SPADES, _CLUBS, evidence)
            elif not evidence.says and print_blur(card) <= SHARP_ENOUGH:
                # Short of saying a suit, both corners' glyphs leaning to the network's
                # suit, none against, second it on sharp print: plastic's spade, drawn with
                # a spike atop, left both unsure (its court spades held at 0.80-0.90, the
                # glyphs' log-odds 1.2-3.9). Over 27 040 hard frames this read 22 of its
                # frames and changed no other (docs/READER.md, the suit glyphs).
                suit_p = weigh_black_suits(suit_p, _SPADES, _CLUBS, evidence, seconding=True)
        suit_i = int(suit_p.argmax())
        red = float(suit_p[_HEARTS] + suit_p[_DIAMONDS])
        colour_unsure = max(red, 1.0 - red) < ACCEPT_THRESHOLD
        suit = SUIT_CLASSES[suit_i]
        # The suit only counts where there is an index to read it from.
        suit_conf = float(suit_p[suit_i]) * (1.0 - float(rank_p[-1]))
        if rank is None:
            return _Look(Reading(None, 0.0, None, suit, 0.0, suit_conf), False, False, 1.0)
        confidence = rank_conf * suit_conf
        reading = Reading(Card(rank, suit), confidence, rank, suit, rank_conf, suit_conf)
        one_index = bool(unseen(ranks))  # a corner shows no index
        if indices is None and one_index and reading.rank_confidence >= ACCEPT_THRESHOLD:
            indices = find_indices(card)  # once, for the checks and the corner turned back
        # The small index may be misread surely (a foreign letter taken for a numeral, a
        # club taken for a spade); the card's middle, picture or pips, and the suit glyphs
        # cut out alone may hold the reading.
        checked = check(reading, card, self._glyphs, middle, indices, evidence)
        if turned is None and indices is not None:
            turned = TurnedBack(self._sure_rank, card, unseen(ranks), indices)
        # The pips' places pick only between ranks the index weighs; a number the index is
        # sure of, with a pip where that rank's layout never puts one, is held instead (a
        # turned 6 was read as 9 at 0.89 with a pip at mid-height in a side column).
        if Rank.TWO <= rank <= Rank.TEN and not self._pips.layout_fits(rank, middle):
            checked = cap_rank(checked)
        # No court card shows a lone pip at its centre; an ace does (ancient_french's aces,
        # indexed "1", were read as J at up to 0.994). Not elsewhere: a court card's picture
        # run into the thumb over it may leave its crown as a lone blob of pip size.
        if rank >= Rank.JACK and "centre-middle" in pip_places(middle):
            checked = cap_rank(checked)
        # A doubtful outline (fitted to the hull, too short or too squat for a card, or one
        # that took in the box, which then shows across the middle) that leaves one index
        # off the card lies off at that corner, and may cut the other index too: a
        # kde-penguins 8S under the thumb, its top index cut by the outline's side, was read
        # as 9S at 0.99 from that one corner; past RIG.md's colour range an npm QH, located
        # with the box's wood below it, as 10H at 0.996 from its upper corner.
        if (doubtful or middle.banded) and one_index:
            # Not where that corner shows an index printed unturned that, turned back, names
            # the rank surely: the outline holds both indices (a kde-ancient-egyptians 2D,
            # its outline fitted to the hull, was held with both its corners on the card).
            if turned is None or not turned.names(rank):
                checked = cap_rank(checked)
            # Straightened to a card's shape, a squat outline stretches the index lengthwise:
            # heruka-2color-bf's (npm) big J filled the corner, its diamond pushed out of it,
            # and the suit was read as a heart at 0.93.
            if squat:
                checked = cap_suit(checked)
        # The rank is checked wherever it is sure, the card held or not: the audit counts it
        # on its own confidence.
        if checked.rank_confidence >= ACCEPT_THRESHOLD and one_index:
            assert turned is not None  # indices found above: a check only lowers a reading
            checked = check_unturned(turned, checked)
        disagree = int(ranks[0].argmax()) != int(ranks[1].argmax())
        # Two corners that each name a rank (at 0.5 or more), but not the same one, leave
        # the reading to the pips; it stands only where they count its rank exactly (a court
        # card's never does). A kde-ancient-egyptians 9C, its lower index upright, was read
        # as 10 in one corner and 6 in the other: its nine pips made a sure 10C (0.98) of it.
        named = bool((ranks[:, :-1].max(axis=1) >= 0.5).all())
        # Where they name a 6 and a 9, one index was read the wrong way up (a deck printing
        # its lower index unturned), and where the pips stand may settle which: that deck's
        # 9C, its lower index read as 6 and one pip unseen, stood held at 0.85.
        # (Not where the other corner, turned back, named the rank: its index is on its head.)
        # (Nor where the corner that names another rank is refuted by its own print's
        # counter: orell's QH, read as J at 0.55 in one corner, its Q's bowl closed there.)
        unsettled = (disagree and named and alone is None and not counts_exactly(rank, middle)
                     and not self._one_index_turned(ranks, rank, middle)
                     and not _counter_refutes(ranks, rank, indices))
        # A reading a check held stays held: past RIG.md's ranges a shaken 6C read as 5 and
        # held for a pip where no 5 has one was read as 5C at 0.999 from a second outline,
        # 3 px off, where the pips' places said nothing. Held, even where the cap left the
        # confidence as it was: a bellot 3C, its rank capped (one corner through an outline
        # fitted to the hull, the 3 cut), was read as JC at 0.94 from the second outline.
        torn = disagree and checked == reading
        return _Look(cap_rank(checked) if unsettled else checked, torn, checked != reading,
                     float(ranks[:, -1].max()), indices, colour_unsure,
                     float(ranks[:, rank_i].max()))

    def _one_index_turned(self, ranks: np.ndarray, rank: Rank, middle: Middle) -> bool:
        """Whether the corners name a 6 and a 9, each the other's numeral turned half round
        (one index read the wrong way up), and the pips stand where ``rank``'s do and where
        the other's never do."""
        named = {Rank(int(i) + 1) for i in ranks[:, :-1].argmax(axis=1)}
        if named != set(TURNED_PAIR) or rank not in named:
            return False
        (other,) = named - {rank}
        return (self._pips.layout_fits(rank, middle)
                and not self._pips.layout_fits(other, middle))

    def _sure_rank(self, card: np.ndarray, corner: int) -> Rank | None:
        """The rank the network names at the accept threshold in one corner, if any."""
        patch = normalise_patch(corners(card, CORNER_W, CORNER_H)[corner])
        ranks, _ = self._net.probabilities(patch[None])
        rank_i = int(ranks[0].argmax())
        return RANK_CLASSES[rank_i] if ranks[0, rank_i] >= ACCEPT_THRESHOLD else None


class _Look(NamedTuple):
    """A reading of one straightened card, and how it came."""

    reading: Reading
    #: The two corners' likeliest classes ("no index" among them) differ while no check
    #: holds the reading: what an outline with one side off the card leaves
    #: (:func:`vision.locate.look_deeper`).
    torn: bool
    #: A check held the reading below what the index said.
    held: bool
    #: The likelier of the two corners to show no index, as the network sees them.
    index_doubt: float
    #: The index corners' glyphs (:func:`vision.indices.find_indices`), where the reading
    #: needed them.
    indices: tuple[IndexBlobs | None, IndexBlobs | None] | None = None
    #: Whether the ink is red or black is itself unsure. Where the light dims a channel of
    #: the paper (vision.printstate.dimmed_corners), that is a doubt of the light, which the
    #: look within a margin does not answer (the same light falls within it): under candle
    #: light (past RIG.md's colour range) tango's 10S, its 10 sure and its suit torn between
    #: a spade and a diamond, was read there as 10D at 0.92-0.98, and plastic's 7S as 7D at
    #: 0.93. Elsewhere it may be the print's (a four-colour deck's green club), and a heart
    #: torn with a diamond is another matter: the margin may settle those.
    colour_unsure: bool = False
    #: The surer of the two corners that the rank read is the card's, as the network sees
    #: them.
    rank_in_a_corner: float = 0.0


def corner_vote(ranks: np.ndarray) -> np.ndarray:
    """The rank probabilities (the 13 ranks, then "no index") of the corners' rows together.

    Each corner counts as far as it shows an index at all: a corner under a thumb or a
    glare says "no index", which is no vote against the other corner. Corners that both
    show an index are averaged (not multiplied): when they disagree, the confidence drops
    instead of one of them winning.
    """
    shows = _shows_index(ranks)
    weights = shows / shows.sum()
    given_index = ranks[:, :-1] / shows[:, None]  # each corner's rank, if it has an index
    none = float(ranks[:, -1].min())  # there is an index if either corner shows one
    return np.append((1.0 - none) * (weights[:, None] * given_index).sum(axis=0), none)


def _shows_index(ranks: np.ndarray) -> np.ndarray:
    """How far each corner shows an index at all (its rank probabilities' complement of "no
    index"), never quite nought: its weight in the corners' vote on rank and suit."""
    return np.maximum(1.0 - ranks[:, -1], 1e-9)


def _counter_refutes(ranks: np.ndarray, rank: Rank,
                     indices: tuple[IndexBlobs | None, IndexBlobs | None] | None) -> bool:
    """Whether the reading is a queen and each corner (a row of ``ranks``) that names another
    rank names one whose print seldom or never closes a counter across its middle
    (:data:`vision.courtcards.REFUTED_BY_COUNTER`) while the print there does
    (:func:`vision.indices.rank_encloses_counter`, on the corners' ``indices``)."""
    if rank != Rank.QUEEN or indices is None:
        return False
    named = [RANK_CLASSES[int(i)] for i in ranks.argmax(axis=1)]
    return all(other == rank
               or (other in REFUTED_BY_COUNTER and rank_encloses_counter(found))
               for other, found in zip(named, indices, strict=True))


def _confirmed(reading: Reading, again: _Look) -> Reading:
    """The reading, or a second look's where it names the same card more surely with the
    corners agreeing.

    The second look only confirms the card the first one leaned to. Allowed to name
    another, it read two cards surely wrong past RIG.md's colour range (an 8C as 4C at
    0.97, a QC as QS at 0.91, among 1 352 frames): the better of two readings is a second
    chance for a misreading. And only where it mends the corners: with one corner still
    showing no index, a bellot 6S read as 10 from the other corner went from 0.83 to 0.885
    (the dealer's thumb over the card's foot).
    """
    mended = again.reading.card == reading.card and not again.torn
    if mended and again.reading.confidence > reading.confidence:
        return again.reading
    return reading


def load_reader(profile: str | None = None) -> CornerReader | ProfileReader:
    """The zero-shot reader, or the reader of a learned deck profile (a path).

    Raises :class:`~vision.stored.ProfileError` for a profile that cannot be used.
    """
    if profile is None:
        return CornerReader()
    from vision.profile import ProfileReader
    from vision.stored import DeckProfile

    return ProfileReader(DeckProfile.load(profile))
