"""Darknet YOLOv3-tiny and YOLOv4-tiny (.cfg + .weights) as TFLite graphs with raw grid outputs.

The graph ends at the two 1x1 linear convolutions in front of the [yolo]
layers; decoding (sigmoid, anchors, letterbox undo, NMS) is left to the
caller, so the outputs are exactly Darknet's, in NHWC:
``[1, 13, 13, 255]`` and ``[1, 26, 26, 255]`` where channel ``a*85 + k``
is attribute k (tx, ty, tw, th, objectness, 80 class logits) of anchor a
of the [yolo] layer's mask.
"""
from __future__ import annotations

import struct

import numpy as np

from .tflite_writer import Graph

BN_EPS = 1e-6  # Darknet: scale / (sqrt(var) + .000001)
LEAKY_ALPHA = 0.1


def parse_cfg(text: str) -> list[dict]:
    """[net] first, then one dict per layer; keys as in the file, values as str."""
    sections = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("["):
            sections.append({"type": line.strip("[]").strip()})
        else:
            key, value = line.split("=", 1)
            sections[-1][key.strip()] = value.strip()
    if not sections or sections[0]["type"] not in ("net", "network"):
        raise ValueError("cfg does not start with [net]")
    return sections


def _ints(value: str) -> list[int]:
    return [int(v) for v in value.split(",") if v.strip()]


def yolo_heads(sections: list[dict]) -> list[dict]:
    """Anchors (pixels of the network input), masks and class count per [yolo] layer."""
    heads = []
    for s in sections[1:]:
        if s["type"] == "yolo":
            a = _ints(s["anchors"])
            heads.append({
                "anchors": [[a[i], a[i + 1]] for i in range(0, len(a), 2)],
                "mask": _ints(s["mask"]),
                "classes": int(s["classes"]),
                # YOLOv4: cx = (col + σ(tx)·s − (s − 1)/2) / grid_w; 1 (YOLOv3) is the plain σ(tx).
                "scale_x_y": float(s.get("scale_x_y", 1)),
            })
    return heads


class WeightReader:
    def __init__(self, data: bytes):
        major, minor, revision = struct.unpack_from("<3i", data, 0)
        if major * 10 + minor >= 2 and major < 1000 and minor < 1000:
            self.seen, self.pos = struct.unpack_from("<q", data, 12)[0], 20
        else:
            self.seen, self.pos = struct.unpack_from("<i", data, 12)[0], 16
        self.version = (major, minor, revision)
        self.data = data

    def take(self, count: int) -> np.ndarray:
        arr = np.frombuffer(self.data, dtype="<f4", count=count, offset=self.pos)
        self.pos += 4 * count
        return arr.astype(np.float32)

    def done(self) -> bool:
        return self.pos == len(self.data)


def build_graph(cfg_text: str, weights: bytes, input_size: int | None = None,
                float16_weights: bool = False) -> Graph:
    sections = parse_cfg(cfg_text)
    net = sections[0]
    h = int(input_size or net["height"])
    w = int(input_size or net["width"])
    c = int(net.get("channels", 3))
    reader = WeightReader(weights)

    g = Graph(float16_weights=float16_weights)
    x = g.input("image", (1, h, w, c))
    layer_out = []  # output tensor per darknet layer (None for [yolo])
    outputs = []
    prev = x
    for idx, s in enumerate(sections[1:]):
        kind = s["type"]
        name = f"layer{idx:02d}_{kind}"
        if kind == "convolutional":
            filters, size = int(s["filters"]), int(s["size"])
            stride = int(s.get("stride", 1))
            pad = int(s.get("pad", 0))
            # pad=1 means size//2 on each side: with stride 1 that is SAME; with stride 2 TFLite's
            # SAME would pad only the bottom/right, so the graph pads explicitly and convolves VALID.
            if stride not in (1, 2):
                raise ValueError(f"{name}: stride {stride} not supported")
            if int(s.get("groups", 1)) != 1 or not pad or size % 2 == 0:
                raise ValueError(f"{name}: unsupported convolution {s}")
            in_c = g.shape(prev)[3]
            bias = reader.take(filters)
            if int(s.get("batch_normalize", 0)):
                scales = reader.take(filters)
                mean = reader.take(filters)
                var = reader.take(filters)
            wts = reader.take(filters * in_c * size * size).reshape(filters, in_c, size, size)
            if int(s.get("batch_normalize", 0)):
                k = scales.astype(np.float64) / (np.sqrt(var.astype(np.float64)) + BN_EPS)
                wf = (wts.astype(np.float64) * k[:, None, None, None]).astype(np.float32)
                bf = (bias.astype(np.float64) - mean.astype(np.float64) * k).astype(np.float32)
            else:
                wf, bf = wts, bias
            act = s.get("activation", "linear")
            fused = {"linear": None, "leaky": None, "relu": "relu"}[act]
            source, padding = prev, "SAME"
            if stride != 1:
                source = g.pad_hw(f"{name}/pad", prev, size // 2, size // 2)
                padding = "VALID"
            out = g.conv2d(name if act != "leaky" else f"{name}/conv", source,
                           wf.transpose(0, 2, 3, 1), bf, stride=stride, padding=padding, act=fused)
            if act == "leaky":
                out = g.leaky_relu(name, out, LEAKY_ALPHA)
        elif kind == "maxpool":
            size, stride = int(s["size"]), int(s["stride"])
            # Darknet pads (size - 1) at the bottom/right with -inf; for the
            # size/stride pairs of YOLOv3-tiny (2/2 on even sizes, 2/1) this is
            # TFLite SAME padding.
            if not ((size == stride and g.shape(prev)[1] % stride == 0) or (size == 2 and stride == 1)):
                raise ValueError(f"{name}: unsupported max-pool {s}")
            out = g.max_pool(name, prev, size, stride, padding="SAME")
        elif kind == "upsample":
            stride = int(s["stride"])
            _, ph, pw, _ = g.shape(prev)
            out = g.resize_nearest(name, prev, ph * stride, pw * stride)
        elif kind == "route":
            refs = [r if r >= 0 else idx + r for r in _ints(s["layers"])]
            srcs = [layer_out[r] for r in refs]
            groups, group = int(s.get("groups", 1)), int(s.get("group_id", 0))
            if groups != 1:
                # YOLOv4-tiny's CSP split: the group_id-th of `groups` equal channel slices of one layer.
                if len(srcs) != 1 or g.shape(srcs[0])[3] % groups:
                    raise ValueError(f"{name}: unsupported grouped route {s}")
                count = g.shape(srcs[0])[3] // groups
                out = g.slice_channels(name, srcs[0], group * count, count)
            else:
                out = srcs[0] if len(srcs) == 1 else g.concat_channels(name, srcs)
        elif kind == "yolo":
            outputs.append(prev)
            out = None
        else:
            raise ValueError(f"{name}: unsupported layer type")
        layer_out.append(out)
        if out is not None:
            prev = out
    if not reader.done():
        raise ValueError(f"{len(reader.data) - reader.pos} bytes of weights left over")
    for i, t in enumerate(outputs):
        _, gh, gw, _ = g.shape(t)
        g.tensors[t].name = f"grid{gh}x{gw}"
        g.mark_output(t)
    return g
