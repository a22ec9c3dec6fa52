"""MediaPipe Python's labels and embeddings for the classifier fidelity tests: the independent reference.

Runs MediaPipe 0.10.21's ImageClassifier and ImageEmbedder (Tasks API, CPU) on the given model files
(the model zoo's EfficientNet-Lite0 classifier and embedder, the files SwiftVision runs) for each
request: an image file and an optional region of interest [left, top, right, bottom] in 0...1 of the
image (MediaPipe's `ImageProcessingOptions.region_of_interest`). The images are read with OpenCV
(EXIF orientation applied, RGB) and handed over as `mp.Image` SRGB pixels.

Prints one JSON array, per request in order: {"file", "region", "top": the TOP best categories as
{"index", "name", "score"}, best first, "embedding": the embedder's float vector (not normalised)}.

usage: classifier_reference.py CLASSIFIER EMBEDDER TOP REQUESTS_JSON
       REQUESTS_JSON: [{"file": PATH, "region": [left, top, right, bottom] or null}, ...]
"""
import json
import sys

import cv2
import mediapipe as mp
from mediapipe.tasks.python import BaseOptions, vision
from mediapipe.tasks.python.components.containers.rect import Rect
from mediapipe.tasks.python.vision.core.image_processing_options import ImageProcessingOptions


def main(classifier_path, embedder_path, top, requests):
    classifier = vision.ImageClassifier.create_from_options(vision.ImageClassifierOptions(
        base_options=BaseOptions(model_asset_path=classifier_path), max_results=top))
    embedder = vision.ImageEmbedder.create_from_options(vision.ImageEmbedderOptions(
        base_options=BaseOptions(model_asset_path=embedder_path)))
    results = []
    for request in requests:
        bgr = cv2.imread(request["file"], cv2.IMREAD_COLOR)
        if bgr is None:
            raise SystemExit(f"cannot read {request['file']}")
        image = mp.Image(image_format=mp.ImageFormat.SRGB, data=cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
        region = request.get("region")
        options = ImageProcessingOptions(region_of_interest=Rect(*region)) if region else None
        categories = classifier.classify(image, image_processing_options=options).classifications[0].categories
        embedding = embedder.embed(image, image_processing_options=options).embeddings[0].embedding
        results.append({
            "file": request["file"],
            "region": region,
            "top": [{"index": c.index, "name": c.category_name, "score": float(c.score)} for c in categories],
            "embedding": [float(value) for value in embedding],
        })
    classifier.close()
    embedder.close()
    print(json.dumps(results))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), json.loads(sys.argv[4]))
