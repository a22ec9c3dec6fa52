#!/usr/bin/env python3
"""The seeded-tracking DEV set: published single-object sequences that `make eval` does not use, to set the
tracker's rules on without looking at the test sequences (eval/README.md, "Seeded tracking").

Usage:
  tracking_dev.py build ROOT [OUT]   writes the DEV sequences into OUT (default
                                     ~/.cache/swiftvision/eval-dev/tracking) as eval/make_tracking_data.py
                                     writes the test ones: NAME.avi (MJPEG, quality 90) and NAME.txt
                                     (sequences already there are kept)
  tracking_dev.py score BINARY [BINARY ...] [--data FOLDER]
                                     scores each `swiftvision` binary and OpenCV's CSRT and KCF on every
                                     sequence of FOLDER (default: the DEV folder; eval/data/tracking for TEST)

ROOT holds one clone per source repository in a folder named `owner+name` (bare or not), at the commit named in
SOURCES; the frames and boxes are read from that commit with `git show`. The score prints, per sequence and
level, success AUC, precision at 20 px and the wrongly-lost share (eval/sections/tracking.py's metrics) and
the track command's time per frame (wall time of the command over the frames, decoding and start included).
Needs opencv-contrib-python (the eval-venv has it).
"""
import importlib.util
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

import cv2
import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
DEV = pathlib.Path(os.environ.get("SWIFTVISION_CACHE", pathlib.Path.home() / ".cache/swiftvision")) / "eval-dev" / "tracking"

# name: (repository, commit, frame folder, frame name pattern, ground-truth file, frames taken, what it tests).
# OTB-100 (Wu, Lim, Yang, TPAMI 2015) and UAV123 (Mueller, Smith, Ghanem, ECCV 2016) sequences as tracker
# repositories ship them for their demos; VOT2015's ball1 and bag (Kristan et al., ICCV-W 2015) as a polygon per
# frame; DTB70's Surfing06 (Li, Yeung, AAAI 2017).
SOURCES = {
    "dragonbaby": ("HyeonseobNam/py-MDNet", "680fa4d", "datasets/OTB/DragonBaby/img", "{:04d}.jpg",
                   "datasets/OTB/DragonBaby/groundtruth_rect.txt", 113, "a baby turning, kicking and flipping"),
    "human3": ("lifeng9472/STRCF", "68c062d", "sequences/Human3/img", "{:04d}.jpg",
               "sequences/Human3/groundtruth_rect.txt", 198, "a walking man, passers-by, scale"),
    "wakeboard7": ("vision4robotics/ARCF-tracker", "35ba2cc", "seq/wakeboard7", "{:06d}.jpg", "seq/wakeboard7.txt", 67,
                   "a wakeboarder turning, from a drone"),
    "wakeboard10": ("vision4robotics/ARCF-tracker", "35ba2cc", "seq/wakeboard10", "{:06d}.jpg", "seq/wakeboard10.txt", 157,
                    "a small wakeboarder turning and jumping"),
    "person12": ("vision4robotics/ARCF-tracker", "35ba2cc", "seq/person12", "{:06d}.jpg", "seq/person12_1.txt", 201,
                 "a walking person seen from above"),
    "boat1": ("vision4robotics/ARCF-tracker", "35ba2cc", "seq/boat1", "{:06d}.jpg", "seq/boat1.txt", 301,
              "a boat turning on water"),
    "wakeboard5": ("vision4robotics/DRCF-Tracker", "84ddbb3", "sequences/wakeboard5/img", "{:06d}.jpg",
                   "sequences/wakeboard5/groundtruth_rect.txt", 300, "a wakeboarder turning and jumping, fast"),
    "person11": ("vision4robotics/BiCF-Tracker", "762d5e8", "sequences/person11/img", "{:06d}.jpg",
                 "sequences/person11/groundtruth_rect.txt", 241, "a person turning among others"),
    "ball1": ("bertinetto/staple", "7b6b5b5", "vot15_ball1/imgs", "{:08d}.jpg", "vot15_ball1/groundtruth.txt", 105,
              "a bouncing ball"),
    "bag": ("bertinetto/siamese-fc", "e86eb64", "demo-sequences/vot15_bag/imgs", "{:08d}.jpg",
            "demo-sequences/vot15_bag/groundtruth.txt", 196, "a plastic bag blown about, turning over"),
    "bird2": ("lifeng9472/IBCCF", "e4e4596", "sequences/Bird2/img", "{:04d}.jpg", "sequences/Bird2/groundtruth_rect.txt", 99,
              "a bird turning round, fast, in-plane rotation"),
    "surfing06": ("vision4robotics/ReCF-Tracker", "1e793a2", "sequences/Surfing06/img", "{:05d}.jpg",
                  "sequences/Surfing06/groundtruth_rect.txt", 106, "a small surfer turning on a wave, from a drone"),
}
QUALITY = 90


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    module.Skip = RuntimeError
    spec.loader.exec_module(module)
    return module


section = load("eval_tracking", HERE / "sections" / "tracking.py")


def git_dir(root, repository):
    folder = pathlib.Path(root) / repository.replace("/", "+")
    for candidate in (folder / "repo" / ".git", folder / "repo", folder / ".git", folder):
        if (candidate / "HEAD").exists() and (candidate / "objects").exists():
            return candidate
    sys.exit(f"no clone of {repository} in {folder}")


def blob(git, commit, path):
    return subprocess.run(["git", "--git-dir", str(git), "show", f"{commit}:{path}"], check=True, capture_output=True).stdout


def boxes(text):
    """x,y,width,height per line; a polygon (VOT) becomes its bounding box, NaN (UAV123: out of view) stays NaN."""
    rows = []
    for line in text.splitlines():
        values = [float(v) for v in re.split(r"[,\s]+", line.strip()) if v]
        if len(values) >= 8:
            xs, ys = values[0:8:2], values[1:8:2]
            values = [min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)]
        rows.append(values[:4])
    return rows


def build(root, out):
    out.mkdir(parents=True, exist_ok=True)
    for name, (repository, commit, folder, pattern, truth, count, _) in SOURCES.items():
        if (out / f"{name}.avi").exists() and (out / f"{name}.txt").exists():
            continue
        git = git_dir(root, repository)
        rows = boxes(blob(git, commit, truth).decode())[:count]
        writer = None
        with tempfile.TemporaryDirectory() as scratch:
            for index in range(1, count + 1):
                path = pathlib.Path(scratch) / "frame.jpg"
                path.write_bytes(blob(git, commit, f"{folder}/{pattern.format(index)}"))
                image = cv2.imread(str(path))
                if writer is None:
                    height, width = image.shape[:2]
                    writer = cv2.VideoWriter(str(out / f"{name}.avi"), cv2.CAP_FFMPEG, cv2.VideoWriter_fourcc(*"MJPG"), 30, (width, height))
                    writer.set(cv2.VIDEOWRITER_PROP_QUALITY, QUALITY)
                writer.write(image)
        writer.release()
        (out / f"{name}.txt").write_text("\n".join(",".join(f"{v:g}" for v in row) for row in rows) + "\n")
        print(f"{name}: {count} frames {width}x{height} from {repository}@{commit}")


def score(binaries, folder):
    names = sorted(path.stem for path in folder.glob("*.avi"))
    totals = {}
    print(f"{'sequence':14} {'who':22} {'AUC':>6} {'prec':>6} {'lost':>6} {'ms/frame':>9}")
    for name in names:
        truth = section.ground_truth(folder / f"{name}.txt")
        video, frames = folder / f"{name}.avi", len(truth)
        rows = []
        for peer in ("CSRT", "KCF"):
            found, width, height = section.peer(cv2, peer, video, truth[0], frames)
            rows.append((peer, section.scores(found, truth, width, height), None))
        for binary in binaries:
            for level in ("accurate", "fast"):
                started = time.monotonic()
                found = section.ours(binary, video, truth[0], level, frames)
                elapsed = (time.monotonic() - started) * 1000 / frames
                rows.append((f"{pathlib.Path(binary).name} {level}", section.scores(found, truth, width, height), elapsed))
        for who, result, elapsed in rows:
            totals.setdefault(who, []).append(result)
            timing = f"{elapsed:9.1f}" if elapsed is not None else ""
            print(f"{name:14} {who:22} {result['auc']:6.3f} {result['precision']:6.3f} {result['lost']:6.3f} {timing}")
    for who, results in totals.items():
        mean = {key: np.mean([r[key] for r in results]) for key in ("auc", "precision", "lost")}
        print(f"{'mean':14} {who:22} {mean['auc']:6.3f} {mean['precision']:6.3f} {mean['lost']:6.3f}")


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("build", "score"):
        sys.exit(__doc__)
    if sys.argv[1] == "build":
        build(sys.argv[2], pathlib.Path(sys.argv[3]) if len(sys.argv) > 3 else DEV)
        return
    arguments = sys.argv[2:]
    folder = DEV
    if "--data" in arguments:
        at = arguments.index("--data")
        folder = pathlib.Path(arguments[at + 1])
        del arguments[at : at + 2]
    score(arguments, folder)


if __name__ == "__main__":
    main()
