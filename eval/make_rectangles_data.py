#!/usr/bin/env python3
"""Builds eval/data/rectangles/ from MIDV-500 frames and their published corners (eval/README.md, Rectangles).

Usage: make_rectangles_data.py SOURCE [OUT]. SOURCE is a checkout of github.com/onbehalfofhim/midv_dataset
(commit 7413c7b), whose `knir/data/N/` folders hold MIDV-500 video frames of one document type each
(`DD_K.png` or `DD_0K.png`, 1080×1920, DD the MIDV-500 type number) beside MIDV-500's ground truth for each
frame (`N_K.json` or `DD_K.json`: {"quad": [[x, y] × 4]}, the document's corners from its top left,
clockwise), frame K with quad K. Frames with a corner outside the frame are left out (no rectangle detector
can report one); of the rest, FRAMES_PER_TYPE per document type are drawn with random.Random(SEED), and each
is written at half size (INTER_AREA, JPEG quality QUALITY) with its corners halved into `truth.json`
({"NAME.jpg": [[x, y] × 4]}), nothing else changed. Needs opencv-python (the eval-venv has it).
"""
import json
import pathlib
import random
import re
import sys

import cv2

# MIDV-500's type numbers and names of the 15 document types in the source's folders.
TYPES = {
    "02": "aut_drvlic_new", "03": "aut_id_old", "04": "aut_id", "10": "cze_id", "14": "deu_id_new",
    "22": "est_id", "26": "hrv_drvlic", "31": "jpn_drvlic", "33": "mac_id", "34": "mda_passport",
    "40": "srb_id", "41": "srb_passport", "43": "tur_id", "44": "ukr_id", "45": "ukr_passport",
}
FRAMES_PER_TYPE = 2
SEED = 30
SCALE = 0.5
QUALITY = 90


def frames(folder):
    """(type number, K, image, quad) for each frame of one source folder that has both."""
    images, quads, number = {}, {}, None
    for path in folder.iterdir():
        match = re.fullmatch(r"(\d+)_(\d+)\.(png|json)", path.name)
        if not match:
            continue
        if match[3] == "png":
            number = match[1]
            images[int(match[2])] = path
        else:
            quads[int(match[2])] = json.loads(path.read_text())["quad"]
    return [(number, k, images[k], quads[k]) for k in sorted(images) if k in quads]


def main():
    source = pathlib.Path(sys.argv[1]) / "knir" / "data"
    default = pathlib.Path(__file__).resolve().parent / "data" / "rectangles"
    out = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else default
    out.mkdir(parents=True, exist_ok=True)
    draw = random.Random(SEED)
    truth = {}
    for folder in sorted((p for p in source.iterdir() if p.name.isdigit()), key=lambda p: int(p.name)):
        inside = []
        for number, k, image_path, quad in frames(folder):
            image = cv2.imread(str(image_path))
            height, width = image.shape[:2]
            if all(0 <= x <= width - 1 and 0 <= y <= height - 1 for x, y in quad):
                inside.append((number, k, image, quad))
        for number, k, image, quad in draw.sample(inside, FRAMES_PER_TYPE):
            name = f"{number}_{TYPES[number]}-{k}.jpg"
            small = cv2.resize(image, None, fx=SCALE, fy=SCALE, interpolation=cv2.INTER_AREA)
            cv2.imwrite(str(out / name), small, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
            truth[name] = [[x * SCALE, y * SCALE] for x, y in quad]
        print(f"{folder.name}: {len(inside)} frames with every corner inside")
    lines = [f"  {json.dumps(name)}: {json.dumps(corners)}" for name, corners in sorted(truth.items())]
    (out / "truth.json").write_text("{\n" + ",\n".join(lines) + "\n}\n")
    size = sum(p.stat().st_size for p in out.glob("*.jpg"))
    print(f"{len(truth)} frames, {size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
