"""Objects: mAP@0.5, recall per class and ML Kit's class-agnostic view on COCO val2017 photos.

Data (eval/data/objects/truth.json, eval/README.md): 79 COCO 2017 validation images, one drawn at random for
each of the 80 classes (the draws gave one image twice), with every published box of each image (624 boxes,
5 of them crowd regions).
Ours: `swiftvision objects --multiple --classify --json`, the zoo's YOLOv4-tiny (the default detector since
issue 30; eval/detector_study.py compares it with YOLOv3-tiny), as users get it: at most 5
objects per image (ML Kit's limit), the most confident first, threshold 0.25 (the default); and at threshold
0.01 for mAP. Peer: Tests/Python/Reference/yolo_pipeline.py on the same model file and images (ai-edge-litert in the
set-up's venv), cut to the same 5 most confident objects; "peer, no cap" keeps all of its objects.

Matching (as COCO's evaluation does at IoU 0.5): per image and class, detections best score first, each takes
the unmatched non-crowd box it overlaps most, at IoU ≥ 0.5; one that matches none but lies ≥ 50 % inside a
crowd region of its class is ignored. AP is COCO's 101-point interpolated precision; mAP is its mean over the
classes with a box in the images evaluated.
ML Kit's view: its base detector is class-agnostic, so a "prominent object" is any non-crowd box covering
≥ 5 % of the image, found when any reported object (whatever its class) overlaps it at IoU ≥ 0.5 (one to
one). Without --multiple the task reports the single most prominent object (area × centredness × score); the
hit rate says how often that object is one of the image's prominent boxes.
Speed: CPU ms per image on one core (`taskset -c 0`; CPU time, so that other work on the machine does not
count): the peer's median; the CLI's the marginal time of an image in one run (whole run less a one-image
run, over the other images), so model loading is not counted.
"""
import json
import os
import pathlib
import resource
import shutil
import statistics
import subprocess

import numpy as np

TITLE = "Objects"

IOU = 0.5
PROMINENT = 0.05  # a box covering at least this share of the image is a prominent object
DEFAULT_THRESHOLD = 0.25  # the CLI's and the model's default
LOW_THRESHOLD = 0.01  # for mAP: the precision-recall curve down to low scores
CAP = 5  # objects reported with --multiple (ML Kit's limit)
COLLECTION_CAP = 10  # objects a collection indexes per picture (ItemAnalyzer.objectOptions)
LABEL_CONFIDENCE = 0.5  # from which the collections' label filters count a class (CollectionQuery.labelConfidence)
QUICK = 12  # images of the quick slice: the first by image id
MODEL = "yolov4_tiny_coco.tflite"  # the CLI's default detector (ObjectDetectionModel.defaultModelName)


def iou(a, b):
    """IoU and intersection over a's area of two [left, top, right, bottom] boxes."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0, 0.0
    inter = w * h
    area_a = (a[2] - a[0]) * (a[3] - a[1])
    return inter / (area_a + (b[2] - b[0]) * (b[3] - b[1]) - inter), inter / area_a


def load_truth(data, quick):
    truth = json.loads((data / "objects" / "truth.json").read_text())
    images = sorted(truth["images"], key=lambda i: i["id"])
    if quick:
        images = images[:QUICK]
    # The model's 80 classes are COCO's category ids in ascending order (Darknet's coco.names order).
    category_ids = [c["id"] for c in truth["categories"]]
    names = {c["id"]: c["name"] for c in truth["categories"]}
    boxes = {i["id"]: [] for i in images}
    for a in truth["annotations"]:
        if a["image_id"] in boxes:
            x, y, w, h = a["bbox"]
            boxes[a["image_id"]].append({"category": a["category_id"], "box": [x, y, x + w, y + h], "crowd": a["iscrowd"] == 1})
    return images, boxes, category_ids, names


def ours(binary, paths, threshold, multiple=True):
    """Objects [{"category", "score", "box"}] per path, from the CLI's JSON lines (one line per image)."""
    command = [binary, "objects", "--classify", "--json"] + (["--multiple"] if multiple else [])
    command += ["--threshold", str(threshold)] if threshold != DEFAULT_THRESHOLD else []
    lines = subprocess.run(command + [str(p) for p in paths], check=True, capture_output=True, text=True).stdout.splitlines()
    found = {}
    for line in lines:
        record = json.loads(line)
        objects = []
        for o in record["objects"]:
            f, coco = o["frame"], o["labels"][-1]  # the COCO class is the last label (after the coarse category)
            objects.append({"class": coco["index"], "score": coco["confidence"],
                            "box": [f["x"], f["y"], f["x"] + f["width"], f["y"] + f["height"]]})
        found[record["file"]] = objects
    return [found[str(p)] for p in paths]


def venv_python(cache):
    python = cache / "venv" / "bin" / "python"
    if not python.exists():
        raise Skip(f"{python} is missing (the set-up's venv with ai-edge-litert)")  # noqa: F821 (injected)
    return python


def peer(cache, model, paths, threshold, one_core=False):
    """The Python pipeline's objects per path (all of them, best first) and its ms per image."""
    command = [str(venv_python(cache)), str(pathlib.Path(__file__).with_name("_objects_peer.py")), "yolo", str(model), str(threshold), "1"]
    if one_core and shutil.which("taskset"):
        command = ["taskset", "-c", "0"] + command
    lines = subprocess.run(command + [str(p) for p in paths], check=True, capture_output=True, text=True).stdout.splitlines()
    records = {r["file"]: r for r in map(json.loads, lines)}
    return [records[str(p)]["objects"] for p in paths], [records[str(p)]["ms"] for p in paths]


def capped(found, threshold, cap=CAP):
    """What --multiple reports: objects at or above the threshold, the `cap` most confident."""
    kept = sorted((o for o in found if o["score"] >= threshold), key=lambda o: -o["score"])
    return kept[:cap] if cap else kept


def match(truth, found, category=None):
    """Per detection (best score first): True (matched), False (false positive) or None (ignored: in a crowd
    region); and how many truth boxes matched. With `category` None, classes are ignored."""
    regular = [t for t in truth if not t["crowd"] and category in (None, t["category"])]
    crowds = [t for t in truth if t["crowd"] and category in (None, t["category"])]
    used, outcome = set(), []
    for d in sorted(found, key=lambda o: -o["score"]):
        best, best_iou = None, IOU
        for k, t in enumerate(regular):
            overlap = iou(d["box"], t["box"])[0]
            if k not in used and overlap >= best_iou:
                best, best_iou = k, overlap
        if best is not None:
            used.add(best)
            outcome.append((d["score"], True))
        elif any(iou(d["box"], c["box"])[1] >= IOU for c in crowds):
            outcome.append((d["score"], None))
        else:
            outcome.append((d["score"], False))
    return outcome, len(used)


def average_precision(outcomes, positives):
    """COCO's 101-point interpolated AP from (score, matched) pairs of all images."""
    ranked = sorted((o for o in outcomes if o[1] is not None), key=lambda o: -o[0])
    hits = np.cumsum([1 if m else 0 for _, m in ranked])
    recall = hits / positives if ranked else np.zeros(0)
    precision = hits / np.arange(1, len(ranked) + 1) if ranked else np.zeros(0)
    precision = np.maximum.accumulate(precision[::-1])[::-1] if ranked else precision
    total = 0.0
    for level in np.linspace(0, 1, 101):
        index = np.searchsorted(recall, level, side="left")
        total += precision[index] if index < len(precision) else 0.0
    return total / 101


def mean_ap(images, boxes, detections, category_ids):
    """mAP@0.5 over the classes with a non-crowd box in `images`."""
    aps = []
    for category in sorted({t["category"] for i in images for t in boxes[i["id"]] if not t["crowd"]}):
        outcomes, positives = [], 0
        for image, found in zip(images, detections):
            truth = boxes[image["id"]]
            mine = [o for o in found if category_ids[o["class"]] == category]
            result, _ = match(truth, mine, category)
            outcomes += result
            positives += sum(1 for t in truth if t["category"] == category and not t["crowd"])
        aps.append(average_precision(outcomes, positives))
    return float(np.mean(aps))


def class_recall(images, boxes, detections, category_ids, category):
    found = total = 0
    for image, objects in zip(images, detections):
        truth = boxes[image["id"]]
        found += match(truth, [o for o in objects if category_ids[o["class"]] == category], category)[1]
        total += sum(1 for t in truth if t["category"] == category and not t["crowd"])
    return found / total, total


def band_precision(images, boxes, detections, category_ids, low, high):
    """Right (same class, IoU ≥ 0.5, matched as for AP) / counted detections scored in [low, high); a
    detection ignored in a crowd region is not counted."""
    right = counted = 0
    for image, found in zip(images, detections):
        truth = boxes[image["id"]]
        for category in {category_ids[o["class"]] for o in found}:
            outcome, _ = match(truth, [o for o in found if category_ids[o["class"]] == category], category)
            kept = [m for score, m in outcome if low <= score < high and m is not None]
            right += sum(kept)
            counted += len(kept)
    return (right / counted if counted else 0.0), counted, right


def prominent(image, truth):
    area = image["width"] * image["height"]
    return [t for t in truth if not t["crowd"] and (t["box"][2] - t["box"][0]) * (t["box"][3] - t["box"][1]) >= PROMINENT * area]


def prominent_recall(images, boxes, detections):
    found = total = 0
    for image, objects in zip(images, detections):
        wanted = prominent(image, boxes[image["id"]])
        found += match(wanted, objects)[1]
        total += len(wanted)
    return found / total, total


def most_prominent(image, found):
    """The task's single object without --multiple: largest area × centredness × score."""
    def prominence(o):
        l, t, r, b = o["box"]
        area = (r - l) * (b - t) / (image["width"] * image["height"])
        offset = np.hypot((l + r) / 2 / image["width"] - 0.5, (t + b) / 2 / image["height"] - 0.5) / np.hypot(0.5, 0.5)
        return area * (1 - offset) * o["score"]
    return [max(found, key=prominence)] if found else []


def single_hits(images, boxes, detections):
    hits = counted = 0
    for image, objects in zip(images, detections):
        wanted = prominent(image, boxes[image["id"]])
        if wanted:
            counted += 1
            hits += match(wanted, objects)[1] > 0
    return hits / counted, counted


def agreement(ours_found, peer_found):
    """Share of the peer's objects that ours reports too: same class, IoU ≥ 0.9."""
    agreed = total = 0
    for mine, theirs in zip(ours_found, peer_found):
        total += len(theirs)
        free = list(mine)
        for o in theirs:
            same = [m for m in free if m["class"] == o["class"] and iou(m["box"], o["box"])[0] >= 0.9]
            if same:
                agreed += 1
                free.remove(same[0])
    return agreed / total if total else 1.0, total


def cli_ms_per_image(binary, paths):
    """Marginal CPU ms per image of one CLI run on one core: (all images − first image only) / (n − 1)."""
    prefix = ["taskset", "-c", "0"] if shutil.which("taskset") else []

    def cpu(files):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(prefix + [binary, "objects", "--multiple", "--classify", "--json"] + [str(p) for p in files],
                       check=True, capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime

    one = min(cpu(paths[:1]) for _ in range(2))
    return (cpu(paths) - one) * 1000 / (len(paths) - 1)


def run(context):
    folder = context.data / "objects"
    if not (folder / "truth.json").exists():
        raise Skip("eval/data/objects/truth.json is missing")  # noqa: F821 (injected by eval/run.py)
    model = context.cache / "models" / MODEL
    if not model.exists():
        raise Skip(f"{model} is missing (run the set-up)")  # noqa: F821
    if not os.path.exists(context.binary):
        raise Skip(f"{context.binary} is missing (swift build -c release)")  # noqa: F821
    images, boxes, category_ids, names = load_truth(context.data, context.quick)
    paths = [folder / "images" / i["file"] for i in images]

    ours_default = ours(context.binary, paths, DEFAULT_THRESHOLD)
    ours_low = ours(context.binary, paths, LOW_THRESHOLD)
    ours_single = ours(context.binary, paths, DEFAULT_THRESHOLD, multiple=False)
    peer_all, peer_ms = peer(context.cache, model, paths, LOW_THRESHOLD, one_core=not context.quick)
    peer_default = [capped(f, DEFAULT_THRESHOLD) for f in peer_all]
    peer_low = [capped(f, LOW_THRESHOLD) for f in peer_all]
    peer_single = [most_prominent(i, capped(f, DEFAULT_THRESHOLD, cap=None)) for i, f in zip(images, peer_all)]
    name = "yolo_pipeline.py"
    n = len(images)

    rows = [
        {"metric": "mAP@0.5, threshold 0.01, ≤5 objects", "ours": mean_ap(images, boxes, ours_low, category_ids),
         "peer": mean_ap(images, boxes, peer_low, category_ids), "peer_name": name, "items": n},
        {"metric": "mAP@0.5, threshold 0.25, ≤5 objects", "ours": mean_ap(images, boxes, ours_default, category_ids),
         "peer": mean_ap(images, boxes, peer_default, category_ids), "peer_name": name, "items": n},
        {"metric": "mAP@0.5, threshold 0.01, no cap (model's own)", "ours": "n/a (CLI caps at 5)",
         "peer": mean_ap(images, boxes, peer_all, category_ids), "peer_name": name + ", no cap", "items": n},
        {"metric": "objects as the peer's (class, IoU ≥ 0.9), 0.01", "ours": agreement(ours_low, peer_low)[0],
         "peer": 1.0, "peer_name": name, "items": agreement(ours_low, peer_low)[1]},
    ]
    counts = {}
    for image in images:
        for t in boxes[image["id"]]:
            if not t["crowd"]:
                counts[t["category"]] = counts.get(t["category"], 0) + 1
    for category in sorted((c for c, k in counts.items() if k >= 5), key=lambda c: (-counts[c], c)):
        mine, total = class_recall(images, boxes, ours_default, category_ids, category)
        theirs, _ = class_recall(images, boxes, peer_default, category_ids, category)
        rows.append({"metric": f"recall {names[category]}, 0.25, ≤5", "ours": mine, "peer": theirs, "peer_name": name, "items": total})
    mine, total = prominent_recall(images, boxes, ours_default)
    rows.append({"metric": "prominent (≥5 % of image) recall, any class", "ours": mine,
                 "peer": prominent_recall(images, boxes, peer_default)[0], "peer_name": name, "items": total})
    mine, counted = single_hits(images, boxes, ours_single)
    rows.append({"metric": "single object (no --multiple) is prominent", "ours": mine,
                 "peer": single_hits(images, boxes, peer_single)[0], "peer_name": name, "items": counted})
    # Is a class scored below the collections' label confidence worth counting? Precision by score band.
    for low, high, label in ((DEFAULT_THRESHOLD, LABEL_CONFIDENCE, f"{DEFAULT_THRESHOLD}–{LABEL_CONFIDENCE}"),
                             (LABEL_CONFIDENCE, 2.0, f"≥ {LABEL_CONFIDENCE}")):
        mine, counted, _ = band_precision(images, boxes, ours_default, category_ids, low, high)
        theirs = band_precision(images, boxes, peer_default, category_ids, low, high)[0]
        rows.append({"metric": f"precision, score {label}, ≤5", "ours": mine, "peer": theirs, "peer_name": name,
                     "items": counted})
        indexed = [capped(f, DEFAULT_THRESHOLD, cap=COLLECTION_CAP) for f in peer_all]
        theirs, counted, _ = band_precision(images, boxes, indexed, category_ids, low, high)
        rows.append({"metric": f"precision, score {label}, ≤{COLLECTION_CAP} (collections)", "ours": "n/a (CLI caps at 5)",
                     "peer": theirs, "peer_name": f"{name}, ≤{COLLECTION_CAP}", "items": counted})
    if not context.quick:
        rows.append({"metric": "CPU ms per image, 1 core", "ours": cli_ms_per_image(context.binary, paths),
                     "peer": statistics.median(peer_ms), "peer_name": name + " (median)", "items": n})
    return rows
