"""Writes a photo as short videos in the containers that cameras, camcorders and older phones use, through
the FFmpeg muxers of OpenCV's wheel, and prints their manifest as JSON.

Usage: video_containers.py OUTPUT_DIR PHOTO FRAMES
  For each container, `clip.<extension>` holds FRAMES frames of PHOTO (MPEG-4 Part 2, 5 frames a second):
  an MPEG transport stream (`.ts`; `.mts` as AVCHD camcorders name it; `.m2ts`, Blu-ray's 192-byte
  packets), 3GP, Flash video and Windows Media (ASF). The manifest gives, per file, the frames that OpenCV
  reads back from it: the truth for a reader's frame count.
"""

import json
import pathlib
import sys

import cv2

CONTAINERS = [("ts", "mp4v"), ("mts", "mp4v"), ("m2ts", "mp4v"), ("3gp", "mp4v"), ("flv", "FLV1"), ("wmv", "WMV2")]


def main():
    folder, photo, count = pathlib.Path(sys.argv[1]), cv2.imread(sys.argv[2]), int(sys.argv[3])
    height, width = photo.shape[:2]
    manifest = []
    for extension, codec in CONTAINERS:
        path = folder / f"clip.{extension}"
        writer = cv2.VideoWriter(str(path), cv2.CAP_FFMPEG, cv2.VideoWriter_fourcc(*codec), 5, (width, height))
        if not writer.isOpened():
            sys.exit(f"OpenCV's FFmpeg cannot write {path.name}")
        for _ in range(count):
            writer.write(photo)
        writer.release()
        capture = cv2.VideoCapture(str(path), cv2.CAP_FFMPEG)
        frames = 0
        while capture.read()[0]:
            frames += 1
        manifest.append({"file": path.name, "frames": frames})
    print(json.dumps(manifest))


if __name__ == "__main__":
    main()
