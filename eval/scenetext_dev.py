#!/usr/bin/env python3
"""Scores `swiftvision text` on the scene-text DEV set: 60 ICDAR 2015 training photos, apart from the TEST photos.

Usage: scenetext_dev.py [--turn DEGREES] SOURCE [BINARY ...]. SOURCE is a checkout of
github.com/wkerspace/traindata (commit 75c275a) or its bare git directory. Its `train_data/icdar2015/text_localization/` holds the 1000 training images of
the ICDAR 2015 Robust Reading Competition, challenge 4 (`icdar_c4_train_imgs/img_N.jpg`) and their published words
(`train_icdar2015_label.txt`, the form eval/make_scenetext_data.py reads). Of the images with at least one readable
word, IMAGES are drawn with random.Random(SEED) and copied unmodified into a temporary folder, so that the text
engine can be studied and tuned on them without looking at eval/data/scenetext (drawn from the TEST images).
Each binary is run as `BINARY text --json FILE...` (on one core where `taskset` exists) and scored with
eval/sections/scenetext.py's word recall and precision; the `tesseract` command and, where it is installed (the eval
venv), rapidocr are scored beside them. With --turn 90, 180 or 270 every side reads the photos turned that many
degrees clockwise (eval/sections/scenetext.py's `turned`), scored against the same published words.
Set EVAL_SCENETEXT_DETAIL=1 to print each image's words.
"""
import importlib.util
import json
import os
import pathlib
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
FOLDER = "train_data/icdar2015/text_localization"
IMAGES = 60
SEED = 30


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


section = load("eval_scenetext", HERE / "sections" / "scenetext.py")


def read(source, name):
    """The bytes of `name` under FOLDER in a checkout or a bare git directory."""
    source = pathlib.Path(source)
    if (source / FOLDER).is_dir():
        return (source / FOLDER / name).read_bytes()
    return subprocess.run(["git", "--git-dir", str(source), "show", f"HEAD:{FOLDER}/{name}"], check=True,
                          capture_output=True).stdout


def build(source, out):
    """Writes the DEV photos into out; returns {name: [readable words]}."""
    labels = {}
    for line in read(source, "train_icdar2015_label.txt").decode("utf-8").splitlines():
        path, words = line.split("\t", 1)
        labels[path] = [w["transcription"] for w in json.loads(words)]
    readable = sorted((p for p, words in labels.items() if any(w != section.DONT_CARE for w in words)),
                      key=lambda p: int(re.sub(r"\D", "", pathlib.Path(p).name)))
    truth = {}
    for path in random.Random(SEED).sample(readable, IMAGES):
        name = pathlib.Path(path).name
        (out / name).write_bytes(read(source, path))
        truth[name] = [w for text in labels[path] if text != section.DONT_CARE for w in section.words(text)]
    return truth


def report(label, names, expected, texts, ms):
    found = [section.words(t) for t in texts]
    hits = [section.matched(e, f) for e, f in zip(expected, found)]
    if os.environ.get("EVAL_SCENETEXT_DETAIL"):
        for name, e, f, h in zip(names, expected, found, hits):
            print(f"  {name}: truth {e}; found {f} ({h})")
    recognised = sum(len(f) for f in found)
    print(f"{label}: {len(names)} photos, {sum(len(e) for e in expected)} words: "
          f"recall {sum(hits) / sum(len(e) for e in expected):.3f} ({sum(hits)}), "
          f"precision {sum(hits) / max(1, recognised):.3f} ({recognised} words), "
          f"photos with a word {sum(h > 0 for h in hits) / len(names):.3f}, CPU ms a photo {ms:.0f}")


def main():
    arguments = sys.argv[1:]
    degrees = None
    if arguments[:1] == ["--turn"]:
        degrees, arguments = int(arguments[1]), arguments[2:]
    with tempfile.TemporaryDirectory() as temp:
        out = pathlib.Path(temp)
        truth = build(arguments[0], out)
        names = sorted(truth, key=lambda name: int(re.sub(r"\D", "", name)))
        paths = [out / name for name in names]
        if degrees is not None:
            paths = section.turned(paths, out, degrees)
        expected = [truth[name] for name in names]
        prefix = ["taskset", "-c", "0"] if shutil.which("taskset") else []
        for binary in arguments[1:]:
            texts, ms = section.ours(binary, paths, prefix)
            report(binary, names, expected, texts, ms)
        if shutil.which("tesseract"):
            texts, ms = section.peer(paths, prefix)
            report("tesseract", names, expected, texts, ms)
        second = section.rapidocr(paths, prefix)
        if second is not None:
            report(section.SECOND_PEER, names, expected, *second)


if __name__ == "__main__":
    main()
