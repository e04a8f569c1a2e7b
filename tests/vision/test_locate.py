"""Finding the card in the box's window: real rendered cards through the real simulator."""

from __future__ import annotations

import itertools
from dataclasses import replace

import cv2
import numpy as np
import pytest

from shoe.cards import FULL_DECK, Card
from vision.locate import locate, look_deeper
from vision.outline import refine_sides
from vision.pixels import darkest_channel
from vision.quad import CARD_H, CARD_W, CardQuad, quad_from_corners, straighten, within_margin
from vision.simulator import SceneParams
from vision.stills import StillCamera, Thumb

from learning_pass import DEV_DECK, REFLECTION_PAST_THE_TOP, empty_box, faces, stills, table_cloth
from straightened import flat

CARDS = [Card.parse(c) for c in ("AS", "10H", "QD", "7C", "KH", "2S")]


def _shot(params: SceneParams, rng: np.random.Generator, face: np.ndarray, *,
          thumb: Thumb | None = None, offset_px: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """A frame of ``face`` in the box and the card's true corners in it."""
    camera = StillCamera(params, rng, [face])
    frame = camera.shoot(face, thumb=thumb, offset_px=offset_px)
    return frame, quad_from_corners(camera.scene.card_corners()).array()


def _assert_on_the_card(quad: CardQuad | None, truth: np.ndarray, to_rig: float = 1.0,
                        label: object = None) -> None:
    """The outline lies on the card: within 8 px along it and 16 across, in pixels of a
    640 x 480 frame (``to_rig``: that frame's pixels per pixel of this one). Across, the
    lips hide up to 3 mm of the card: some 14 px."""
    assert quad is not None, label
    off = np.abs(quad.array() - truth) * to_rig
    assert off[:, 1].max() < 8.0 and off[:, 0].max() < 16.0, (label, off)


def test_four_corners_in_any_order_make_the_same_outline() -> None:
    # A card tilted by the camera: the top narrower than the bottom, the sides slanting.
    corners = [(212.5, 61.25), (431.0, 70.5), (452.75, 418.0), (190.0, 409.5)]
    for order in itertools.permutations(corners):
        quad = quad_from_corners(np.array(order, np.float32))
        assert quad.corners == tuple(corners)
    tl, tr, br, bl = np.array(corners)
    side = np.linalg.norm
    assert quad.height == pytest.approx((side(bl - tl) + side(br - tr)) / 2)
    assert quad.width == pytest.approx((side(tr - tl) + side(br - bl)) / 2)


def test_finds_the_card_in_simulated_frames_and_straightens_it_portrait() -> None:
    frames = stills(DEV_DECK, CARDS, seed=21)
    found = [locate(f) for f in frames]
    assert sum(q is not None for q in found) >= len(frames) - 1
    for frame, quad in zip(frames, found, strict=True):
        if quad is None:
            continue
        assert 0.5 * 480 <= quad.height <= 0.95 * 480
        assert 0.55 <= quad.width / quad.height <= 0.8  # the lips may hide some width
        card = straighten(frame, quad)
        assert card.shape == (CARD_H, CARD_W, 3)
        # The straightened card is mostly the card's white, not the box's dark metal.
        assert np.median(card.min(axis=2)) > np.median(frame.min(axis=2))


def test_the_outline_lies_on_the_card_edges_under_hard_conditions() -> None:
    # The short edges are never hidden (the lips shave the long ones): the located top and
    # bottom corners must lie where the camera put the card's, to a few pixels, whatever
    # the glare, tilt, lens, light cloth or print running into the card's edge.
    rng = np.random.default_rng(33)
    deck = faces(DEV_DECK)
    found, errors = 0, []
    for card in [Card.parse(c) for c in ("4C", "QS", "10D", "7H", "KC", "9S", "2D", "JH")] * 2:
        frame, truth = _shot(SceneParams.random(rng, "hard"), rng, deck[card])
        quad = locate(frame)
        if quad is None:
            continue
        found += 1
        errors.append(float(np.abs(quad.array()[:, 1] - truth[:, 1]).max()))
    assert found >= 15
    assert np.median(errors) < 3.0
    # A bright reflection on the metal just past a short edge still joins the card at a
    # quarter of the resolution (two of these frames; docs/READER.md, known weaknesses): an
    # unsure reading looks again (look_deeper, below).
    assert sum(e > 8.0 for e in errors) <= 2


def test_finds_a_card_that_runs_past_a_side_of_the_picture() -> None:
    # A camera set off centre: the card runs 10 px out of the picture at one side, where
    # cloth and the box usually are. Its top and bottom edges still lie where they were.
    deck = faces(DEV_DECK)
    rng = np.random.default_rng(3)
    for code, side in (("KS", 1), ("10C", -1), ("AD", 1), ("5H", -1)):
        frame, truth = _shot(SceneParams(), rng, deck[Card.parse(code)])
        dx = 650 - truth[:, 0].max() if side == 1 else -10 - truth[:, 0].min()
        moved = cv2.warpAffine(frame, np.float32([[1, 0, dx], [0, 1, 0]]), (640, 480),
                               borderMode=cv2.BORDER_REPLICATE)
        quad = locate(moved)
        assert quad is not None, code
        assert np.abs(quad.array()[:, 1] - truth[:, 1]).max() < 4.0, code


def test_a_slanting_line_of_print_does_not_slant_the_outline() -> None:
    # A king whose sash runs corner to corner, under two glare spots: pieces of the card cut
    # apart by the sash once gave a quadrilateral leaning 25 degrees, read as no card.
    # The card stands within some 16 degrees of upright; such an outline is refused.
    params = SceneParams(
        card_height_frac=0.844, center_shift=(0.55, -0.52), rotation_deg=-3.56,
        tilt_deg=(-7.86, 8.11), camera_height_mm=116.0, lips_mm=(2.44, 0.92),
        window_ends_mm=(1.57, 0.98), frame_width_mm=10.4, metal_bgr=(45, 45, 56),
        cloth_bgr=(60, 90, 130), colour_temp_k=6464.0, white_balance=0.35, exposure=0.55,
        gradient=0.088, gradient_angle_deg=35.7, noise_sigma=8.5, blur_sigma=0.7,
        glare=((0.445, 0.491, 0.167, 0.607), (0.459, 0.287, 0.264, 0.342)),
        jpeg_quality=46, gamma=1.07, saturation=0.94, sharpen=0.35)
    king = faces("paris")[Card.parse("KD")]
    for seed in range(4):
        frame, truth = _shot(params, np.random.default_rng(seed), king)
        quad = locate(frame)
        assert quad is not None, seed
        assert np.abs(quad.array()[:, 1] - truth[:, 1]).max() < 8.0, seed


def test_looking_deeper_finds_the_edge_past_a_reflection_the_outline_took_in() -> None:
    deck = faces(DEV_DECK)
    for seed, code in enumerate(("QS", "4D", "KH")):
        face = deck[Card.parse(code)]
        frame, truth = _shot(REFLECTION_PAST_THE_TOP, np.random.default_rng(seed), face)
        first = locate(frame)
        assert first is not None
        assert np.abs(first.array()[:, 1] - truth[:, 1]).max() > 25.0  # out on the metal
        deeper = look_deeper(frame, first)
        assert deeper is not None
        assert np.abs(deeper.array()[:, 1] - truth[:, 1]).max() < 4.0, code


def test_looking_deeper_at_a_card_found_right_finds_nothing_new() -> None:
    for frame in stills(DEV_DECK, CARDS, seed=21):
        quad = locate(frame)
        if quad is not None:
            assert look_deeper(frame, quad) is None


def test_finds_nothing_in_a_plain_table_cloth() -> None:
    assert locate(table_cloth(1)) is None


def test_an_empty_box_is_seldom_taken_for_a_card() -> None:
    # The box's floor is dark; a light cloth around the box may still look card-shaped to
    # the locator, which is why the reader checks for an index too (test_reader).
    assert sum(locate(empty_box(s)) is None for s in range(4)) >= 3


def test_corners_are_ordered_clockwise_from_top_left() -> None:
    quad = quad_from_corners(np.array([[300, 400], [100, 50], [310, 60], [90, 390]]))
    assert quad.corners == ((100.0, 50.0), (310.0, 60.0), (300.0, 400.0), (90.0, 390.0))


def test_rejects_a_grey_image() -> None:
    with pytest.raises(ValueError, match="BGR"):
        locate(np.zeros((480, 640), np.uint8))


def test_faces_fixture_is_the_real_deck() -> None:
    assert len(faces(DEV_DECK)) == 52


def test_a_bright_red_cloth_the_shape_of_a_card_is_not_taken_for_it(
        dev_deck: dict[Card, np.ndarray]) -> None:
    # Saturated cloth passes for print (court figures, red pips); a card is also paper.
    frame = np.full((480, 640, 3), 60, np.uint8)
    frame[10:470, 340:630] = (40, 60, 220)  # the cloth, larger than the card
    face = cv2.resize(dev_deck[Card.parse("2D")], (230, 330), interpolation=cv2.INTER_AREA)
    frame[80:410, 60:290] = face
    quad = locate(frame)
    assert quad is not None
    truth = np.array([[60, 80], [290, 80], [290, 410], [60, 410]], np.float32)
    assert np.abs(quad.array() - truth).max() < 6


def test_a_bright_red_cloth_joined_to_the_card_by_a_reflection_is_left_out() -> None:
    # Under warm light a red cloth passes for print, and a reflection across the metal
    # joins it to the card: the card's white alone is found (a hard scene of the survey of
    # the dev decks, rounded; the card runs off no side).
    params = SceneParams(
        card_height_frac=0.64, center_shift=(0.48, -0.54), rotation_deg=4.8,
        tilt_deg=(8.6, 7.9), camera_height_mm=119.0, upside_down=True,
        lips_mm=(0.9, 2.0), window_ends_mm=(2.1, 2.5), frame_width_mm=6.0,
        metal_bgr=(68, 70, 71), reflection=0.96, reflection_pos=0.5, cloth_bgr=(40, 40, 120),
        colour_temp_k=2800.0, white_balance=0.36, exposure=0.97, gradient=0.48,
        gradient_angle_deg=106.0, noise_sigma=1.8, blur_sigma=1.1, jpeg_quality=70,
        gamma=1.22, saturation=0.85, sharpen=0.46, barrel=0.08)
    deck = faces(DEV_DECK)
    rng = np.random.default_rng(5)
    frame, truth = _shot(params, rng, deck[Card.parse("9S")])
    quad = locate(frame)
    assert quad is not None
    assert np.abs(quad.array()[:, 1] - truth[:, 1]).max() < 6.0


#: A light cloth round the box, and a reflection streak across the metal taller than the
#: thin cuts take off, joining the card to the cloth on one side (a hard scene of the survey
#: of the dev decks, seed 101, rounded): no outline was found, and the card was not read.
STREAK_TO_THE_CLOTH = SceneParams(
    card_height_frac=0.83, center_shift=(-0.68, 0.25), rotation_deg=1.6,
    tilt_deg=(2.9, 6.4), camera_height_mm=139.6, lips_mm=(0.09, 1.23),
    window_ends_mm=(1.69, 0.49), frame_width_mm=11.7, metal_bgr=(58, 60, 60),
    reflection=0.97, reflection_pos=0.47, cloth_bgr=(150, 150, 150), colour_temp_k=3347.0,
    white_balance=0.61, exposure=0.93, gradient=0.48, gradient_angle_deg=330.0,
    noise_sigma=2.6, blur_sigma=0.56, jpeg_quality=47, gamma=0.80, saturation=0.70,
    barrel=0.032)


#: Plain light, no reflection (a hard scene of the survey of the dev decks, seed 2024,
#: rounded): dondorf's 4C prints a row across each end, an index beside a pip at either
#: side, that parts the thin white strip beyond it from the rest of the card's white.
PLAIN_LIGHT = SceneParams(
    card_height_frac=0.643, center_shift=(0.37, -0.44), rotation_deg=5.8,
    tilt_deg=(-9.9, 3.5), camera_height_mm=149.8, upside_down=True, slot_side="right",
    lips_mm=(2.82, 0.51), window_ends_mm=(0.75, 2.23), frame_width_mm=8.3,
    metal_bgr=(63, 65, 66), reflection=0.0, cloth_bgr=(150, 150, 150), colour_temp_k=6438.0,
    white_balance=0.47, exposure=0.95, gradient=0.017, gradient_angle_deg=297.5,
    noise_sigma=2.0, blur_sigma=0.50, jpeg_quality=87, gamma=0.98, saturation=1.29,
    sharpen=0.31)


#: A large card in warm light, a glare spot over its upper corner (a hard scene of the
#: benchmark, seed 35, rounded): dondorf's rows of print across its ends, the glare beside
#: one, cut the outline off above the lower row, tall enough for a card but too squat.
GLARE_BY_THE_ROW = SceneParams(
    card_height_frac=0.763, center_shift=(0.33, 0.53), rotation_deg=-0.9,
    tilt_deg=(6.53, 8.96), camera_height_mm=142.0, upside_down=True, slot_side="right",
    lips_mm=(1.04, 0.42), window_ends_mm=(1.64, 1.84), frame_width_mm=9.86,
    metal_bgr=(63, 67, 65), reflection=0.48, reflection_pos=0.468, cloth_bgr=(150, 150, 150),
    colour_temp_k=3176.0, white_balance=0.49, exposure=0.92, gradient=0.059,
    gradient_angle_deg=110.9, glare=((0.765, 0.183, 0.239, 0.894),),
    noise_sigma=2.6, blur_sigma=1.12, jpeg_quality=72, gamma=1.12, saturation=0.78, barrel=0.053)


@pytest.mark.parametrize(("params", "deck", "code", "within"), [
    # The opening parts the card from the cloth, which is then the larger of the two. The
    # right lip hides some 5 px of the card's width.
    (STREAK_TO_THE_CLOTH, "atlasnye", "9D", 6.0), (STREAK_TO_THE_CLOTH, DEV_DECK, "9D", 6.0),
    (STREAK_TO_THE_CLOTH, DEV_DECK, "KS", 6.0),
    # The outline's side lay along the print, 0.48 of the frame high and 60 px off the
    # card's edge: the row and its index cut off, and the card was read from one corner.
    # The left lip hides some 7 px of the card's width.
    (PLAIN_LIGHT, "dondorf", "4C", 10.0),
    # The outline, 0.76 as wide as it was tall, lay along the lower row and 77 px off the
    # card's corner with seeds 0 and 2.
    (GLARE_BY_THE_ROW, "dondorf", "7C", 6.0)])
def test_a_card_parted_from_a_larger_cloth_or_cut_short_by_print_is_found_whole(
        params: SceneParams, deck: str, code: str, within: float) -> None:
    face = faces(deck)[Card.parse(code)]
    for seed in range(3):
        frame, truth = _shot(params, np.random.default_rng(seed), face)
        quad = locate(frame)
        assert quad is not None, seed
        assert np.abs(quad.array() - truth).max() < within, seed


#: A 1920 x 1080 camera (RIG.md's 640 x 480 is configurable), the card 0.84 of the frame's
#: height under a light cloth, two glare spots on it (a hard scene of the benchmark at that
#: size, seed 2024, rounded).
WIDE_FRAME = SceneParams(
    frame_size=(1920, 1080), card_height_frac=0.841, center_shift=(0.006, -0.133),
    rotation_deg=-1.1, tilt_deg=(-9.99, -1.94), camera_height_mm=143.0, slot_side="right",
    lips_mm=(1.68, 2.99), window_ends_mm=(2.57, 2.22), frame_width_mm=11.25,
    metal_bgr=(46, 50, 54), reflection=0.0, reflection_pos=0.397, cloth_bgr=(150, 150, 150),
    colour_temp_k=5465.0, white_balance=0.248, exposure=0.696, gradient=0.116,
    gradient_angle_deg=128.0, glare=((0.304, 0.581, 0.082, 0.43), (0.805, 0.374, 0.212, 0.816)),
    noise_sigma=7.08, blur_sigma=1.06, jpeg_quality=77, gamma=0.82, saturation=1.127)


@pytest.mark.parametrize("code", ["KD", "5S"])
def test_a_larger_frame_is_located_as_the_rigs_are(code: str) -> None:
    # The locator's reaches were measured in 640 x 480 frames. Worked on at this size's
    # own, the KD's outline took in the box and the cloth, the frame's whole height, and
    # the card was not read; the 5S's lay 34 px off its end (read right all the same).
    face = faces("dondorf")[Card.parse(code)]
    for seed in range(3):
        frame, truth = _shot(WIDE_FRAME, np.random.default_rng(seed), face)
        _assert_on_the_card(locate(frame), truth, to_rig=480 / 1080, label=seed)


#: A dark room and a glare on the card (a hard scene of the zero-shot benchmark, seed 35,
#: rounded): orell's KD has dark print across it from edge to edge.
DARK_ROOM = SceneParams(
    card_height_frac=0.891, center_shift=(-0.57, -0.56), rotation_deg=-3.9,
    tilt_deg=(2.93, -1.66), camera_height_mm=90.7, lips_mm=(2.41, 0.96),
    window_ends_mm=(1.93, 0.81), frame_width_mm=13.3, metal_bgr=(75, 79, 82), reflection=0.0,
    cloth_bgr=(30, 30, 30), colour_temp_k=5489.0, white_balance=0.60, exposure=0.70,
    gradient=0.206, gradient_angle_deg=343.7, glare=((0.357, 0.316, 0.225, 0.673),),
    noise_sigma=6.9, blur_sigma=0.42, jpeg_quality=47, gamma=1.08, saturation=0.83)


@pytest.mark.parametrize("seed", [0, 2, 6])
def test_a_card_its_print_parts_in_two_is_located_whole(seed: int) -> None:
    # The robe and the sceptre part the card's paper at a narrow margin, which the opening
    # cut: neither half was tall enough for a card, and these frames found none.
    face = faces("orell")[Card.parse("KD")]
    frame, truth = _shot(DARK_ROOM, np.random.default_rng(seed), face)
    _assert_on_the_card(locate(frame), truth)


#: A dark thumb on an ace, its tip just under the big pip, and a reflection across the box
#: joined to the card (a hard scene of a survey under the thumb, seed 41, rounded).
ACE_UNDER_A_THUMB = SceneParams(
    card_height_frac=0.868, center_shift=(0.13, 0.67), rotation_deg=5.3,
    tilt_deg=(2.23, 3.26), camera_height_mm=112.9, upside_down=True, lips_mm=(1.38, 2.07),
    window_ends_mm=(2.35, 0.73), frame_width_mm=13.0, metal_bgr=(68, 71, 75), reflection=0.886,
    reflection_pos=0.16, cloth_bgr=(30, 30, 30), colour_temp_k=6243.0, white_balance=0.29,
    exposure=0.74, gradient=0.016, gradient_angle_deg=232.0,
    glare=((0.464, 0.809, 0.229, 0.731), (0.381, 0.205, 0.115, 0.669)), noise_sigma=5.05,
    blur_sigma=0.96, jpeg_quality=53, skin_bgr=(45, 60, 95), gamma=0.815, saturation=1.053,
    barrel=0.091)


def test_a_thumbs_bay_run_into_a_big_pip_is_closed_over() -> None:
    # The bay the thumb leaves runs on into the ace's pip above its tip: the region fills
    # some 0.67 of its hull, short of the 0.8 a bay may leave, and none of these eight
    # frames found a card. Now most do, by the region's hull: the top as the card's, the foot
    # beside the thumb up to 24 px short where the strip of card left of it is thin.
    face = faces("anglo")[Card.parse("AS")]
    found = 0
    for seed in range(8):
        frame, truth = _shot(ACE_UNDER_A_THUMB, np.random.default_rng(seed), face,
                             thumb=Thumb(0.36, 0.6))
        quad = locate(frame)
        if quad is not None:
            found += 1
            off = np.abs(quad.array() - truth)
            assert quad.fitted and off[:2].max() < 8.0 and off.max() < 24.0, (seed, off)
    assert found >= 5


#: A light cloth round the box, and a reflection along the box's lower rim as bright as
#: the card's paper: the one level that parts paper from metal joins the card to the cloth
#: (a hard scene of the survey of the dev decks, seed 27, rounded).
LIT_RIM = SceneParams(
    card_height_frac=0.571, center_shift=(-0.92, 0.93), rotation_deg=1.6,
    tilt_deg=(-0.91, 5.71), camera_height_mm=91.2, lips_mm=(0.45, 0.73),
    window_ends_mm=(0.92, 1.35), frame_width_mm=11.7, metal_bgr=(42, 45, 50),
    reflection=0.98, reflection_pos=0.97, cloth_bgr=(150, 150, 150), colour_temp_k=5473.0,
    white_balance=0.44, exposure=0.55, gradient=0.147, gradient_angle_deg=69.9,
    glare=((0.457, 0.348, 0.111, 0.348),), noise_sigma=11.7, blur_sigma=1.37,
    jpeg_quality=57, gamma=0.93, saturation=1.13)
#: Dim candle light and two glare spots on the card: the one level parts the glare from
#: all else, the card's paper among it (seed 29, rounded).
DIM_UNDER_GLARE = SceneParams(
    card_height_frac=0.562, center_shift=(-0.98, -0.40), rotation_deg=-2.8,
    tilt_deg=(5.48, -5.0), camera_height_mm=94.6, upside_down=True, slot_side="right",
    lips_mm=(2.56, 0.40), window_ends_mm=(1.10, 1.08), frame_width_mm=7.54,
    metal_bgr=(44, 45, 48), reflection=0.82, reflection_pos=0.106, cloth_bgr=(150, 150, 150),
    colour_temp_k=3207.0, white_balance=0.38, exposure=0.48, gradient=0.203,
    gradient_angle_deg=302.7, glare=((0.567, 0.725, 0.114, 0.794), (0.696, 0.736, 0.232, 0.568)),
    noise_sigma=12.7, blur_sigma=0.73, jpeg_quality=95, gamma=1.23, saturation=0.92)


@pytest.mark.parametrize(("params", "deck", "code"), [(LIT_RIM, DEV_DECK, "8H"),
                                                      (DIM_UNDER_GLARE, "atlasnye", "QC")])
def test_a_card_the_first_level_leaves_joined_or_unseen_is_found_at_another(
        params: SceneParams, deck: str, code: str) -> None:
    face = faces(deck)[Card.parse(code)]
    for seed in range(3):
        frame, truth = _shot(params, np.random.default_rng(seed), face)
        quad = locate(frame)
        assert quad is not None, seed
        assert np.abs(quad.array()[:, 1] - truth[:, 1]).max() < 4.0, seed


#: Under the thumb, a card the first level leaves joined to the hand, in a box whose metal
#: is lighter than the cloth: at the level below, the whole box is card-shaped (a held-out
#: 9S in the survey of seed 28, under the thumb, rounded).
BOX_AT_THE_LEVEL_BELOW = SceneParams(
    card_height_frac=0.589, center_shift=(-0.32, -0.80), rotation_deg=-0.65,
    tilt_deg=(3.14, -7.97), camera_height_mm=101.1, upside_down=True, slot_side="right",
    lips_mm=(1.09, 2.82), window_ends_mm=(0.54, 0.25), frame_width_mm=6.57,
    metal_bgr=(80, 81, 84), reflection=0.83, reflection_pos=0.86, cloth_bgr=(90, 50, 30),
    colour_temp_k=4356.0, white_balance=0.21, exposure=0.52, gradient=0.075,
    gradient_angle_deg=231.5, glare=((0.804, 0.475, 0.157, 0.471),), noise_sigma=12.5,
    blur_sigma=0.75, jpeg_quality=76, skin_bgr=(45, 60, 95), gamma=1.22, saturation=0.98,
    sharpen=0.35)


#: The same at a tango AS under the thumb, the box's metal nearly as light as the card's
#: paper within the outline (seed 30, rounded): read as KS at 0.99 through the box.
LIGHT_METAL = SceneParams(
    card_height_frac=0.751, center_shift=(0.10, -0.67), rotation_deg=0.22,
    tilt_deg=(9.23, -3.21), camera_height_mm=80.6, lips_mm=(1.15, 0.10),
    window_ends_mm=(2.39, 2.66), frame_width_mm=13.0, metal_bgr=(84, 88, 85),
    reflection=0.67, reflection_pos=0.68, cloth_bgr=(90, 50, 30), colour_temp_k=4748.0,
    white_balance=0.31, exposure=0.75, gradient=0.211, gradient_angle_deg=337.2,
    noise_sigma=6.1, blur_sigma=0.32, jpeg_quality=56, gamma=0.81, saturation=0.92,
    sharpen=0.78)


@pytest.mark.parametrize(("params", "deck", "code", "within"), [
    # The box lies 30-110 px out. The 9S, found in none of these frames before the last try
    # on a thumb's bay, is found in each now, its corner beside the thumb up to 14 px off.
    (BOX_AT_THE_LEVEL_BELOW, DEV_DECK, "9S", 16.0), (BOX_AT_THE_LEVEL_BELOW, "paris", "9S", 16.0),
    # The box lies 80-110 px out; the thumb may pull an outline's foot 20-26 px down.
    (LIGHT_METAL, DEV_DECK, "AS", 50.0)])
def test_the_box_round_the_card_is_not_taken_for_it_at_another_level(
        params: SceneParams, deck: str, code: str, within: float) -> None:
    # Through the box's outline, 30-110 px off the card, 9S was read as 8S at up to 0.95.
    face = faces(deck)[Card.parse(code)]
    for seed in range(6):
        frame, truth = _shot(params, np.random.default_rng(seed), face,
                             thumb=Thumb(0.374, 0.517), offset_px=1.6)
        quad = locate(frame)
        assert quad is None or np.abs(quad.array()[:, 1] - truth[:, 1]).max() < within, seed


#: A glare spot on the card's lower left, the paper round it parted from the rest of the card
#: by a court picture (a paris JS in the survey of seed 35, hard light, rounded).
GLARE_BESIDE_A_PICTURE = SceneParams(
    card_height_frac=0.869, center_shift=(0.46, 0.76), rotation_deg=-2.66,
    tilt_deg=(-8.08, 3.73), camera_height_mm=109.2, upside_down=True, slot_side="right",
    lips_mm=(1.66, 2.61), window_ends_mm=(2.56, 1.68), frame_width_mm=11.5,
    metal_bgr=(75, 75, 79), reflection=0.0, reflection_pos=0.11, cloth_bgr=(90, 50, 30),
    colour_temp_k=4474.0, white_balance=0.67, exposure=0.60, gradient=0.418,
    gradient_angle_deg=200.6, glare=((0.255, 0.661, 0.165, 0.840),), noise_sigma=11.0,
    blur_sigma=1.10, jpeg_quality=46, gamma=1.14, saturation=0.85)


def test_a_glare_spot_found_first_is_a_part_and_the_whole_card_is_found() -> None:
    # The glare spot alone, some 200 px of the card's 410 high, was found first on 3 of
    # these 8 frames: the card was held, read from no index.
    face = faces("paris")[Card.parse("JS")]
    for seed in range(8):
        frame, truth = _shot(GLARE_BESIDE_A_PICTURE, np.random.default_rng(seed), face,
                             offset_px=2.5)
        quad = locate(frame)
        assert quad is not None, seed
        # Along the card: the window's ends hide up to 2.6 mm of it here, some 12 px. (Across
        # it, where the picture meets the lip, one side may lean in: 22 px at a corner.)
        assert np.abs(quad.array()[:, 1] - truth[:, 1]).max() < 12.0, seed


def _under_a_thumb(skin_bgr: tuple[int, int, int] | None = None
                   ) -> list[tuple[CardQuad | None, np.ndarray]]:
    """The located outline and the card's true one, for six cards of the dev deck under
    normal light with the dealer's thumb on the middle."""
    deck = faces(DEV_DECK)
    rng = np.random.default_rng(5)
    located = []
    for code in ("AH", "7S", "QC", "10D", "3C", "KH"):
        face = deck[Card.parse(code)]
        params = SceneParams.random(rng, "normal")
        if skin_bgr is not None:
            params = replace(params, skin_bgr=skin_bgr)
        frame, truth = _shot(params, rng, face, thumb=Thumb(0.35, 0.6))
        located.append((locate(frame), truth))
    return located


def _errors_under_a_thumb(skin_bgr: tuple[int, int, int] | None = None) -> list[float]:
    """How far (px) the located outline lies from the card's (inf: not found)."""
    return [np.inf if quad is None else float(np.abs(quad.array() - truth).max())
            for quad, truth in _under_a_thumb(skin_bgr)]


def test_a_dark_thumb_on_the_card_leaves_a_bay_the_outline_closes_over() -> None:
    # A thumb darker than the paper is no part of the card's region: it leaves a bay, and
    # the strip of card beside it is narrower than the opening that cuts thin arms off, so
    # the card's corner went with it. Of these 6 frames the locator lost 5; the region's
    # own hull, confirmed by the edges, now finds most of them.
    errors = _errors_under_a_thumb(skin_bgr=(45, 60, 95))
    assert sum(e < 12.0 for e in errors) >= 4, errors


def test_an_outline_fitted_to_the_regions_hull_says_so() -> None:
    # No side of it was found as such: the reader trusts no index read alone from it.
    dark_thumb = [quad for quad, _ in _under_a_thumb(skin_bgr=(45, 60, 95))]
    assert sum(quad is not None and quad.fitted for quad in dark_thumb) >= 3
    alone = [locate(frame) for frame in stills(DEV_DECK, CARDS, seed=21)]
    assert not any(quad is not None and quad.fitted for quad in alone)


def test_a_side_well_inside_the_card_is_found_when_searched_further_out() -> None:
    # A quadrilateral fitted to the region's hull may lie well inside the card beside a
    # thumb; where the edges confirm it, locate finds its sides again searched 28 px out,
    # twice as far as found ones. A lower side 22 px short then comes out where it does
    # from the card's own outline; searched 14 px out it settles on noise, or on nothing.
    deck = faces(DEV_DECK)
    rng = np.random.default_rng(5)
    for code in ("AH", "7S", "QC", "10D", "3C", "KH"):
        face = deck[Card.parse(code)]
        frame, truth = _shot(SceneParams.random(rng, "normal"), rng, face)
        lightness = darkest_channel(frame)
        short = truth.copy()
        short[2:, 1] -= 22  # the lower corners
        from_truth = refine_sides(lightness, truth)
        assert from_truth is not None
        wide = refine_sides(lightness, short, outward=28)
        assert wide is not None and np.abs(wide - from_truth).max() < 1.0, code
        narrow = refine_sides(lightness, short)
        assert narrow is None or np.abs(narrow - from_truth).max() > 10.0, code


def test_a_confirmed_hull_is_found_again_searched_further_out() -> None:
    # A dark thumb on a 10H (the second of a seeded run of such frames): the outline is
    # fitted to the region's hull, whose side lay inside the card. Searched 14 px out, the
    # outline lay 15.8 px off the card's corners; searched again 28 px out, 6.4.
    deck = faces(DEV_DECK)
    rng = np.random.default_rng(5)
    for _ in range(2):
        card = FULL_DECK[int(rng.integers(52))]
        params = replace(SceneParams.random(rng, "normal"), skin_bgr=(45, 60, 95))
        camera = StillCamera(params, rng, [deck[card]])
        frame = camera.shoot(deck[card], thumb=Thumb.random(rng))
    assert card == Card.parse("10H")
    quad = locate(frame)
    truth = quad_from_corners(camera.scene.card_corners()).array()
    assert quad is not None and quad.fitted
    assert np.abs(quad.array() - truth).max() < 8.0


def test_a_cards_own_outline_is_square_however_the_camera_turns_and_tilts() -> None:
    # What refusing a sheared outline rests on: the card's true outline, through the
    # camera's turn, tilt and lens over hard scenes, is never more than a few degrees off
    # square; a parallelogram leaning as a wrong outline did under a thumb is.
    rng = np.random.default_rng(4)
    face = faces(DEV_DECK)[Card.parse("5S")]
    for _ in range(30):
        camera = StillCamera(SceneParams.random(rng, "hard"), rng, [face])
        assert quad_from_corners(camera.scene.card_corners()).shear_deg < 3.0
    leaning = CardQuad(((123.3, 83.3), (427.8, 20.2), (423.1, 421.7), (140.1, 480.3)))
    assert leaning.shear_deg == pytest.approx(10.8, abs=0.1)


#: The light, box and camera of a thumb benchmark frame (a kde-penguins 8C, the thumb on its
#: middle) whose outline came out sheared.
SHEARED_UNDER_THE_THUMB = SceneParams(
    card_height_frac=0.886, center_shift=(-0.32, -0.12), rotation_deg=-1.18,
    tilt_deg=(5.88, 5.36), camera_height_mm=122.0, slot_side="left", lips_mm=(0.83, 0.43),
    window_ends_mm=(1.71, 2.72), frame_width_mm=9.5, metal_bgr=(62, 65, 62), reflection=0.0,
    cloth_bgr=(90, 50, 30), colour_temp_k=4376.0, white_balance=0.41, exposure=1.02,
    gradient=0.437, gradient_angle_deg=351.6, glare=(), noise_sigma=1.58, blur_sigma=0.96,
    jpeg_quality=None, skin_bgr=(100, 135, 190), gamma=0.84, saturation=0.85, sharpen=0.0,
    barrel=0.0)


def test_an_outline_sheared_off_square_is_refused_and_the_search_goes_on() -> None:
    # Turning a card does not shear it, and the camera's tilt barely does (at most 3.4
    # degrees off square in simulated scenes). Under the thumb, these frames' outlines came
    # out 6-13 degrees off square, 35-49 px off the card's corners: their top and bottom
    # cut both 8s across, and the reader read 9C at 0.97 from two of them (8 and 22).
    # Refused, the locator tries on and finds the card itself.
    face = faces("kde-penguins")[Card.parse("8C")]
    for seed in (6, 7, 8, 12, 22):
        frame, truth = _shot(SHEARED_UNDER_THE_THUMB, np.random.default_rng(seed), face,
                             thumb=Thumb(0.35, 0.53), offset_px=3.0)
        quad = locate(frame)
        assert quad is not None, seed
        assert np.abs(quad.array() - truth).max() < 8.0, seed


def test_the_dealers_thumb_running_off_the_picture_is_cut_off_the_outline() -> None:
    # The thumb on the card's middle, the hand running off the bottom of the picture: the
    # skin joins the card's region (saturated, like print). Taken in, it spoilt the outline
    # (of these 6 frames, 5 were lost and one 41 px off). Cut off, most outlines lie near
    # the card's; not all (docs/READER.md, known weaknesses).
    errors = _errors_under_a_thumb()
    assert sum(e < 12.0 for e in errors) >= 4, errors


def test_a_card_within_a_margin_is_shrunk_into_its_own_paper() -> None:
    face = faces(DEV_DECK)[Card.parse("7C")][:, :, :3]
    card = flat(face)
    card[:, :, 0] = np.minimum(card[:, :, 0], 230)  # a paper not quite white, tinted
    framed = within_margin(card, 0.05)
    assert framed.shape == card.shape and framed.dtype == card.dtype
    top, side = round(0.05 * CARD_H), round(0.05 * CARD_W)
    inner = cv2.resize(card, (CARD_W - 2 * side, CARD_H - 2 * top),
                       interpolation=cv2.INTER_AREA).astype(int)
    edge = 2  # the resizing blends the margin's inner edge into the card's
    ring = np.ones(card.shape[:2], bool)
    ring[top - edge:CARD_H - top + edge, side - edge:CARD_W - side + edge] = False
    paper = np.median(card.reshape(-1, 3), axis=0)
    assert np.abs(framed[ring].astype(int) - paper).max() <= 2
    middle = framed[top + edge:CARD_H - top - edge, side + edge:CARD_W - side - edge].astype(int)
    assert np.abs(middle - inner[edge:-edge, edge:-edge]).mean() < 6
