"""Times the Python peers on the same inputs as swiftvision-bench and prints one JSON object.

Usage: python_peer.py MODEL THREADS ITERATIONS PHOTO...
  decode:  cv2.imdecode of each photo's bytes (OpenCV's Python binding);
  invoke:  ai-edge-litert's Interpreter.invoke on MODEL (the floor of any Swift wrapper).
"""

import json
import sys

import cv2
import numpy as np
from ai_edge_litert.interpreter import Interpreter

from timing import median_ms, peak_mib, pin_threads


def main(model, threads, iterations, photos):
    iterations = int(iterations)
    pin_threads()
    decode = {}
    for photo in photos:
        data = np.frombuffer(open(photo, "rb").read(), dtype=np.uint8)
        decode[photo] = median_ms(lambda: cv2.imdecode(data, cv2.IMREAD_COLOR), iterations)
    interpreter = Interpreter(model_path=model, num_threads=int(threads))
    interpreter.allocate_tensors()
    detail = interpreter.get_input_details()[0]
    interpreter.set_tensor(detail["index"], np.zeros(detail["shape"], dtype=detail["dtype"]))
    invoke = median_ms(interpreter.invoke, iterations * 4)
    peak = peak_mib()
    print(json.dumps({"decode_ms": decode, "invoke_ms": invoke, "peak_mib": peak}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])
