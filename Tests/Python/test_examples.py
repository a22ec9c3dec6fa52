"""The programs in Examples/, written as the iOS guides' apps are (ML Kit, MediaPipe) with only the image
lines changed, built by `make test` and run here on sample photos. Truth: coffee.png shows an espresso
(ImageNet class 967, checked by eye, as PortsTests uses it); zidane.jpg shows two faces, each with both eyes
open; a video made here pans sudoku.png's page (281 × 279 px, half size) over a gray 800 × 600 frame by
(6, 2) px a frame, so each frame's page is known; bus.jpg shows a bus and at least three people; chelsea-small.jpg is a smaller JPEG of
chelsea.png made here, so the two are the same picture; bus.jpg shows a bus, not a cat.
"""
from __future__ import annotations

import subprocess

from test_collections_postgres import photo_folder
from test_sources import write_people_video
from test_web_page import CACHE, MEDIA, ROOT

BUILD = ROOT / ".build" / "debug"


def run(program: str, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BUILD / program), *map(str, arguments)], capture_output=True, text=True, timeout=120)


def test_the_ml_kit_labeling_example_labels_the_espresso():
    result = run("example-label-photo", MEDIA / "coffee.png")
    assert result.returncode == 0, result.stderr
    first = result.stdout.splitlines()[0].split("\t")
    assert first[0] == "espresso" and first[2] == "967" and float(first[1]) >= 0.5, result.stdout
    missing = run("example-label-photo", "/nonexistent/photo.png")
    assert missing.returncode == 1 and missing.stderr.startswith("error: "), missing.stderr


def test_the_mediapipe_embedder_example_tells_the_same_picture_from_another(tmp_path):
    folder = photo_folder(tmp_path, ["chelsea.png", "bus.jpg"])

    def similarity(first: str, second: str) -> float:
        result = run("example-compare-images", folder / first, folder / second)
        assert result.returncode == 0, result.stderr
        return float(result.stdout.split()[-1])

    assert similarity("chelsea.png", "chelsea-small.jpg") > 0.9
    assert similarity("chelsea.png", "bus.jpg") < 0.5


def test_the_ml_kit_faces_example_draws_glasses_on_both_faces(tmp_path):
    import cv2

    output = tmp_path / "glasses.jpg"
    result = run("example-face-glasses", MEDIA / "zidane.jpg", output)
    assert result.returncode == 0, result.stderr
    faces = [line.split() for line in result.stdout.splitlines()]
    assert len(faces) == 2, result.stdout
    for face in faces:
        x, y, w, h = map(float, face[1:5])
        eyes = [tuple(map(float, eye.split(","))) for eye in face[6:8]]
        # Both eyes inside the face's box, in its upper half.
        assert all(x <= ex <= x + w and y <= ey <= y + h / 2 + h * 0.1 for ex, ey in eyes), face
    drawn, photo = cv2.imread(str(output)), cv2.imread(str(MEDIA / "zidane.jpg"))
    assert drawn.shape == photo.shape
    # The glasses are yellow where the photo is not: the pixels around the first face's eyes changed.
    ex, ey = map(int, map(float, faces[0][6].split(",")))
    patch = (slice(ey - 30, ey + 30), slice(ex - 30, ex + 30))
    assert abs(drawn[patch].astype(int) - photo[patch].astype(int)).sum() > 20_000


def test_the_vision_example_follows_a_rectangle_by_its_uuid(tmp_path):
    import cv2
    import numpy as np

    page = cv2.imread(str(MEDIA / "sudoku.png"))
    small = cv2.resize(page, (page.shape[1] // 2, page.shape[0] // 2))
    video, frames, origin = tmp_path / "pan.avi", 30, lambda i: (100 + 6 * i, 120 + 2 * i)
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 25, (800, 600))
    for index in range(frames):
        frame = np.full((600, 800, 3), 90, np.uint8)
        x, y = origin(index)
        frame[y:y + small.shape[0], x:x + small.shape[1]] = small
        writer.write(frame)
    writer.release()

    result = run("example-track-rectangle", video)
    assert result.returncode == 0, result.stderr
    lines = [line.split() for line in result.stdout.splitlines()]
    assert [int(line[0]) for line in lines] == list(range(1, frames)), result.stdout
    assert len({line[1] for line in lines}) == 1, "one uuid from the seed to the last frame"
    centres = []
    for line in lines:
        index = int(line[0])
        nx, ny, nw, nh = map(float, line[3:7])
        # Vision's normalised box, lower-left origin, back to top-left pixels.
        left, top, width, height = nx * 800, (1 - ny - nh) * 600, nw * 800, nh * 600
        x, y = origin(index)
        assert x - 10 <= left and left + width <= x + small.shape[1] + 10, (index, line)  # the page, give or take 10 px
        assert y - 10 <= top and top + height <= y + small.shape[0] + 10, (index, line)
        centres.append((left + width / 2, top + height / 2))
    moved = (centres[-1][0] - centres[0][0]) / (len(centres) - 1), (centres[-1][1] - centres[0][1]) / (len(centres) - 1)
    assert abs(moved[0] - 6) < 1.5 and abs(moved[1] - 2) < 1.5, moved


def test_the_ml_kit_objects_example_labels_each_crop_with_the_base_or_a_custom_model():
    base = run("example-objects-then-labels", MEDIA / "bus.jpg")
    assert base.returncode == 0, base.stderr
    objects = [line.split("\t") for line in base.stdout.splitlines()]
    assert sum(1 for o in objects if o[1] == "person") >= 3, base.stdout
    bus = next(o for o in objects if o[1] == "bus")
    assert bus[2].rsplit(" ", 1)[0] in {"minibus", "trolleybus", "school bus", "passenger car", "streetcar"}, bus
    # A custom labeler over the very model the base labeler runs labels every crop the same way.
    model = CACHE / "models" / "efficientnet_lite0_classifier.tflite"
    custom = run("example-objects-then-labels", MEDIA / "bus.jpg", model)
    assert custom.returncode == 0 and custom.stdout == base.stdout, (custom.stderr, custom.stdout)


def test_the_mediapipe_live_stream_example_tells_the_scene_change(tmp_path):
    # 1 s of zidane.jpg, then 1 s of gray, at 25 frames a second: the scene changes at 1000 ms.
    video = write_people_video(tmp_path / "people.avi", seconds=1)
    result = run("example-live-embeddings", video)
    assert result.returncode == 0, result.stderr
    results = [(int(t), float(s)) for t, s in (line.split() for line in result.stdout.splitlines())]
    timestamps = [t for t, _ in results]
    assert timestamps == sorted(timestamps) and timestamps[0] == 0 and timestamps[-1] == 1960, timestamps
    assert all(s > 0.95 for t, s in results if t < 1000), results
    assert all(s < 0.5 for t, s in results if t >= 1000) and any(t >= 1000 for t, _ in results), results
