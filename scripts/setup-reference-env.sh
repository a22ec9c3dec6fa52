#!/usr/bin/env bash
# Creates the Python environment the tests and benchmarks compare against:
# ai-edge-litert 2.3.0 (from the wheel `swiftvision setup` downloaded), numpy and OpenCV's Python binding.
set -euo pipefail

cache="${SWIFTVISION_CACHE:-$HOME/.cache/swiftvision}"
venv="$cache/venv"
if "$venv/bin/python" -c "import ai_edge_litert.interpreter, numpy, cv2" 2>/dev/null; then
    exit 0
fi
echo "Creating the reference Python environment in $venv" >&2
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "$cache"/downloads/ai_edge_litert-2.3.0-*.whl "numpy<2.3" "opencv-python-headless==4.10.0.84"
