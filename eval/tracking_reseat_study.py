#!/usr/bin/env python3
"""Study for issue 30 (eval/README.md, "Seeded tracking"): could a search of the whole frame with the learned
embedder put a tracker that drifted off its object back on it?

A window's score is the embedding cosine to the seed box minus the highest cosine to 16 boxes of the seed frame
1 and 1.5 seed sizes away in 8 directions ("diff"; the embeddings task's EfficientNet-Lite0 through MediaPipe's
ImageEmbedder, each box stretched to 224×224). The best window of a grid (stride half a window) is then refined:
shifts of a quarter of its size and sizes ×0.8 and ×1.25, kept while the score rises (two rounds).

Usage:
  tracking_reseat_study.py frames [--data FOLDER] [--step 10] [--cap 120] [--sizes 1|2] [--spread]
      every STEP-th frame of each NAME.avi/NAME.txt in FOLDER (default: the DEV set) whose truth is at least
      half inside the frame: windows of the truth's size STEP frames before, over the frame (past CAP windows,
      over a square round that earlier box); prints, per sequence and per bar, how often the best window scores
      at or above the bar and lands on the object (IoU >= 0.3), partly (0.1-0.3) or on background (< 0.1), and
      how often the best window clear of the truth box, refined too while it stays clear, reaches the bar (a
      re-seat if the object were gone). --sizes 2: windows of that size ×1 and ×0.75; --spread: over the whole
      frame, the stride grown to keep about CAP windows of each size.
  tracking_reseat_study.py events VIDEO TRUTH TRACK_JSONL [--bar 0.15] [--tracker csrt|kcf]
      for each run of frames that `swiftvision track --json` (TRACK_JSONL) reports lost: the score of the
      reported box's part inside the frame, then from its first frame a search each frame (windows of the
      reported box's size ×1, ×0.75, ×0.5 over the whole frame) until the refined best window reaches the bar,
      OpenCV's CSRT (or KCF, for the fast level's output) restarted there and run to the end of the run;
      prints the IoU with the truth per frame.
Only looks at the frames; sets nothing. Needs the eval-venv (mediapipe, opencv-contrib-python).
"""
import json
import os
import pathlib
import sys

import cv2
import mediapipe as mp
import numpy as np
from mediapipe.tasks import python as mp_tasks
from mediapipe.tasks.python import vision

CACHE = pathlib.Path(os.environ.get("SWIFTVISION_CACHE", pathlib.Path.home() / ".cache/swiftvision"))
MODEL = CACHE / "models" / "efficientnet_lite0_embedder.tflite"
BARS = (0.05, 0.1, 0.12, 0.15, 0.2)


class Scorer:
    """Scores windows of a frame against a seed box and its seed frame's surroundings."""

    def __init__(self, frame, seed):
        options = vision.ImageEmbedderOptions(
            base_options=mp_tasks.BaseOptions(model_asset_path=str(MODEL)), l2_normalize=True)
        self.embedder = vision.ImageEmbedder.create_from_options(options)
        height, width = frame.shape[:2]
        self.seed = self.embed(frame, seed)
        around = [(seed[0] + dx * k * seed[2], seed[1] + dy * k * seed[3], seed[2], seed[3])
                  for k in (1.0, 1.5) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))]
        inside = [b for b in around if b[0] >= 0 and b[1] >= 0 and b[0] + b[2] <= width and b[1] + b[3] <= height]
        self.background = np.array([self.embed(frame, b) for b in inside]) if inside else None

    def embed(self, frame, box):
        x, y, w, h = (int(round(v)) for v in box)
        crop = cv2.resize(frame[y:y + h, x:x + w], (224, 224), interpolation=cv2.INTER_LINEAR)
        image = mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(crop[:, :, ::-1]))
        return np.array(self.embedder.embed(image).embeddings[0].embedding, dtype=np.float32)

    def scores(self, frame, boxes):
        vectors = np.array([self.embed(frame, b) for b in boxes])
        near = (vectors @ self.background.T).max(axis=1) if self.background is not None else 0
        return vectors @ self.seed - near

    def refine(self, frame, box):
        """The window near `box` with the highest score, and that score."""
        height, width = frame.shape[:2]
        best, best_score = tuple(box), float(self.scores(frame, [box])[0])
        for _ in range(2):
            x, y, w, h = best
            candidates = []
            for scale in (0.8, 1.0, 1.25):
                sw, sh = min(w * scale, width), min(h * scale, height)
                for dx in (-0.25, 0, 0.25):
                    for dy in (-0.25, 0, 0.25):
                        cx, cy = x + w / 2 + dx * w, y + h / 2 + dy * h
                        c = (max(0, min(width - sw, cx - sw / 2)), max(0, min(height - sh, cy - sh / 2)), sw, sh)
                        if c != best and sw >= 8 and sh >= 8:
                            candidates.append(c)
            values = self.scores(frame, candidates)
            i = int(np.argmax(values))
            if values[i] <= best_score:
                break
            best, best_score = candidates[i], float(values[i])
        return best, best_score


def iou(a, b):
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return 0.0 if w <= 0 or h <= 0 else w * h / (a[2] * a[3] + b[2] * b[3] - w * h)


def grid(width, height, size, centre=None, cap=None, spread=False):
    """Windows of `size` with a stride of half a window over the frame; when the frame holds more than `cap`,
    over a square round `centre` holding about `cap` of them, or (`spread`) over the whole frame with the
    stride grown until about `cap` remain."""
    w, h = max(8.0, min(size[0], width)), max(8.0, min(size[1], height))
    sx, sy = w / 2, h / 2
    x0, x1, y0, y1 = 0.0, width - w, 0.0, height - h
    count = (int(x1 // sx) + 1) * (int(y1 // sy) + 1)
    if cap and spread and count > cap:
        grow = np.sqrt(count / cap)
        sx, sy = sx * grow, sy * grow
    elif cap and count > cap:
        k = int(np.sqrt(cap)) // 2
        x0, x1 = max(0.0, centre[0] - w / 2 - k * sx), min(width - w, centre[0] - w / 2 + k * sx)
        y0, y1 = max(0.0, centre[1] - h / 2 - k * sy), min(height - h, centre[1] - h / 2 + k * sy)
    return [(x, y, w, h) for y in np.arange(y0, y1 + 1e-6, sy) for x in np.arange(x0, x1 + 1e-6, sx)]


def read(video, truth):
    capture = cv2.VideoCapture(str(video))
    frames = []
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        frames.append(frame)
    boxes = [[float(v) for v in line.replace("\t", ",").split(",")[:4]] for line in open(truth) if line.strip()]
    return frames, boxes


def kind(overlap):
    return "on" if overlap >= 0.3 else "partly" if overlap >= 0.1 else "off"


def study_frames(folder, step, cap, sizes, spread):
    rows = []
    for video in sorted(pathlib.Path(folder).glob("*.avi")):
        frames, truth = read(video, video.with_suffix(".txt"))
        height, width = frames[0].shape[:2]
        scorer = Scorer(frames[0], truth[0])
        for t in range(step, len(frames), step):
            g = truth[t]
            inside = max(0, min(g[0] + g[2], width) - max(g[0], 0)) * max(0, min(g[1] + g[3], height) - max(g[1], 0))
            if g[2] <= 0 or g[3] <= 0 or inside < g[2] * g[3] / 2:
                continue
            before = truth[t - step]
            centre = (before[0] + before[2] / 2, before[1] + before[3] / 2)
            windows = [b for k in (1, 0.75)[:sizes] for b in grid(width, height, (before[2] * k, before[3] * k), centre, cap, spread)]
            values = scorer.scores(frames[t], windows)
            overlaps = np.array([iou(b, g) for b in windows])
            best, score = scorer.refine(frames[t], windows[int(np.argmax(values))])
            off = np.flatnonzero(overlaps == 0)
            off_score = float(values[off].max()) if len(off) else -1.0
            if len(off):
                # The best window clear of the object, refined as a re-seat would be, while it stays clear of it.
                moved, moved_score = scorer.refine(frames[t], windows[off[int(np.argmax(values[off]))]])
                off_score = max(off_score, moved_score) if iou(moved, g) == 0 else off_score
            rows.append((video.stem, score, iou(best, g), off_score))
            print(video.stem, t, "best %.3f IoU %.2f, best off the object %.3f" % rows[-1][1:], flush=True)
    print("\nsequence, frames, best window on / partly / off the object")
    for name in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == name]
        print(name, len(mine), *(sum(kind(r[2]) == k for r in mine) for k in ("on", "partly", "off")))
    print("\nbar: re-seats (on / partly / off the object) of N frames; best window off the object at the bar")
    for bar in BARS:
        seated = [r for r in rows if r[1] >= bar]
        counts = [sum(kind(r[2]) == k for r in seated) for k in ("on", "partly", "off")]
        print("%.2f: %d (%d / %d / %d) of %d; %d" % (bar, len(seated), *counts, len(rows), sum(r[3] >= bar for r in rows)))


def study_events(video, truth_file, track_file, bar, make_tracker):
    frames, truth = read(video, truth_file)
    height, width = frames[0].shape[:2]
    tracks = [json.loads(line)["tracks"][0] for line in open(track_file)]
    scorer = Scorer(frames[0], truth[0])
    t, overlaps = 0, {}
    while t < len(frames):
        if not tracks[t]["lost"]:
            t += 1
            continue
        b = tracks[t]["boundingBox"]
        x0, y0 = max(0, b["x"]), max(0, b["y"])
        x1, y1 = min(width, b["x"] + b["width"]), min(height, b["y"] + b["height"])
        look = float(scorer.scores(frames[t], [(x0, y0, x1 - x0, y1 - y0)])[0]) if min(x1 - x0, y1 - y0) >= 8 else None
        print("lost from frame", t, "- the reported box's part inside scores", look)
        tracker = None
        while t < len(frames) and tracks[t]["lost"]:
            if tracker is None:
                windows = [w for s in (1, 0.75, 0.5) for w in grid(width, height, (b["width"] * s, b["height"] * s))]
                values = scorer.scores(frames[t], windows)
                best, score = scorer.refine(frames[t], windows[int(np.argmax(values))])
                overlaps[t] = 0.0
                if score >= bar:
                    seat = tuple(int(round(v)) for v in best)
                    tracker = make_tracker()
                    tracker.init(frames[t], seat)
                    overlaps[t] = iou(seat, truth[t])
                    print("  re-seated at frame %d, score %.3f, IoU %.2f" % (t, score, overlaps[t]))
            else:
                ok, box = tracker.update(frames[t])
                overlaps[t] = iou(box, truth[t]) if ok else 0.0
            t += 1
    values = list(overlaps.values())
    print("lost frames %d: IoU > 0 on %d, >= 0.3 on %d, >= 0.5 on %d, mean %.3f" % (
        len(values), sum(v > 0 for v in values), sum(v >= 0.3 for v in values), sum(v >= 0.5 for v in values),
        np.mean(values) if values else 0))
    print(" ".join("%d:%.2f" % item for item in overlaps.items()))


def option(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "frames":
        study_frames(option("--data", CACHE / "eval-dev" / "tracking"), int(option("--step", 10)), int(option("--cap", 120)),
                     int(option("--sizes", 1)), "--spread" in sys.argv)
    elif len(sys.argv) >= 5 and sys.argv[1] == "events":
        trackers = {"csrt": cv2.TrackerCSRT_create, "kcf": cv2.TrackerKCF_create}
        study_events(sys.argv[2], sys.argv[3], sys.argv[4], float(option("--bar", 0.15)), trackers[option("--tracker", "csrt")])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
