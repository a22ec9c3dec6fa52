"""Times MediaPipe Python's selfie segmentation (0.10.21, solutions API, model_selection=0: the same
selfie_segmentation.tflite as the cache's; its graph runs XNNPACK on 1 thread on Linux) on decoded
photos, and prints one JSON object: {"photos": {path: {"ms", "person_fraction"}}, "peak_mib"}.

Usage: mediapipe_segmentation_peer.py ITERATIONS PHOTO...
"""

import json
import sys

import cv2
import mediapipe as mp

from timing import median_ms, peak_mib


def main(iterations, photos):
    iterations = int(iterations)
    result = {"photos": {}}
    with mp.solutions.selfie_segmentation.SelfieSegmentation(model_selection=0) as segmenter:
        for photo in photos:
            image = cv2.cvtColor(cv2.imread(photo), cv2.COLOR_BGR2RGB)
            mask = segmenter.process(image).segmentation_mask
            result["photos"][photo] = {
                "ms": median_ms(lambda: segmenter.process(image), iterations),
                "person_fraction": float((mask >= 0.5).mean()),
            }
    result["peak_mib"] = peak_mib()
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
