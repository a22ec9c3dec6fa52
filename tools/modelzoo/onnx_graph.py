"""ONNX convolutional networks (NCHW, float32) as TFLite graphs (NHWC) of XNNPACK's builtins.

Written for PaddleOCR's PP-OCRv4 mobile text detector and recogniser as rapidocr
ships them (``ch_PP-OCRv4_det_infer.onnx``, ``ch_PP-OCRv4_rec_infer.onnx``,
opset 12), and general enough for networks made of the same operators: Conv
(plain, grouped as depthwise, non-square kernels, per-axis strides),
ConvTranspose 2x2 stride 2, BatchNormalization, Add/Sub/Mul/Div, Pow 2, Sqrt,
Clip, Relu, HardSigmoid, Sigmoid, GlobalAveragePool, AveragePool, MaxPool, Resize
(nearest, asymmetric, floor, integer power-of-two scales), Concat on channels,
and the recogniser's transformer neck over the columns of a one-row feature
map: Reshape, Transpose and Squeeze between [N, C, 1, T] and [N, T, C],
LayerNorm as ReduceMean/Sub/Pow/Sqrt/Div, MatMul by weights, multi-head
attention (stacked query/key/value projection, Reshape to heads, MatMul,
Softmax) and the Shape/Slice/Cast/Concat arithmetic that sizes the reshapes;
also PaddleOCR's text direction classifier (``ch_ppocr_mobile_v2.0_cls_infer.onnx``,
opset 11): a pooled image flattened to [N, C] by Reshape, MatMul by weights
and Softmax, with the Reshape of constants and the Identity it holds.

The graph is first read into a small intermediate form whose per-channel
``affine`` nodes (y = x * scale + shift) collect BatchNormalization and every
Mul/Add/Div by a constant; the reader follows each value's layout (see
ONE_ROW), so that a [N, T, C] sequence is the NHWC tensor [1, 1, T, C] and its
transposes and reshapes cost nothing. Rewriting then

* folds an affine into the convolution that produces it, and a ReLU/ReLU6
  into the convolution as its fused activation;
* folds an affine into the convolutions that consume it when that is exact:
  a scale always, a shift only into unpadded convolutions (with padding the
  border would see the shift where the original sees zeros);
* turns x * clip(x + 3, 0, 6) / 6 into HARD_SWISH, and the
  squeeze-and-excitation sum x + x * gate into one MUL by (gate + 1);
* writes HardSigmoid(alpha, beta) as RELU6(6 alpha s + 6 beta) / 6, the
  first two folded into the convolution in front of it;
* drops multiplications by 1 (swish's x * sigmoid(1 * x)), splits the stacked
  query/key/value projection into three 1x1 convolutions and folds the
  query's 1/sqrt(d) into the first.

No operator reads a size tensor, so the input can be resized at run time:
ConvTranspose 2x2 stride 2 becomes a 1x1 CONV_2D to 4 C channels and
DEPTH_TO_SPACE 2 (the kernel taps do not overlap); nearest x2 upsampling is
CONCATENATION of four copies and DEPTH_TO_SPACE 2, which repeats each pixel
as Resize(nearest, asymmetric, floor) does, and x4, x8 repeat it; strided
convolutions pad explicitly (ONNX pads both sides, TFLite's SAME only the
bottom and right); each RESHAPE has constant sizes with one -1, the time
axis. What is left of an affine becomes a 1x1 DEPTHWISE_CONV_2D. The
shape_signature marks with -1 every size that follows a resizable side of the
input (``convert``'s ``steps``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from tflite.BuiltinOperator import BuiltinOperator as Op

from .tflite_writer import Graph


# Layouts of the ONNX values the reader follows, and the NHWC tensor each is stored as. A "view" is
# no tensor of its own: the operator that reads it resolves it.
#   nchw   image [N, C, H, W]                          -> [1, H, W, C]
#   nct    [N, C, T], an image of one row flattened     -> [1, 1, T, C]
#   ntc    [N, T, C], T tokens of C features            -> [1, 1, T, C]
#   nhwc   [N, 1, T, C]                                 -> [1, 1, T, C]
#   nc     [N, C], a pooled image flattened              -> [1, 1, 1, C]
#   qkv    [N, T, 3, heads, d], the stacked query/key/value projections: view of an ntc value
#   qkv_t  its transpose [3, N, heads, T, d]; qkv_i one slice [1, N, heads, T, d]: views
#   bhtd   [N, heads, T, d]                             -> [1, heads, T, d]
#   bhdt   its transpose [N, heads, d, T]: view
#   bhtt   attention weights [N, heads, T, T]           -> [1, heads, T, T]
#   bthd   [N, T, heads, d]: view of a bhtd value
ONE_ROW = ("nct", "ntc", "nhwc", "nc")  # stored with height 1: the converter checks it


@dataclass
class Node:
    op: str  # conv, affine, clip, hswish, sigmoid, mean, mul, add, up, concat, avgpool, maxpool, mean_c, sub,
    #          div, sqrt, softmax, head, bmm, merge_heads
    inputs: list
    out: str
    attrs: dict = field(default_factory=dict)


class Network:
    """The intermediate form: nodes in execution order, channel counts, pooled (1x1) values, layouts."""

    def __init__(self, input_name: str, channels: int, output_names: list):
        self.input = input_name
        self.outputs = list(output_names)
        self.nodes: list[Node] = []
        self.channels = {input_name: channels}
        self.pooled = {input_name: False}
        self.layout = {input_name: "nchw"}

    def add(self, op, inputs, out, channels, pooled=None, layout=None, **attrs) -> Node:
        node = Node(op, list(inputs), out, attrs)
        self.nodes.append(node)
        self.channels[out] = channels
        self.pooled[out] = any(self.pooled[i] for i in inputs) if pooled is None else pooled
        self.layout[out] = layout or self.layout[inputs[0]]
        return node

    def producer(self, value):
        return next((n for n in self.nodes if n.out == value), None)

    def consumers(self, value) -> list:
        return [n for n in self.nodes if value in n.inputs]

    def only_use(self, value, node) -> bool:
        """True when `node` is the one reader of `value` (and reads it once), and it is no output."""
        return value not in self.outputs and self.consumers(value) == [node] and node.inputs.count(value) == 1

    def rename(self, old, new) -> None:
        for n in self.nodes:
            n.inputs = [new if i == old else i for i in n.inputs]
        self.outputs = [new if o == old else o for o in self.outputs]


# -- reading ONNX ------------------------------------------------------------------------------


def _attrs(node) -> dict:
    from onnx import helper
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def _channel_vector(value: np.ndarray, what: str, layout: str = "nchw") -> np.ndarray:
    """A constant that broadcasts over everything but channels: a scalar, [1, C, 1, 1] for an image,
    [C] (or [1, 1, C]) for tokens -> [1] or [C]."""
    v = np.asarray(value, np.float64)
    if v.size == 1:
        return v.reshape(1)
    if layout == "nchw" and v.ndim == 4 and v.shape[0] == 1 and v.shape[2:] == (1, 1):
        return v.reshape(-1)
    if layout == "ntc" and v.ndim in (1, 2, 3) and all(d == 1 for d in v.shape[:-1]):
        return v.reshape(-1)
    raise ValueError(f"{what}: constant of shape {v.shape} does not broadcast per channel ({layout})")


def _pads(a: dict, out: str) -> tuple:
    """ONNX pads [top, left, bottom, right] -> (rows, columns), each the same on both sides."""
    top, left, bottom, right = a.get("pads", [0, 0, 0, 0])
    if top != bottom or left != right or a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
        raise ValueError(f"{out}: asymmetric padding {a.get('pads')}")
    return top, left


class _Reader:
    """Walks the ONNX nodes in order, following each value's layout (see ONE_ROW's comment).
    Shape arithmetic (Shape, Slice, Cast, Concat of sizes) is followed symbolically: a size is a
    constant or ("dim", value, axis), so that reshapes keep static sizes and infer the one that
    follows the input's width."""

    def __init__(self, model):
        from onnx import numpy_helper
        g = model.graph
        self.consts = {t.name: numpy_helper.to_array(t) for t in g.initializer}
        for n in g.node:
            if n.op_type == "Constant":
                self.consts[n.output[0]] = numpy_helper.to_array(_attrs(n)["value"])
        inputs = [i for i in g.input if i.name not in self.consts]
        if len(inputs) != 1:
            raise ValueError(f"expected one image input, got {[i.name for i in inputs]}")
        dims = inputs[0].type.tensor_type.shape.dim
        if len(dims) != 4 or not dims[1].dim_value:
            raise ValueError("the input is not NCHW with a fixed channel count")
        self.net = Network(inputs[0].name, dims[1].dim_value, [o.name for o in g.output])
        self.value = {}   # ONNX name -> the network value that stores it
        self.lay = {inputs[0].name: "nchw"}  # ONNX name -> layout
        self.view = {}    # ONNX name of a view -> what it refers to
        self.sizes = {}   # ONNX name of a shape vector -> list of sizes
        self.heads = {}   # bhtd value -> (heads, features per head)
        for n in g.node:
            if n.op_type != "Constant":
                self.read(n)
        self.net.outputs = [self.v(o) for o in self.net.outputs]

    def v(self, name):
        return self.value.get(name, name)

    def alias(self, out, x, layout):
        self.value[out], self.lay[out] = self.v(x), layout

    def size_list(self, name) -> list:
        if name in self.sizes:
            return self.sizes[name]
        return [int(d) for d in np.asarray(self.consts[name]).reshape(-1)]

    def add(self, op, inputs, out, channels, layout=None, **kw):
        layout = layout or self.lay[inputs[0]]
        self.net.add(op, [self.v(i) for i in inputs], out, channels, layout=layout, **kw)
        self.lay[out] = layout
        if self.v(inputs[0]) in self.heads:
            self.heads[out] = self.heads[self.v(inputs[0])]

    def channels(self, name):
        return self.net.channels[self.v(name)]

    def read(self, n):
        op, a, out, args = n.op_type, _attrs(n), n.output[0], list(n.input)
        consts = self.consts
        # shape arithmetic and constants
        if op == "Shape":
            rank = {"nchw": 4, "nhwc": 4, "nct": 3, "ntc": 3}.get(self.lay[args[0]])
            if rank is None:
                raise ValueError(f"{out}: Shape of a {self.lay[args[0]]} value")
            self.sizes[out] = [("dim", args[0], i) for i in range(rank)]
        elif op == "Cast":
            if args[0] in self.sizes:
                self.sizes[out] = self.sizes[args[0]]
            elif args[0] in consts:
                consts[out] = consts[args[0]]
            else:
                raise ValueError(f"{out}: Cast of a tensor")
        elif op == "Concat" and all(x in self.sizes or x in consts for x in args):
            self.sizes[out] = [d for x in args for d in self.size_list(x)]
        elif op == "Reshape" and all(x in consts for x in args):
            consts[out] = consts[args[0]].reshape([int(d) for d in consts[args[1]].reshape(-1)])
        elif op == "Identity":
            self.alias(out, args[0], self.lay[args[0]])
        elif op == "Slice" and args[0] in self.sizes:
            start, end = (int(consts[x].reshape(-1)[0]) for x in args[1:3])
            if len(args) > 3 and [int(d) for d in consts[args[3]].reshape(-1)] != [0] or \
                    len(args) > 4 and [int(d) for d in consts[args[4]].reshape(-1)] != [1]:
                raise ValueError(f"{out}: Slice of a shape on an axis other than 0 or with a step")
            self.sizes[out] = self.sizes[args[0]][start:end]
        # convolutions and pooling
        elif op == "Conv":
            x, w = args[0], consts[args[1]].astype(np.float64)
            b = consts[args[2]].astype(np.float64) if len(args) > 2 and args[2] else np.zeros(w.shape[0])
            if any(d != 1 for d in a.get("dilations", [1, 1])):
                raise ValueError(f"{out}: dilated convolution")
            self.add("conv", [x], out, w.shape[0], w=w, b=b, stride=tuple(a.get("strides", [1, 1])),
                     pad=_pads(a, out), group=a.get("group", 1), act=None, d2s=1)
        elif op == "ConvTranspose":
            x, w = args[0], consts[args[1]].astype(np.float64)
            b = consts[args[2]].astype(np.float64) if len(args) > 2 and args[2] else None
            cin, o, kh, kw = w.shape
            if (kh, kw) != (2, 2) or a.get("strides") != [2, 2] or any(a.get("pads", [0] * 4)) \
                    or a.get("group", 1) != 1 or a.get("output_padding", [0, 0]) != [0, 0]:
                raise ValueError(f"{out}: only ConvTranspose 2x2 stride 2 without padding is supported")
            # out[o, 2h+i, 2w+j] = sum_c x[c, h, w] W[c, o, i, j]: a 1x1 convolution to
            # channel (i*2 + j)*O + o, then DEPTH_TO_SPACE 2.
            w1 = w.transpose(2, 3, 1, 0).reshape(4 * o, cin, 1, 1)
            b1 = np.tile(np.zeros(o) if b is None else b, 4)
            self.add("conv", [x], out, o, w=w1, b=b1, stride=(1, 1), pad=(0, 0), group=1, act=None, d2s=2)
        elif op in ("AveragePool", "MaxPool"):
            if any(a.get("pads", [0] * 4)) or a.get("ceil_mode", 0) or self.lay[args[0]] != "nchw" \
                    or any(d != 1 for d in a.get("dilations", [1, 1])):
                raise ValueError(f"{out}: only unpadded {op} of an image is supported")
            self.add("avgpool" if op == "AveragePool" else "maxpool", args[:1], out, self.channels(args[0]),
                     size=tuple(a["kernel_shape"]), stride=tuple(a.get("strides", a["kernel_shape"])))
        elif op == "GlobalAveragePool":
            self.add("mean", args, out, self.channels(args[0]), pooled=True)
        elif op == "BatchNormalization":
            gamma, beta, mean, var = (consts[x].astype(np.float64) for x in args[1:5])
            k = gamma / np.sqrt(var + a.get("epsilon", 1e-5))
            self.add("affine", [args[0]], out, self.channels(args[0]), scale=k, shift=beta - mean * k)
        # elementwise
        elif op in ("Add", "Sub", "Mul", "Div"):
            left, right = (x in consts for x in args)
            if left and right:
                raise ValueError(f"{out}: constant expression")
            if left or right:
                x, c = (args[1], consts[args[0]]) if left else (args[0], consts[args[1]])
                layout = self.lay[x]
                c = _channel_vector(c, out, "ntc" if layout in ONE_ROW else layout)
                if op in ("Sub", "Div") and left:
                    raise ValueError(f"{out}: constant {op.lower()} by a tensor")
                scale, shift = {"Add": (np.ones(1), c), "Sub": (np.ones(1), -c),
                                "Mul": (c, np.zeros(1)), "Div": (1.0 / c, np.zeros(1))}[op]
                self.add("affine", [x], out, self.channels(x), scale=scale, shift=shift)
            else:
                self.add(op.lower(), args, out, max(self.channels(x) for x in args))
        elif op == "Pow":
            if args[1] not in consts or float(consts[args[1]]) != 2:
                raise ValueError(f"{out}: Pow other than a square")
            self.add("mul", [args[0], args[0]], out, self.channels(args[0]))
        elif op == "Sqrt":
            self.add("sqrt", args, out, self.channels(args[0]))
        elif op in ("Clip", "Relu"):
            if op == "Relu":
                lo, hi = 0.0, np.inf
            else:
                lo = float(consts[args[1]]) if len(args) > 1 and args[1] else a.get("min", -np.inf)
                hi = float(consts[args[2]]) if len(args) > 2 and args[2] else a.get("max", np.inf)
            self.add("clip", [args[0]], out, self.channels(args[0]), lo=lo, hi=hi)
        elif op == "HardSigmoid":
            # max(0, min(1, alpha x + beta)) = relu6(6 alpha x + 6 beta) / 6
            alpha, beta = a.get("alpha", 0.2), a.get("beta", 0.5)
            ch = self.channels(args[0])
            self.add("affine", [args[0]], f"{out}/scaled", ch, scale=np.array([6 * alpha]),
                     shift=np.array([6 * beta]))
            self.add("clip", [f"{out}/scaled"], f"{out}/relu6", ch, lo=0.0, hi=6.0)
            self.add("affine", [f"{out}/relu6"], out, ch, scale=np.array([1 / 6]), shift=np.zeros(1))
        elif op == "Sigmoid":
            self.add("sigmoid", args, out, self.channels(args[0]))
        elif op == "Resize":
            scales = consts[args[2]] if len(args) > 2 and args[2] else None
            if scales is None or len(args) > 3 and args[3]:
                raise ValueError(f"{out}: Resize by sizes is not supported, only by scales")
            mode = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in a.items()}
            if (mode.get("mode"), mode.get("coordinate_transformation_mode"), mode.get("nearest_mode")) != \
                    ("nearest", "asymmetric", "floor"):
                raise ValueError(f"{out}: only nearest/asymmetric/floor Resize is supported ({mode})")
            s = float(scales[2])
            if list(scales[:2]) != [1, 1] or scales[3] != s or s < 2 or s != 2 ** round(np.log2(s)):
                raise ValueError(f"{out}: Resize scales {scales} are not 2, 4, 8, ... on H and W")
            self.add("up", args[:1], out, self.channels(args[0]), factor=int(s))
        elif op == "Concat":
            if a.get("axis") != 1 or any(self.lay[x] != "nchw" for x in args):
                raise ValueError(f"{out}: Concat on axis {a.get('axis')}")
            self.add("concat", args, out, sum(self.channels(x) for x in args))
        # tokens and attention
        else:
            self.read_sequence(op, a, out, args)

    def read_sequence(self, op, a, out, args):
        """The operators of a transformer over the columns of a one-row image (SVTR's neck)."""
        consts = self.consts
        lay = self.lay.get(args[0]) if args else None
        if op == "Reshape":
            x, target = args[0], self.size_list(args[1])
            c = self.channels(x) if lay in ("nchw", "ntc") else None
            if lay == "nchw" and len(target) == 3 and target[2] == -1:
                self.alias(out, x, "nct")  # [N, C, 1, W] -> [N, C, W]
            elif lay == "nchw" and self.net.pooled[self.v(x)] and len(target) == 2 and target[1] in (c, -1):
                self.alias(out, x, "nc")  # [N, C, 1, 1] -> [N, C]
            elif lay == "ntc" and len(target) == 5 and all(isinstance(d, int) for d in target[2:]) \
                    and target[2] == 3 and target[2] * target[3] * target[4] == c:
                self.lay[out] = "qkv"
                self.view[out] = (self.v(x), target[3], target[4])
            elif lay == "ntc" and len(target) == 4 and target[1] == 1 and target[3] == c:
                self.alias(out, x, "nhwc")
            elif lay == "bthd" and len(target) == 3 and isinstance(target[2], int):
                value = self.view[x]
                heads, d = self.heads[value]
                if target[2] != heads * d:
                    raise ValueError(f"{out}: merging {heads} heads of {d} into {target[2]}")
                self.net.add("merge_heads", [value], out, heads * d, layout="ntc", heads=heads)
                self.lay[out] = "ntc"
            else:
                raise ValueError(f"{out}: Reshape of a {lay} value to {target}")
        elif op == "Transpose":
            x, perm = args[0], list(a["perm"])
            if (lay, perm) in (("nct", [0, 2, 1]), ("ntc", [0, 2, 1])):
                self.alias(out, x, "ntc" if lay == "nct" else "nct")
            elif (lay, perm) == ("nhwc", [0, 3, 1, 2]):
                self.alias(out, x, "nchw")
            elif (lay, perm) == ("qkv", [2, 0, 3, 1, 4]):
                self.lay[out], self.view[out] = "qkv_t", self.view[x]
            elif (lay, perm) == ("bhtd", [0, 1, 3, 2]):
                self.lay[out], self.view[out] = "bhdt", self.v(x)
            elif (lay, perm) == ("bhtd", [0, 2, 1, 3]):
                self.lay[out], self.view[out] = "bthd", self.v(x)
            else:
                raise ValueError(f"{out}: Transpose {perm} of a {lay} value")
        elif op == "Slice" and lay == "qkv_t":
            start, end, axes = (int(consts[x].reshape(-1)[0]) for x in args[1:4])
            if axes != 0 or end != start + 1 or not 0 <= start < 3:
                raise ValueError(f"{out}: Slice {start}:{end} on axis {axes} of stacked projections")
            self.lay[out], self.view[out] = "qkv_i", self.view[args[0]] + (start,)
        elif op == "Squeeze":
            axes = list(a.get("axes", []))
            if lay == "qkv_i" and axes == [0]:
                value, heads, d, index = self.view[args[0]]
                self.net.add("head", [value], out, d, layout="bhtd", heads=heads, index=index)
                self.lay[out] = "bhtd"
                self.heads[out] = (heads, d)
            elif lay == "nchw" and axes == [2]:
                self.alias(out, args[0], "nct")
            else:
                raise ValueError(f"{out}: Squeeze {axes} of a {lay} value")
        elif op == "MatMul":
            x, y = args
            if lay in ("ntc", "nc") and y in consts:
                w = consts[y].astype(np.float64)
                if w.ndim != 2 or w.shape[0] != self.channels(x):
                    raise ValueError(f"{out}: MatMul of {self.channels(x)} features by {w.shape}")
                self.add("conv", [x], out, w.shape[1], w=w.T[:, :, None, None].copy(), b=np.zeros(w.shape[1]),
                         stride=(1, 1), pad=(0, 0), group=1, act=None, d2s=1)
            elif (lay, self.lay.get(y)) == ("bhtd", "bhdt"):
                self.net.add("bmm", [self.v(x), self.view[y]], out, None, layout="bhtt", adj_y=True)
                self.lay[out] = "bhtt"
            elif (lay, self.lay.get(y)) == ("bhtt", "bhtd"):
                self.net.add("bmm", [self.v(x), self.v(y)], out, self.channels(y), layout="bhtd", adj_y=False)
                self.lay[out] = "bhtd"
                self.heads[out] = self.heads[self.v(y)]
            else:
                raise ValueError(f"{out}: MatMul of {lay} by {self.lay.get(y, 'a constant')}")
        elif op == "ReduceMean":
            if lay != "ntc" or list(a.get("axes", [])) not in ([-1], [2]) or not a.get("keepdims", 1):
                raise ValueError(f"{out}: ReduceMean {a.get('axes')} of a {lay} value")
            self.add("mean_c", args, out, 1)
        elif op == "Softmax":
            rank = {"nc": 2, "ntc": 3, "bhtt": 4}.get(lay)
            if rank is None or a.get("axis") not in (-1, rank - 1):
                raise ValueError(f"{out}: Softmax on axis {a.get('axis')} of a {lay} value")
            self.add("softmax", args, out, self.channels(args[0]))
        else:
            raise ValueError(f"{out}: operator {op} is not supported")


def read_onnx(model_bytes: bytes) -> Network:
    import onnx
    return _Reader(onnx.load_from_string(model_bytes)).net


# -- rewriting ---------------------------------------------------------------------------------


def _full(v, n) -> np.ndarray:
    return np.broadcast_to(np.asarray(v, np.float64), (n,)).copy()


def _is_scalar(v, value) -> bool:
    return np.asarray(v).size == 1 and abs(float(np.asarray(v).reshape(-1)[0]) - value) < 1e-6


def _hard_swish(net: Network) -> bool:
    """x * clip(x + 3, 0, 6) / 6 -> HARD_SWISH(x)."""
    for div in net.nodes:
        if div.op != "affine" or not (_is_scalar(div.attrs["scale"], 1 / 6) and _is_scalar(div.attrs["shift"], 0)):
            continue
        mul = net.producer(div.inputs[0])
        if mul is None or mul.op != "mul" or not net.only_use(mul.out, div):
            continue
        for x, c in (mul.inputs, mul.inputs[::-1]):
            clip = net.producer(c)
            if clip is None or clip.op != "clip" or (clip.attrs["lo"], clip.attrs["hi"]) != (0, 6) \
                    or not net.only_use(c, mul):
                continue
            plus3 = net.producer(clip.inputs[0])
            if plus3 is None or plus3.op != "affine" or plus3.inputs[0] != x or not net.only_use(plus3.out, clip) \
                    or not (_is_scalar(plus3.attrs["scale"], 1) and _is_scalar(plus3.attrs["shift"], 3)):
                continue
            for n in (plus3, clip, mul):
                net.nodes.remove(n)
            div.op, div.inputs, div.attrs = "hswish", [x], {}
            return True
    return False


def _gated_sum(net: Network) -> bool:
    """x + x * gate (gate pooled) -> x * (gate + 1): one full-size MUL instead of MUL and ADD."""
    for add in net.nodes:
        if add.op != "add":
            continue
        for x, m in (add.inputs, add.inputs[::-1]):
            mul = net.producer(m)
            if mul is None or mul.op != "mul" or x not in mul.inputs or not net.only_use(m, add):
                continue
            gate = [v for v in mul.inputs if v != x]
            if len(gate) != 1 or not net.pooled[gate[0]]:
                continue
            g1 = f"{gate[0]}/plus1"
            net.nodes.insert(net.nodes.index(mul), Node("affine", [gate[0]], g1,
                                                        {"scale": np.ones(1), "shift": np.ones(1)}))
            net.channels[g1], net.pooled[g1], net.layout[g1] = net.channels[gate[0]], True, net.layout[gate[0]]
            net.nodes.remove(add)
            mul.inputs, mul.out = [x, g1], add.out
            return True
    return False


def _merge_affines(net: Network) -> bool:
    for outer in net.nodes:
        inner = net.producer(outer.inputs[0]) if outer.op == "affine" else None
        if inner is None or inner.op != "affine" or not net.only_use(inner.out, outer):
            continue
        s1, t1, s2, t2 = inner.attrs["scale"], inner.attrs["shift"], outer.attrs["scale"], outer.attrs["shift"]
        outer.attrs = {"scale": s1 * s2, "shift": t1 * s2 + t2}
        outer.inputs = list(inner.inputs)
        net.nodes.remove(inner)
        return True
    return False


def _into_producer(net: Network) -> bool:
    """conv -> affine or conv -> relu/relu6: fold into the convolution's weights or activation."""
    for node in net.nodes:
        if node.op not in ("affine", "clip"):
            continue
        conv = net.producer(node.inputs[0])
        if conv is None or conv.op != "conv" or conv.attrs["act"] is not None or not net.only_use(conv.out, node):
            continue
        c = conv.attrs
        if node.op == "affine":
            o = net.channels[conv.out]
            s = np.tile(_full(node.attrs["scale"], o), c["d2s"] ** 2)
            t = np.tile(_full(node.attrs["shift"], o), c["d2s"] ** 2)
            c["w"] = c["w"] * s[:, None, None, None]
            c["b"] = c["b"] * s + t
        else:
            act = {(0, np.inf): "relu", (0, 6): "relu6"}.get((node.attrs["lo"], node.attrs["hi"]))
            if act is None:
                continue
            c["act"] = act
        net.nodes.remove(node)
        conv.out = node.out
        return True
    return False


def _into_consumers(net: Network) -> bool:
    """affine -> convs: fold into the readers' weights where exact (see the module's doc)."""
    for aff in net.nodes:
        if aff.op != "affine" or aff.out in net.outputs:
            continue
        readers = net.consumers(aff.out)
        shifted = np.any(aff.attrs["shift"] != 0)
        if not readers or any(r.op != "conv" or (shifted and any(r.attrs["pad"])) for r in readers):
            continue
        cin = net.channels[aff.inputs[0]]
        s, t = _full(aff.attrs["scale"], cin), _full(aff.attrs["shift"], cin)
        for r in readers:
            w, group = r.attrs["w"], r.attrs["group"]
            o, per_group = w.shape[:2]
            # input channel read by weight [o, i]: group (o // (O / groups)) * I/groups + i
            src = (np.arange(o) // (o // group))[:, None] * per_group + np.arange(per_group)[None, :]
            r.attrs["b"] = r.attrs["b"] + (w * t[src][:, :, None, None]).sum(axis=(1, 2, 3))
            r.attrs["w"] = w * s[src][:, :, None, None]
        net.nodes.remove(aff)
        net.rename(aff.out, aff.inputs[0])
        return True
    return False


def _drop_identity(net: Network) -> bool:
    """An affine that multiplies by 1 and adds 0 (the swish x * sigmoid(1 * x)) is no operation."""
    for aff in net.nodes:
        if aff.op == "affine" and np.all(aff.attrs["scale"] == 1) and np.all(aff.attrs["shift"] == 0):
            net.nodes.remove(aff)
            net.rename(aff.out, aff.inputs[0])
            return True
    return False


def _split_heads(net: Network) -> bool:
    """One projection to stacked query, key and value channels, read by the three `head` nodes ->
    three projections, so that no operator slices channels at a size a resize would change."""
    for conv in net.nodes:
        readers = net.consumers(conv.out) if conv.op == "conv" else []
        if not readers or conv.out in net.outputs or any(r.op != "head" or r.attrs["index"] is None for r in readers)                 or conv.attrs["act"] is not None or conv.attrs["d2s"] != 1:
            continue
        part = net.channels[conv.out] // 3
        at = net.nodes.index(conv)
        for r in readers:
            i = r.attrs["index"]
            out = f"{conv.out}/{'qkv'[i]}"
            piece = Node("conv", [conv.inputs[0]], out, dict(conv.attrs, w=conv.attrs["w"][i * part:(i + 1) * part],
                                                              b=conv.attrs["b"][i * part:(i + 1) * part]))
            net.nodes.insert(at, piece)
            net.channels[out], net.pooled[out], net.layout[out] = part, False, net.layout[conv.out]
            r.inputs, r.attrs["index"] = [out], None
        net.nodes.remove(conv)
        return True
    return False


def _scale_into_head(net: Network) -> bool:
    """head(conv(x)) * s -> head(conv'(x)) with the weights scaled: the query's 1/sqrt(d)."""
    for aff in net.nodes:
        head = net.producer(aff.inputs[0]) if aff.op == "affine" else None
        if head is None or head.op != "head" or head.attrs["index"] is not None or not net.only_use(head.out, aff)                 or aff.attrs["scale"].size != 1 or np.any(aff.attrs["shift"] != 0):
            continue
        conv = net.producer(head.inputs[0])
        if conv is None or conv.op != "conv" or conv.attrs["act"] is not None or not net.only_use(conv.out, head):
            continue
        s = float(aff.attrs["scale"][0])
        conv.attrs["w"], conv.attrs["b"] = conv.attrs["w"] * s, conv.attrs["b"] * s
        net.nodes.remove(aff)
        net.rename(aff.out, head.out)
        return True
    return False


def simplify(net: Network) -> Network:
    passes = (_hard_swish, _gated_sum, _drop_identity, _merge_affines, _into_producer, _into_consumers,
              _split_heads, _scale_into_head)
    while any(p(net) for p in passes):
        pass
    return net


# -- writing TFLite ----------------------------------------------------------------------------


def _safe(name: str) -> str:
    return name.replace(".", "_")


def _conv_padding(name, kernel, stride, pad) -> str:
    """SAME where TFLite's SAME pads as ONNX does (stride 1, odd kernel, (k - 1) / 2 on each side),
    VALID without padding, else "PAD" (an explicit PAD in front of a VALID convolution)."""
    if stride == (1, 1) and all(k % 2 and p == (k - 1) // 2 for k, p in zip(kernel, pad)):
        return "SAME"
    if pad == (0, 0):
        return "VALID"
    if any(p > k // 2 for k, p in zip(kernel, pad)):
        raise ValueError(f"{name}: kernel {kernel} stride {stride} pad {pad}")
    return "PAD"


def to_tflite(net: Network, height: int, width: int, input_name: str, output_names: list) -> Graph:
    """The TFLite graph at nominal input size `height` x `width` (written in the tensors' shapes)."""
    g = Graph()
    t = {net.input: g.input(input_name, (1, height, width, net.channels[net.input]))}

    def emit(node: Node) -> int:
        name, a = _safe(node.out), node.attrs
        x = [t[i] for i in node.inputs]
        if node.op == "conv":
            w, group, stride, pad = a["w"], a["group"], a["stride"], a["pad"]
            src, padding = x[0], _conv_padding(name, w.shape[2:], stride, pad)
            if padding == "PAD":
                src, padding = g.pad_hw(f"{name}/pad", src, pad[0], pad[0], width=(pad[1], pad[1])), "VALID"
            o = w.shape[0]
            conv_name = name if a["d2s"] == 1 else f"{name}/conv"
            if group == 1:
                out = g.conv2d(conv_name, src, w.transpose(0, 2, 3, 1).astype(np.float32),
                               a["b"].astype(np.float32), stride=stride, padding=padding, act=a["act"])
            elif group == o == g.shape(src)[3] and w.shape[1] == 1:
                out = g.depthwise_conv2d(conv_name, src, w.transpose(1, 2, 3, 0).astype(np.float32),
                                         a["b"].astype(np.float32), stride=stride, padding=padding, act=a["act"])
            else:
                raise ValueError(f"{name}: grouped convolution that is not depthwise")
            if a["d2s"] != 1:
                out = g.depth_to_space(name, out, a["d2s"])
            return out
        if node.op == "affine":
            c = net.channels[node.out]
            return g.depthwise_conv2d(name, x[0], _full(a["scale"], c).reshape(1, 1, 1, c).astype(np.float32),
                                      _full(a["shift"], c).astype(np.float32), padding="VALID")
        if node.op == "clip":
            code = {(0, np.inf): Op.RELU, (0, 6): Op.RELU6}.get((a["lo"], a["hi"]))
            if code is None:
                raise ValueError(f"{name}: clip to [{a['lo']}, {a['hi']}]")
            return g.unary(name, code, x[0])
        if node.op in ("hswish", "sigmoid", "sqrt"):
            return g.unary(name, {"hswish": Op.HARD_SWISH, "sigmoid": Op.LOGISTIC, "sqrt": Op.SQRT}[node.op], x[0])
        if node.op == "mean":
            return g.mean_hw(name, x[0], keep_dims=True)
        if node.op == "mean_c":
            return g.mean_last(name, x[0])
        if node.op == "avgpool":
            return g.average_pool(name, x[0], a["size"], a["stride"])
        if node.op == "maxpool":
            return g.max_pool(name, x[0], a["size"], a["stride"], padding="VALID")
        if node.op == "mul":
            big, small = sorted(x, key=lambda v: -int(np.prod(g.shape(v))))
            return g.mul(name, big, small)
        if node.op == "add":
            return g.add(name, x[0], x[1])
        if node.op == "sub":
            return g.sub(name, x[0], x[1])
        if node.op == "div":
            return g.div(name, x[0], x[1])
        if node.op == "softmax":
            return g.softmax(name, x[0])
        if node.op == "concat":
            return g.concat_channels(name, x)
        if node.op == "up":
            out, steps = x[0], int(np.log2(a["factor"]))
            for i in range(steps):
                step = name if i == steps - 1 else f"{name}/x{2 ** (i + 1)}"
                out = g.depth_to_space(step, g.concat_channels(f"{step}/copies", [out] * 4), 2)
            return out
        if node.op == "head":
            # [1, 1, T, heads * d] -> [1, T, heads, d] -> [1, heads, T, d]
            if a["index"] is not None:
                raise ValueError(f"{name}: the stacked query/key/value projection was not split")
            heads, d = a["heads"], net.channels[node.out]
            return g.transpose(name, g.reshape(f"{name}/split", x[0], [1, -1, heads, d]), [0, 2, 1, 3])
        if node.op == "bmm":
            return g.batch_matmul(name, x[0], x[1], adj_y=a["adj_y"])
        if node.op == "merge_heads":
            # [1, heads, T, d] -> [1, T, heads, d] -> [1, 1, T, heads * d]
            out = g.transpose(f"{name}/tokens", x[0], [0, 2, 1, 3])
            return g.reshape(name, out, [1, 1, -1, net.channels[node.out]])
        raise ValueError(f"{name}: no TFLite form for {node.op}")

    for node in net.nodes:
        t[node.out] = emit(node)
        if net.layout[node.out] in ONE_ROW and g.shape(t[node.out])[1] != 1:
            raise ValueError(f"{node.out}: a {net.layout[node.out]} value of height {g.shape(t[node.out])[1]}")
    for name, out in zip(output_names, net.outputs):
        if net.layout[out] == "ntc":  # [1, 1, T, C] -> [1, T, C]
            t[out] = g.reshape(f"{_safe(out)}/tokens", t[out], [1, -1, net.channels[out]])
        elif net.layout[out] == "nc":  # [1, 1, 1, C] -> [1, C]
            t[out] = g.reshape(f"{_safe(out)}/flat", t[out], [1, net.channels[out]])
        g.tensors[t[out]].name = name
        g.mark_output(t[out])
    return g


def convert(model_bytes: bytes, height: int, width: int, input_name: str, output_names: list,
            steps: tuple = (32, 32)) -> Graph:
    """The TFLite graph, written at `height` x `width`. `steps` are the multiples (rows, columns) in
    which the input may be resized at run time, 0 where that side is fixed: every activation whose
    size follows a resizable side gets -1 there in its shape_signature, found by writing the graph a
    second time one step larger and comparing the shapes."""
    net = simplify(read_onnx(model_bytes))
    g = to_tflite(net, height, width, input_name, output_names)
    larger = to_tflite(net, height + steps[0], width + steps[1], input_name, output_names)
    for i, (tensor, other) in enumerate(zip(g.tensors, larger.tensors)):
        changed = [k for k, (d, e) in enumerate(zip(tensor.shape, other.shape)) if d != e]
        if changed:
            if tensor.buffer:
                raise ValueError(f"{tensor.name}: a constant whose size follows the input's")
            g.mark_dynamic(i, changed)
    return g
