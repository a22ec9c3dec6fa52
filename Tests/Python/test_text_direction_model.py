"""PaddleOCR's text direction classifier as the model zoo converts it (ppocr_mobile_v2_text_direction.tflite).

Peer: rapidocr-onnxruntime 1.4.4 in the eval venv (scripts/setup-eval-env.sh): onnxruntime running the ONNX file of
the pinned wheel (the file the converter reads), fed by rapidocr's own preprocessing (`TextClassifier.resize_norm_img`:
height 48 keeping the aspect ratio, at most 192 wide, (pixel / 255 - 0.5) / 0.5, zeros on the right), and rapidocr's
whole classifier (`TextClassifier.__call__`: batches of 6 sorted by aspect, its post-processing, its label list and
threshold) for the label and score of each crop. The crops are real lines: the legible words of ICDAR 2015 scene
photos cut out along their published quadrilaterals (eval/data/scenetext/truth.json), each upright and turned 180°.

A converter mutation it catches: MaxPool written as AVERAGE_POOL_2D (max |Δp| 0.25, 2 of the 32 arg-maxes flipped).
"""
from __future__ import annotations

import json
import subprocess
import zipfile
from pathlib import Path

import cv2
import numpy as np
from ai_edge_litert.interpreter import Interpreter

from conftest import CACHE
from test_text_recognition_model import PEER_PYTHON, SCENES, WHEEL, word_crop

MODEL = "ppocr_mobile_v2_text_direction.tflite"
LABELS_FILE = "ppocr_text_direction_labels.txt"
ONNX_MEMBER = "rapidocr_onnxruntime/models/ch_ppocr_mobile_v2.0_cls_infer.onnx"
# Four ICDAR 2015 test photos; every legible word ("###" marks the illegible) at least 16 px high.
PHOTOS = ["img_47.jpg", "img_296.jpg", "img_182.jpg", "img_9.jpg"]
MIN_HEIGHT = 16
# Largest |Δ| of a probability between the two runtimes on the same input (seen: 5.0e-6).
TOLERANCE = 1e-4

# Runs in the eval venv. inputs.npz: uint8 BGR crops. Writes outputs.npz (rapidocr's preprocessed input and
# onnxruntime's probabilities per crop) and outputs.json (rapidocr's label and score per crop, in order).
PEER = """
import json, sys, types, numpy as np, onnxruntime as ort
from rapidocr_onnxruntime.ch_ppocr_cls.text_cls import TextClassifier
onnx_path, crops, outputs = sys.argv[1], np.load(sys.argv[2]), sys.argv[3]
config = {"model_path": onnx_path, "cls_image_shape": [3, 48, 192], "cls_batch_num": 6, "cls_thresh": 0.9,
          "label_list": ["0", "180"], "intra_op_num_threads": 1, "inter_op_num_threads": 1, "use_cuda": False}
classifier = TextClassifier(config)
session = ort.InferenceSession(onnx_path, providers=["CPUExecutionProvider"])
keys = crops.files
inputs = {k: classifier.resize_norm_img(crops[k])[None] for k in keys}
arrays = {}
for k in keys:
    arrays[k + "/input"] = inputs[k]
    arrays[k + "/probabilities"] = session.run(None, {session.get_inputs()[0].name: inputs[k]})[0][0]
np.savez(outputs + ".npz", **arrays)
_, results, _ = classifier([crops[k] for k in keys])
json.dump({k: [label, float(score)] for k, (label, score) in zip(keys, results)}, open(outputs + ".json", "w"))
"""


def crops() -> dict[str, np.ndarray]:
    """{key: BGR crop}: the legible words of PHOTOS, cut as rapidocr cuts a detected box, "…_up" as cut and "…_down"
    turned 180°."""
    truth = json.loads((SCENES / "truth.json").read_text())
    out = {}
    for photo in PHOTOS:
        image = cv2.imread(str(SCENES / photo))
        assert image is not None, photo
        for i, word in enumerate(truth[photo]):
            crop = np.ascontiguousarray(word_crop(image, word["points"]))
            if word["text"] != "###" and min(crop.shape[:2]) >= MIN_HEIGHT:
                out[f"{Path(photo).stem}_{i}_up"] = crop
                out[f"{Path(photo).stem}_{i}_down"] = np.ascontiguousarray(crop[::-1, ::-1])
    return out


def peer(tmp_path: Path, images: dict) -> tuple[dict, dict, dict]:
    """rapidocr's NCHW inputs, onnxruntime's probabilities and rapidocr's (label, score) per key."""
    onnx_path = tmp_path / "cls.onnx"
    with zipfile.ZipFile(CACHE / "downloads" / WHEEL) as zf:
        onnx_path.write_bytes(zf.read(ONNX_MEMBER))
    np.savez(tmp_path / "crops.npz", **images)
    run = subprocess.run([str(PEER_PYTHON), "-c", PEER, str(onnx_path), str(tmp_path / "crops.npz"),
                          str(tmp_path / "outputs")], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    with np.load(tmp_path / "outputs.npz") as out:
        inputs = {k: out[f"{k}/input"] for k in images}
        probabilities = {k: out[f"{k}/probabilities"] for k in images}
    return inputs, probabilities, json.loads((tmp_path / "outputs.json").read_text())


def interpreter() -> Interpreter:
    it = Interpreter(model_path=str(CACHE / "models" / MODEL), num_threads=1)
    it.allocate_tensors()
    return it


def test_fixed_input_two_labelled_classes():
    it = interpreter()
    (inp,), (out,) = it.get_input_details(), it.get_output_details()
    assert (inp["name"], list(inp["shape"]), list(inp["shape_signature"])) == ("image", [1, 48, 192, 3], [1, 48, 192, 3])
    assert (out["name"], list(out["shape"])) == ("probabilities", [1, 2])
    with zipfile.ZipFile(CACHE / "models" / MODEL) as zf:
        assert zf.read(LABELS_FILE).decode() == "0\n180\n"


def test_probabilities_and_labels_match_rapidocr(tmp_path):
    images = crops()
    assert len(images) >= 30
    inputs, expected, labelled = peer(tmp_path, images)
    it = interpreter()
    index, output = it.get_input_details()[0]["index"], it.get_output_details()[0]["index"]
    right = 0
    for key in images:
        it.set_tensor(index, inputs[key].transpose(0, 2, 3, 1).copy())
        it.invoke()
        got = it.get_tensor(output)[0]
        err = float(np.abs(got - expected[key]).max())
        label, score = labelled[key]
        print(f"{key}: ours {got.round(4)}, onnxruntime {expected[key].round(4)}, rapidocr {label} {score:.4f}, "
              f"max |Δp| {err:.2e}")
        assert err <= TOLERANCE, f"{key}: max |Δp| {err:.3g} > {TOLERANCE}"
        assert ["0", "180"][int(got.argmax())] == label, key
        assert abs(float(got.max()) - score) <= TOLERANCE, key
        right += label == ("0" if key.endswith("_up") else "180")
    # The crops are lines the classifier can tell: most are labelled as they were turned.
    assert right >= 0.8 * len(images), f"rapidocr labels {right} of {len(images)} crops as they were turned"
