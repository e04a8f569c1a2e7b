"""The vote over a card's frames, and the tracker on simulated deals with the real reader."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from shoe.cards import Card, Rank, Suit
from shoe.commands.read import open_video
from vision.exposures import BeamCheck, ExposureResult, ExposureTracker, track
from vision.light import GLARE_WARNING
from vision.reader import load_reader
from vision.reading import ACCEPT_THRESHOLD, Reader, Reading
from vision.simulator import DealTiming, SceneParams, SimulatedShoe
from vision.vote import UNSURE_CAP, vote

from learning_pass import DEV_DECK

QH = Card.parse("QH")
QS = Card.parse("QS")
KH = Card.parse("KH")


def sure(card: Card, confidence: float = 0.97) -> Reading:
    return Reading(card, confidence, card.rank, card.suit, confidence, confidence)


ABSTAIN = Reading(None, 0.0)


def test_agreeing_sure_frames_give_a_sure_card() -> None:
    result = vote([sure(QH), sure(QH, 0.95), sure(QH, 0.99)])
    assert result.card == QH
    assert result.is_sure
    assert result.confidence >= ACCEPT_THRESHOLD
    assert (result.rank, result.suit) == (Rank.QUEEN, Suit.HEARTS)


def test_one_sure_frame_is_not_enough_to_be_sure() -> None:
    result = vote([sure(QH)])
    assert result.card == QH
    assert not result.is_sure
    assert result.confidence <= UNSURE_CAP


def test_a_weaker_frame_of_the_same_card_does_not_count_against_it() -> None:
    result = vote([sure(QH, 0.68), sure(QH, 1.0), sure(QH, 0.99)])
    assert result.card == QH
    assert result.is_sure


def test_a_card_most_frames_are_unsure_of_stays_unsure() -> None:
    result = vote([sure(QH, 0.83), sure(QH, 0.81), sure(QH, 0.82), sure(QH), sure(QH)])
    assert result.card == QH
    assert not result.is_sure


def test_abstaining_frames_do_not_count_against_the_card() -> None:
    result = vote([ABSTAIN, sure(QH), ABSTAIN, sure(QH)])
    assert result.card == QH
    assert result.is_sure


def test_a_sure_frame_naming_another_card_makes_the_vote_unsure() -> None:
    result = vote([sure(QH), sure(QH), sure(QH), sure(KH)])
    assert result.card == QH
    assert not result.is_sure
    assert result.confidence < ACCEPT_THRESHOLD


def test_frames_split_between_two_cards_abstain() -> None:
    result = vote([sure(QH), sure(KH), sure(QH), sure(KH)])
    assert result.card is None
    assert result.confidence == 0.0
    # They agree on the suit, so the audit still gets it.
    assert result.suit is Suit.HEARTS
    assert result.rank is None


def test_a_sure_leader_over_unsure_dissent_is_offered_but_not_sure() -> None:
    result = vote([sure(QH, 0.66), sure(QH, 0.86), sure(QS, 1.0), sure(QS, 1.0), sure(QS, 1.0)])
    assert result.card == QS
    assert not result.is_sure


def test_unsure_frames_stay_unsure_however_many() -> None:
    result = vote([sure(QH, 0.6)] * 6)
    assert result.card == QH
    assert not result.is_sure


def test_no_frames_or_only_abstentions_abstain() -> None:
    assert vote([]).card is None
    assert vote([ABSTAIN, ABSTAIN]).card is None


def test_rank_is_kept_when_frames_disagree_on_the_suit() -> None:
    result = vote([sure(QH), sure(QS), sure(QH), sure(QS)])
    assert result.card is None
    assert result.rank is Rank.QUEEN


# -- the tracker on a simulated deal video, with the real zero-shot reader ------------------

@pytest.fixture(scope="module")
def reader() -> Reader:
    return load_reader()


def run_tracker(video: Any, reader: Reader, beams: list[float] | None) -> list[ExposureResult]:
    tracker = ExposureTracker(reader, has_beam=beams is not None)
    return list(track(open_video(video.path), tracker, beams or ()))


def leaves(video: Any) -> list[float]:
    return [c.leaves_at for c in video.truth if c.leaves_at is not None]


def assert_never_wrong(results: list[ExposureResult], cards: tuple[Card, ...]) -> None:
    for result, card in zip(results, cards, strict=True):
        if result.is_sure:
            assert result.reading.card == card, f"exposure {result.number} read wrong"


def test_each_card_of_a_deal_is_read_once_even_twice_the_same_look(
    simulated_deal_video: Any, reader: Reader
) -> None:
    results = run_tracker(simulated_deal_video, reader, None)
    cards = simulated_deal_video.cards  # QD twice in a row: only the motion tells them apart
    assert [r.number for r in results] == list(range(len(cards)))
    assert all(r.beam is BeamCheck.NO_BEAM for r in results)
    assert_never_wrong(results, cards)
    assert sum(r.is_sure for r in results) >= len(cards) - 2
    for result in results:
        assert len(result.votes) >= 2 and len(result.frames) == len(result.votes)
        assert result.t_rest is not None and result.t_rest <= result.t_done


def test_with_the_beam_every_card_agrees(simulated_deal_video: Any, reader: Reader) -> None:
    results = run_tracker(simulated_deal_video, reader, leaves(simulated_deal_video))
    assert len(results) == len(simulated_deal_video.cards)
    assert all(r.beam is BeamCheck.AGREED for r in results)
    assert_never_wrong(results, simulated_deal_video.cards)


def test_a_card_the_beam_missed_is_flagged_not_dropped(
    simulated_deal_video: Any, reader: Reader
) -> None:
    beams = leaves(simulated_deal_video)
    del beams[3]  # the beam did not see card 3 leave: card 4 came unannounced
    results = run_tracker(simulated_deal_video, reader, beams)
    assert len(results) == len(simulated_deal_video.cards)
    assert [r.number for r in results if r.beam is not BeamCheck.AGREED] == [4]
    assert results[4].beam is BeamCheck.VISION_ONLY
    assert not results[4].is_sure and results[4].problem is not None


def test_a_beam_while_nothing_moves_is_an_unread_flagged_exposure(
    simulated_deal_video: Any, reader: Reader
) -> None:
    start, end = simulated_deal_video.truth[-1].rest  # the last card lies a whole second
    assert end - start >= 0.95
    beams = [*leaves(simulated_deal_video), start + 0.5]
    results = run_tracker(simulated_deal_video, reader, beams)
    flagged = [r for r in results if r.beam is BeamCheck.BEAM_ONLY]
    assert len(results) == len(simulated_deal_video.cards) + 1
    assert len(flagged) == 1 and not flagged[0].is_sure
    assert flagged[0] is results[-1] and flagged[0].reading.card is None


def test_two_beams_in_one_slide_give_an_unseen_card_before_the_next(
    simulated_deal_video: Any, reader: Reader
) -> None:
    beams = leaves(simulated_deal_video)
    beams.insert(2, beams[2] - 0.05)  # two cards left together: one never lay in view
    results = run_tracker(simulated_deal_video, reader, beams)
    assert len(results) == len(simulated_deal_video.cards) + 1
    unseen = results[3]
    assert unseen.beam is BeamCheck.BEAM_ONLY and unseen.reading.card is None
    assert unseen.t_rest is None and not unseen.frames
    assert_never_wrong(results[:3] + results[4:], simulated_deal_video.cards)


class _ThumbLingering:
    """The real reader, as unsure as under a thumb lingering over the card (0.46) on the
    first two frames it reads of each card. It is told each frame's number as it is fed."""

    def __init__(self, reader: Reader) -> None:
        self.reader, self.frame_number, self.last_read, self.streak = reader, 0, -100, 0

    def frames(self, video: Any) -> Iterator[tuple[float, np.ndarray]]:
        for number, (t, frame) in enumerate(open_video(video.path)):
            self.frame_number = number
            yield t, frame

    def read(self, frame: np.ndarray) -> Reading:
        # One card's reads come 2-3 frames apart; the next card comes a slide later.
        self.streak = 0 if self.frame_number - self.last_read > 6 else self.streak + 1
        self.last_read = self.frame_number
        reading = self.reader.read(frame)
        if self.streak >= 2:
            return reading
        return replace(reading, confidence=min(reading.confidence, 0.46))


def test_a_card_read_unsure_as_it_came_to_rest_is_read_again_until_the_vote_is_sure(
    simulated_deal_video: Any, reader: Reader
) -> None:
    # Two unsure readings and two sure ones of the same card: their median is unsure. The
    # tracker reads the card again while it rests (up to max_reads), and the vote stands.
    # A fast dealer's card that slides on first is flagged, never guessed.
    lingering = _ThumbLingering(reader)
    tracker = ExposureTracker(lingering)
    results = list(track(lingering.frames(simulated_deal_video), tracker, ()))
    assert len(results) == len(simulated_deal_video.cards)
    assert_never_wrong(results, simulated_deal_video.cards)
    read_again = [r for r in results if len(r.votes) > 4]
    assert read_again and all(r.is_sure for r in read_again)


class _NeverSure:
    """The real reader, never sure: as a card whose deciding print lies under the glare."""

    def __init__(self, reader: Reader) -> None:
        self.reader = reader

    def read(self, frame: np.ndarray) -> Reading:
        reading = self.reader.read(frame)
        return replace(reading, confidence=min(reading.confidence, 0.6))


@pytest.mark.parametrize("glare", [((0.5, 0.45, 0.2, 0.9),), ()])
def test_a_held_card_says_when_glare_shows_its_face_white(
    deck_faces: Any, reader: Reader, glare: tuple[tuple[float, float, float, float], ...]
) -> None:
    # The operator of a card held on every frame hears of a lamp whose reflection shows
    # part of the card white (vision.light): correcting card after card would not help.
    # Number cards: on a court card's picture the same spot brightens the print but does not
    # clip it white (a QD and a KC under it measured 0.2-0.9% of the face).
    faces = deck_faces(DEV_DECK, 350, alpha=True)
    cards = [Card.parse(c) for c in ("7S", "9D", "3H")]
    params = replace(SceneParams.random(np.random.default_rng(8), "normal"), glare=glare)
    shoe = SimulatedShoe([faces[c] for c in cards], seed=8, params=params,
                         timing=DealTiming.fast())
    results = list(track(shoe.frames(30.0), ExposureTracker(_NeverSure(reader)), ()))
    assert len(results) == len(cards) and not any(r.is_sure for r in results)
    for result in results:
        assert result.problem is not None and result.problem.startswith(("unsure", "unread"))
        if glare:
            assert result.shown_white is not None and result.shown_white >= GLARE_WARNING
            assert result.problem.endswith("of the card's face white: print there goes "
                                           "unread; angle or dim the light")
        else:
            assert result.shown_white is not None and result.shown_white < GLARE_WARNING
            assert "glare" not in result.problem
