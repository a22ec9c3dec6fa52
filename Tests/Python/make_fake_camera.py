"""Makes a .y4m file for Chromium's fake camera (--use-file-for-fake-video-capture).

The video is a slow, seamless pan and zoom across a still photo: 640x480, 30 fps, 4:2:0
(`YUV4MPEG2 W640 H480 F30:1 Ip A1:1 C420jpeg`, then `FRAME\n` and the Y, U, V planes of each
frame). The motion is one period of a sine, so the loop Chromium plays has no jump. Deterministic:
the same photo gives the same bytes.

    python Tests/Python/make_fake_camera.py PHOTO OUT.y4m [--frames 90]
"""
from __future__ import annotations

import argparse
import math
from pathlib import Path

import cv2
import numpy as np

WIDTH, HEIGHT, FPS = 640, 480, 30

# Where to look in zidane.jpg (1280x720): both faces (x 540..1070, y 120..435) stay in view.
ZIDANE_CENTER = (805.0, 300.0)


def crops(image_size: tuple[int, int], frames: int, center: tuple[float, float] | None = None,
          width: float | None = None, pan: float | None = None, zoom: float = 0.06):
    """One (x0, y0, w, h) 4:3 crop per frame: a pan left and right and a gentle zoom in and out."""
    iw, ih = image_size
    aspect = WIDTH / HEIGHT
    if width is None:
        width = min(iw, ih * aspect) * 0.9
    if center is None:
        center = (iw / 2, ih / 2)
    if pan is None:
        pan = width * 0.08
    for i in range(frames):
        t = 2 * math.pi * i / frames
        w = width * (1 - zoom * (1 - math.cos(t)) / 2)
        h = w / aspect
        cx = center[0] + pan * math.sin(t)
        cy = center[1] + 0.25 * pan * math.sin(2 * t)
        x0 = min(max(cx - w / 2, 0.0), iw - w)
        y0 = min(max(cy - h / 2, 0.0), ih - h)
        yield x0, y0, w, h


def render(image: np.ndarray, crop: tuple[float, float, float, float]) -> np.ndarray:
    """The crop resampled to WIDTH x HEIGHT (sub-pixel, so the motion is smooth)."""
    x0, y0, w, h = crop
    sx, sy = w / WIDTH, h / HEIGHT
    m = np.array([[sx, 0, x0], [0, sy, y0]], dtype=np.float64)
    return cv2.warpAffine(image, m, (WIDTH, HEIGHT), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)


def write_y4m(photo: Path, out: Path, frames: int = 90) -> Path:
    """Writes the fake-camera video of `photo` to `out`; returns `out`."""
    image = cv2.imread(str(photo), cv2.IMREAD_COLOR)
    if image is None:
        raise FileNotFoundError(f"cannot read {photo}")
    ih, iw = image.shape[:2]
    if photo.name == "zidane.jpg" and (iw, ih) == (1280, 720):
        motion = crops((iw, ih), frames, center=ZIDANE_CENTER, width=720.0, pan=50.0)
    else:
        motion = crops((iw, ih), frames)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "wb") as f:
        f.write(f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F{FPS}:1 Ip A1:1 C420jpeg\n".encode("ascii"))
        for crop in motion:
            frame = render(image, crop)
            i420 = cv2.cvtColor(frame, cv2.COLOR_BGR2YUV_I420)  # Y plane, then U, then V: (H*3/2, W)
            assert i420.shape == (HEIGHT * 3 // 2, WIDTH)
            f.write(b"FRAME\n")
            f.write(i420.tobytes())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photo", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--frames", type=int, default=90)
    args = parser.parse_args()
    write_y4m(args.photo, args.out, args.frames)
    print(args.out)


if __name__ == "__main__":
    main()
