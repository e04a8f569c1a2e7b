"""Rest and change detection on simulated deals: one new-card rest per card dealt."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from shoe.cards import FULL_DECK, Card
from vision.motion import MotionDetector, RestEnded, RestStarted, iter_rests
from vision.simulator import CardTruth, DealTiming, SimulatedShoe
from vision.window import Window

Faces = Callable[..., dict[Card, np.ndarray]]
Frames = Iterator[tuple[float, np.ndarray]]


def shuffled(seed: int, n: int) -> list[Card]:
    rng = np.random.default_rng(seed)
    return [FULL_DECK[i] for i in rng.permutation(52)[:n]]


def card_in_view(truth: tuple[CardTruth, ...], t: float) -> int:
    """The newest card showing at ``t`` (the one beneath, once the top one starts moving)."""
    return max(c.index for c in truth if c.shown_at <= t)


def new_card_times(frames: Frames) -> list[float]:
    detector = MotionDetector()
    times = []
    for t, frame in frames:
        event = detector.update(t, frame)
        if isinstance(event, RestStarted) and event.new_card:
            times.append(event.t)
    return times


def assert_one_rest_per_card(times: list[float], truth: tuple[CardTruth, ...]) -> None:
    cards = [card_in_view(truth, t) for t in times]
    assert cards == list(range(len(truth))), f"new-card rests at {times} show cards {cards}"


def deal(faces: dict[Card, np.ndarray], cards: list[Card], seed: int,
         timing: DealTiming) -> SimulatedShoe:
    return SimulatedShoe([faces[c] for c in cards], seed=seed, timing=timing)


@pytest.mark.parametrize(("deck", "seed"), [("anglo", 11), ("tango", 12)])
def test_a_fast_dealer_gives_one_new_rest_per_card(deck_faces: Faces, deck: str,
                                                   seed: int) -> None:
    shoe = deal(deck_faces(deck, 350, alpha=True), shuffled(seed, 12), seed, DealTiming.fast())
    assert_one_rest_per_card(new_card_times(shoe.frames(30.0)), shoe.truth)


def test_identical_consecutive_faces_are_counted_by_the_motion(deck_faces: Faces) -> None:
    faces = deck_faces("anglo", 350, alpha=True)
    cards = [Card.parse("AS")] * 5 + [Card.parse("KH")] * 5
    shoe = deal(faces, cards, 21, DealTiming.fast())
    assert_one_rest_per_card(new_card_times(shoe.frames(30.0)), shoe.truth)


def test_fifth_of_a_second_rests_are_not_missed(deck_faces: Faces) -> None:
    timing = DealTiming(rest_s=(0.2, 0.21), long_pause_p=0.0, reach_s=(0.08, 0.1),
                        slide_s=(0.1, 0.12), retract_s=(0.05, 0.08))
    shoe = deal(deck_faces("anglo", 350, alpha=True), shuffled(31, 10), 31, timing)
    assert_one_rest_per_card(new_card_times(shoe.frames(30.0)), shoe.truth)


def flickering(frames: Frames, seed: int) -> Frames:
    """The lamp flickers and the sensor's gain hunts: every frame 0.8–1.1 as bright."""
    rng = np.random.default_rng(seed)
    for t, frame in frames:
        yield t, cv2.convertScaleAbs(frame, alpha=float(rng.uniform(0.8, 1.1)))


def with_hovering_hand(frames: Frames, during: tuple[float, float]) -> Frames:
    """A player's hand comes in over the bottom of the card and goes again."""
    start, end = during
    for t, frame in frames:
        if start <= t <= end:
            u = (t - start) / (end - start)
            reach = int(frame.shape[0] * (1.0 - 0.45 * np.sin(np.pi * u)))
            frame = frame.copy()
            cv2.ellipse(frame, (frame.shape[1] // 2, reach + 60), (70, 110), 0, 0, 360,
                        (110, 140, 190), -1)
        yield t, frame


def test_long_rests_with_flicker_and_a_hovering_hand_are_one_card_each(
    deck_faces: Faces,
) -> None:
    timing = DealTiming(rest_s=(2.0, 2.5), long_pause_p=0.0)
    shoe = deal(deck_faces("anglo", 350, alpha=True), shuffled(41, 4), 41, timing)
    rest = shoe.truth[1].rest
    hover = (rest[0] + 0.4, rest[0] + 1.4)
    frames = with_hovering_hand(flickering(shoe.frames(30.0), 41), hover)
    detector = MotionDetector()
    news, disturbed = [], []
    for t, frame in frames:
        event = detector.update(t, frame)
        if isinstance(event, RestStarted) and event.new_card:
            news.append(event.t)
        if isinstance(event, RestEnded):
            disturbed.append(t)
    assert_one_rest_per_card(news, shoe.truth)
    # The hand was seen (a rest ended while it came), and not taken for a new card.
    assert any(hover[0] <= t <= hover[1] for t in disturbed)


def test_the_window_is_found_around_the_card_at_rest(deck_faces: Faces) -> None:
    shoe = deal(deck_faces("anglo", 350, alpha=True), shuffled(51, 2), 51, DealTiming.fast())
    frame = shoe.frame_at(0.1)
    window = Window.find(frame)
    assert window is not None
    corners = shoe.scene.card_corners()
    x0, y0 = corners.min(axis=0)
    x1, y1 = corners.max(axis=0)
    assert x0 - 2 <= window.x and window.x + window.w <= x1 + 2
    assert y0 - 2 <= window.y and window.y + window.h <= y1 + 2
    assert window.w * window.h >= 0.6 * (x1 - x0) * (y1 - y0)


def test_iter_rests_yields_each_card_with_still_frames(simulated_deal_video: object) -> None:
    video = simulated_deal_video
    path: Path = video.path  # type: ignore[attr-defined]
    truth: tuple[CardTruth, ...] = video.truth  # type: ignore[attr-defined]
    capture = cv2.VideoCapture(str(path))

    def frames() -> Frames:
        index = 0
        while True:
            ok, frame = capture.read()
            if not ok:
                return
            yield index / 30.0, frame
            index += 1

    rests = list(iter_rests(frames(), keep=3))
    assert [r.number for r in rests] == list(range(len(truth)))
    assert [card_in_view(truth, r.t_start) for r in rests] == list(range(len(truth)))
    for rest in rests:
        assert 1 <= len(rest.frames) <= 3
        assert rest.start <= rest.end
        assert rest.frames[0].shape == (480, 640, 3)


def test_a_face_change_counts_on_either_diagonal_but_not_one_side() -> None:
    from vision.motion import _face_change

    changed = np.zeros((48, 36), bool)
    changed[:12, -10:] = changed[-12:, :10] = True  # a rank printed top right (and turned)
    assert _face_change(changed) > 0.9
    changed[:] = False
    changed[:12, -10:] = changed[-12:, -10:] = True  # a thumb along the right-hand side
    assert _face_change(changed) == 0.0
