"""The programs in Examples/, written as the iOS guides' apps are (ML Kit, MediaPipe) with only the image
lines changed, built by `make test` and run here on sample photos. Truth: coffee.png shows an espresso
(ImageNet class 967, checked by eye, as PortsTests uses it); chelsea-small.jpg is a smaller JPEG of
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
