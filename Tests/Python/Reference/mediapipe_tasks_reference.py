"""MediaPipe Python's FaceDetector, FaceLandmarker and ImageSegmenter (Tasks API, IMAGE mode, CPU) for the
MediaPipe port tests (Tests/PortsTests/MediaPipeFaceAndSegmentationPortTests.swift): the independent reference.

The models are the files SwiftVision runs: FaceDetector runs the wheel's face_detection_short_range.tflite with
image-input metadata added (mediapipe_face_model.py), FaceLandmarker the face_landmarker.task that the FaceLandmarker
bench peer bundles from the wheel's short-range detector and 468-point face_landmark.tflite
(Benchmarks/mediapipe_face_landmarker_peer.py), ImageSegmenter the SEGMENTER_MODEL given (the installed
selfie_segmentation.tflite). Every option is MediaPipe's default but FaceLandmarker's num_faces (NUM_FACES) and the
segmenter's category mask, asked for too. Images are read with OpenCV (EXIF orientation applied, RGB).

Prints one JSON object: "models", the wheel's detector and mesh files (for the test to check they are the installed
ones), and "results", per request in order:
  "faces=IMAGE": {"width", "height", "faces": [{"score", "box": [left, top, width, height] in pixels,
      "keypoints": [[x, y] in pixels]}]};
  "landmarks=IMAGE": {"width", "height", "faces": [[[x, y] in pixels, the 468 mesh points]]};
  "segment=IMAGE": {"width", "height", "confidence": path of the confidence mask (float32, little-endian, row after
      row), "category": path of the category mask (uint8)}, both written into OUTPUT_DIR.

usage: mediapipe_tasks_reference.py OUTPUT_DIR SEGMENTER_MODEL (faces|landmarks|segment)=IMAGE...
"""
import json
import os
import sys

import cv2
import mediapipe as mp
import numpy as np
from mediapipe.tasks.python import BaseOptions, vision

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Benchmarks"))
from mediapipe_face_landmarker_peer import MESH_POINTS, landmarker_bundle  # noqa: E402
from mediapipe_face_model import short_range_detector, wheel_model_path  # noqa: E402

NUM_FACES = 5


def read_rgb(path):
    """The image at `path`, upright, as an RGB MediaPipe image."""
    bgr = cv2.imread(path, cv2.IMREAD_COLOR)
    if bgr is None:
        raise SystemExit(f"cannot read {path}")
    return mp.Image(image_format=mp.ImageFormat.SRGB, data=cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))


def main(output_dir, segmenter_model, requests):
    # The models written for MediaPipe go beside the masks, into the caller's folder, which the caller removes.
    folder = os.path.join(output_dir, "models")
    os.makedirs(folder, exist_ok=True)
    detector = vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(
        base_options=BaseOptions(model_asset_path=short_range_detector(folder))))
    landmarker = vision.FaceLandmarker.create_from_options(vision.FaceLandmarkerOptions(
        base_options=BaseOptions(model_asset_path=landmarker_bundle(folder)), num_faces=NUM_FACES))
    segmenter = vision.ImageSegmenter.create_from_options(vision.ImageSegmenterOptions(
        base_options=BaseOptions(model_asset_path=segmenter_model), output_confidence_masks=True,
        output_category_mask=True))
    results = []
    for index, request in enumerate(requests):
        kind, path = request.split("=", 1)
        image = read_rgb(path)
        width, height = image.width, image.height
        result = {"width": width, "height": height}
        if kind == "faces":
            result["faces"] = [{
                "score": float(found.categories[0].score),
                "box": [found.bounding_box.origin_x, found.bounding_box.origin_y,
                        found.bounding_box.width, found.bounding_box.height],
                "keypoints": [[point.x * width, point.y * height] for point in found.keypoints],
            } for found in detector.detect(image).detections]
        elif kind == "landmarks":
            result["faces"] = [[[point.x * width, point.y * height] for point in face[:MESH_POINTS]]
                               for face in landmarker.detect(image).face_landmarks]
        elif kind == "segment":
            masks = segmenter.segment(image)
            confidence = os.path.join(output_dir, f"{index}.f32")
            category = os.path.join(output_dir, f"{index}.u8")
            with open(confidence, "wb") as f:
                f.write(np.ascontiguousarray(masks.confidence_masks[0].numpy_view(), dtype="<f4").tobytes())
            with open(category, "wb") as f:
                f.write(np.ascontiguousarray(masks.category_mask.numpy_view(), dtype=np.uint8).tobytes())
            result.update(confidence=confidence, category=category)
        else:
            raise SystemExit(f"unknown request {request}")
        results.append(result)
    models = [wheel_model_path(), os.path.join(os.path.dirname(mp.__file__), "modules", "face_landmark", "face_landmark.tflite")]
    print(json.dumps({"models": models, "results": results}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
