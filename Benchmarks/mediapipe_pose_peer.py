"""Times MediaPipe Python's pose graph (0.10.21, solutions API, model_complexity=1: the wheel's
pose_detection.tflite and pose_landmark_full.tflite, the files swiftvision-bench runs) on the same
photos and video frames, and prints one JSON object.

Usage: mediapipe_pose_peer.py ITERATIONS VIDEO PHOTO...
"""

import json
import sys

import cv2
import mediapipe as mp

from timing import median_ms, peak_mib, read_rgb_frames, stream_median_ms


def main(iterations, video, photos):
    iterations = int(iterations)
    still = mp.solutions.pose.Pose(static_image_mode=True, model_complexity=1)
    result = {"photos": {}}
    for photo in photos:
        image = cv2.cvtColor(cv2.imread(photo), cv2.COLOR_BGR2RGB)
        result["photos"][photo] = {
            "ms": median_ms(lambda: still.process(image), iterations),
            "found": 1 if still.process(image).pose_landmarks else 0,
        }

    frames = read_rgb_frames(video)
    # Tracking as SwiftVision does it: landmarks place the next crop, no smoothing.
    stream = mp.solutions.pose.Pose(static_image_mode=False, model_complexity=1, smooth_landmarks=False)
    result["video_ms"] = stream_median_ms(stream.process, frames)
    result["peak_mib"] = peak_mib()
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
