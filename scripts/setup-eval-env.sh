#!/usr/bin/env bash
# Creates the Python environment `make eval` runs its peers in: OpenCV with its contrib trackers (CSRT, KCF),
# MediaPipe (the face detector peer) and numpy, pinned, from PyPI.
set -euo pipefail

cache="${SWIFTVISION_CACHE:-$HOME/.cache/swiftvision}"
venv="$cache/eval-venv"
if ! "$venv/bin/python" -c "from importlib.metadata import version as v; assert v('opencv-contrib-python-headless') == '4.10.0.84' and v('mediapipe') == '0.10.21'" 2>/dev/null; then
    echo "Creating the evaluation Python environment in $venv" >&2
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        "numpy<2" "opencv-contrib-python-headless==4.10.0.84" "mediapipe==0.10.21"
    # mediapipe pulls the plain opencv wheels; the contrib build must be the one that `import cv2` finds.
    "$venv/bin/python" -m pip uninstall --quiet --yes opencv-python opencv-contrib-python opencv-python-headless 2>/dev/null || true
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps \
        "opencv-contrib-python-headless==4.10.0.84"
fi
