"""Labels: how often a label is right at each confidence, on ImageNet's own class samples.

Data: the 44 ImageNet class samples of eval/data/faces/animals/ (eval/README.md, "Faces": one photo per
ILSVRC-2012 class, drawn by the sample repository's author; all 20 primate classes, all 12 cat classes, every
8th dog class), each named by its class's WordNet id, which is the truth.
Ours: `swiftvision labels --json` (the zoo's EfficientNet-Lite0) with ImageNet's classes, and with `--general`
(what collections index), both down to confidence 0.05, at most 10 labels. Peer: MediaPipe 0.10.21's
ImageClassifier on the same model file, every class's score; its general labels are the sums of those scores
over each label's classes.

A class label is right when it is the photo's class. A general label is right when WordNet 3.0 puts it above
the photo's class: the labels of each class in the cache's labels/general_labels.json, which
scripts/build-general-labels.py derives from Debian's WordNet (data.noun hypernyms), not from any model.
Precision per confidence band says from which confidence a label is worth counting: collections' label
filters count one from 0.5 (CollectionQuery.labelConfidence).
"""
import json
import subprocess

import cv2

TITLE = "Labels"

MODEL = "efficientnet_lite0_classifier.tflite"  # LabelsTask.baseModelName
FLOOR = 0.05  # the lowest confidence asked of both sides
MOST = 10  # labels per photo (the task's default --max)
BANDS = ((0.05, 0.25), (0.25, 0.5), (0.5, 2.0))  # the last one: 0.5 and up
QUICK = ("n02123", "n02124", "n02125", "n02127", "n02128", "n02129")  # the 12 cat classes


def band_name(low, high):
    return f"≥ {low}" if high > 1 else f"{low}–{high}"


def ours(binary, paths, general):
    """[(class index or general label's text, confidence)] per path, most confident first."""
    command = [binary, "labels", "--json", "--threshold", str(FLOOR), "--max", str(MOST)] + (["--general"] if general else [])
    lines = subprocess.run(command + [str(p) for p in paths], check=True, capture_output=True, text=True).stdout.splitlines()
    key = "text" if general else "index"
    found = {r["file"]: [(label[key], label["confidence"]) for label in r["labels"]] for r in map(json.loads, lines)}
    return [found[str(p)] for p in paths]


def peer(model, paths, table):
    """MediaPipe's class labels and general labels per path, as ours: at least FLOOR, the MOST best."""
    from mediapipe import Image, ImageFormat
    from mediapipe.tasks.python import BaseOptions, vision

    options = vision.ImageClassifierOptions(base_options=BaseOptions(model_asset_path=str(model)), max_results=-1)
    names = [label["name"] for label in table["labels"]]
    classes, general = [], []
    with vision.ImageClassifier.create_from_options(options) as classifier:
        for path in paths:
            rgb = cv2.cvtColor(cv2.imread(str(path), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
            categories = classifier.classify(Image(image_format=ImageFormat.SRGB, data=rgb)).classifications[0].categories
            scores = [0.0] * len(names)
            for c in categories:
                for label in table["classLabels"][c.index]:
                    scores[label] += c.score
            classes.append(best([(c.index, c.score) for c in categories]))
            general.append(best(list(zip(names, scores))))
    return classes, general


def best(labels):
    return sorted((l for l in labels if l[1] >= FLOOR), key=lambda l: -l[1])[:MOST]


def precision(found, right, low, high):
    """Share of labels with confidence in [low, high) that `right(photo, label)` accepts, and their count."""
    kept = [right(photo, label) for photo, labels in enumerate(found) for label, confidence in labels if low <= confidence < high]
    return (sum(kept) / len(kept) if kept else 0.0), len(kept)


def run(context):
    folder = context.data / "faces" / "animals"
    table_file = context.cache / "labels" / "general_labels.json"
    model = context.cache / "models" / MODEL
    for needed in (folder, table_file, model):
        if not needed.exists():
            raise Skip(f"{needed} is missing (run the set-up)")  # noqa: F821 (injected by eval/run.py)
    paths = sorted(folder.glob("n*.jpg"))
    if context.quick:
        paths = [p for p in paths if p.name.startswith(QUICK)]
    table = json.loads(table_file.read_text())
    index = {wnid: i for i, wnid in enumerate(table["classSynsets"])}
    truth = [index[p.name.split("_")[0]] for p in paths]
    names = [label["name"] for label in table["labels"]]
    general_truth = [{names[k] for k in table["classLabels"][c]} for c in truth]

    found = {"classes": (ours(context.binary, paths, general=False),), "general": (ours(context.binary, paths, general=True),)}
    peer_classes, peer_general = peer(model, paths, table)
    found["classes"] += (peer_classes,)
    found["general"] += (peer_general,)
    right = {"classes": lambda photo, label: label == truth[photo],
             "general": lambda photo, label: label in general_truth[photo]}

    n = len(paths)
    rows = [{"metric": "top-1 class is the photo's", "peer_name": "MediaPipe ImageClassifier", "items": n,
             "ours": sum(bool(f) and f[0][0] == t for f, t in zip(found["classes"][0], truth)) / n,
             "peer": sum(bool(f) and f[0][0] == t for f, t in zip(found["classes"][1], truth)) / n}]
    for kind, label in (("classes", "ImageNet class"), ("general", "general label")):
        mine, theirs = found[kind]
        for low, high in BANDS:
            value, counted = precision(mine, right[kind], low, high)
            rows.append({"metric": f"precision, {label}, confidence {band_name(low, high)}", "ours": value,
                         "peer": precision(theirs, right[kind], low, high)[0], "peer_name": "MediaPipe ImageClassifier",
                         "items": counted})
    return rows
