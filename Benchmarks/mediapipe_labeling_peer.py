"""Times MediaPipe Python's ImageClassifier and ImageEmbedder (0.10.21, Tasks API, 1 XNNPACK thread by
default on Linux) on the model zoo's files and the photos swiftvision-bench uses.

Usage:
  mediapipe_labeling_peer.py serve CLASSIFIER EMBEDDER CROPS
      answers one timed call at a time, so that swiftvision-bench can alternate its runs with ours
      (timing.serve): prints {"mediapipe_version": ...}, then for each line of standard input one JSON line:
      "classify PHOTO": {"ms", "top_label", "peak_mib"}; "embed PHOTO": {"ms", "peak_mib"}; "crops":
      {"ms", "peak_mib"}, the time to classify every region of the crops' photo, one call each. Each photo
      is decoded once, on its first request. CROPS is JSON {"photo": PATH, "regions": [[left, top, right,
      bottom], ...]} in normalised coordinates.
  mediapipe_labeling_peer.py stream EMBEDDER PHOTO SECONDS PERIOD_MS
      sends PHOTO scaled to 640x480 to a live-stream embedder every PERIOD_MS for SECONDS, timestamps
      increasing by 1 ms per frame; prints a progress line {"sent", "delivered", "call_ms_max"} every
      25 frames and a final {"sent", "delivered", "seconds", "call_ms_median", "call_ms_max",
      "latency_ms_median", "latency_ms_max", "done": true}, latency running from the call to the result.
      MediaPipe's Python binding holds the GIL while it waits for room in the graph's input queue, so a
      fast producer can deadlock it (google-ai-edge/mediapipe#5466); the last progress line then tells
      how far it got.
"""

import functools
import json
import sys
import time
from importlib.metadata import version

import cv2
import mediapipe as mp
from mediapipe.tasks.python import BaseOptions, vision
from mediapipe.tasks.python.components.containers.rect import Rect
from mediapipe.tasks.python.vision.core.image_processing_options import ImageProcessingOptions

from timing import live_stream, serve, timed_ms


def serve_latency(classifier_path, embedder_path, crops):
    """Answers one timed classification, embedding or crops run per request, until the end of standard input."""
    classifier = vision.ImageClassifier.create_from_options(vision.ImageClassifierOptions(
        base_options=BaseOptions(model_asset_path=classifier_path), max_results=1))
    embedder = vision.ImageEmbedder.create_from_options(vision.ImageEmbedderOptions(
        base_options=BaseOptions(model_asset_path=embedder_path)))
    images = functools.cache(mp.Image.create_from_file)
    crops = json.loads(crops)
    regions = [ImageProcessingOptions(region_of_interest=Rect(*region)) for region in crops["regions"]]

    def classify_crops(image):
        return [classifier.classify(image, image_processing_options=options) for options in regions]

    def answer(kind, path):
        if kind == "classify":
            ms, found = timed_ms(classifier.classify, images(path))
            return {"ms": ms, "top_label": found.classifications[0].categories[0].category_name}
        if kind == "embed":
            return {"ms": timed_ms(embedder.embed, images(path))[0]}
        return {"ms": timed_ms(classify_crops, images(crops["photo"]))[0]}
    serve({"mediapipe_version": version("mediapipe")}, answer)
    classifier.close()
    embedder.close()


def stream(embedder_path, photo, seconds, period_ms):
    seconds, period = float(seconds), float(period_ms) / 1000
    frame = cv2.resize(cv2.cvtColor(cv2.imread(photo), cv2.COLOR_BGR2RGB), (640, 480), interpolation=cv2.INTER_AREA)
    image = mp.Image(image_format=mp.ImageFormat.SRGB, data=frame)
    delivered = []
    sent_at = []

    def on_result(result, output_image, timestamp_ms):
        delivered.append((time.perf_counter() - sent_at[timestamp_ms]) * 1000)

    options = vision.ImageEmbedderOptions(
        base_options=BaseOptions(model_asset_path=embedder_path),
        running_mode=vision.RunningMode.LIVE_STREAM, result_callback=on_result)
    embedder = vision.ImageEmbedder.create_from_options(options)
    live_stream(lambda index: embedder.embed_async(image, index), seconds, period, sent_at, delivered)
    embedder.close()


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve_latency(*sys.argv[2:5])
    else:
        stream(*sys.argv[2:6])
