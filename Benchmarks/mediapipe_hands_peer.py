"""Times MediaPipe Python's hand graph (0.10.21, solutions API, model_complexity=1, max_num_hands=2: the
wheel's palm_detection_full.tflite and hand_landmark_full.tflite, the files swiftvision-bench runs) on
the same photos and video frames, and prints one JSON object.

Usage: mediapipe_hands_peer.py ITERATIONS VIDEO PHOTO...
"""

import json
import sys

import cv2
import mediapipe as mp

from timing import median_ms, peak_mib, read_rgb_frames, stream_median_ms


def main(iterations, video, photos):
    iterations = int(iterations)
    still = mp.solutions.hands.Hands(static_image_mode=True, model_complexity=1, max_num_hands=2)
    result = {"photos": {}}
    for photo in photos:
        image = cv2.cvtColor(cv2.imread(photo), cv2.COLOR_BGR2RGB)
        result["photos"][photo] = {
            "ms": median_ms(lambda: still.process(image), iterations),
            "found": len(still.process(image).multi_hand_landmarks or []),
        }

    frames = read_rgb_frames(video)
    # Tracking: each hand's landmarks place its next crop; the palm detector runs while hands are missing.
    stream = mp.solutions.hands.Hands(static_image_mode=False, model_complexity=1, max_num_hands=2)
    result["video_ms"] = stream_median_ms(stream.process, frames)
    result["peak_mib"] = peak_mib()
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
