"""The card's four sides: fitted to the bright region's outline, then found exactly at the
card's edge in the full-resolution frame (vision.locate finds the region).

Nothing here needs all four corners: the lips of the box hide corners and shave the long
sides, and print or a glare at the edge bites into the outline. Each side is a robust line
through the middle of its run.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["fit_quad", "near_picture_edges", "refine_sides", "rough_sides"]

#: How far (full-resolution pixels) the exact edge may lie from the rough outline.
_SEARCH = 14
#: Where along each side (shares of its run) refine_sides looks across it.
_ALONG = np.linspace(0.15, 0.85, 18, dtype=np.float32)
#: A point this close (pixels) to an edge of the picture is at it: a side whose both ends
#: are is that edge, and the card runs on past it (a camera set off centre, vision.locate).
_AT_PICTURE_EDGE = 8


def fit_quad(hull: np.ndarray) -> np.ndarray:
    """The quadrilateral that fits a convex hull; the min-area rectangle if none does."""
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.02, 0.03, 0.04, 0.06, 0.08):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32)
    return cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)


def _robust_line(t: np.ndarray, s: np.ndarray, tol: float, outward: float = 0.0,
                 slope: float | None = None) -> tuple[float, float, int] | None:
    """The line s = a t + b that most points lie within ``tol`` of (a small RANSAC over
    pairs of points half the run apart, or over single points for a given ``slope``),
    refitted by least squares on those points.

    A few wrong points (a pip touching the edge, a missing corner, a glare) do not tilt it.
    ``outward`` (+1 or -1) is the side no point of an outline should lie beyond: print at
    the edge only bites into it, so a line with points beyond it is cut through bays.
    """
    n = len(t)
    if n < 6:
        return None
    if slope is None:
        i = np.arange(0, n - n // 2)
        j = i + n // 2
        dt = t[j] - t[i]
        ok = np.abs(dt) > 1e-6
        if not ok.any():
            return None
        a = (s[j][ok] - s[i][ok]) / dt[ok]
        b = s[i][ok] - a * t[i][ok]
    else:
        a = np.full(n, slope, np.float32)
        b = s - a * t
    residual = s[None, :] - (a[:, None] * t[None, :] + b[:, None])
    inliers = np.abs(residual) <= tol
    beyond = outward * residual > tol
    best = int((inliers.sum(axis=1) - 2 * beyond.sum(axis=1)).argmax())
    keep = inliers[best]
    if keep.sum() < 4:
        return None
    if slope is not None:
        return slope, float(np.mean(s[keep] - slope * t[keep])), int(keep.sum())
    # Least squares in closed form (np.polyfit gives the same line, some 2.5 times slower).
    # The means as sums over the count: numpy's mean() costs more than the rest on so few.
    tk, sk = t[keep].astype(np.float64), s[keep].astype(np.float64)
    t_mean, s_mean = float(tk.sum()) / len(tk), float(sk.sum()) / len(sk)
    dt = tk - t_mean
    fitted = float((dt * (sk - s_mean)).sum() / max(float((dt * dt).sum()), 1e-12))
    return fitted, s_mean - fitted * t_mean, len(tk)


#: How far apart the slopes of opposite sides may be (the camera's tilt makes them
#: converge; the long sides less than the short ones). Measured on simulated frames.
_SLOPE_SPREAD = (0.2, 0.3)
#: The share of a side's run that its fitted line must pass through; and, with a hand on
#: the card, the smaller share enough when the line takes its slope from the opposite side
#: (a thumb hid some 60% of the run of a bottom side in simulated frames).
_SIDE_SHARE = 0.4
_UNDER_HAND_SHARE = 0.25


def rough_sides(region: np.ndarray, hidden: np.ndarray | None = None) -> np.ndarray | None:
    """Corners of the region's four sides, each a line through its outermost pixels.

    The card stands within some 16 degrees of upright, so its left side is the leftmost
    pixel of each row, its top the topmost of each column, and so on. Only the middle of
    each side counts (rounded or hidden corners), and a robust fit ignores bays (an index
    or a pip printed at the edge) and bumps. ``hidden``, given where a hand runs off the
    picture, is what was cut off the region: a side is not fitted where it lay beyond.
    """
    x0, y0, width, height = cv2.boundingRect(region)
    if width == 0:
        return None
    x1, y1 = x0 + width - 1, y0 + height - 1
    sloped_share = _SIDE_SHARE if hidden is None else _UNDER_HAND_SHARE
    lines = []
    for axis in (0, 1):  # rows (left, right sides), then columns (top, bottom)
        lo_, hi_ = (y0, y1) if axis == 0 else (x0, x1)
        span = hi_ - lo_
        t = np.arange(lo_ + round(0.15 * span), hi_ - round(0.15 * span) + 1)
        strip = region[t, :] if axis == 0 else region[:, t].T
        has = strip.any(axis=1)
        t = t[has]
        strip = strip[has]
        first = strip.argmax(axis=1).astype(np.float32)
        last = (strip.shape[1] - 1 - strip[:, ::-1].argmax(axis=1)).astype(np.float32)
        ends, outward = (first, last), (-1.0, 1.0)
        seen = [np.ones(len(t), bool), np.ones(len(t), bool)]
        if hidden is not None:
            cut = hidden[t, :] if axis == 0 else hidden[:, t].T
            any_cut = cut.any(axis=1)
            seen = [~any_cut | (cut.argmax(axis=1) > first),
                    ~any_cut | (cut.shape[1] - 1 - cut[:, ::-1].argmax(axis=1) < last)]
        tf = t.astype(np.float32)
        fits = [_robust_line(tf[s], e[s], 1.5, o)
                for s, e, o in zip(seen, ends, outward, strict=True)]
        counts = [0 if fit is None else fit[2] for fit in fits]
        weak = int(counts[0] >= counts[1])
        strong = fits[1 - weak]
        need = _SIDE_SHARE * len(t)
        if strong is None or counts[1 - weak] < need:
            return None
        weaker = fits[weak]
        if weaker is None or weaker[2] < need or abs(weaker[0] - strong[0]) > _SLOPE_SPREAD[axis]:
            # The weaker side was fitted through bays or bumps, or a thumb's notch takes
            # much of it: give it its opposite's slope, and fewer points then fix its place.
            on = seen[weak]
            weaker = _robust_line(tf[on], ends[weak][on], 1.5, outward[weak], slope=strong[0])
            need = sloped_share * len(t)
            if weaker is None or weaker[2] < need:
                return None
        fits[weak] = weaker
        lines += [(fit[0], fit[1]) for fit in fits if fit is not None]
    # Sides in order left, right, top, bottom -> corners TL, TR, BR, BL.
    (al, bl), (ar, br), (at, bt), (ab, bb) = lines

    def meet(a_v: float, b_v: float, a_h: float, b_h: float) -> tuple[float, float]:
        # x = a_v y + b_v and y = a_h x + b_h.
        y = (a_h * b_v + b_h) / max(1.0 - a_h * a_v, 1e-6)
        return a_v * y + b_v, y

    return np.array([meet(al, bl, at, bt), meet(ar, br, at, bt), meet(ar, br, ab, bb),
                     meet(al, bl, ab, bb)], dtype=np.float32) + 0.5


def refine_sides(lightness: np.ndarray, quad: np.ndarray, inward: int = _SEARCH,
                 outward: int = _SEARCH) -> np.ndarray | None:
    """Corners where the four sides, found at full resolution, meet.

    Each side is searched along short profiles across the rough outline (``inward``
    pixels into the card, ``outward`` out of it) for the steepest fall from the card's white
    to the darker box; a rounded corner or a lip does not move the fitted line, and a
    line fitted through many points is sub-pixel exact. None where a side shows too
    little edge, or the sides meet far from the rough corners. A side along an edge of the
    picture stays where it is: the card's own edge lies out of sight beyond it.
    """
    centre = quad.mean(axis=0)
    offsets = np.arange(-inward, outward + 1, dtype=np.float32)
    bases, normals = [], []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        side = b - a
        length = float(np.linalg.norm(side))
        normal = np.array([-side[1], side[0]], dtype=np.float32) / max(length, 1e-6)
        if np.dot((a + b) / 2 - centre, normal) < 0:
            normal = -normal  # point outward
        bases.append(a[None, :] + _ALONG[:, None] * side[None, :])
        normals.append(normal)
    # All four sides' profiles in one pass (one row per profile, _ALONG rows a side).
    base, normal = np.concatenate(bases), np.repeat(normals, len(_ALONG), axis=0)
    xy = base[:, None, :] + offsets[None, :, None] * normal[:, None, :]
    profiles = cv2.remap(
        lightness, xy[..., 0], xy[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    ).astype(np.float32)
    # Over two pixels: one pixel's step is mostly sensor noise and JPEG ringing.
    fall = np.zeros_like(profiles)
    fall[:, 1:-1] = profiles[:, :-2] - profiles[:, 2:]
    # The outermost strong fall, not the steepest: a border line printed just inside
    # the card's edge falls more steeply (black on white) than the card onto the metal.
    peak = fall.max(axis=1, keepdims=True)
    candidates = (fall >= 0.5 * peak) & (fall > 6.0)
    steepest = fall.shape[1] - 1 - np.argmax(candidates[:, ::-1], axis=1)
    strong = candidates[np.arange(len(fall)), steepest]
    hits = base + offsets[steepest][:, None] * normal
    lines = []
    for i, side_rows in enumerate(np.split(np.arange(len(fall)), 4)):
        if near_picture_edges(quad[[i, (i + 1) % 4]], lightness.shape).all(axis=0).any():
            # No edge to find: a search across it once settled on the print or the noise
            # within, and tilted the sides it meets.
            side = quad[(i + 1) % 4] - quad[i]
            lines.append((quad[i].astype(np.float64), side / max(float(np.linalg.norm(side)),
                                                                  1e-6)))
            continue
        on = side_rows[strong[side_rows]]
        if len(on) < 6:
            return None
        vx, vy, x0, y0 = cv2.fitLine(hits[on].astype(np.float32), cv2.DIST_HUBER, 0, 0.01,
                                     0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    corners = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        det = d1[1] * d2[0] - d1[0] * d2[1]
        if abs(det) < 1e-6:
            return None
        diff = p2 - p1
        t = (diff[1] * d2[0] - diff[0] * d2[1]) / det
        corners.append(p1 + t * d1)
    refined = np.array(corners, dtype=np.float32)
    # A wild intersection means a side locked onto something else.
    if np.abs(refined - quad).max() > 1.5 * max(inward, outward):
        return None
    return refined


def near_picture_edges(points: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """For each point (x, y), whether it lies at the picture's left, right, top and bottom
    edge (n x 4 bool), in a picture of ``shape``."""
    h, w = shape[:2]
    xs, ys = np.asarray(points, np.float32).T
    near = _AT_PICTURE_EDGE
    return np.stack([xs < near, xs > w - 1 - near, ys < near, ys > h - 1 - near], axis=1)
