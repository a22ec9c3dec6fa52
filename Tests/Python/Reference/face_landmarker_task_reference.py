"""MediaPipe Python's FaceLandmarker (Tasks API, IMAGE mode, CPU) on a .task bundle as given, MediaPipe's published
face_landmarker.task in the tests: the independent truth for FaceLandmarker's 478-point mesh and its blendshapes
(Tests/PortsTests/MediaPipeTaskBundlePortTests.swift, Tests/TaskTests/FaceBlendshapesModelTests.swift). Every option
is MediaPipe's default but num_faces (NUM_FACES) and output_face_blendshapes, on (the bundle's
face_blendshapes.tflite; it reads the landmarks and leaves them as they are). Images are read with OpenCV (EXIF
orientation applied, RGB).

usage: face_landmarker_task_reference.py BUNDLE IMAGE...
  prints {"models": [BUNDLE], "results": [{"width", "height", "faces": [[[x, y] in pixels, every landmark in
  MediaPipe's order]], "blendshapes": [[{"index", "name", "display", "score"} of every category, in MediaPipe's
  order], one list per face of "faces"]}]}, one result per IMAGE, in order.
"""
import json
import sys

from mediapipe.tasks.python import BaseOptions, vision

from mediapipe_tasks_reference import NUM_FACES, read_rgb


def main(bundle, paths):
    landmarker = vision.FaceLandmarker.create_from_options(vision.FaceLandmarkerOptions(
        base_options=BaseOptions(model_asset_path=bundle), num_faces=NUM_FACES, output_face_blendshapes=True))
    results = []
    for path in paths:
        image = read_rgb(path)
        width, height = image.width, image.height
        found = landmarker.detect(image)
        results.append({
            "width": width, "height": height,
            "faces": [[[point.x * width, point.y * height] for point in face] for face in found.face_landmarks],
            "blendshapes": [[{"index": category.index, "name": category.category_name,
                              "display": category.display_name, "score": category.score} for category in face]
                            for face in found.face_blendshapes]})
    print(json.dumps({"models": [bundle], "results": results}))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
