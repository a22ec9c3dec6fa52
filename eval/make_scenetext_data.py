#!/usr/bin/env python3
"""Builds eval/data/scenetext/ from ICDAR 2015 "Incidental Scene Text" test images (eval/README.md, Scene text).

Usage: make_scenetext_data.py SOURCE [OUT]. SOURCE is a checkout of github.com/wkerspace/traindata
(commit 75c275a), whose `train_data/icdar2015/text_localization/` holds the 500 test images of the ICDAR 2015
Robust Reading Competition, challenge 4 (`ch4_test_images/img_N.jpg`, 1280×720) and their published word
quadrilaterals and transcriptions in PaddleOCR's one-line-per-image form (`test_icdar2015_label.txt`:
`ch4_test_images/img_N.jpg<TAB>[{"transcription": …, "points": [[x, y] × 4]}, …]`; "###" marks a word
the annotators could not read, which evaluation ignores). Of the images with at least one readable word,
IMAGES are drawn with random.Random(SEED) and copied unmodified, with their words, readable or not, into
`truth.json` ({"img_N.jpg": [{"text": …, "points": [[x, y] × 4]}, …]}); nothing else is changed.
"""
import json
import pathlib
import random
import shutil
import sys

IMAGES = 40
SEED = 2015
DONT_CARE = "###"


def main():
    source = pathlib.Path(sys.argv[1]) / "train_data" / "icdar2015" / "text_localization"
    default = pathlib.Path(__file__).resolve().parent / "data" / "scenetext"
    out = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else default
    out.mkdir(parents=True, exist_ok=True)
    labels = {}
    for line in (source / "test_icdar2015_label.txt").read_text(encoding="utf-8").splitlines():
        path, words = line.split("\t", 1)
        labels[pathlib.Path(path).name] = [{"text": w["transcription"], "points": w["points"]}
                                           for w in json.loads(words)]
    readable = sorted((name for name, words in labels.items() if any(w["text"] != DONT_CARE for w in words)),
                      key=lambda name: int(name[4:-4]))
    drawn = sorted(random.Random(SEED).sample(readable, IMAGES), key=lambda name: int(name[4:-4]))
    for name in drawn:
        shutil.copyfile(source / "ch4_test_images" / name, out / name)
    lines = [f"  {json.dumps(name)}: {json.dumps(labels[name], ensure_ascii=False)}" for name in drawn]
    (out / "truth.json").write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
    words = sum(w["text"] != DONT_CARE for name in drawn for w in labels[name])
    size = sum((out / name).stat().st_size for name in drawn)
    print(f"{len(readable)} of {len(labels)} images with a readable word; drew {len(drawn)}: "
          f"{words} readable words, {size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
