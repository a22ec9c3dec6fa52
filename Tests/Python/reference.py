"""Independent numpy references for the model zoo tests.

EfficientNet-Lite0 is recomputed here in float64, channels-first, straight
from the PyTorch state dict: BatchNorm is applied as a separate step (not
folded), padding is computed explicitly (TF SAME), and convolutions are
written as sums over sliding windows.  Nothing here uses the TFLite builder,
so a wrong transpose, fold or padding in the builder shows up as a mismatch.

Also: image loading, the YOLO letterbox, and a small YOLO decoder with
class-wise NMS.
"""
from __future__ import annotations

import math

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from PIL import Image

# --------------------------------------------------------------------------- images


def load_rgb(path) -> np.ndarray:
    """HxWx3 uint8 RGB."""
    with Image.open(path) as im:
        return np.asarray(im.convert("RGB"), dtype=np.uint8)


def resize_rgb(rgb: np.ndarray, width: int, height: int) -> np.ndarray:
    return np.asarray(Image.fromarray(rgb).resize((width, height), Image.BILINEAR), dtype=np.uint8)


def effnet_input(rgb: np.ndarray, size=224) -> np.ndarray:
    """[1, size, size, 3] float32: whole photo resized, (x - 127) / 128."""
    x = resize_rgb(rgb, size, size).astype(np.float32)
    return ((x - 127.0) / 128.0)[None]


def letterbox(rgb: np.ndarray, size=416, fill=0.5):
    """([1, size, size, 3] float32 in [0, 1], scale, dx, dy) as Darknet does it."""
    h, w = rgb.shape[:2]
    scale = min(size / w, size / h)
    nw, nh = int(w * scale), int(h * scale)
    resized = resize_rgb(rgb, nw, nh).astype(np.float32) / 255.0
    out = np.full((size, size, 3), fill, dtype=np.float32)
    dx, dy = (size - nw) // 2, (size - nh) // 2
    out[dy:dy + nh, dx:dx + nw] = resized
    return out[None], scale, dx, dy


# ------------------------------------------------------------- EfficientNet in numpy

BN_EPS = 1e-3
_STAGES = [(1, 1), (2, 2), (2, 2), (3, 2), (3, 1), (4, 2), (1, 1)]  # (repeats, first stride)


def _pad_same(x, k, s):
    """Pad a CHW array the way TensorFlow's SAME padding does."""
    padded = []
    for size in x.shape[1:]:
        out = math.ceil(size / s)
        total = max((out - 1) * s + k - size, 0)
        padded.append((total // 2, total - total // 2))
    return np.pad(x, [(0, 0)] + padded)


def _windows(x, k, s):
    """[C, Ho, Wo, k, k] views of a padded CHW array."""
    return sliding_window_view(_pad_same(x, k, s), (k, k), axis=(1, 2))[:, ::s, ::s]


def conv(x, w, stride):
    """Dense convolution; x [C, H, W], w [O, C, k, k] (PyTorch layout)."""
    k = w.shape[2]
    if k == 1 and stride == 1:
        return np.tensordot(w[:, :, 0, 0], x, axes=([1], [0]))
    return np.tensordot(w, _windows(x, k, stride), axes=([1, 2, 3], [0, 3, 4]))


def depthwise(x, w, stride):
    """Depthwise convolution; x [C, H, W], w [C, 1, k, k]."""
    return np.einsum("chwij,cij->chw", _windows(x, w.shape[2], stride), w[:, 0], optimize=True)


def batchnorm(x, sd, prefix):
    g = sd[f"{prefix}.weight"].astype(np.float64)[:, None, None]
    b = sd[f"{prefix}.bias"].astype(np.float64)[:, None, None]
    m = sd[f"{prefix}.running_mean"].astype(np.float64)[:, None, None]
    v = sd[f"{prefix}.running_var"].astype(np.float64)[:, None, None]
    return (x - m) / np.sqrt(v + BN_EPS) * g + b


def relu6(x):
    return np.clip(x, 0.0, 6.0)


def efficientnet_lite0(sd, image_nhwc) -> tuple[np.ndarray, np.ndarray]:
    """(1280-d pooled features, 1000 softmax probabilities) in float64."""
    sd = {k: v.astype(np.float64) for k, v in sd.items() if v.dtype.kind == "f"}
    x = image_nhwc[0].astype(np.float64).transpose(2, 0, 1)
    x = relu6(batchnorm(conv(x, sd["_conv_stem.weight"], 2), sd, "_bn0"))
    i = 0
    for repeats, first_stride in _STAGES:
        for r in range(repeats):
            stride = first_stride if r == 0 else 1
            p = f"_blocks.{i}"
            inp = x
            if f"{p}._expand_conv.weight" in sd:
                x = relu6(batchnorm(conv(x, sd[f"{p}._expand_conv.weight"], 1), sd, f"{p}._bn0"))
            x = relu6(batchnorm(depthwise(x, sd[f"{p}._depthwise_conv.weight"], stride), sd, f"{p}._bn1"))
            x = batchnorm(conv(x, sd[f"{p}._project_conv.weight"], 1), sd, f"{p}._bn2")
            if stride == 1 and x.shape == inp.shape:
                x = x + inp
            i += 1
    x = relu6(batchnorm(conv(x, sd["_conv_head.weight"], 1), sd, "_bn1"))
    features = x.mean(axis=(1, 2))
    logits = sd["_fc.weight"] @ features + sd["_fc.bias"]
    e = np.exp(logits - logits.max())
    return features, e / e.sum()


# ----------------------------------------------------------------------- YOLO decode


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def yolo_candidates(grids: dict, decoding: dict, score_threshold: float):
    """(boxes [N, 4] as x0, y0, x1, y1 in letterboxed-input pixels, scores [N], classes [N]).

    grids: output name -> [H, W, 255] raw grid; decoding: yolo_decoding.json.
    One candidate per (cell, anchor, class) whose score passes the threshold.
    """
    in_w, in_h = decoding["input"]["width"], decoding["input"]["height"]
    nc = decoding["num_classes"]
    boxes, scores, classes = [], [], []
    for out in decoding["outputs"]:
        gh, gw = out["grid"]
        g = grids[out["name"]].astype(np.float64).reshape(gh, gw, len(out["mask"]), 5 + nc)
        rows, cols = np.meshgrid(np.arange(gh), np.arange(gw), indexing="ij")
        for a, (aw, ah) in enumerate(out["anchors"]):
            t = g[:, :, a]
            cx = (cols + _sigmoid(t[..., 0])) / gw * in_w
            cy = (rows + _sigmoid(t[..., 1])) / gh * in_h
            w = aw * np.exp(t[..., 2])
            h = ah * np.exp(t[..., 3])
            cls_scores = _sigmoid(t[..., 4:5]) * _sigmoid(t[..., 5:])
            r, c, k = np.nonzero(cls_scores > score_threshold)
            boxes.append(np.stack([cx[r, c] - w[r, c] / 2, cy[r, c] - h[r, c] / 2,
                                   cx[r, c] + w[r, c] / 2, cy[r, c] + h[r, c] / 2], axis=1))
            scores.append(cls_scores[r, c, k])
            classes.append(k)
    return np.concatenate(boxes), np.concatenate(scores), np.concatenate(classes)


def postprocess(boxes, scores, classes, scale, dx, dy, image_wh, iou_threshold):
    """Undo the letterbox, clip to the image, class-wise NMS.

    Returns [(class, score, x0, y0, x1, y1)] in image pixels, best first.
    """
    boxes = boxes.copy()
    boxes[:, [0, 2]] = np.clip((boxes[:, [0, 2]] - dx) / scale, 0, image_wh[0])
    boxes[:, [1, 3]] = np.clip((boxes[:, [1, 3]] - dy) / scale, 0, image_wh[1])
    return nms(boxes, scores, classes, iou_threshold)


def decode_yolo(grids: dict, decoding: dict, scale, dx, dy, image_wh,
                score_threshold=None, iou_threshold=None):
    """Detections [(class, score, x0, y0, x1, y1) in image pixels] after class-wise NMS."""
    if score_threshold is None:
        score_threshold = decoding["score_threshold"]
    if iou_threshold is None:
        iou_threshold = decoding["nms_iou_threshold"]
    boxes, scores, classes = yolo_candidates(grids, decoding, score_threshold)
    return postprocess(boxes, scores, classes, scale, dx, dy, image_wh, iou_threshold)


def iou(a, b):
    x0, y0 = np.maximum(a[0], b[:, 0]), np.maximum(a[1], b[:, 1])
    x1, y1 = np.minimum(a[2], b[:, 2]), np.minimum(a[3], b[:, 3])
    inter = np.clip(x1 - x0, 0, None) * np.clip(y1 - y0, 0, None)
    area = lambda r: (r[..., 2] - r[..., 0]) * (r[..., 3] - r[..., 1])  # noqa: E731
    return inter / (area(a) + area(b) - inter + 1e-12)


def nms(boxes, scores, classes, iou_threshold):
    keep = []
    for k in np.unique(classes):
        idx = np.nonzero(classes == k)[0]
        idx = idx[np.argsort(-scores[idx], kind="stable")]
        while idx.size:
            best = idx[0]
            keep.append(best)
            idx = idx[1:][iou(boxes[best], boxes[idx[1:]]) <= iou_threshold]
    keep.sort(key=lambda i: -scores[i])
    return [(int(classes[i]), float(scores[i]), *map(float, boxes[i])) for i in keep]
