#!/usr/bin/env bash
# Creates the Python environment `make eval` runs its peers in: OpenCV with its contrib trackers (CSRT, KCF),
# MediaPipe (the face detector peer), numpy and rapidocr (PaddleOCR's PP-OCRv4 on ONNX Runtime, the scene-text
# peer), pinned, from PyPI.
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
# rapidocr without its dependencies' own pins: they would replace the contrib OpenCV build and MediaPipe's protobuf.
if ! "$venv/bin/python" -c "from importlib.metadata import version as v; assert v('rapidocr-onnxruntime') == '1.4.4'" 2>/dev/null; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
        "rapidocr-onnxruntime==1.4.4" "onnxruntime==1.32.0" "pyclipper==1.4.0" "shapely==2.2.0" "PyYAML==6.0.4" \
        "six==1.17.0"
fi
