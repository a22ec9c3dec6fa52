"""Times MediaPipe Python (0.10.21, solutions API, on the same .tflite files from its wheel) on the
photos and video frames swiftvision-bench uses, and prints one JSON object.

Usage: mediapipe_faces_peer.py ITERATIONS VIDEO PHOTO...
"""

import json
import sys

import cv2
import mediapipe as mp

from timing import median_ms, peak_mib, read_rgb_frames, stream_median_ms


def main(iterations, video, photos):
    iterations = int(iterations)
    short = mp.solutions.face_detection.FaceDetection(model_selection=0, min_detection_confidence=0.5)
    full = mp.solutions.face_detection.FaceDetection(model_selection=1, min_detection_confidence=0.5)
    mesh = mp.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=20)
    result = {"photos": {}}
    for photo in photos:
        image = cv2.cvtColor(cv2.imread(photo), cv2.COLOR_BGR2RGB)
        entry = {}
        for name, detector in (("short", short), ("full", full)):
            entry[name + "_ms"] = median_ms(lambda: detector.process(image), iterations)
            entry[name + "_faces"] = len(detector.process(image).detections or [])
        entry["mesh_ms"] = median_ms(lambda: mesh.process(image), iterations)
        entry["mesh_faces"] = len(mesh.process(image).multi_face_landmarks or [])
        result["photos"][photo] = entry

    frames = read_rgb_frames(video)
    stream = mp.solutions.face_mesh.FaceMesh(static_image_mode=False, max_num_faces=1)
    result["video_ms"] = stream_median_ms(stream.process, frames)
    result["peak_mib"] = peak_mib()
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
