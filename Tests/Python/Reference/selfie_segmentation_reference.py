"""Person masks of MediaPipe Python (0.10.21, solutions API) for the segmentation tests.

Usage: selfie_segmentation_reference.py OUTPUT_DIR IMAGE...
For each image, MediaPipe's SelfieSegmentation (model_selection=0: the general 256x256
selfie_segmentation.tflite from its wheel, the same file as the cache's) runs on the upright RGB
image (OpenCV's imread applies the EXIF orientation). The mask, float32 confidences at the image's
size, row after row, little-endian, is written to OUTPUT_DIR/<index>.f32; standard output gets one
JSON array of {"file","width","height","mask"} (the .f32 path).
"""

import json
import pathlib
import sys

import cv2
import mediapipe as mp
import numpy as np


def main(output_dir, images):
    out = pathlib.Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    manifest = []
    with mp.solutions.selfie_segmentation.SelfieSegmentation(model_selection=0) as segmenter:
        for index, path in enumerate(images):
            bgr = cv2.imread(path, cv2.IMREAD_COLOR)
            if bgr is None:
                raise SystemExit(f"cannot read {path}")
            rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
            mask = segmenter.process(rgb).segmentation_mask
            target = out / f"{index}.f32"
            target.write_bytes(np.ascontiguousarray(mask, dtype="<f4").tobytes())
            manifest.append({"file": path, "width": int(mask.shape[1]), "height": int(mask.shape[0]), "mask": str(target)})
    print(json.dumps(manifest))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
