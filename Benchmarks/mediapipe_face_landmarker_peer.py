"""MediaPipe Python's FaceLandmarker (Tasks API) on the photos and video frames swiftvision-bench uses, one timed
call at a time, so that the bench can alternate its runs with ours (timing.serve).

MediaPipe publishes no face_landmarker.task with the models SwiftVision runs (its own bundle holds a newer,
478-point mesh). A .task is a zip of two models; this peer writes one from the wheel's files, the ones SwiftVision
runs: face_detector.tflite is the short-range BlazeFace with image-input metadata
(Tests/Python/Reference/mediapipe_face_model.py), face_landmarks_detector.tflite the 468-point face_landmark.tflite with
image-input metadata (normalisation to [0, 1]). The Tasks graph always reads 478 points (the mesh with irises) from
the landmarks tensor, so the last convolution gets 10 more points: copies of the nose tip's filters, so that the
points fall inside the face and leave the next frame's crop (from the points' box) as the 468 place it. Its 1404
outputs become 1434, the first 1404 unchanged (the 468 points as 3-D, where the graph would otherwise split the
tensor into 2-D points); 2 % more work in one layer of the mesh.

Usage: mediapipe_face_landmarker_peer.py
  prints {"mediapipe_version": ...}, then answers each line of standard input with one JSON line:
  "image PHOTO": one detect() in IMAGE mode (up to 20 faces) on the photo decoded once as RGB:
      {"ms": ..., "count": ... (faces), "peak_mib": ...};
  "points PHOTO": the faces' 468 mesh points in pixels, as "image" finds them: {"ms", "count", "faces": [[[x, y], ...]]};
  "video VIDEO": a VIDEO-mode FaceLandmarker (1 face) on every frame of VIDEO in order, timestamps 33 ms apart:
      {"samples": [ms per frame, the first 5 left out], "frames": [faces of each frame, as "points"], "peak_mib": ...}.
"""

import functools
import os
import sys
import tempfile
import time
import zipfile
from importlib.metadata import version

import cv2
import flatbuffers
import mediapipe as mp
import numpy as np
from mediapipe.tasks.metadata import schema_py_generated as schema
from mediapipe.tasks.python.metadata.metadata_writers import metadata_writer
from mediapipe.tasks.python import BaseOptions, vision

from timing import read_rgb_frames, serve, timed_ms

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Python", "Reference"))
from mediapipe_face_model import short_range_detector  # noqa: E402

MESH_POINTS = 468
TASKS_POINTS = 478
# The mesh point whose copies fill the 10 points the Tasks graph reads past the 468.
NOSE_TIP = 1
WARM_UP_FRAMES = 5


def padded_mesh():
    """The wheel's face_landmark.tflite with its landmarks convolution widened from 468 to 478 points by copies
    of the nose tip's filters (fp16, as its weights are stored), and image-input metadata; returns the model's bytes."""
    path = os.path.join(os.path.dirname(mp.__file__), "modules", "face_landmark", "face_landmark.tflite")
    with open(path, "rb") as f:
        model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(f.read(), 0))
    graph = model.subgraphs[0]
    landmarks = graph.tensors[graph.outputs[0]]
    if landmarks.shape[-1] != MESH_POINTS * 3:
        raise ValueError(f"the mesh's first output has {landmarks.shape[-1]} values, not {MESH_POINTS * 3}")
    extra = (TASKS_POINTS - MESH_POINTS) * 3
    convolution = next(op for op in graph.operators if graph.outputs[0] in op.outputs)
    for index in convolution.inputs[1:3]:
        dequantized = graph.tensors[index]
        producer = next(op for op in graph.operators if index in op.outputs)
        stored = graph.tensors[producer.inputs[0]]
        weights = np.frombuffer(bytes(model.buffers[stored.buffer].data), np.float16).reshape(stored.shape)
        nose_tip = weights[NOSE_TIP * 3:NOSE_TIP * 3 + 3]
        widened = np.concatenate([weights, *[nose_tip] * (TASKS_POINTS - MESH_POINTS)])
        model.buffers[stored.buffer].data = np.frombuffer(widened.tobytes(), np.uint8)
        for tensor in (stored, dequantized):
            tensor.shape = [tensor.shape[0] + extra, *tensor.shape[1:]]
    landmarks.shape = [*landmarks.shape[:-1], landmarks.shape[-1] + extra]
    builder = flatbuffers.Builder(0)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    writer = metadata_writer.MetadataWriter.create(bytes(builder.Output()))
    writer.add_general_info("face_landmark", "MediaPipe face mesh, 468 points (and 10 copies of the nose tip), from the wheel")
    writer.add_image_input(norm_mean=[0.0], norm_std=[255.0])
    writer.add_feature_output(name="landmarks")
    writer.add_feature_output(name="presence")
    widened_model, _ = writer.populate()
    return widened_model


def landmarker_bundle(folder):
    """Writes face_landmarker.task (the short-range detector and the mesh) into `folder`; returns its path."""
    path = os.path.join(folder, "face_landmarker.task")
    with zipfile.ZipFile(path, "w") as bundle:
        bundle.write(short_range_detector(folder), "face_detector.tflite")
        bundle.writestr("face_landmarks_detector.tflite", padded_mesh())
    return path


def mesh_points(result, width, height):
    """Each face's 468 mesh points in pixels."""
    return [[[point.x * width, point.y * height] for point in face[:MESH_POINTS]] for face in result.face_landmarks]


def main():
    folder = tempfile.mkdtemp()
    bundle = landmarker_bundle(folder)

    def landmarker(mode, faces):
        return vision.FaceLandmarker.create_from_options(vision.FaceLandmarkerOptions(
            base_options=BaseOptions(model_asset_path=bundle), running_mode=mode, num_faces=faces))

    photos = vision.FaceLandmarker.create_from_options(vision.FaceLandmarkerOptions(
        base_options=BaseOptions(model_asset_path=bundle), num_faces=20))
    decoded = functools.cache(lambda path: mp.Image(
        image_format=mp.ImageFormat.SRGB, data=cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB)))

    def answer(kind, path):
        if kind == "video":
            stream = landmarker(vision.RunningMode.VIDEO, 1)
            samples, frames = [], []
            for index, frame in enumerate(read_rgb_frames(path)):
                image = mp.Image(image_format=mp.ImageFormat.SRGB, data=frame)
                start = time.perf_counter()
                found = stream.detect_for_video(image, index * 33)
                samples.append((time.perf_counter() - start) * 1000)
                frames.append(mesh_points(found, image.width, image.height))
            stream.close()
            return {"samples": samples[WARM_UP_FRAMES:], "frames": frames}
        image = decoded(path)
        ms, found = timed_ms(photos.detect, image)
        reply = {"ms": ms, "count": len(found.face_landmarks)}
        if kind == "points":
            reply["faces"] = mesh_points(found, image.width, image.height)
        return reply
    serve({"mediapipe_version": version("mediapipe")}, answer)


if __name__ == "__main__":
    main()
