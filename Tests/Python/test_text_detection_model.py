"""The PP-OCRv4 text detector the model zoo converts (ppocr_v4_text_detection.tflite).

Peer: onnxruntime 1.22.0 (the reference venv, scripts/setup-reference-env.sh) running the ONNX file
of the pinned rapidocr-onnxruntime 1.4.4 wheel, the file the converter reads. Both get the same real
photos with rapidocr's preprocessing: BGR, (pixel / 255 - 0.5) / 0.5, the short side scaled to 736
and both sides rounded to multiples of 32. One LiteRT interpreter is resized between the photos, as
the Swift side resizes its compiled model.

    $CACHE/tools-venv/bin/python Tests/Python/test_text_detection_model.py   # invoke times, 1 thread
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import cv2
import numpy as np
import pytest
from ai_edge_litert.interpreter import Interpreter

from conftest import CACHE, ROOT

MODEL = "ppocr_v4_text_detection.tflite"
WHEEL = "rapidocr_onnxruntime-1.4.4-py3-none-any.whl"
ONNX_MEMBER = "rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx"
PEER_PYTHON = CACHE / "venv" / "bin" / "python"
# ICDAR 2015 scene photos (1280x720) and a street photo in portrait (810x1080): 736x1312 and 992x736.
PHOTOS = [ROOT / "eval" / "data" / "scenetext" / "img_154.jpg",
          ROOT / "eval" / "data" / "scenetext" / "img_9.jpg",
          CACHE / "media" / "bus.jpg"]
TOLERANCE = 1e-3
DB_THRESHOLD = 0.3  # rapidocr's binarisation threshold

# Runs in the reference venv: onnxruntime on every array of inputs.npz -> outputs.npz; with a
# repeat count, also prints the median and range of that many timed runs on the first input.
PEER = """
import sys, time, numpy as np, onnxruntime as ort
onnx_path, inputs, outputs, repeats = sys.argv[1], np.load(sys.argv[2]), sys.argv[3], int(sys.argv[4])
options = ort.SessionOptions()
options.intra_op_num_threads = options.inter_op_num_threads = 1
session = ort.InferenceSession(onnx_path, options, providers=["CPUExecutionProvider"])
name = session.get_inputs()[0].name
np.savez(outputs, **{k: session.run(None, {name: inputs[k]})[0] for k in inputs.files})
if repeats:
    x = inputs[inputs.files[0]]
    times = []
    for _ in range(repeats + 2):
        t0 = time.perf_counter(); session.run(None, {name: x}); times.append((time.perf_counter() - t0) * 1e3)
    times = sorted(times[2:])
    print(f"{times[len(times) // 2]:.1f} {times[0]:.1f} {times[-1]:.1f}")
"""


def rapidocr_input(path: Path, short_side: int = 736) -> np.ndarray:
    """[H, W, 3] float32 BGR in [-1, 1], sides multiples of 32 (rapidocr's limit_type "min")."""
    image = cv2.imread(str(path))
    assert image is not None, path
    h, w = image.shape[:2]
    ratio = short_side / min(h, w)
    size = (max(32, round(w * ratio / 32) * 32), max(32, round(h * ratio / 32) * 32))
    resized = cv2.resize(image, size).astype(np.float32)
    return (resized / 255.0 - 0.5) / 0.5


def onnx_file(tmp_path: Path) -> Path:
    path = tmp_path / "ch_PP-OCRv4_det_infer.onnx"
    with zipfile.ZipFile(CACHE / "downloads" / WHEEL) as zf:
        path.write_bytes(zf.read(ONNX_MEMBER))
    return path


def peer(tmp_path: Path, inputs: dict, repeats: int = 0) -> tuple[dict, str]:
    """onnxruntime's probability maps ([H, W]) for NHWC inputs, and its timing line."""
    np.savez(tmp_path / "inputs.npz", **{k: v.transpose(2, 0, 1)[None] for k, v in inputs.items()})
    run = subprocess.run([str(PEER_PYTHON), "-c", PEER, str(onnx_file(tmp_path)), str(tmp_path / "inputs.npz"),
                          str(tmp_path / "outputs.npz"), str(repeats)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    with np.load(tmp_path / "outputs.npz") as out:
        return {k: out[k][0, 0] for k in out.files}, run.stdout.strip()


def interpreter(threads: int = 1) -> Interpreter:
    return Interpreter(model_path=str(CACHE / "models" / MODEL), num_threads=threads)


def ours(it: Interpreter, x: np.ndarray) -> np.ndarray:
    it.resize_tensor_input(it.get_input_details()[0]["index"], [1, *x.shape], strict=True)
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], x[None])
    it.invoke()
    return it.get_tensor(it.get_output_details()[0]["index"])[0, :, :, 0].copy()


def test_input_height_and_width_are_dynamic():
    it = interpreter()
    (inp,), (out,) = it.get_input_details(), it.get_output_details()
    assert (inp["name"], list(inp["shape_signature"])) == ("image", [1, -1, -1, 3])
    assert (out["name"], list(out["shape_signature"])) == ("probability_map", [1, -1, -1, 1])


def test_probability_map_matches_onnxruntime(tmp_path):
    inputs = {path.stem: rapidocr_input(path) for path in PHOTOS}
    assert {x.shape[:2] for x in inputs.values()} == {(736, 1312), (992, 736)}
    expected, _ = peer(tmp_path, inputs)
    it = interpreter()
    for name, x in inputs.items():
        got = ours(it, x)
        assert got.shape == expected[name].shape == x.shape[:2], name
        text = (expected[name] > DB_THRESHOLD).mean()
        # The photos hold text: the peer marks at least 0.1 % of the pixels, so the comparison is not of empty maps.
        assert text > 1e-3, f"{name}: onnxruntime finds text in only {text:.2%} of the pixels"
        err = float(np.abs(got - expected[name]).max())
        print(f"{name} {x.shape[1]}x{x.shape[0]}: max |Δ| {err:.2e}, text pixels {text:.2%}")
        assert err <= TOLERANCE, f"{name}: max |Δ| {err:.3g} > {TOLERANCE}"


def main() -> int:
    """Invoke time at 1312x736 (width x height), 1 thread: ours (ai-edge-litert, XNNPACK) and onnxruntime, same input."""
    import tempfile
    x = rapidocr_input(PHOTOS[0])
    it = interpreter(threads=1)
    ours(it, x)
    times = []
    for _ in range(20):
        t0 = time.perf_counter()
        it.invoke()
        times.append((time.perf_counter() - t0) * 1e3)
    with tempfile.TemporaryDirectory() as tmp:
        _, onnx_line = peer(Path(tmp), {"x": x}, repeats=20)
    median, low, high = (float(v) for v in onnx_line.split())
    print(f"| runtime (1 thread, 1312x736 W×H) | median ms | min–max |\n| --- | ---: | ---: |")
    print(f"| ai-edge-litert 2.3.0, {MODEL} | {statistics.median(times):.1f} | {min(times):.1f}–{max(times):.1f} |")
    print(f"| onnxruntime 1.22.0, ch_PP-OCRv4_det_infer.onnx | {median:.1f} | {low:.1f}–{high:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
