"""PaddleOCR's text direction classification of single lines, as rapidocr-onnxruntime 1.4.4 classifies them: its own
preprocessing (`ch_ppocr_cls.TextClassifier.resize_norm_img`: BGR scaled with cv2.resize to height 48 and width
ceil(48 x w / h), at most 192, (x / 255 - 0.5) / 0.5, zeros to the right) and onnxruntime on the ONNX file of the
pinned wheel ($CACHE/downloads), one line at a time, with rapidocr's labels ("0", "180") and threshold (0.9).

Prints one JSON array, per line image in order: {"file", "probabilities": [upright, upside down], "label",
"turned"} ("turned": rapidocr would turn the line half a turn: label 180 above the threshold). Runs in the eval venv
(scripts/setup-eval-env.sh), which has rapidocr and onnxruntime; started from another Python, it runs itself there.

usage: text_direction_reference.py IMAGE...
"""
import json
import os
import pathlib
import sys
import zipfile

CACHE = pathlib.Path(os.environ.get("SWIFTVISION_CACHE", pathlib.Path.home() / ".cache" / "swiftvision"))
EVAL_PYTHON = CACHE / "eval-venv" / "bin" / "python"
WHEEL = CACHE / "downloads" / "rapidocr_onnxruntime-1.4.4-py3-none-any.whl"
MEMBER = "rapidocr_onnxruntime/models/ch_ppocr_mobile_v2.0_cls_infer.onnx"

try:
    import onnxruntime
    from rapidocr_onnxruntime.ch_ppocr_cls.text_cls import TextClassifier
except ImportError:
    os.execv(str(EVAL_PYTHON), [str(EVAL_PYTHON), __file__, *sys.argv[1:]])

import cv2  # noqa: E402

SHAPE, LABELS, THRESHOLD = [3, 48, 192], ["0", "180"], 0.9


class Preprocessing:
    """What rapidocr's `resize_norm_img` reads of its classifier: the input shape."""
    cls_image_shape = SHAPE


def main():
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    with zipfile.ZipFile(WHEEL) as wheel:
        session = onnxruntime.InferenceSession(wheel.read(MEMBER), options, providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    results = []
    for path in sys.argv[1:]:
        image = cv2.imread(path, cv2.IMREAD_COLOR)
        tensor = TextClassifier.resize_norm_img(Preprocessing(), image)[None]
        probabilities = session.run(None, {name: tensor})[0][0]
        best = int(probabilities.argmax())
        results.append({"file": path, "probabilities": [float(p) for p in probabilities], "label": LABELS[best],
                        "turned": LABELS[best] == "180" and float(probabilities[best]) > THRESHOLD})
    print(json.dumps(results))


if __name__ == "__main__":
    main()
