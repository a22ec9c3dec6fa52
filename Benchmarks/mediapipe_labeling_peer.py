"""Times MediaPipe Python's ImageClassifier and ImageEmbedder (0.10.21, Tasks API, 1 XNNPACK thread by
default on Linux) on the model zoo's files and the photos swiftvision-bench uses.

Usage:
  mediapipe_labeling_peer.py latency ITERATIONS CLASSIFIER EMBEDDER CROPS PHOTO...
      CROPS is JSON {"photo": PATH, "regions": [[left, top, right, bottom], ...]} in normalised coordinates;
      prints one JSON object: {"photos": {PHOTO: {"classify_ms", "embed_ms", "top_label"}}, "crops_ms",
      "peak_mib"}, crops_ms being the time to classify every region of the crops' photo, one call each.
  mediapipe_labeling_peer.py stream EMBEDDER PHOTO SECONDS PERIOD_MS
      sends PHOTO scaled to 640x480 to a live-stream embedder every PERIOD_MS for SECONDS, timestamps
      increasing by 1 ms per frame; prints a progress line {"sent", "delivered", "call_ms_max"} every
      25 frames and a final {"sent", "delivered", "seconds", "call_ms_median", "call_ms_max",
      "latency_ms_median", "latency_ms_max", "done": true}, latency running from the call to the result.
      MediaPipe's Python binding holds the GIL while it waits for room in the graph's input queue, so a
      fast producer can deadlock it (google-ai-edge/mediapipe#5466); the last progress line then tells
      how far it got.
"""

import json
import sys
import time

import cv2
import mediapipe as mp
from mediapipe.tasks.python import BaseOptions, vision
from mediapipe.tasks.python.components.containers.rect import Rect
from mediapipe.tasks.python.vision.core.image_processing_options import ImageProcessingOptions

from timing import live_stream, median_ms, peak_mib


def latency(iterations, classifier_path, embedder_path, crops, photos):
    iterations = int(iterations)
    classifier = vision.ImageClassifier.create_from_options(vision.ImageClassifierOptions(
        base_options=BaseOptions(model_asset_path=classifier_path), max_results=1))
    embedder = vision.ImageEmbedder.create_from_options(vision.ImageEmbedderOptions(
        base_options=BaseOptions(model_asset_path=embedder_path)))
    result = {"photos": {}}
    for photo in photos:
        image = mp.Image.create_from_file(photo)
        top = classifier.classify(image).classifications[0].categories[0]
        result["photos"][photo] = {
            "classify_ms": median_ms(lambda: classifier.classify(image), iterations),
            "embed_ms": median_ms(lambda: embedder.embed(image), iterations),
            "top_label": top.category_name,
        }
    crops = json.loads(crops)
    image = mp.Image.create_from_file(crops["photo"])
    regions = [ImageProcessingOptions(region_of_interest=Rect(*region)) for region in crops["regions"]]
    result["crops_ms"] = median_ms(
        lambda: [classifier.classify(image, image_processing_options=options) for options in regions], iterations)
    classifier.close()
    embedder.close()
    result["peak_mib"] = peak_mib()
    print(json.dumps(result))


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
    if sys.argv[1] == "latency":
        latency(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6:])
    else:
        stream(*sys.argv[2:6])
