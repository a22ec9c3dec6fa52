"""MediaPipe Python's pose landmarks for the pose tests: the independent reference.

Runs the legacy `mp.solutions.pose.Pose(static_image_mode=True, model_complexity=1)` graph, which
uses the wheel's pose_detection.tflite and pose_landmark_full.tflite (the same files SwiftVision
installs, checked by the test), on each image given and prints one JSON array: per image the
upright size and either null (no pose) or the 33 landmarks in pixels (x, y; z on the scale of x),
visibility, presence, the 33 world landmarks in metres and the segmentation mask on a grid; and the paths of the two model files the
graph loads, so that the test can check they are the files SwiftVision runs.

With --video the images are the frames of one video, in order: the graph tracks the pose from frame
to frame (static_image_mode=False, smooth_landmarks=False: the landmarks of one frame place the next
frame's crop and the detector runs only when the pose is lost).

usage: pose_reference.py [--video] IMAGE...
"""
import json
import os
import sys

import cv2
import mediapipe as mp


GRID = 8


def main(paths, video):
    results = []
    with mp.solutions.pose.Pose(
        static_image_mode=not video, model_complexity=1, enable_segmentation=True, smooth_landmarks=False,
        smooth_segmentation=False,
    ) as pose:
        for path in paths:
            # IMREAD_COLOR applies the EXIF orientation: the image is upright, as SwiftVision reports.
            bgr = cv2.imread(path, cv2.IMREAD_COLOR)
            height, width = bgr.shape[:2]
            found = pose.process(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
            entry = {"file": path, "width": width, "height": height, "pose": None}
            if found.pose_landmarks:
                entry["pose"] = {
                    "landmarks": [
                        {"x": p.x * width, "y": p.y * height, "z": p.z * width, "visibility": p.visibility,
                         "presence": p.presence}
                        for p in found.pose_landmarks.landmark
                    ],
                    "worldLandmarks": [{"x": p.x, "y": p.y, "z": p.z} for p in found.pose_world_landmarks.landmark],
                    # The segmentation mask above 0.5, sampled every GRID pixels (rows of 0/1 from the top left).
                    "maskGrid": (found.segmentation_mask[GRID // 2::GRID, GRID // 2::GRID] > 0.5).astype(int).tolist(),
                }
            results.append(entry)
    modules = os.path.join(os.path.dirname(mp.__file__), "modules")
    models = {
        "pose_detection.tflite": os.path.join(modules, "pose_detection", "pose_detection.tflite"),
        "pose_landmark_full.tflite": os.path.join(modules, "pose_landmark", "pose_landmark_full.tflite"),
    }
    print(json.dumps({"models": models, "images": results}))


if __name__ == "__main__":
    arguments = sys.argv[1:]
    main([a for a in arguments if a != "--video"], "--video" in arguments)
