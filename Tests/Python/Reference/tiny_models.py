"""Writes two tiny .tflite models without metadata for the labeling and embedding tests, with the
model zoo's writer (run with the tools venv's Python).

Usage: tiny_models.py OUT_DIR
  colour_classifier.tflite  [1, 8, 8, 3] float32 image → mean colour → fully connected → softmax over
                            3 classes: 0 for a red image, 1 for green, 2 for blue. No label file.
  two_head_embedder.tflite  the same image → two outputs: "mean_colour" [1, 3] and "mixed" [1, 4].
"""

import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "tools"))
from modelzoo.tflite_writer import Graph  # noqa: E402


def colour_classifier() -> bytes:
    graph = Graph()
    image = graph.input("image", (1, 8, 8, 3))
    mean = graph.mean_hw("mean_colour", image)
    logits = graph.fully_connected("logits", mean, np.eye(3, dtype=np.float32) * 4, np.zeros(3, np.float32))
    graph.mark_output(graph.softmax("probabilities", logits))
    return graph.serialize("SwiftVision test: colour classifier without metadata")


def two_head_embedder() -> bytes:
    graph = Graph()
    image = graph.input("image", (1, 8, 8, 3))
    mean = graph.mean_hw("mean_colour", image)
    weights = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]], dtype=np.float32)
    graph.mark_output(mean)
    graph.mark_output(graph.fully_connected("mixed", mean, weights, np.zeros(4, np.float32)))
    return graph.serialize("SwiftVision test: embedder with two heads")


def main(out_dir: str) -> None:
    out = pathlib.Path(out_dir)
    (out / "colour_classifier.tflite").write_bytes(colour_classifier())
    (out / "two_head_embedder.tflite").write_bytes(two_head_embedder())


if __name__ == "__main__":
    main(sys.argv[1])
