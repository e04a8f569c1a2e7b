"""What the camera's optics and sensor add: defocus, motion smear, noise and JPEG, and
pasting moving things (the thumb, a sliding card) into a frame. Fast paths only: these run
for every simulated frame."""

from __future__ import annotations

import cv2
import numpy as np

from vision.scene import Layer

__all__ = ["NOISE_SPARE_ROWS", "add_noise", "defocus", "draw_sprite", "jpeg", "noise_pair",
           "paste_moving", "smear"]


def draw_sprite(frame: np.ndarray, sprite: Layer, tip: np.ndarray) -> None:
    """Blend the thumb into ``frame`` in place, its tip at ``tip`` (frame pixels)."""
    th, tw = sprite.alpha.shape
    x0, y0 = int(tip[0]) - sprite.origin[0], int(tip[1]) - sprite.origin[1]
    fh, fw = frame.shape[:2]
    xa, ya, xb, yb = max(0, x0), max(0, y0), min(fw, x0 + tw), min(fh, y0 + th)
    if xa >= xb or ya >= yb:
        return
    src = np.s_[ya - y0: yb - y0, xa - x0: xb - x0]
    a = sprite.alpha[src][:, :, None]
    region = frame[ya:yb, xa:xb].astype(np.float32)
    frame[ya:yb, xa:xb] = (region * (1 - a) + sprite.colour[src] * a + 0.5).astype(np.uint8)


def defocus(image: np.ndarray, sigma: float) -> np.ndarray:
    return cv2.GaussianBlur(image, (0, 0), sigma) if sigma >= 0.3 else image


def smear(image: np.ndarray, shake: tuple[float, float]) -> np.ndarray:
    """``image`` as a camera moving ``shake[0]`` pixels at ``shake[1]`` degrees during the
    exposure sees it: averaged along that line."""
    length, angle = shake
    if length < 1.0:
        return image
    half = int(np.ceil(length / 2))
    kernel = np.zeros((2 * half + 1, 2 * half + 1), np.float32)
    step = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
    for t in np.linspace(-length / 2, length / 2, 4 * half + 1):
        x, y = half + t * step  # a line drawn with subpixel weights
        x0, y0 = int(np.floor(x)), int(np.floor(y))
        fx, fy = x - x0, y - y0
        for dx, dy, wgt in ((0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)),
                            (0, 1, (1 - fx) * fy), (1, 1, fx * fy)):
            if 0 <= x0 + dx < kernel.shape[1] and 0 <= y0 + dy < kernel.shape[0]:
                kernel[y0 + dy, x0 + dx] += wgt
    return cv2.filter2D(image, -1, kernel / kernel.sum(), borderType=cv2.BORDER_REPLICATE)


NOISE_SPARE_ROWS = 64


def noise_pair(rng: np.random.Generator, sigma: float, shape: tuple[int, ...]
                ) -> tuple[np.ndarray, np.ndarray]:
    """Gaussian noise split into what it adds and what it takes away, as uint8 (two
    saturating OpenCV calls apply it, much faster than signed arithmetic), with spare rows
    so that one field gives many different frames."""
    noise = rng.standard_normal((shape[0] + NOISE_SPARE_ROWS, *shape[1:]), dtype=np.float32)
    noise *= np.float32(sigma)
    return (np.clip(noise, 0, 255).astype(np.uint8), np.clip(-noise, 0, 255).astype(np.uint8))


def add_noise(image: np.ndarray, noise: tuple[np.ndarray, np.ndarray], start: int = 0
               ) -> np.ndarray:
    """``image`` plus a noise field, read from row ``start`` of it."""
    h = image.shape[0]
    plus, minus = noise[0][start: start + h], noise[1][start: start + h]
    return cv2.subtract(cv2.add(image, plus), minus)


def jpeg(image: np.ndarray, quality: int | None) -> np.ndarray:
    if quality is None:
        return image
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return decoded if decoded is not None else image


def paste_moving(frame: np.ndarray, colour: np.ndarray, mask: np.ndarray,
                 origin: tuple[int, int], shift: np.ndarray, blur: int, visible: np.ndarray
                 ) -> None:
    """Paste a card patch (its top-left at ``origin``) moved by ``shift`` pixels and smeared
    along it by ``blur`` pixels into ``frame`` where ``visible`` lets it show, in place."""
    if blur >= 3:
        k = blur | 1
        size = (k, 1) if abs(shift[0]) >= abs(shift[1]) else (1, k)
        colour, mask = cv2.blur(colour, size), cv2.blur(mask, size)
        mask = cv2.threshold(mask, 127, 255, cv2.THRESH_BINARY)[1]
    fh, fw = frame.shape[:2]
    x0, y0 = origin[0] + round(float(shift[0])), origin[1] + round(float(shift[1]))
    h, w = mask.shape
    xa, ya, xb, yb = max(0, x0), max(0, y0), min(fw, x0 + w), min(fh, y0 + h)
    if xa >= xb or ya >= yb:
        return
    src = np.s_[ya - y0: yb - y0, xa - x0: xb - x0]
    show = cv2.bitwise_and(mask[src], visible[ya:yb, xa:xb])
    cv2.copyTo(colour[src], show, frame[ya:yb, xa:xb])


# --- single frames and videos ---------------------------------------------------------------
