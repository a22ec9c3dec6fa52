"""EfficientNet-Lite0 (lukemelas-style PyTorch state dict) as a TFLite graph.

EfficientNet-Lite0 is EfficientNet-B0's block layout without squeeze-and-
excitation and with ReLU6.  The weights were ported from TensorFlow, so TF
"SAME" padding (asymmetric for stride 2) is the right padding, and
BatchNorm uses eps = 1e-3.  BatchNorm is folded into the preceding conv.
"""
from __future__ import annotations

import numpy as np

from .tflite_writer import Graph

BN_EPS = 1e-3
INPUT_SIZE = 224
# Input normalisation the TF-trained weights expect: (x - 127) / 128.
NORM_MEAN = 127.0
NORM_STD = 128.0

# (repeats, stride of the first block) per stage, B0 / Lite0 layout; kernel
# sizes and channel counts are read from the weights themselves.
STAGES = [(1, 1), (2, 2), (2, 2), (3, 2), (3, 1), (4, 2), (1, 1)]


def block_strides() -> list[int]:
    strides = []
    for repeats, stride in STAGES:
        strides += [stride] + [1] * (repeats - 1)
    return strides


def fold_bn(w, sd, prefix, eps=BN_EPS):
    """Fold BatchNorm `prefix` into conv weights w (output channels first)."""
    gamma = sd[f"{prefix}.weight"].astype(np.float64)
    beta = sd[f"{prefix}.bias"].astype(np.float64)
    mean = sd[f"{prefix}.running_mean"].astype(np.float64)
    var = sd[f"{prefix}.running_var"].astype(np.float64)
    scale = gamma / np.sqrt(var + eps)
    w = w.astype(np.float64) * scale.reshape((-1,) + (1,) * (w.ndim - 1))
    b = beta - mean * scale
    return w.astype(np.float32), b.astype(np.float32)


def _conv(g, name, x, sd, conv, bn, stride, act):
    w, b = fold_bn(sd[f"{conv}.weight"], sd, bn)  # OIHW
    return g.conv2d(name, x, w.transpose(0, 2, 3, 1), b, stride=stride, act=act)


def _dwconv(g, name, x, sd, conv, bn, stride, act):
    w, b = fold_bn(sd[f"{conv}.weight"], sd, bn)  # [C, 1, kh, kw]
    return g.depthwise_conv2d(name, x, w.transpose(1, 2, 3, 0), b, stride=stride, act=act)


def build_graph(sd, head: str, float16_weights: bool = False) -> Graph:
    """head: "classifier" (1000 softmax probabilities) or "embedder" (1280-d)."""
    if head not in ("classifier", "embedder"):
        raise ValueError(head)
    n_blocks = 1 + max(int(k.split(".")[1]) for k in sd if k.startswith("_blocks."))
    strides = block_strides()
    if n_blocks != len(strides):
        raise ValueError(f"expected {len(strides)} blocks, weights have {n_blocks}")

    g = Graph(float16_weights=float16_weights)
    x = g.input("image", (1, INPUT_SIZE, INPUT_SIZE, 3))
    x = _conv(g, "stem", x, sd, "_conv_stem", "_bn0", 2, "relu6")
    for i, stride in enumerate(strides):
        p = f"_blocks.{i}"
        inp = x
        if f"{p}._expand_conv.weight" in sd:
            x = _conv(g, f"block{i}/expand", x, sd, f"{p}._expand_conv", f"{p}._bn0", 1, "relu6")
        x = _dwconv(g, f"block{i}/depthwise", x, sd, f"{p}._depthwise_conv", f"{p}._bn1", stride, "relu6")
        x = _conv(g, f"block{i}/project", x, sd, f"{p}._project_conv", f"{p}._bn2", 1, None)
        if stride == 1 and g.shape(inp) == g.shape(x):
            x = g.add(f"block{i}/add", x, inp)
    x = _conv(g, "head", x, sd, "_conv_head", "_bn1", 1, "relu6")
    x = g.mean_hw("pool", x)
    if head == "embedder":
        g.tensors[x].name = "embedding"
        g.mark_output(x)
        return g
    x = g.fully_connected("logits", x, sd["_fc.weight"], sd["_fc.bias"])
    x = g.softmax("probabilities", x)
    g.mark_output(x)
    return g
