"""The Python YOLO pipeline's objects (yolo_pipeline.py) for the object fidelity tests.

Prints one JSON array, per image in order: {"file", "width", "height", "objects"}, the objects as
YOLOPipeline.detect gives them (best first). The images are read with OpenCV (EXIF orientation applied).

usage: yolo_reference.py MODEL IMAGE...
"""
import json
import sys

import cv2

from yolo_pipeline import YOLOPipeline


def main(model, paths):
    pipeline = YOLOPipeline(model)
    results = []
    for path in paths:
        image = cv2.imread(path, cv2.IMREAD_COLOR)
        if image is None:
            raise SystemExit(f"cannot read {path}")
        results.append({"file": path, "width": image.shape[1], "height": image.shape[0], "objects": pipeline.detect(image)})
    print(json.dumps(results))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
