"""Times MediaPipe Python's live-stream FaceDetector (0.10.21, Tasks API, 1 XNNPACK thread by default on
Linux) on the frames of a video, sent at a fixed period, as swiftvision-bench does with its own live stream.

The model is the wheel's face_detection_short_range.tflite with the image-input metadata the Tasks API
needs, written by Tests/Python/Reference/mediapipe_face_model.py (shared with the face fidelity reference).

Usage: mediapipe_face_stream_peer.py VIDEO SECONDS PERIOD_MS
    sends the video's frames in a loop (timestamps 1 ms apart) every PERIOD_MS for SECONDS; prints a
    progress line {"sent", "delivered", "call_ms_max"} every 25 frames and a final {"sent", "delivered",
    "seconds", "call_ms_median", "call_ms_max", "latency_ms_median", "latency_ms_max", "faces_median",
    "done": true}, latency running from the call to the result.
"""

import os
import statistics
import sys
import tempfile
import time

import mediapipe as mp
from mediapipe.tasks.python import BaseOptions, vision

from timing import live_stream, read_rgb_frames

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Python", "Reference"))
from mediapipe_face_model import short_range_detector  # noqa: E402


def main(video, seconds, period_ms):
    frames = [mp.Image(image_format=mp.ImageFormat.SRGB, data=frame) for frame in read_rgb_frames(video)]
    delivered = []
    faces = []
    sent_at = []

    def on_result(result, output_image, timestamp_ms):
        delivered.append((time.perf_counter() - sent_at[timestamp_ms]) * 1000)
        faces.append(len(result.detections))

    with tempfile.TemporaryDirectory() as folder:
        options = vision.FaceDetectorOptions(
            base_options=BaseOptions(model_asset_path=short_range_detector(folder)),
            running_mode=vision.RunningMode.LIVE_STREAM, min_detection_confidence=0.5, result_callback=on_result)
        detector = vision.FaceDetector.create_from_options(options)
        live_stream(lambda index: detector.detect_async(frames[index % len(frames)], index),
                    float(seconds), float(period_ms) / 1000, sent_at, delivered,
                    extra=lambda: {"faces_median": statistics.median(faces)})
        detector.close()


if __name__ == "__main__":
    main(*sys.argv[1:4])
