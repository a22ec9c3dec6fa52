"""The PP-OCRv4 text recogniser the model zoo converts (ppocr_v4_text_recognition.tflite).

Peer: rapidocr-onnxruntime 1.4.4 in the eval venv (scripts/setup-eval-env.sh): onnxruntime running the
ONNX file of the pinned wheel, the file the converter reads, and rapidocr's own CTC decoder with the
character list it reads from that file's metadata. Both get the same real line crops: words of ICDAR 2015
scene photos cut out along their published quadrilaterals (eval/data/scenetext/truth.json), with
rapidocr's recognition preprocessing: BGR, height 48 keeping the aspect ratio, (pixel / 255 - 0.5) / 0.5,
zeros on the right up to the input's width. Each crop runs at its own width (at least rapidocr's 320,
rounded up to a multiple of 8) and padded to 960, as in a batch with a long line; one LiteRT interpreter
is resized between all of them, as the Swift side resizes its compiled model.

    $CACHE/tools-venv/bin/python Tests/Python/test_text_recognition_model.py   # invoke times, 1 thread pinned
"""
from __future__ import annotations

import json
import math
import subprocess
import sys
import zipfile
from pathlib import Path

import cv2
import numpy as np
from ai_edge_litert.interpreter import Interpreter

from conftest import CACHE, ROOT

MODEL = "ppocr_v4_text_recognition.tflite"
LABELS_FILE = "ppocr_v4_characters.txt"
WHEEL = "rapidocr_onnxruntime-1.4.4-py3-none-any.whl"
ONNX_MEMBER = "rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx"
PEER_PYTHON = CACHE / "eval-venv" / "bin" / "python"
SCENES = ROOT / "eval" / "data" / "scenetext"
# Words of two ICDAR 2015 photos, every legible one ("###" marks the illegible) at least 16 px high;
# "SKECHERS" and "STARBUCKS" are wider than 320 at height 48 (392 and 344).
PHOTOS = ["img_47.jpg", "img_296.jpg"]
MIN_HEIGHT = 16
HEIGHT, MIN_WIDTH, STEP, LONG = 48, 320, 8, 960
# Largest |Δ| of a probability: 1e-4 at a crop's own width (seen: 1.7e-5); 5e-3 padded to 960, where
# float32 noise through the attention over 120 mostly padded steps grows (seen: 1.3e-3 through XNNPACK,
# 4e-4 through LiteRT's reference kernels; onnxruntime with and without its graph optimisations differs by
# 2e-4 on the same inputs).
TOLERANCE = {"own": 1e-4, "long": 5e-3}

# Runs in the eval venv: onnxruntime on every array of inputs.npz -> outputs.npz, rapidocr's CTC decoding
# of each -> decoded.json, with rapidocr's character list (blank and space added); with a repeat count,
# also prints the median and range of that many timed runs of each input named in argv[5:].
PEER = """
import json, sys, time, numpy as np, onnxruntime as ort
from rapidocr_onnxruntime.ch_ppocr_rec.utils import CTCLabelDecode
onnx_path, inputs, outputs, repeats = sys.argv[1], np.load(sys.argv[2]), sys.argv[3], int(sys.argv[4])
options = ort.SessionOptions()
options.intra_op_num_threads = options.inter_op_num_threads = 1
session = ort.InferenceSession(onnx_path, options, providers=["CPUExecutionProvider"])
decoder = CTCLabelDecode(character=session.get_modelmeta().custom_metadata_map["character"].splitlines())
name = session.get_inputs()[0].name
probabilities = {k: session.run(None, {name: inputs[k]})[0] for k in inputs.files}
np.savez(outputs + ".npz", **probabilities)
decoded = {k: decoder(p)[0][0] for k, p in probabilities.items()}
json.dump({"decoded": decoded, "labels": decoder.character}, open(outputs + ".json", "w"))
for k in sys.argv[5:] if repeats else []:
    times = []
    for _ in range(repeats + 2):
        t0 = time.perf_counter(); session.run(None, {name: inputs[k]}); times.append((time.perf_counter() - t0) * 1e3)
    times = sorted(times[2:])
    print(f"{k} {times[len(times) // 2]:.1f} {times[0]:.1f} {times[-1]:.1f}")
"""


def word_crop(image: np.ndarray, points) -> np.ndarray:
    """The quadrilateral (clockwise from top left) warped upright, as rapidocr crops a detected box:
    the longer of each pair of opposite sides, cubic interpolation, edge pixels replicated; a crop at
    least 1.5 times as high as wide is turned a quarter."""
    quad = np.array(points, np.float32)
    w = int(max(np.linalg.norm(quad[0] - quad[1]), np.linalg.norm(quad[2] - quad[3])))
    h = int(max(np.linalg.norm(quad[0] - quad[3]), np.linalg.norm(quad[1] - quad[2])))
    target = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    crop = cv2.warpPerspective(image, cv2.getPerspectiveTransform(quad, target), (w, h),
                               borderMode=cv2.BORDER_REPLICATE, flags=cv2.INTER_CUBIC)
    return np.rot90(crop) if h >= 1.5 * w else crop


def line_input(crop: np.ndarray, width: int | None = None) -> np.ndarray:
    """[48, W, 3] float32 BGR in [-1, 1]: rapidocr's resize_norm_img (height 48, aspect kept, width at most
    the input's), zeros after it. W: `width`, else the crop's own width at least 320, a multiple of 8."""
    h, w = crop.shape[:2]
    resized_w = math.ceil(HEIGHT * w / h)
    if width is None:
        width = max(MIN_WIDTH, math.ceil(resized_w / STEP) * STEP)
    resized = cv2.resize(crop, (min(resized_w, width), HEIGHT)).astype(np.float32)
    out = np.zeros((HEIGHT, width, 3), np.float32)
    out[:, :resized.shape[1]] = (resized / 255.0 - 0.5) / 0.5
    return out


def words() -> list[tuple[str, str, np.ndarray]]:
    """(key, ICDAR transcription, crop) for the legible words of PHOTOS."""
    truth = json.loads((SCENES / "truth.json").read_text())
    out = []
    for photo in PHOTOS:
        image = cv2.imread(str(SCENES / photo))
        assert image is not None, photo
        for i, word in enumerate(truth[photo]):
            crop = word_crop(image, word["points"])
            if word["text"] != "###" and min(crop.shape[:2]) >= MIN_HEIGHT:
                out.append((f"{Path(photo).stem}_{i}", word["text"], crop))
    return out


def onnx_file(tmp_path: Path) -> Path:
    path = tmp_path / "ch_PP-OCRv4_rec_infer.onnx"
    with zipfile.ZipFile(CACHE / "downloads" / WHEEL) as zf:
        path.write_bytes(zf.read(ONNX_MEMBER))
    return path


def peer(tmp_path: Path, inputs: dict, repeats: int = 0) -> tuple[dict, dict, list, str]:
    """onnxruntime's probabilities ([T, classes]), rapidocr's decoded strings and character list for NHWC
    inputs, and its timing lines."""
    np.savez(tmp_path / "inputs.npz", **{k: v.transpose(2, 0, 1)[None] for k, v in inputs.items()})
    run = subprocess.run([str(PEER_PYTHON), "-c", PEER, str(onnx_file(tmp_path)), str(tmp_path / "inputs.npz"),
                          str(tmp_path / "outputs"), str(repeats), *inputs],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    decoded = json.loads((tmp_path / "outputs.json").read_text())
    with np.load(tmp_path / "outputs.npz") as out:
        return {k: out[k][0] for k in out.files}, decoded["decoded"], decoded["labels"], run.stdout.strip()


def interpreter() -> Interpreter:
    """One thread, as the peer runs."""
    return Interpreter(model_path=str(CACHE / "models" / MODEL), num_threads=1)


def ours(it: Interpreter, x: np.ndarray) -> np.ndarray:
    """[T, classes] for one [48, W, 3] input, the interpreter first resized to its width."""
    index = it.get_input_details()[0]["index"]
    it.resize_tensor_input(index, [1, *x.shape], strict=True)
    it.allocate_tensors()
    it.set_tensor(index, x[None])
    it.invoke()
    return it.get_tensor(it.get_output_details()[0]["index"])[0].copy()


def packed_labels() -> list[str]:
    """The model's packed class names: one per line, the file ending in a newline."""
    with zipfile.ZipFile(CACHE / "models" / MODEL) as zf:
        text = zf.read(LABELS_FILE).decode()
    assert text.endswith("\n")
    return text[:-1].split("\n")


def greedy(probabilities: np.ndarray, labels: list[str]) -> str:
    """Greedy CTC: the arg-max per time step, repeats merged, the blank (index 0) dropped."""
    best = probabilities.argmax(axis=1)
    return "".join(labels[k] for i, k in enumerate(best) if k != 0 and (i == 0 or best[i - 1] != k))


def test_width_is_dynamic_and_height_fixed():
    it = interpreter()
    (inp,), (out,) = it.get_input_details(), it.get_output_details()
    assert (inp["name"], list(inp["shape"]), list(inp["shape_signature"])) == ("image", [1, 48, 320, 3], [1, 48, -1, 3])
    assert (out["name"], list(out["shape"]), list(out["shape_signature"])) == ("probabilities", [1, 40, 6625], [1, -1, 6625])


def test_probabilities_and_readings_match_rapidocr(tmp_path):
    crops = words()
    inputs = {}
    for key, _, crop in crops:
        inputs[key] = line_input(crop)
        inputs[f"{key}_long"] = line_input(crop, LONG)
    widths = sorted({x.shape[1] for x in inputs.values()})
    assert len(crops) >= 6 and len(widths) >= 3, widths
    expected, decoded, labels, _ = peer(tmp_path, inputs)
    # The class names travel with the model: rapidocr's list, index for index.
    labels_ours = packed_labels()
    assert labels_ours == labels and len(labels) == 6625
    it = interpreter()
    read_right = 0
    for key, text, _ in crops:
        for name in (key, f"{key}_long"):
            got = ours(it, inputs[name])
            assert got.shape == expected[name].shape == (inputs[name].shape[1] // 8, 6625), name
            err = float(np.abs(got - expected[name]).max())
            reading = greedy(got, labels_ours)
            print(f"{name} W {inputs[name].shape[1]}: ICDAR {text!r}, rapidocr {decoded[name]!r}, "
                  f"ours {reading!r}, max |Δ| {err:.2e}")
            tolerance = TOLERANCE["long" if name.endswith("_long") else "own"]
            assert err <= tolerance, f"{name}: max |Δ| {err:.3g} > {tolerance}"
            assert reading == decoded[name] == greedy(expected[name], labels), name
        read_right += decoded[key].lower() == text.lower()
    # The crops are words the peer can read: most of its readings are ICDAR's transcriptions.
    assert read_right >= len(crops) // 2, f"rapidocr reads {read_right} of {len(crops)} crops as ICDAR does"


# Runs in the reference venv, which has both runtimes, pinned to one core: for each input of inputs.npz
# (NHWC), ai-edge-litert on the model and onnxruntime on the ONNX file, one thread each, invoked in turns
# so that both see the same load; prints the median and range of each.
TIMING = """
import os, statistics, sys, time, numpy as np, onnxruntime as ort
from ai_edge_litert.interpreter import Interpreter
os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
model, onnx_path, inputs, rounds = sys.argv[1], sys.argv[2], np.load(sys.argv[3]), int(sys.argv[4])
options = ort.SessionOptions()
options.intra_op_num_threads = options.inter_op_num_threads = 1
session = ort.InferenceSession(onnx_path, options, providers=["CPUExecutionProvider"])
it = Interpreter(model_path=model, num_threads=1)
for k in inputs.files:
    x = inputs[k][None]
    it.resize_tensor_input(0, list(x.shape), strict=True)
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], x)
    feed = {session.get_inputs()[0].name: x.transpose(0, 3, 1, 2).copy()}
    times = {"litert": [], "onnxruntime": []}
    for i in range(rounds + 3):
        for name, run in (("litert", it.invoke), ("onnxruntime", lambda: session.run(None, feed))):
            t0 = time.perf_counter(); run(); ms = (time.perf_counter() - t0) * 1e3
            if i >= 3:
                times[name].append(ms)
    print(k, " ".join(f"{statistics.median(t):.2f} {min(t):.2f} {max(t):.2f}" for t in times.values()))
"""


def main() -> int:
    """Invoke time at W 320 and 960, 1 thread pinned: ours (ai-edge-litert 2.3.0, XNNPACK) and onnxruntime
    1.22.0 on the same inputs, in turns (a word of img_47 padded to each width)."""
    import tempfile
    _, _, crop = words()[0]
    with tempfile.TemporaryDirectory() as tmp:
        np.savez(Path(tmp) / "inputs.npz", **{f"48×{w}": line_input(crop, w) for w in (MIN_WIDTH, LONG)})
        run = subprocess.run([str(CACHE / "venv" / "bin" / "python"), "-c", TIMING, str(CACHE / "models" / MODEL),
                              str(onnx_file(Path(tmp))), str(Path(tmp) / "inputs.npz"), "40"],
                             capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    print("| input | ai-edge-litert 2.3.0 median ms (min–max) | onnxruntime 1.22.0 median ms (min–max) |")
    print("| --- | ---: | ---: |")
    for line in run.stdout.splitlines():
        name, m, lo, hi, om, olo, ohi = line.split()
        print(f"| {name} | {m} ({lo}–{hi}) | {om} ({olo}–{ohi}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
