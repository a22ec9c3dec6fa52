"""MediaPipe Python (solutions API, on the same .tflite files from its wheel) on the photos and video frames
swiftvision-bench uses, one timed call at a time, so that the bench can alternate its runs with ours
(timing.serve).

Usage: mediapipe_faces_peer.py
  prints {"mediapipe_version": ...}, then answers each line of standard input with one JSON line:
  "short PHOTO", "full PHOTO", "mesh PHOTO": one call of the short-range or full-range face detector, or of
      FaceMesh (static images, up to 20 faces), on the photo decoded once as RGB:
      {"ms": ..., "count": ... (faces), "peak_mib": ...};
  "video VIDEO": a tracking FaceMesh (1 face) on every frame of VIDEO in order:
      {"ms": ... (the median per frame, the first 5 left out), "peak_mib": ...}.
"""

import functools
from importlib.metadata import version

import cv2
import mediapipe as mp

from timing import read_rgb_frames, serve, stream_median_ms, timed_ms


def main():
    short = mp.solutions.face_detection.FaceDetection(model_selection=0, min_detection_confidence=0.5)
    full = mp.solutions.face_detection.FaceDetection(model_selection=1, min_detection_confidence=0.5)
    mesh = mp.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=20)
    photos = functools.cache(lambda path: cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB))

    def answer(kind, path):
        if kind == "video":
            stream = mp.solutions.face_mesh.FaceMesh(static_image_mode=False, max_num_faces=1)
            return {"ms": stream_median_ms(stream.process, read_rgb_frames(path))}
        if kind == "mesh":
            ms, found = timed_ms(mesh.process, photos(path))
            return {"ms": ms, "count": len(found.multi_face_landmarks or [])}
        ms, found = timed_ms({"short": short, "full": full}[kind].process, photos(path))
        return {"ms": ms, "count": len(found.detections or [])}
    serve({"mediapipe_version": version("mediapipe")}, answer)


if __name__ == "__main__":
    main()
