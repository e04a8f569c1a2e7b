"""The camera-in-box simulator: frames within RIG.md's ranges, deals with consistent ground
truth, reproducible, and real video files that OpenCV reads back."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from shoe.cards import Card
from vision.indices import find_indices
from vision.quad import CARD_H
from vision.scene import Scene, SceneParams
from vision.sceneparams import parse_frame_size
from vision.simulator import (
    DealScript,
    DealTiming,
    SimulatedShoe,
    VideoWriteError,
    write_video,
)
from vision.stills import StillCamera, Thumb, nearer_edge, render_frame

from .conftest import SimulatedDealVideo
from straightened import flat

Faces = Callable[..., dict[Card, np.ndarray]]


def _mean_abs_diff(a: np.ndarray, b: np.ndarray) -> float:
    return float(cv2.absdiff(a, b).mean())


def test_random_params_cover_the_rigs_ranges_and_stay_within_them() -> None:
    rng = np.random.default_rng(0)
    many = [SceneParams.random(rng, "hard") for _ in range(400)]

    def spread(values: list[float]) -> tuple[float, float]:
        return min(values), max(values)

    rot = spread([p.rotation_deg for p in many])
    tilt = spread([t for p in many for t in p.tilt_deg])
    lips = spread([m for p in many for m in p.lips_mm])
    kelvin = spread([p.colour_temp_k for p in many])
    fill = spread([p.card_height_frac for p in many])
    assert -6 <= rot[0] < -5 and 5 < rot[1] <= 6
    assert -10 <= tilt[0] < -9 and 9 < tilt[1] <= 10
    assert 0 <= lips[0] < 0.2 and 2.8 < lips[1] <= 3
    assert 2700 <= kelvin[0] < 2900 and 6200 < kelvin[1] <= 6500
    assert 0.55 <= fill[0] < 0.58 and 0.87 < fill[1] <= 0.9
    assert {p.upside_down for p in many} == {True, False}
    assert any(p.glare for p in many) and any(not p.glare for p in many)
    assert any(p.reflection > 0 for p in many)
    assert any(p.jpeg_quality is None for p in many) and min(
        p.jpeg_quality or 100 for p in many) <= 50
    assert max(p.noise_sigma for p in many) > 8
    assert 0.8 <= min(p.gamma for p in many) < 0.85 and 1.2 < max(p.gamma for p in many) <= 1.25
    assert any(p.sharpen > 0 for p in many) and any(p.sharpen == 0 for p in many)
    assert 0.11 < max(p.barrel for p in many) <= 0.12 and any(p.barrel == 0 for p in many)


def _card_outline(scene: Scene) -> np.ndarray:
    return scene.card_outline()


def test_card_fills_the_asked_share_of_the_frame_and_stays_in_view() -> None:
    rng = np.random.default_rng(1)
    for _ in range(25):
        params = SceneParams.random(rng, "hard")
        scene = Scene(params, (225, 350), rng)
        corners = _card_outline(scene)
        w, h = params.frame_size
        height = float(np.ptp(corners[:, 1])) / h
        assert height == pytest.approx(params.card_height_frac, abs=0.005)
        assert 0.55 <= height <= 0.9
        assert (corners >= 0).all() and (corners[:, 0] < w).all() and (corners[:, 1] < h).all()
        # Portrait, within ±6° of vertical: the left edge's slope stays small.
        dx, dy = scene.card_corners()[3] - scene.card_corners()[0]
        assert abs(np.degrees(np.arctan2(dx, dy))) < 6 + 10  # rotation plus perspective


def _index_box(face: np.ndarray) -> np.ndarray:
    h, w = face.shape[:2]
    return np.array([[0.04 * w, 0.03 * h], [0.17 * w, 0.03 * h], [0.17 * w, 0.24 * h],
                     [0.04 * w, 0.24 * h]], np.float32)


def test_lips_never_hide_the_corner_indices(deck_faces: Faces) -> None:
    faces = deck_faces("anglo", 350, alpha=True)
    rng = np.random.default_rng(2)
    for _ in range(8):
        params = SceneParams.random(rng, "hard")
        shoe = SimulatedShoe([faces[Card.parse("9C")]], seed=int(rng.integers(1000)),
                             params=params)
        scene = shoe.scene
        face = faces[Card.parse("9C")]
        size = np.array(face.shape[1::-1], np.float32)
        for box in (_index_box(face), size - _index_box(face)):  # top-left, bottom-right
            pts = cv2.perspectiveTransform(box[None], scene.homography)[0]
            for x, y in pts.round().astype(int):
                assert scene.window[y, x] == 255, (params, x, y)


def test_a_rendered_still_shows_the_card_at_its_size(deck_faces: Faces) -> None:
    face = deck_faces("anglo", 350, alpha=True)[Card.parse("2H")]
    rng = np.random.default_rng(3)
    for difficulty in ("easy", "normal", "hard"):
        params = SceneParams.random(rng, difficulty)  # type: ignore[arg-type]
        # A dark cloth and no bright streak on the metal: the card is the bright patch.
        params = replace(params, cloth_bgr=(40, 90, 30), reflection=0.0)
        frame = render_frame(face, params, rng)
        assert frame.shape == (480, 640, 3) and frame.dtype == np.uint8
        # The card is the big bright patch; measure its height in the picture itself.
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        bright = (grey > np.percentile(grey, 40) + 25).astype(np.uint8)
        _n, _labels, stats, _ = cv2.connectedComponentsWithStats(bright)
        biggest = stats[1:, cv2.CC_STAT_AREA].argmax() + 1
        measured = stats[biggest, cv2.CC_STAT_HEIGHT] / 480
        assert measured == pytest.approx(params.card_height_frac, abs=0.06), difficulty


def test_thumb_puts_skin_on_the_card(deck_faces: Faces) -> None:
    face = deck_faces("anglo", 350, alpha=True)[Card.parse("2S")]
    params = SceneParams(noise_sigma=0, jpeg_quality=None, skin_bgr=(90, 130, 200))
    bare = render_frame(face, params, np.random.default_rng(4))
    thumbed = render_frame(face, params, np.random.default_rng(4), thumb=Thumb(0.6, 0.6))
    changed = cv2.absdiff(bare, thumbed).max(axis=2) > 30
    assert 0.01 < changed.mean() < 0.25
    b, g, r = (thumbed[changed][:, i].astype(int) for i in range(3))
    assert (r > g).mean() > 0.9 and (g > b).mean() > 0.8


def test_warm_light_casts_red_and_cool_light_blue(deck_faces: Faces) -> None:
    face = deck_faces("anglo", 350, alpha=True)[Card.parse("AS")]
    ratios = []
    for kelvin in (2700.0, 6500.0):
        params = SceneParams(colour_temp_k=kelvin, white_balance=0.3, noise_sigma=0,
                             jpeg_quality=None, gradient=0)
        frame = render_frame(face, params, np.random.default_rng(5)).astype(float)
        centre = frame[200:280, 280:360]
        ratios.append(centre[:, :, 2].mean() / centre[:, :, 0].mean())
    assert ratios[0] > 1.3 and ratios[1] < 1.1


@pytest.mark.parametrize("angle", [0.0, 90.0])
def test_a_shaken_camera_smears_along_its_path_only(deck_faces: Faces, angle: float) -> None:
    face = deck_faces("anglo", 350, alpha=True)[Card.parse("8H")]
    params = SceneParams(noise_sigma=0, jpeg_quality=None)
    still = render_frame(face, params, np.random.default_rng(7))
    shaken = render_frame(face, replace(params, shake=(10.0, angle)), np.random.default_rng(7))

    def steepest(frame: np.ndarray, axis: int) -> float:
        """The steepest edges' step in grey from one pixel to the next along an axis."""
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32)
        return float(np.percentile(np.abs(np.diff(grey, axis=axis)), 99.5))

    along, across = (1, 0) if angle == 0 else (0, 1)
    kept = {axis: steepest(shaken, axis) / steepest(still, axis) for axis in (0, 1)}
    # Curved print (a pip's round edge) loses some steepness across the path too.
    assert kept[along] < 0.6 * kept[across]
    # Past RIG.md: a rigid mount, so a random session is never shaken.
    rng = np.random.default_rng(8)
    assert all(SceneParams.random(rng, "hard").shake == (0.0, 0.0) for _ in range(50))


def test_deal_script_times_are_consistent() -> None:
    timing = DealTiming.fast()
    script = DealScript.plan(30, np.random.default_rng(6), timing)
    cards = script.cards
    assert cards[0].rest[0] == 0 and cards[-1].slide is None and cards[-1].leaves_at is None
    for card, nxt in itertools.pairwise(cards):
        assert card.slide is not None and card.leaves_at == card.slide[1]
        assert card.rest[0] < card.rest[1] < card.slide[0] < card.slide[1] < nxt.rest[0]
        assert timing.rest_s[0] - 1e-9 <= card.rest[1] - card.rest[0] <= timing.rest_s[1]
        assert 0.1 - 1e-9 <= card.slide[1] - card.slide[0] <= 0.3
        assert nxt.shown_at == card.slide[0]
        assert np.hypot(*np.subtract(nxt.offset_px, card.offset_px)) <= 2 * timing.jitter_px
        assert max(abs(v) for v in nxt.offset_px) <= timing.jitter_px
    assert script.duration == cards[-1].rest[1]
    assert {c.upside_down for c in cards} == {True, False}


def test_pace_sets_the_cards_per_minute() -> None:
    script = DealScript.plan(40, np.random.default_rng(7), DealTiming.for_pace(30))
    per_minute = 60 * (len(script.cards) - 1) / script.cards[-1].rest[0]
    assert 24 < per_minute < 36


def test_long_pauses_happen_when_asked() -> None:
    timing = DealTiming(long_pause_p=0.5, long_pause_s=(20.0, 30.0))
    script = DealScript.plan(20, np.random.default_rng(8), timing)
    rests = [c.rest[1] - c.rest[0] for c in script.cards[:-1]]
    assert any(r >= 20 for r in rests) and any(r < 5 for r in rests)


def _shoe(faces: list[np.ndarray], seed: int = 9) -> SimulatedShoe:
    return SimulatedShoe(faces, seed=seed, timing=DealTiming.fast(),
                         params=SceneParams.random(np.random.default_rng(seed), "normal"))


def test_frames_hold_still_at_rest_and_change_when_a_card_slides(deck_faces: Faces) -> None:
    faces = deck_faces("anglo", 350, alpha=True)
    same = faces[Card.parse("QD")]
    # The same face twice in a row: only the slide shows that a new card came.
    shoe = _shoe([faces[Card.parse("KS")], same, same])
    first, second, third = shoe.truth
    assert first.slide is not None and second.slide is not None

    def at(t: float) -> np.ndarray:
        return shoe.frame_at(t)

    noise_floor = _mean_abs_diff(at(second.rest[0] + 0.01), at(second.rest[1] - 0.01))
    # Two draws of the sensor's noise (0.7 sigma after the first half is baked into the
    # still) differ by 1.13 × 0.7 sigma on average.
    assert noise_floor < 0.8 * shoe.params.noise_sigma + 1.5
    new_card = _mean_abs_diff(at(first.rest[1] - 0.01), at(second.rest[0] + 0.01))
    assert new_card > 3 * noise_floor
    mid_slide = at((second.slide[0] + second.slide[1]) / 2)
    assert _mean_abs_diff(mid_slide, at(second.rest[1] - 0.01)) > 3 * noise_floor
    # Same look after the slide: the picture at rest is nearly what it was.
    look_alike = _mean_abs_diff(at(second.rest[1] - 0.01), at(third.rest[0] + 0.01))
    assert look_alike < 3 * max(noise_floor, 1.0)


def test_same_seed_same_frames_other_seed_other_frames(deck_faces: Faces) -> None:
    faces = deck_faces("anglo", 350, alpha=True)
    deal = [faces[Card.parse(c)] for c in ("3H", "4C", "5D")]
    a, b, c = _shoe(deal, 11), _shoe(deal, 11), _shoe(deal, 12)
    assert a.truth == b.truth
    times = [0.05, a.truth[0].slide[0] + 0.03 if a.truth[0].slide else 0.1, a.duration - 0.01]
    for t in times:
        assert np.array_equal(a.frame_at(t), b.frame_at(t))
    assert not np.array_equal(a.frame_at(0.05), c.frame_at(0.05))


def test_frame_source_renders_in_order_or_out_of_order_alike(deck_faces: Faces) -> None:
    faces = deck_faces("anglo", 350, alpha=True)
    deal = [faces[Card.parse(c)] for c in ("6S", "8H")]
    a, b = _shoe(deal, 13), _shoe(deal, 13)
    t = a.truth[1].rest[0] + 0.02
    # The still of a card is the same whichever frames came before; only the per-frame
    # noise differs.
    assert _mean_abs_diff(a.frame_at(t), b.frame_at(t)) < 4


def test_video_round_trip(simulated_deal_video: SimulatedDealVideo) -> None:
    video = simulated_deal_video
    assert video.frame_count == int(video.truth[-1].rest[1] * video.fps) + 1
    capture = cv2.VideoCapture(str(video.path))
    try:
        assert capture.isOpened()
        assert capture.get(cv2.CAP_PROP_FPS) == pytest.approx(video.fps, abs=0.01)
        frames = []
        while True:
            ok, frame = capture.read()
            if not ok:
                break
            frames.append(frame)
    finally:
        capture.release()
    assert len(frames) == video.frame_count
    assert frames[0].shape == (480, 640, 3)
    # Rest frames of one card agree; the cards in the video differ one from the next
    # (apart from the QD that follows a QD).
    stills = []
    for truth in video.truth:
        k = int(np.ceil((truth.rest[0] + 0.02) * video.fps))
        stills.append(frames[k])
    for i in range(len(stills) - 1):
        diff = _mean_abs_diff(stills[i], stills[i + 1])
        same_look = video.cards[i] == video.cards[i + 1]
        assert (diff < 6) if same_look else (diff > 6), (i, diff)


def test_write_video_rejects_an_unwritable_path_and_no_frames(tmp_path: Path) -> None:
    frame = np.zeros((48, 64, 3), np.uint8)
    with pytest.raises(VideoWriteError):
        write_video(tmp_path / "missing" / "x.avi", [frame], 30)
    with pytest.raises(VideoWriteError, match="no frames"):
        write_video(tmp_path / "x.avi", [], 30)


def test_still_camera_shoots_many_faces_under_one_scene(deck_faces: Faces) -> None:
    faces = deck_faces("anglo", 350, alpha=True)
    params = SceneParams.random(np.random.default_rng(20), "hard")
    cards = [Card.parse(c) for c in ("AS", "KH", "10D")]
    shots = [StillCamera(params, np.random.default_rng(21), list(faces.values())).shoot(
        faces[c], upside_down=False) for c in cards[:1]]
    camera = StillCamera(params, np.random.default_rng(21), list(faces.values()))
    again = [camera.shoot(faces[c], upside_down=False) for c in cards]
    assert np.array_equal(shots[0], again[0])  # seeded: the same stills again
    assert all(s.shape == (480, 640, 3) for s in again)
    assert _mean_abs_diff(again[0], again[1]) > 5
    # A face of another size is fitted to the camera's card.
    odd = cv2.resize(faces[cards[1]], (200, 300))
    assert camera.shoot(odd).shape == (480, 640, 3)


def test_command_line_writes_a_deal_with_its_truth(tmp_path: Path) -> None:
    import json

    from vision.simulator import main

    out = tmp_path / "deal.avi"
    assert main(["--out", str(out), "--seed", "3", "--cards", "3", "--fast"]) == 0
    data = json.loads(Path(f"{out}.json").read_text())
    codes = Path(f"{out}.order.txt").read_text().split()
    assert [c["card"] for c in data["cards"]] == codes and len(codes) == 3
    assert data["cards"][-1]["leaves_at"] is None
    capture = cv2.VideoCapture(str(out))
    try:
        frames = int(capture.get(cv2.CAP_PROP_FRAME_COUNT))
    finally:
        capture.release()
    assert frames == int(data["cards"][-1]["rest"][1] * 30) + 1


def test_building_cards_ahead_on_a_thread_changes_no_frame(deck_faces: Faces) -> None:
    faces = deck_faces("anglo", 350, alpha=True)
    deal = [faces[Card.parse(c)] for c in ("9S", "9H", "2D", "KC")]
    params = SceneParams.random(np.random.default_rng(30), "hard")
    ahead = SimulatedShoe(deal, seed=30, params=params, timing=DealTiming.fast())
    inline = SimulatedShoe(deal, seed=30, params=params, timing=DealTiming.fast(),
                           prefetch=False)
    try:
        for t in np.arange(0, ahead.duration, 1 / 15):
            assert np.array_equal(ahead.frame_at(t), inline.frame_at(t)), t
    finally:
        ahead.close()


def test_a_wide_lens_bends_straight_edges_and_keeps_the_cards_size(deck_faces: Faces) -> None:
    params = SceneParams(barrel=0.12, card_height_frac=0.85, noise_sigma=0, jpeg_quality=None)
    scene = Scene(params, (225, 350), np.random.default_rng(40))
    outline = scene.card_outline()
    assert float(np.ptp(outline[:, 1])) == pytest.approx(0.85 * 480, abs=1.5)
    # A straight line near the top of the frame comes out bowed.
    lines = np.zeros((480, 640, 3), np.uint8)
    lines[40:43] = 255
    bent = scene.lens(lines)[:, :, 0] > 127
    edge_row = np.flatnonzero(bent[:, 5])[0]
    middle_row = np.flatnonzero(bent[:, 320])[0]
    assert edge_row - middle_row > 5  # ends pulled in towards the centre: barrel
    # The picture shows the card at the height asked.
    face = deck_faces("anglo", 350, alpha=True)[Card.parse("5C")]
    frame = render_frame(face, params, np.random.default_rng(41))
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    rows = np.flatnonzero((grey > 170).mean(axis=1) > 0.1)
    assert (rows[-1] - rows[0]) / 480 == pytest.approx(0.85, abs=0.03)


def test_relit_keeps_the_rig_and_changes_the_light() -> None:
    rng = np.random.default_rng(50)
    rig = SceneParams.random(rng, "hard")
    evenings = [rig.relit(rng, "hard") for _ in range(5)]
    for other in evenings:
        assert (other.tilt_deg, other.rotation_deg, other.lips_mm, other.barrel,
                other.card_height_frac, other.center_shift) == (
            rig.tilt_deg, rig.rotation_deg, rig.lips_mm, rig.barrel, rig.card_height_frac,
            rig.center_shift)
        # The card lies exactly where it lay.
        a, b = Scene(rig, (225, 350), rng), Scene(other, (225, 350), rng)
        assert np.allclose(a.card_corners(), b.card_corners())
    assert len({e.colour_temp_k for e in evenings}) == 5
    assert len({e.noise_sigma for e in evenings}) == 5


def test_a_design_printed_nearer_the_edge_keeps_the_cards_outline(deck_faces: Faces) -> None:
    face = deck_faces("anglo", 350, alpha=True)[Card.parse("7D")]
    near = nearer_edge(face, 0.02)
    assert near.shape == face.shape and np.array_equal(near[..., 3], face[..., 3])
    assert np.array_equal(nearer_edge(face[..., :3], 0.02), near[..., :3])

    def index_top(image: np.ndarray) -> float:
        """Where the top-left index's rank starts, as a share of the card's height."""
        card = flat(image[..., :3])
        found = find_indices(card)[0]
        assert found is not None
        return float(found.rank_rows()[0]) / CARD_H

    # anglo's rank starts 0.052 of the card's height below its top; the design enlarged by
    # 1 / 0.96 about the middle, some 0.033.
    assert index_top(near) == pytest.approx((index_top(face) - 0.02) / 0.96, abs=0.006)


def test_a_frame_size_is_width_x_height_within_what_the_service_accepts() -> None:
    assert parse_frame_size("1280x720") == (1280, 720)
    assert parse_frame_size("320X240") == (320, 240)
    for bad in ("1280", "1280x", "wide x high", "1280x720x3", "100x100", "8000x480"):
        with pytest.raises(ValueError, match="a frame size is"):
            parse_frame_size(bad)
