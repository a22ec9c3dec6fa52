#!/usr/bin/env python3
"""Builds eval/data/faces/fddb/ from FDDB, the Face Detection Data Set and Benchmark (eval/README.md, Faces).

Usage: make_faces_data.py SOURCE [OUT]. SOURCE is a checkout of github.com/penolove/pyxml at commit 38022d5,
which holds FDDB's published annotations (`FDDB-folds/FDDB-fold-NN.txt` and `FDDB-fold-NN-ellipseList.txt`,
V. Jain and E. Learned-Miller, UMass Amherst, 2010: 2845 images, 5171 faces, each an ellipse
`major_radius minor_radius angle centre_x centre_y 1`) and, in `FDDB2007/JPEGImages/NNNNNN.jpg`, copies of the
images renumbered in ellipse-list order (folds 01 to 10), with `FDDB2007/Annotations/NNNNNN.xml` boxes that
copy's `example.py` computed from the ellipses; it wrote an image only when at least one of its boxes lay inside
the image. The numbering is undone by walking the ellipse lists in that order and recomputing those boxes: each
XML's boxes equal those of exactly one next image, and the walk ends on the last image of fold 10.

IMAGES are drawn from FDDB's 2845 image names with random.Random(SEED) before any detector ran; the drawn
images that the copy holds are copied unmodified to OUT (named by their FDDB path with `/` as `_`) with
every published ellipse of each (`truth.json`, {"2002_08_11_big_img_591.jpg": [[major, minor, angle, x, y], …]});
nothing else is changed. The boxes of the copy's XML are not used as truth.
"""
import json
import math
import pathlib
import random
import shutil
import sys
import xml.etree.ElementTree as ElementTree

IMAGES = 100
SEED = 2010


def ellipse_lists(folds):
    """(name, ellipses) for every image, in fold order."""
    entries = []
    for fold in range(1, 11):
        lines = [line.strip() for line in (folds / f"FDDB-fold-{fold:02d}-ellipseList.txt").read_text().splitlines()]
        lines = [line for line in lines if line]
        index = 0
        while index < len(lines):
            count = int(lines[index + 1])
            ellipses = [[float(v) for v in line.split()[:5]] for line in lines[index + 2:index + 2 + count]]
            entries.append((lines[index], ellipses))
            index += 2 + count
    return entries


def copy_box(ellipse):
    """The box the copy's example.py wrote for an ellipse (it reads the angle as degrees), for the alignment."""
    major, minor, angle, x, y = ellipse
    cosine, sine = math.cos(math.radians(-angle)), math.sin(math.radians(-angle))
    corners = [(cosine * a - sine * b + x, sine * a + cosine * b + y)
               for a, b in [(-minor, -major), (minor, -major), (minor, major), (-minor, major)]]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return int(min(xs)), int(min(ys)), int(max(xs)), int(max(ys))


def numbering(source, entries):
    """FDDB name of each numbered copy."""
    names, index = {}, 0
    for path in sorted((source / "FDDB2007" / "Annotations").glob("*.xml")):
        root = ElementTree.parse(path).getroot()
        width, height = int(root.find("size/width").text), int(root.find("size/height").text)
        boxes = [tuple(int(o.find("bndbox/" + k).text) for k in ("xmin", "ymin", "xmax", "ymax"))
                 for o in root.findall("object")]
        while True:
            name, ellipses = entries[index]
            index += 1
            inside = [b for b in map(copy_box, ellipses) if b[0] > 0 and b[1] > 0 and b[2] < width and b[3] < height]
            if inside == boxes:
                names[path.stem] = name
                break
    if index != len(entries):
        raise SystemExit(f"the numbering ends at image {index} of {len(entries)}")
    return names


def main():
    source = pathlib.Path(sys.argv[1])
    default = pathlib.Path(__file__).resolve().parent / "data" / "faces" / "fddb"
    out = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else default
    out.mkdir(parents=True, exist_ok=True)
    entries = ellipse_lists(source / "FDDB-folds")
    ellipses = dict(entries)
    copies = {name: number for number, name in numbering(source, entries).items()}
    drawn = random.Random(SEED).sample([name for name, _ in entries], IMAGES)
    kept = sorted(name for name in drawn if name in copies)
    truth = {}
    for name in kept:
        file = name.replace("/", "_") + ".jpg"
        shutil.copyfile(source / "FDDB2007" / "JPEGImages" / f"{copies[name]}.jpg", out / file)
        truth[file] = ellipses[name]
    lines = [f"  {json.dumps(file)}: {json.dumps(value)}" for file, value in truth.items()]
    (out / "truth.json").write_text("{\n" + ",\n".join(lines) + "\n}\n")
    size = sum((out / file).stat().st_size for file in truth)
    print(f"{len(copies)} of {len(entries)} images in the copy; drew {IMAGES}, {len(kept)} in the copy: "
          f"{sum(len(v) for v in truth.values())} faces, {size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
