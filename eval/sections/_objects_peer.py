"""The objects section's Python side, run in the set-up's `venv` (ai-edge-litert, OpenCV): one detector over
image files, one JSON line per image {"file", "ms", "objects": [{"class", "score", "box": [l, t, r, b]}]}.

`yolo`: Tests/Python/Reference/yolo_pipeline.py on a packed YOLO .tflite (the peer of `swiftvision objects`).
`ms` is the CPU time of one image's letterbox, invoke and decode (the image already read), at THREADS threads.

Usage: python _objects_peer.py yolo MODEL THRESHOLD THREADS FILE...
"""
import json
import pathlib
import sys
import time

import cv2

ROOT = pathlib.Path(__file__).resolve().parents[2]


def yolo(model, threshold, threads, files):
    sys.path.insert(0, str(ROOT / "Tests" / "Python" / "Reference"))
    from yolo_pipeline import YOLOPipeline

    pipeline = YOLOPipeline(model, num_threads=threads)
    for path in files:
        image = cv2.imread(path, cv2.IMREAD_COLOR)
        started = time.process_time()
        found = pipeline.detect(image, threshold=threshold)
        elapsed = (time.process_time() - started) * 1000
        objects = [{"class": o["class"], "score": o["score"], "box": o["box"]} for o in found]
        print(json.dumps({"file": path, "ms": elapsed, "objects": objects}), flush=True)


def main():
    kind, model, threshold, threads, *files = sys.argv[1:]
    {"yolo": yolo}[kind](model, float(threshold), int(threads), files)


if __name__ == "__main__":
    main()
