#!/usr/bin/env python3
"""Builds eval/data/tracking/ from OTB-100 sequences as published (eval/README.md says where they come from).

Usage: make_tracking_data.py SOURCE [OUT]. SOURCE holds one folder per sequence as the benchmark ships it:
`<Name>/img/0001.jpg…` and `<Name>/groundtruth_rect.txt` (x,y,width,height per frame, comma- or
tab-separated). For each sequence in SEQUENCES the frames `first`…`last` (1-based, inclusive) are written,
at their own size, into one Motion-JPEG AVI (`<name>.avi`, JPEG quality 90) that both the `track` command and
OpenCV's Python trackers decode with FFmpeg, and their ground-truth lines into `<name>.txt` (x,y,width,height,
comma-separated, one line per written frame, unchanged). Needs opencv-python (the eval-venv has it).
"""
import pathlib
import re
import sys

import cv2

# name: (OTB folder, first frame, last frame). At most ~300 frames a sequence; OTB's attributes for each
# are in eval/README.md.
SEQUENCES = {
    "crossing": ("Crossing", 1, 120),
    "girl": ("Girl", 201, 500),
    "jumping": ("Jumping", 55, 313),  # frame 54 is missing from the copy taken
    "skiing": ("Skiing", 1, 81),
    "biker": ("Biker", 1, 142),
    "motorrolling": ("MotorRolling", 1, 164),
}
QUALITY = 90


def ground_truth(path):
    rows = []
    for line in path.read_text().splitlines():
        if line.strip():
            rows.append([float(v) for v in re.split(r"[,\s]+", line.strip())[:4]])
    return rows


def main():
    source = pathlib.Path(sys.argv[1])
    out = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else pathlib.Path(__file__).resolve().parent / "data" / "tracking"
    out.mkdir(parents=True, exist_ok=True)
    for name, (folder, first, last) in SEQUENCES.items():
        boxes = ground_truth(source / folder / "groundtruth_rect.txt")
        frames = [source / folder / "img" / f"{i:04d}.jpg" for i in range(first, last + 1)]
        missing = [f for f in frames if not f.exists()]
        if missing or len(boxes) < last:
            sys.exit(f"{folder}: {len(missing)} frames missing, {len(boxes)} ground-truth lines for {last} frames")
        height, width = cv2.imread(str(frames[0])).shape[:2]
        writer = cv2.VideoWriter(str(out / f"{name}.avi"), cv2.CAP_FFMPEG, cv2.VideoWriter_fourcc(*"MJPG"), 30, (width, height))
        writer.set(cv2.VIDEOWRITER_PROP_QUALITY, QUALITY)
        for frame in frames:
            image = cv2.imread(str(frame))
            if image.shape[:2] != (height, width):
                sys.exit(f"{frame}: size {image.shape[1]}x{image.shape[0]}, not {width}x{height}")
            writer.write(image)
        writer.release()
        lines = [",".join(f"{v:g}" for v in box) for box in boxes[first - 1 : last]]
        (out / f"{name}.txt").write_text("\n".join(lines) + "\n")
        print(f"{name}: {len(frames)} frames {width}x{height}, {(out / f'{name}.avi').stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
