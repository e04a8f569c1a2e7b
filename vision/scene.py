"""The box as the camera sees it: geometry, the metal frame and lips, table, light and sensor.

Everything is laid out on the plane of the box's top in millimetres, centred on the card,
x across the card (its short side), y along it; one homography takes that plane to the
frame. :class:`SceneParams` (vision.sceneparams) holds what stays fixed for a session;
:class:`Scene` precomputes the layers that do not change from card to card, so that a
frame is a few array copies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.sceneparams import CARD_HEIGHT_MM, Difficulty, SceneParams

__all__ = ["CARD_HEIGHT_MM", "Difficulty", "Layer", "Scene", "SceneParams", "index_margin"]


def index_margin(face: np.ndarray) -> float:
    """How far the corner indices sit from the long edges, as a fraction of the card's width.

    The lips may hide up to this much of the card without hiding an index (RIG.md: the
    indices stay visible).
    """
    bgr = face[:, :, :3]
    h, w = bgr.shape[:2]
    opaque = face[:, :, 3] > 128 if face.shape[2] == 4 else np.ones((h, w), bool)
    edge = max(2, round(0.02 * w))
    margin = 0.25
    for band in (np.s_[int(0.05 * h): int(0.3 * h), :], np.s_[int(0.7 * h): int(0.95 * h), ::-1]):
        ink = (bgr[band].min(axis=2) < 170) & opaque[band]
        cols = ink[:, edge: int(0.25 * w)].mean(axis=0)
        # A border line runs the whole band; an index does not.
        hits = np.flatnonzero((cols > 0.01) & (cols < 0.6))
        if hits.size:
            margin = min(margin, (hits[0] + edge) / w)
    return margin


def _blackbody_bgr(kelvin: float) -> np.ndarray:
    """Approximate sRGB of a black body (Tanner Helland's fit), as BGR in 0..1."""
    t = kelvin / 100.0
    r = 255.0 if t <= 66 else 329.7 * (t - 60) ** -0.1332
    g = 99.47 * math.log(t) - 161.1 if t <= 66 else 288.1 * (t - 60) ** -0.0755
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5 * math.log(t - 10) - 305.0)
    return np.clip(np.array([b, g, r]) / 255.0, 0.05, 1.0)


@dataclass(slots=True)
class Scene:
    """The fixed part of a session: homography, static layers and the light field."""

    params: SceneParams
    card_size_px: tuple[int, int]  # the face images' (width, height)
    rng: np.random.Generator
    homography: np.ndarray = field(init=False)  # face pixels -> frame pixels
    light: np.ndarray = field(init=False)  # float32 HxWx3 gain
    base: np.ndarray = field(init=False)  # lit uint8 frame: table, box, window floor
    cover: np.ndarray = field(init=False)  # uint8 mask: metal and lips in front of the card
    window: np.ndarray = field(init=False)  # uint8 mask: where a card in the box shows
    glare: np.ndarray = field(init=False)  # float32 HxW: the lamp's reflection on a card
    shade: np.ndarray = field(init=False)  # float32 HxW: the lips' shadow on the card
    mm_per_face_px: float = field(init=False)
    _scale: float = field(init=False)
    _lens_maps: tuple[np.ndarray, np.ndarray] | None = field(init=False, default=None)
    _shift: tuple[float, float] = field(init=False)

    def __post_init__(self) -> None:
        self.mm_per_face_px = CARD_HEIGHT_MM / self.card_size_px[1]
        self.homography = self._fit_homography()
        self.light = self._light_field()
        self.glare = self._glare_field()
        self._build_box()

    # -- geometry ---------------------------------------------------------------------------
    def _project_mm(self, points_mm: np.ndarray, scale: float = 1.0,
                    shift: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
        p = self.params
        w, h = p.frame_size
        tilt_x, tilt_y = p.tilt_deg
        rotation = _rotation(tilt_x, tilt_y, p.rotation_deg)
        pts = np.c_[points_mm, np.zeros(len(points_mm))] @ rotation.T
        z = p.camera_height_mm + pts[:, 2]
        f = scale * p.card_height_frac * h * p.camera_height_mm / CARD_HEIGHT_MM
        return np.c_[f * pts[:, 0] / z + w / 2 + shift[0], f * pts[:, 1] / z + h / 2 + shift[1]]

    def _fit_homography(self) -> np.ndarray:
        p = self.params
        w, h = p.frame_size
        fw, fh = self.card_size_px
        half = np.array([fw, fh]) * self.mm_per_face_px / 2
        corners_mm = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * half
        # Scale so the card's height in the picture (through the lens) is exactly the
        # fraction asked, then place it within the slack the frame leaves (the card stays
        # wholly in view). Barrel distortion shrinks it a little: two rounds correct that.
        target = p.card_height_frac * h
        scale, shift = 1.0, (0.0, 0.0)
        outline_mm = _outline(corners_mm)
        for _ in range(3):
            projected = self._project_mm(corners_mm, scale)
            lo, hi = projected.min(axis=0), projected.max(axis=0)
            margin = 0.02 * np.array([w, h])
            low, high = margin - lo, np.array([w, h]) - margin - hi  # shifts that keep it in
            mid, half_range = (low + high) / 2, np.maximum(0, (high - low) / 2)
            shift = (float(mid[0] + p.center_shift[0] * half_range[0]),
                     float(mid[1] + p.center_shift[1] * half_range[1]))
            seen = self.distort_points(self._project_mm(outline_mm, scale, shift))
            scale *= target / float(np.ptp(seen[:, 1]))
        self._scale, self._shift = float(scale), shift
        face_px = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
        dst = self._project_mm(corners_mm, scale, shift).astype(np.float32)
        return cv2.getPerspectiveTransform(face_px, dst)

    def distort_points(self, points: np.ndarray) -> np.ndarray:
        """Where the lens puts points of the ideal (pinhole) frame, in frame pixels."""
        pts = np.asarray(points, float)
        k = self.params.barrel
        if k <= 0:
            return pts
        w, h = self.params.frame_size
        centre, radius = np.array([w / 2, h / 2]), float(np.hypot(w, h) / 2)
        ideal = (pts - centre) / radius
        seen = ideal.copy()
        for _ in range(8):  # invert ideal = seen * (1 + k |seen|^2) / (1 + k) by fixed point
            seen = ideal * (1 + k) / (1 + k * (seen ** 2).sum(axis=1, keepdims=True))
        return seen * radius + centre

    def lens(self, image: np.ndarray) -> np.ndarray:
        """An ideal (pinhole) frame as the lens shows it: barrel distortion, the same
        magnification at the frame's corners and a little more towards its centre."""
        if self.params.barrel <= 0:
            return image
        if self._lens_maps is None:
            w, h = self.params.frame_size
            yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
            cx, cy, radius = w / 2, h / 2, float(np.hypot(w, h) / 2)
            r2 = ((xx - cx) ** 2 + (yy - cy) ** 2) / radius**2
            # Normalised so that the frame's corners stay put: nothing comes from outside.
            k = np.float32(self.params.barrel)
            gain = (1 + k * r2) / (1 + k)
            self._lens_maps = cv2.convertMaps(cx + (xx - cx) * gain, cy + (yy - cy) * gain,
                                              cv2.CV_16SC2)
        map1, map2 = self._lens_maps
        return cv2.remap(image, map1, map2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def card_outline(self, offset_px: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
        """Points along the card's edges as the camera sees them (through the lens)."""
        fw, fh = self.card_size_px
        corners = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], float)
        pts = cv2.perspectiveTransform(_outline(corners)[None].astype(np.float32),
                                       self.homography)[0]
        return self.distort_points(pts + np.asarray(offset_px))

    def mm_to_frame(self, points_mm: np.ndarray) -> np.ndarray:
        """Points on the box's top (mm from the card's centre) in frame pixels."""
        return self._project_mm(np.asarray(points_mm, float), self._scale, self._shift)

    def card_corners(self, offset_px: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
        """The card's four corners in the frame as the camera sees them (top-left,
        top-right, bottom-right, bottom-left of the face as warped)."""
        fw, fh = self.card_size_px
        pts = np.array([[[0, 0], [fw, 0], [fw, fh], [0, fh]]], np.float32)
        ideal = cv2.perspectiveTransform(pts, self.homography)[0] + np.asarray(offset_px)
        return self.distort_points(ideal)

    @property
    def px_per_mm(self) -> float:
        """Roughly, at the card's centre."""
        a, b = self.mm_to_frame(np.array([[0.0, -10.0], [0.0, 10.0]]))
        return float(np.hypot(*(b - a)) / 20.0)

    def slide_vector(self) -> np.ndarray:
        """Frame pixels per mm of the card sliding out towards the slot."""
        sign = 1.0 if self.params.slot_side == "right" else -1.0
        a, b = self.mm_to_frame(np.array([[0.0, 0.0], [sign * 10.0, 0.0]]))
        return (b - a) / 10.0

    # -- the box and the light -------------------------------------------------------------
    def _light_field(self) -> np.ndarray:
        p = self.params
        w, h = p.frame_size
        cast = _blackbody_bgr(p.colour_temp_k) / _blackbody_bgr(6500.0)
        cast = cast / cast.max()
        cast = (1 - p.white_balance) * cast + p.white_balance * np.ones(3)
        cast = cast / cast.mean()
        ang = math.radians(p.gradient_angle_deg)
        yy = np.arange(h, dtype=np.float32)[:, None] - h / 2
        xx = np.arange(w, dtype=np.float32)[None, :] - w / 2
        ramp = (xx * math.cos(ang) + yy * math.sin(ang)) / math.hypot(w, h)
        vignette = 1 - 0.25 * ((xx / w) ** 2 + (yy / h) ** 2)
        gain = (p.exposure * (1 + 2 * p.gradient * ramp) * vignette).astype(np.float32)
        return cv2.merge([gain * np.float32(c) for c in cast])

    def _glare_field(self) -> np.ndarray:
        p = self.params
        w, h = p.frame_size
        field_: np.ndarray = np.zeros((h, w), np.float32)
        if not p.glare:
            return field_
        fw, fh = self.card_size_px
        for gx, gy, radius, strength in p.glare:
            centre = cv2.perspectiveTransform(
                np.array([[[gx * fw, gy * fh]]], np.float32), self.homography)[0, 0]
            r = radius * fw * self.mm_per_face_px * self.px_per_mm
            spot = np.zeros((h, w), np.float32)
            cv2.ellipse(spot, (int(centre[0]), int(centre[1])), (int(r), int(r * 0.6)),
                        180.0 * gx, 0, 360, 1.0, -1)
            field_ += 255 * strength * cv2.GaussianBlur(spot, (0, 0), max(1.0, r / 2.5))
        return field_

    def _polygon_mask(self, rect_mm: tuple[float, float, float, float]) -> np.ndarray:
        x0, y0, x1, y1 = rect_mm
        pts = self.mm_to_frame(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
        w, h = self.params.frame_size
        mask = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(mask, np.round(pts * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
        return mask

    def _build_box(self) -> None:
        p = self.params
        fw, fh = self.card_size_px
        cw, ch = fw * self.mm_per_face_px / 2, fh * self.mm_per_face_px / 2
        lip_l, lip_r = p.lips_mm
        end_t, end_b = p.window_ends_mm
        window = (-cw + lip_l, -ch - end_t, cw - lip_r, ch + end_b)
        fwid = p.frame_width_mm
        outer = (window[0] - fwid, window[1] - 1.6 * fwid, window[2] + fwid, window[3] + 1.6 * fwid)
        self.window = self._polygon_mask(window)
        box = self._polygon_mask(outer)
        # Table cloth, its colour with a fine weave; dull metal, brushed along the box.
        # (cv2 arithmetic on 3-channel float32: numpy broadcasting is several times slower.)
        cloth = _planes(10 * self._texture(0.8, 0.8)) + np.array(p.cloth_bgr, np.float32)
        shine = 7 * self._texture(0.6, 20.0)
        if p.reflection > 0:
            along = window[1] + p.reflection_pos * (window[3] - window[1])
            streak = self._polygon_mask((outer[0], along - 4, outer[2], along + 4))
            shine += (170 * p.reflection / 255.0) * cv2.GaussianBlur(
                streak, (0, 0), 6).astype(np.float32)
        metal = _planes(shine) + np.array(p.metal_bgr, np.float32)
        b = _planes(box.astype(np.float32) / 255)
        wnd = _planes(self.window.astype(np.float32) / 255)
        scene = cv2.add(cloth, cv2.multiply(cv2.subtract(metal, cloth), b))
        # The box's dark floor shows past the card's short edges.
        scene = cv2.add(scene, cv2.multiply(np.float32(26.0) - scene, wnd))
        self.base = _to_uint8(cv2.multiply(scene, self.light))
        self.cover = cv2.bitwise_and(box, cv2.bitwise_not(self.window))
        # The lips stand a little above the card and shade a millimetre of it.
        inside = cv2.distanceTransform(self.window, cv2.DIST_L2, 3)
        self.shade = (1 - 0.3 * np.exp(-inside / (0.8 * self.px_per_mm))).astype(np.float32)

    def _texture(self, sigma_x: float, sigma_y: float) -> np.ndarray:
        """Unit noise blurred along x and y (float32 HxW), made at half size for speed."""
        w, h = self.params.frame_size
        noise = self.rng.standard_normal((h // 2, w // 2), dtype=np.float32)
        small: np.ndarray = cv2.GaussianBlur(noise, (0, 0), sigmaX=max(0.3, sigma_x / 2),
                                             sigmaY=max(0.3, sigma_y / 2))
        small /= max(1e-6, float(small.std()))
        return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)

    # -- layers -----------------------------------------------------------------------------
    def card_layer(self, face: np.ndarray, offset_px: tuple[float, float] = (0.0, 0.0)
                   ) -> Layer:
        """The face warped into the frame, lit, with the glare on it (upright as given)."""
        p = self.params
        w, h = p.frame_size
        bgra = face if face.shape[2] == 4 else _rounded_alpha(face)
        m = np.array([[1, 0, offset_px[0]], [0, 1, offset_px[1]], [0, 0, 1]]) @ self.homography
        fh, fw = bgra.shape[:2]
        corners = cv2.perspectiveTransform(
            np.array([[[0, 0], [fw, 0], [fw, fh], [0, fh]]], np.float32), m)[0]
        x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 2
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        # Warp only the card's bounding box: a third of the frame's pixels.
        m = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]]) @ m
        warped = cv2.warpPerspective(bgra, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        alpha = warped[:, :, 3].astype(np.float32) / 255.0
        light = self.light[y0:y1, x0:x1] * self.shade[y0:y1, x0:x1, None]
        colour = warped[:, :, :3].astype(np.float32) * light
        # Glare is the lamp mirrored in the glossy card: fixed in the frame, on the card only.
        colour += self.glare[y0:y1, x0:x1, None]
        return Layer(_to_uint8(colour), alpha, (int(x0), int(y0)))

    def thumb_sprite(self) -> Layer:
        """The dealer's thumb seen from above, lit, tip up; the hand runs off below it.

        Its ``origin`` is the tip's place in the sprite (to subtract when drawing)."""
        s = self.px_per_mm
        tw, th = int(21 * s), int(95 * s)
        yy, xx = np.mgrid[0:th, 0:tw].astype(np.float32)
        tip_r = tw / 2
        # A capsule: a round tip, then the thumb widening a little towards the hand.
        half = tip_r * (1 + 0.25 * np.clip((yy - tip_r) / th, 0, 1))
        dist = np.where(yy < tip_r, np.hypot(xx - tw / 2, yy - tip_r), np.abs(xx - tw / 2))
        alpha = np.clip((half - dist) / 1.5, 0, 1)
        across = np.clip(1 - ((xx - tw / 2) / half) ** 2, 0, 1)
        shade = (0.6 + 0.45 * np.sqrt(across))[:, :, None]
        colour: np.ndarray = np.array(self.params.skin_bgr, np.float32) * shade
        nail = ((xx - tw / 2) / (0.62 * tip_r)) ** 2 + ((yy - 1.1 * tip_r) / (0.9 * tip_r)) ** 2 < 1
        colour[nail] = colour[nail] * 0.55 + np.array([190, 200, 225], np.float32) * 0.45
        knuckle = np.abs(yy - 2.9 * tip_r) < 0.6
        colour[knuckle] *= 0.85
        mean_light = self.light.reshape(-1, 3).mean(axis=0)
        # Its soft shadow on the card, a little down and to the side, under the thumb.
        pad = int(5 * s)
        alpha = cv2.copyMakeBorder(alpha.astype(np.float32), pad, 0, pad, pad,
                                   cv2.BORDER_CONSTANT, value=0)
        colour = cv2.copyMakeBorder(colour, pad, 0, pad, pad, cv2.BORDER_CONSTANT, value=0)
        shift = np.array([[1, 0, 2.0 * s], [0, 1, 1.5 * s]], np.float32)
        shadow = cv2.warpAffine(alpha, shift, alpha.shape[::-1])
        shadow = 0.45 * cv2.GaussianBlur(shadow, (0, 0), 1.5 * s)
        combined = alpha + (1 - alpha) * shadow
        colour = colour * (alpha / np.maximum(combined, 1e-6))[:, :, None]
        return Layer(self.develop(_to_uint8(colour * mean_light)), combined.astype(np.float32),
                     (tw // 2 + pad, pad))

    def develop(self, image: np.ndarray) -> np.ndarray:
        """What the camera's processing does to a BGR image: its tone curve, saturation and
        sharpening (applied once per card, not per frame)."""
        p = self.params
        out = image
        if abs(p.gamma - 1.0) > 1e-3:
            lut = (255.0 * (np.arange(256) / 255.0) ** p.gamma + 0.5).astype(np.uint8)
            out = cv2.LUT(out, lut)
        if abs(p.saturation - 1.0) > 1e-3:
            grey = cv2.cvtColor(cv2.cvtColor(out, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
            out = cv2.addWeighted(out, p.saturation, grey, 1.0 - p.saturation, 0)
        if p.sharpen > 0:
            soft = cv2.GaussianBlur(out, (0, 0), 1.2)
            out = cv2.addWeighted(out, 1.0 + p.sharpen, soft, -p.sharpen, 0)
        return out

    def composite(self, under: np.ndarray, layer: Layer, visible: np.ndarray) -> np.ndarray:
        """A copy of ``under`` with ``layer`` on it where ``visible`` (uint8 mask) lets it show."""
        out = under.copy()
        x0, y0 = layer.origin
        lh, lw = layer.alpha.shape
        roi = np.s_[y0: y0 + lh, x0: x0 + lw]
        a = (layer.alpha * (visible[roi].astype(np.float32) / 255.0))[:, :, None]
        out[roi] = _to_uint8(out[roi].astype(np.float32) * (1 - a) + layer.colour * a)
        return out


@dataclass(frozen=True, slots=True)
class Layer:
    """A patch to lay over the frame: colour, alpha (0..1) and its top-left in the frame."""

    colour: np.ndarray
    alpha: np.ndarray
    origin: tuple[int, int]


def _outline(corners: np.ndarray, per_edge: int = 8) -> np.ndarray:
    """Points along a quadrilateral's four edges (its corners included)."""
    t = np.linspace(0, 1, per_edge, endpoint=False)[:, None]
    return np.concatenate([a + t * (b - a) for a, b in zip(corners, np.roll(corners, -1, axis=0),
                                                           strict=True)])


def _rotation(x_deg: float, y_deg: float, z_deg: float) -> np.ndarray:
    """The 3-D rotation about x, then y, then z (degrees)."""
    ax, ay, az = (math.radians(a) for a in (x_deg, y_deg, z_deg))
    cx, sx, cy, sy, cz, sz = (math.cos(ax), math.sin(ax), math.cos(ay), math.sin(ay),
                              math.cos(az), math.sin(az))
    rx = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    ry = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    return rx @ ry @ rz


def _planes(plane: np.ndarray) -> np.ndarray:
    """One float32 plane repeated as three channels."""
    return cv2.merge([plane, plane, plane])


def _to_uint8(image: np.ndarray) -> np.ndarray:
    return np.clip(image + 0.5, 0, 255).astype(np.uint8)


def _rounded_alpha(face: np.ndarray) -> np.ndarray:
    """A BGR face given rounded corners (radius 5 % of its width) as an alpha channel."""
    h, w = face.shape[:2]
    r = max(2, round(0.05 * w))
    mask = np.zeros((h * 4, w * 4), np.uint8)
    cv2.rectangle(mask, (4 * r, 0), (4 * (w - r), 4 * h), 255, -1)
    cv2.rectangle(mask, (0, 4 * r), (4 * w, 4 * (h - r)), 255, -1)
    for cx, cy in ((r, r), (w - r, r), (r, h - r), (w - r, h - r)):
        cv2.circle(mask, (4 * cx, 4 * cy), 4 * r, 255, -1)
    mask = cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA)
    return np.dstack([face, mask])
