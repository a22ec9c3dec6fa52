"""Times the whole Python object-detection pipeline on the photos swiftvision-bench uses, on the same
.tflite, and prints one JSON object.

Usage: objects_peer.py ITERATIONS TFLITE_MODEL PHOTO...
  pipeline_ms: per photo, the samples of `detect` on the decoded BGR image: letterbox, ai-edge-litert
               invoke (1 thread), decode of the raw YOLO grids, per-class NMS — what ObjectDetector does.
               The pipeline is Tests/Python/Reference/yolo_pipeline.py, the reference of ObjectFidelityTests;
  detections:  how many objects `detect` found per photo;
  invoke_ms:   the samples of Interpreter.invoke alone on a prepared tensor (the floor of any pipeline).
"""

import json
import os
import sys

import cv2
import numpy as np

from timing import peak_mib, pin_threads, samples_ms

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Python", "Reference"))
from yolo_pipeline import YOLOPipeline  # noqa: E402


def main(iterations, model, photos):
    iterations = int(iterations)
    threads = pin_threads()
    pipeline = YOLOPipeline(model, num_threads=1)
    result = {"pipeline_ms": {}, "detections": {}, "opencv_threads": threads}
    for photo in photos:
        image = cv2.imread(photo)
        result["detections"][photo] = len(pipeline.detect(image))
        result["pipeline_ms"][photo] = samples_ms(lambda: pipeline.detect(image), iterations)
    interpreter = pipeline.interpreter
    details = interpreter.get_input_details()[0]
    interpreter.set_tensor(details["index"], np.zeros(details["shape"], np.float32))
    result["invoke_ms"] = samples_ms(interpreter.invoke, iterations)
    result["peak_mib"] = peak_mib()
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
