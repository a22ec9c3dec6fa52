"""The wheel's short-range BlazeFace with the image-input metadata MediaPipe's Tasks FaceDetector needs.

The mediapipe 0.10.21 wheel ships face_detection_short_range.tflite (the file SwiftVision runs) without
the metadata the Tasks API reads; MediaPipe's own metadata writer adds it (normalisation to [-1, 1], what
the model was trained with, and the names of the two outputs). The weights are untouched. Shared by the
face fidelity reference (Tests/Python/Reference/face_reference.py) and the face stream benchmark peer.
"""

import os

import mediapipe as mp
from mediapipe.tasks.python.metadata.metadata_writers import metadata_writer

SHORT_RANGE_NAME = "face_detection_short_range.tflite"


def wheel_model_path(name=SHORT_RANGE_NAME):
    """The path of the wheel's face detection model `name`."""
    return os.path.join(os.path.dirname(mp.__file__), "modules", "face_detection", name)


def short_range_detector(folder):
    """Writes the wheel's short-range BlazeFace with image-input metadata into `folder`; returns its path."""
    with open(wheel_model_path(), "rb") as f:
        writer = metadata_writer.MetadataWriter.create(f.read())
    writer.add_general_info("face_detection_short_range", "BlazeFace short range, from the mediapipe wheel")
    writer.add_image_input(norm_mean=[127.5], norm_std=[127.5])
    writer.add_feature_output(name="regressors")
    writer.add_feature_output(name="classificators")
    model, _ = writer.populate()
    path = os.path.join(folder, "face_detection_short_range_with_metadata.tflite")
    with open(path, "wb") as f:
        f.write(model)
    return path
