#!/usr/bin/env python3
"""Scores `swiftvision rectangles` on the rectangles DEV set: the MIDV-500 frames that eval/data/rectangles left out.

Usage: rectangles_dev.py SOURCE BINARY [BINARY ...]. SOURCE is a checkout of github.com/onbehalfofhim/midv_dataset
(commit 7413c7b) or its bare git directory. The frames are chosen as eval/make_rectangles_data.py chooses them
(every corner inside the frame); the ones its draw takes are the TEST set of `make eval` and are left out here,
so that the engine can be studied and tuned on these without looking at the test frames. Each DEV frame is
halved and stored as that script does, into a temporary folder, and each binary is scored with
eval/sections/rectangles.py's corner error. Set EVAL_RECTANGLES_DETAIL=1 to print each frame's errors.
Needs opencv-python (the eval-venv has it).
"""
import importlib.util
import json
import os
import pathlib
import random
import re
import statistics
import subprocess
import sys
import tempfile

import cv2

HERE = pathlib.Path(__file__).resolve().parent


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make = load("make_rectangles_data", HERE / "make_rectangles_data.py")
section = load("eval_rectangles", HERE / "sections" / "rectangles.py")


def checkout(source, into):
    """The source's knir/data folder; from a bare git directory, its numbered folders are read out blob by blob
    (a mirror may lack blobs outside them)."""
    source = pathlib.Path(source)
    if (source / "knir" / "data").is_dir():
        return source / "knir" / "data"
    git = ["git", "--git-dir", str(source)]
    names = subprocess.run(git + ["ls-tree", "-r", "--name-only", "HEAD", "knir/data"], check=True,
                           capture_output=True, text=True).stdout.split()
    for name in names:
        if re.fullmatch(r"knir/data/\d+/\d+_\d+\.(png|json)", name):
            path = into / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(subprocess.run(git + ["show", f"HEAD:{name}"], check=True, capture_output=True).stdout)
    return into / "knir" / "data"


def build(data, out):
    """Writes the DEV frames (halved, as the TEST ones) into out; returns {name: corners}."""
    draw = random.Random(make.SEED)
    truth = {}
    for folder in sorted((p for p in data.iterdir() if p.name.isdigit()), key=lambda p: int(p.name)):
        inside = []
        for number, k, image_path, quad in make.frames(folder):
            image = cv2.imread(str(image_path))
            height, width = image.shape[:2]
            if all(0 <= x <= width - 1 and 0 <= y <= height - 1 for x, y in quad):
                inside.append((number, k, image, quad))
        drawn = {(number, k) for number, k, _, _ in draw.sample(inside, make.FRAMES_PER_TYPE)}
        for number, k, image, quad in inside:
            if (number, k) in drawn:
                continue
            name = f"{number}_{make.TYPES[number]}-{k}.jpg"
            small = cv2.resize(image, None, fx=make.SCALE, fy=make.SCALE, interpolation=cv2.INTER_AREA)
            cv2.imwrite(str(out / name), small, [cv2.IMWRITE_JPEG_QUALITY, make.QUALITY])
            truth[name] = [[x * make.SCALE, y * make.SCALE] for x, y in quad]
    return truth


def score(binary, out, truth):
    paths = [out / name for name in sorted(truth)]
    found = section.ours(binary, paths)
    errors = [section.corner_error(found.get(str(p)), truth[p.name]) for p in paths]
    if os.environ.get("EVAL_RECTANGLES_DETAIL"):
        for path, error in zip(paths, errors):
            print(f"  {path.name}: {error if error is None else round(error, 1)}")
    hits = [e for e in errors if e is not None]
    n = len(paths)
    right = sum(e <= section.RIGHT_PX for e in hits)
    median = statistics.median(hits) if hits else float("nan")
    print(f"{binary}: {n} frames, found {len(hits) / n:.3f}, right {right / n:.3f} ({right}), "
          f"median {median:.2f} px")


def main():
    with tempfile.TemporaryDirectory() as temp:
        temp = pathlib.Path(temp)
        out = temp / "dev"
        out.mkdir()
        truth = build(checkout(sys.argv[1], temp), out)
        for binary in sys.argv[2:]:
            score(binary, out, truth)


if __name__ == "__main__":
    main()
