"""Faces: recall at IoU 0.5 on photos with marked faces, and false positives on photos of animals.

Data (eval/data/faces/truth.json, eval/README.md): 9 PASCAL VOC photos of groups with 43 faces marked by
dlib's author; 47 ImageNet sample photos of primates, cats and dogs and dlib's photo of dogs, none with a
person; and the set-up's package photos of animals and objects (those the earlier checks were set on).
eval/data/faces/fddb/: 98 news photos of FDDB drawn at random, with 193 faces marked as ellipses. The 40
COCO val2017 photos of eval/data/objects/ that have no `person` box: no face is marked there, but COCO marks
no faces at all, so a face on a poster or a statue counts against a detector.
Ours: `swiftvision faces --json` at the accurate level and with `--fast`, threshold 0.5 (the default).
Peer: MediaPipe 0.10.21's face detection (solutions API) with the short-range (model_selection=0) and the
full-range (model_selection=1) model, minimum confidence 0.5, on the same files.

A detection matches a marked face when their boxes overlap by IoU ≥ 0.5, each face and each detection at
most once, best overlaps first; on FDDB the overlap is FDDB's own, between the detection's box and the marked
ellipse, counted in pixels. On the group photos and FDDB a detection that matches no marked face counts as a
false positive even when it is a face the annotation left out (the figure is an upper bound there).
"""
import json
import os
import subprocess

import cv2
import numpy as np

# The images of the quick slice (make test): three group photos and the primates, where animal faces were seen;
# the first FDDB and COCO photos by name.
QUICK_PEOPLE = ["2008_002470.jpg", "2008_004176.jpg", "2009_004587.jpg"]
QUICK_ANIMALS = ("n0248", "n0249")
QUICK_FDDB = 12
QUICK_COCO = 12

TITLE = "Faces"

IOU = 0.5


def iou(a, b):
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    w = min(ax + aw, bx + bw) - max(ax, bx)
    h = min(ay + ah, by + bh) - max(ay, by)
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    return inter / (aw * ah + bw * bh - inter)


def ellipse_iou(ellipse, box, size):
    """FDDB's overlap of a marked ellipse [major, minor, angle, x, y] and a box [x, y, w, h], in pixels."""
    width, height = size
    major, minor, angle, x, y = ellipse
    marked = np.zeros((height, width), np.uint8)
    # As FDDB's evaluation draws it: the axes (major, minor) turned by the angle, which FDDB gives in radians.
    cv2.ellipse(marked, (round(x), round(y)), (round(major), round(minor)), float(np.degrees(angle)), 0, 360, 1, -1)
    found = np.zeros_like(marked)
    left, top = max(0, round(box[0])), max(0, round(box[1]))
    found[top:max(top, round(box[1] + box[3])), left:max(left, round(box[0] + box[2]))] = 1
    union = np.count_nonzero(marked | found)
    return np.count_nonzero(marked & found) / union if union else 0.0


def matched(truth, found, overlap=iou):
    """How many marked faces a detection matches (greedy on `overlap`, one to one)."""
    pairs = sorted(((overlap(t, f), i, j) for i, t in enumerate(truth) for j, f in enumerate(found)), reverse=True)
    used_t, used_f = set(), set()
    for overlap, i, j in pairs:
        if overlap < IOU:
            break
        if i in used_t or j in used_f:
            continue
        used_t.add(i)
        used_f.add(j)
    return len(used_t)


def ours(binary, paths, fast):
    """Boxes [x, y, w, h] per path from the CLI's JSON lines (one line per image, in order)."""
    command = [binary, "faces", "--json"] + (["--fast"] if fast else []) + [str(p) for p in paths]
    lines = subprocess.run(command, check=True, capture_output=True, text=True).stdout.splitlines()
    boxes = {}
    for line in lines:
        record = json.loads(line)
        boxes[record["file"]] = [[f["boundingBox"][k] for k in ("x", "y", "width", "height")] for f in record["faces"]]
    return [boxes[str(p)] for p in paths]


def peer(paths, model_selection):
    import mediapipe as mp

    found = []
    with mp.solutions.face_detection.FaceDetection(model_selection=model_selection, min_detection_confidence=0.5) as detector:
        for path in paths:
            bgr = cv2.imread(str(path), cv2.IMREAD_COLOR)
            height, width = bgr.shape[:2]
            result = detector.process(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
            boxes = []
            for detection in result.detections or []:
                box = detection.location_data.relative_bounding_box
                boxes.append([box.xmin * width, box.ymin * height, box.width * width, box.height * height])
            found.append(boxes)
    return found


def run(context):
    folder = context.data / "faces"
    truth_file = folder / "truth.json"
    if not truth_file.exists():
        raise Skip(f"{truth_file} is missing")
    truth = json.loads(truth_file.read_text())
    people = sorted(truth["faces"])
    animals = truth["animals"]
    packaged = [context.cache / "media" / name for name in truth["packagePhotos"]]
    packaged = [p for p in packaged if p.exists()]
    if context.quick:
        people = QUICK_PEOPLE
        animals = [a for a in animals if a.startswith(("animals/" + QUICK_ANIMALS[0], "animals/" + QUICK_ANIMALS[1]))]
        packaged = []
    people_paths = [folder / name for name in people]
    animal_paths = [folder / name for name in animals]
    marked = [truth["faces"][name] for name in people]
    total = sum(len(m) for m in marked)
    fddb = sorted(json.loads((folder / "fddb" / "truth.json").read_text()).items())
    coco_paths = no_person_photos(context.data / "objects")
    if context.quick:
        fddb, coco_paths = fddb[:QUICK_FDDB], coco_paths[:QUICK_COCO]
    fddb_paths = [folder / "fddb" / name for name, _ in fddb]
    fddb_marked = [ellipses for _, ellipses in fddb]
    fddb_total = sum(map(len, fddb_marked))
    fddb_sizes = [cv2.imread(str(p), cv2.IMREAD_UNCHANGED).shape[1::-1] for p in fddb_paths]
    groups = [("people", people_paths), ("animals", animal_paths), ("packaged", packaged), ("fddb", fddb_paths),
              ("coco", coco_paths)]

    results = {}
    for name, finder in [("fast", lambda p: ours(context.binary, p, True)),
                         ("accurate", lambda p: ours(context.binary, p, False)),
                         ("short", lambda p: peer(p, 0)),
                         ("full", lambda p: peer(p, 1))]:
        results[name] = {group: (finder(paths) if paths else []) for group, paths in groups}

    def recall(name):
        return sum(matched(m, f) for m, f in zip(marked, results[name]["people"])) / total

    def people_fp(name):
        found = results[name]["people"]
        return sum(len(f) - matched(m, f) for m, f in zip(marked, found)) / len(found)

    def fddb_matched(name):
        return [matched(m, f, lambda e, b, size=size: ellipse_iou(e, b, size))
                for m, f, size in zip(fddb_marked, results[name]["fddb"], fddb_sizes)]

    fddb_matches = {name: fddb_matched(name) for name in results}

    def fddb_unmarked(name):
        return (sum(map(len, results[name]["fddb"])) - sum(fddb_matches[name])) / len(fddb_paths)

    def group_fp(name, group):
        found = results[name][group]
        return sum(len(f) for f in found) / len(found)

    def images_with_faces(name, group):
        return sum(1 for f in results[name][group] if f)

    rows = []
    for level, peer_name, peer_label in [("fast", "short", "MediaPipe short-range"),
                                         ("accurate", "full", "MediaPipe full-range")]:
        rows.append({"metric": f"{level}: recall, IoU 0.5 (faces)", "ours": recall(level),
                     "peer": recall(peer_name), "peer_name": peer_label, "items": total})
        rows.append({"metric": f"{level}: unmarked detections / people photo", "ours": people_fp(level),
                     "peer": people_fp(peer_name), "peer_name": peer_label, "items": len(people_paths)})
        rows.append({"metric": f"{level}: FDDB recall, ellipse overlap 0.5 (faces)",
                     "ours": sum(fddb_matches[level]) / fddb_total, "peer": sum(fddb_matches[peer_name]) / fddb_total,
                     "peer_name": peer_label, "items": fddb_total})
        rows.append({"metric": f"{level}: FDDB unmarked detections / photo", "ours": fddb_unmarked(level),
                     "peer": fddb_unmarked(peer_name), "peer_name": peer_label, "items": len(fddb_paths)})
        for group, label, plural in [("animals", "animal photo", "animal photos"),
                                     ("packaged", "set-up photo without people", "set-up photos without people"),
                                     ("coco", "COCO photo without people", "COCO photos without people")]:
            if not results[level][group]:
                continue
            rows.append({"metric": f"{level}: false positives / {label}", "ours": group_fp(level, group),
                         "peer": group_fp(peer_name, group), "peer_name": peer_label,
                         "items": len(results[level][group])})
            rows.append({"metric": f"{level}: {plural} with a face", "ours": images_with_faces(level, group),
                         "peer": images_with_faces(peer_name, group), "peer_name": peer_label,
                         "items": len(results[level][group])})
    if os.environ.get("EVAL_FACES_DETAIL"):  # each image's counts, for looking into a figure
        for group, paths in groups:
            for index, path in enumerate(paths):
                counts = {name: len(results[name][group][index]) for name in results}
                if group == "fddb":
                    misses = {name: len(fddb_marked[index]) - fddb_matches[name][index] for name in results}
                    if any(misses.values()) or any(counts[n] > len(fddb_marked[index]) - misses[n] for n in results):
                        print(f"  fddb {path.name}: {len(fddb_marked[index])} marked, missed {misses}, found {counts}")
                elif any(counts.values()):
                    print(f"  {group} {path.name}: {counts}")
    return rows


def no_person_photos(objects):
    """The objects section's COCO photos with no `person` box (COCO marks no faces; eval/README.md)."""
    truth = json.loads((objects / "truth.json").read_text())
    people = {a["image_id"] for a in truth["annotations"] if a["category_id"] == 1}
    return [objects / "images" / image["file"] for image in truth["images"] if image["id"] not in people]
