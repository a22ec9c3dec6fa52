"""MediaPipe Python's face detections for the face fidelity tests: the independent reference.

Runs MediaPipe 0.10.21's Tasks FaceDetector (IMAGE mode, CPU) on the wheel's face_detection_short_range.tflite
with image-input metadata added (mediapipe_face_model.py; the same weights SwiftVision's fast faces mode
runs, checked by the test) on each image given. The images are read with OpenCV (EXIF orientation
applied, RGB). The detector's threshold is MIN_CONFIDENCE and its suppression threshold MediaPipe's
default (0.3).

Prints one JSON object: "model", the path of the wheel's model file, and "images", per image in order
{"file", "width", "height", "faces"}; each face {"score", "box": [left, top, width, height] in pixels,
"keypoints": the six key points [x, y] in pixels (MediaPipe's normalised values times the image size)}.

usage: face_reference.py MIN_CONFIDENCE IMAGE...
"""
import json
import sys
import tempfile

import cv2
import mediapipe as mp
from mediapipe.tasks.python import BaseOptions, vision

from mediapipe_face_model import short_range_detector, wheel_model_path


def main(min_confidence, paths):
    images = []
    with tempfile.TemporaryDirectory() as folder:
        options = vision.FaceDetectorOptions(
            base_options=BaseOptions(model_asset_path=short_range_detector(folder)),
            running_mode=vision.RunningMode.IMAGE, min_detection_confidence=min_confidence)
        with vision.FaceDetector.create_from_options(options) as detector:
            for path in paths:
                bgr = cv2.imread(path, cv2.IMREAD_COLOR)
                if bgr is None:
                    raise SystemExit(f"cannot read {path}")
                height, width = bgr.shape[:2]
                image = mp.Image(image_format=mp.ImageFormat.SRGB, data=cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
                faces = []
                for detection in detector.detect(image).detections:
                    box = detection.bounding_box
                    faces.append({
                        "score": float(detection.categories[0].score),
                        "box": [box.origin_x, box.origin_y, box.width, box.height],
                        "keypoints": [[k.x * width, k.y * height] for k in detection.keypoints],
                    })
                images.append({"file": path, "width": width, "height": height, "faces": faces})
    print(json.dumps({"model": wheel_model_path(), "images": images}))


if __name__ == "__main__":
    main(float(sys.argv[1]), sys.argv[2:])
