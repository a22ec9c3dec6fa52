#!/usr/bin/env bash
# Creates the Python environment the tests and benchmarks compare against:
# ai-edge-litert 2.3.0 (from the wheel `swiftvision setup` downloaded), numpy and OpenCV's Python binding;
# zxing-cpp's Python binding (barcode fixtures and the barcode peer) and Pillow (rendered text fixtures);
# tesserocr (the text peer), built from its sdist against Debian's libtesseract-dev, the Tesseract we use;
# onnxruntime (the text detector's peer: it runs the ONNX file the model zoo converts);
# in an environment of its own (its dependencies pin versions of their own), schemathesis, which
# tests the service against its OpenAPI document; and, in one made from Debian's own python3 (whose sqlite3
# module can load extensions), numpy and sqlite-vec, the collections benchmark's search peers.
set -euo pipefail

cache="${SWIFTVISION_CACHE:-$HOME/.cache/swiftvision}"
venv="$cache/venv"
if ! "$venv/bin/python" -c "import ai_edge_litert.interpreter, numpy, cv2" 2>/dev/null; then
    echo "Creating the reference Python environment in $venv" >&2
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        "$cache"/downloads/ai_edge_litert-2.3.0-*.whl "numpy<2.3" "opencv-python-headless==4.10.0.84"
fi
if ! "$venv/bin/python" -c "from importlib.metadata import version as v; assert v('zxing-cpp') == '3.1.1' and v('pillow') == '11.1.0'" 2>/dev/null; then
    echo "Adding zxing-cpp and Pillow to $venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "zxing-cpp==3.1.1" "pillow==11.1.0"
fi
if ! "$venv/bin/python" -c "import tesserocr" 2>/dev/null; then
    echo "Building tesserocr against the system Tesseract in $venv (log: $cache/logs/tesserocr.log)" >&2
    mkdir -p "$cache/logs"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-binary tesserocr "tesserocr==2.8.0" \
        >"$cache/logs/tesserocr.log" 2>&1
fi
if ! "$venv/bin/python" -c "from importlib.metadata import version as v; assert v('onnxruntime') == '1.22.0'" 2>/dev/null; then
    echo "Adding onnxruntime to $venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "onnxruntime==1.22.0"
fi
schemathesis="$cache/schemathesis-venv"
if ! "$schemathesis/bin/python" -c "from importlib.metadata import version as v; assert v('schemathesis') == '4.32.5'" 2>/dev/null; then
    echo "Creating the schemathesis environment in $schemathesis" >&2
    rm -rf "$schemathesis"
    python3 -m venv "$schemathesis"
    "$schemathesis/bin/python" -m pip install --quiet --disable-pip-version-check "schemathesis==4.32.5"
fi
vectors="$cache/vectors-venv"
if ! "$vectors/bin/python" -c "from importlib.metadata import version as v; assert v('sqlite-vec') == '0.1.9'" 2>/dev/null; then
    echo "Creating the vector search peers' environment in $vectors" >&2
    rm -rf "$vectors"
    /usr/bin/python3 -m venv "$vectors"
    "$vectors/bin/python" -m pip install --quiet --disable-pip-version-check "numpy<2.3" "sqlite-vec==0.1.9"
fi
