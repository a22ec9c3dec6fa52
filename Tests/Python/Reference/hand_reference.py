"""MediaPipe Python's hand landmarks for the hand tests: the independent reference.

Runs the legacy `mp.solutions.hands.Hands(static_image_mode=True, model_complexity=1, max_num_hands=2)`
graph, which uses the wheel's palm_detection_full.tflite and hand_landmark_full.tflite (with
--complexity 0, palm_detection_lite.tflite and hand_landmark_lite.tflite: the same files SwiftVision
installs, checked by the test), on each image given and prints one JSON object: per image
the upright size and the hands found, each with its handedness label and score and the 21 landmarks in
pixels (x, y; z on the scale of x) and in metres (world); and the paths of the two model files the
graph loads, so that the test can check they are the files SwiftVision runs.

With --video the images are the frames of one video, in order: the graph tracks the hands from frame
to frame (static_image_mode=False: the landmarks of one frame place the next frame's crops and the palm
detector runs only while fewer hands than max_num_hands are tracked).

usage: hand_reference.py [--video] [--complexity 0|1] IMAGE...
"""
import json
import os
import sys

import cv2
import mediapipe as mp


def main(paths, video, complexity):
    results = []
    with mp.solutions.hands.Hands(static_image_mode=not video, model_complexity=complexity, max_num_hands=2) as hands:
        for path in paths:
            # IMREAD_COLOR applies the EXIF orientation: the image is upright, as SwiftVision reports.
            bgr = cv2.imread(path, cv2.IMREAD_COLOR)
            height, width = bgr.shape[:2]
            found = hands.process(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
            entry = {"file": path, "width": width, "height": height, "hands": []}
            for landmarks, world, handedness in zip(
                found.multi_hand_landmarks or [], found.multi_hand_world_landmarks or [], found.multi_handedness or []
            ):
                entry["hands"].append({
                    "handedness": handedness.classification[0].label,
                    "score": handedness.classification[0].score,
                    "landmarks": [{"x": p.x * width, "y": p.y * height, "z": p.z * width} for p in landmarks.landmark],
                    "worldLandmarks": [{"x": p.x, "y": p.y, "z": p.z} for p in world.landmark],
                })
            results.append(entry)
    modules = os.path.join(os.path.dirname(mp.__file__), "modules")
    size = ["lite", "full"][complexity]
    models = {
        f"palm_detection_{size}.tflite": os.path.join(modules, "palm_detection", f"palm_detection_{size}.tflite"),
        f"hand_landmark_{size}.tflite": os.path.join(modules, "hand_landmark", f"hand_landmark_{size}.tflite"),
    }
    print(json.dumps({"models": models, "images": results}))


if __name__ == "__main__":
    arguments = sys.argv[1:]
    complexity = 1
    if "--complexity" in arguments:
        at = arguments.index("--complexity")
        complexity = int(arguments[at + 1])
        del arguments[at:at + 2]
    main([a for a in arguments if a != "--video"], "--video" in arguments, complexity)
