"""The programs in Examples/, written as the iOS guides' apps are (ML Kit, MediaPipe) with only the image
lines changed, built by `make test` and run here on sample photos. Truth: coffee.png shows an espresso
(ImageNet class 967, checked by eye, as PortsTests uses it); zidane.jpg shows two faces, each with both eyes
open; chelsea-small.jpg is a smaller JPEG of
chelsea.png made here, so the two are the same picture; bus.jpg shows a bus, not a cat.
"""
from __future__ import annotations

import subprocess

from test_collections_postgres import photo_folder
from test_web_page import MEDIA, ROOT

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
