"""ONNX convolutional networks (NCHW, float32) as TFLite graphs (NHWC) of XNNPACK's builtins.

Written for PaddleOCR's PP-OCRv4 mobile text detector as rapidocr ships it
(``ch_PP-OCRv4_det_infer.onnx``, opset 12), and general enough for networks made
of the same operators: Conv (plain, grouped as depthwise), ConvTranspose 2x2
stride 2, BatchNormalization, Add/Sub/Mul/Div, Clip, Relu, HardSigmoid, Sigmoid,
GlobalAveragePool, Resize (nearest, asymmetric, floor, integer power-of-two
scales) and Concat on channels.

The graph is first read into a small intermediate form whose per-channel
``affine`` nodes (y = x * scale + shift) collect BatchNormalization and every
Mul/Add/Div by a constant; rewriting then

* folds an affine into the convolution that produces it, and a ReLU/ReLU6
  into the convolution as its fused activation;
* folds an affine into the convolutions that consume it when that is exact:
  a scale always, a shift only into unpadded convolutions (with padding the
  border would see the shift where the original sees zeros);
* turns x * clip(x + 3, 0, 6) / 6 into HARD_SWISH, and the
  squeeze-and-excitation sum x + x * gate into one MUL by (gate + 1);
* writes HardSigmoid(alpha, beta) as RELU6(6 alpha s + 6 beta) / 6, the
  first two folded into the convolution in front of it.

Every operator is independent of the input's height and width, so the input
can be resized at run time (its shape_signature is [1, -1, -1, C]):
ConvTranspose 2x2 stride 2 becomes a 1x1 CONV_2D to 4 C channels and
DEPTH_TO_SPACE 2 (the kernel taps do not overlap); nearest x2 upsampling is
CONCATENATION of four copies and DEPTH_TO_SPACE 2, which repeats each pixel
as Resize(nearest, asymmetric, floor) does, and x4, x8 repeat it; stride-2
convolutions pad explicitly (ONNX pads both sides, TFLite's SAME only the
bottom and right). What is left of an affine becomes a 1x1 DEPTHWISE_CONV_2D.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from tflite.BuiltinOperator import BuiltinOperator as Op

from .tflite_writer import Graph


@dataclass
class Node:
    op: str  # conv, affine, clip, hswish, sigmoid, mean, mul, add, up, concat
    inputs: list
    out: str
    attrs: dict = field(default_factory=dict)


class Network:
    """The intermediate form: nodes in execution order, channel counts, pooled (1x1) values."""

    def __init__(self, input_name: str, channels: int, output_names: list):
        self.input = input_name
        self.outputs = list(output_names)
        self.nodes: list[Node] = []
        self.channels = {input_name: channels}
        self.pooled = {input_name: False}

    def add(self, op, inputs, out, channels, pooled=None, **attrs) -> Node:
        node = Node(op, list(inputs), out, attrs)
        self.nodes.append(node)
        self.channels[out] = channels
        self.pooled[out] = any(self.pooled[i] for i in inputs) if pooled is None else pooled
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


def _channel_vector(value: np.ndarray, what: str) -> np.ndarray:
    """A constant that broadcasts over N, H and W only: a scalar or [1, C, 1, 1] -> [1] or [C]."""
    v = np.asarray(value, np.float64)
    if v.size == 1:
        return v.reshape(1)
    if v.ndim == 4 and v.shape[0] == 1 and v.shape[2:] == (1, 1):
        return v.reshape(-1)
    raise ValueError(f"{what}: constant of shape {v.shape} does not broadcast per channel")


def read_onnx(model_bytes: bytes) -> Network:
    import onnx
    from onnx import numpy_helper

    model = onnx.load_from_string(model_bytes)
    g = model.graph
    consts = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    for n in g.node:
        if n.op_type == "Constant":
            consts[n.output[0]] = numpy_helper.to_array(_attrs(n)["value"])
    inputs = [i for i in g.input if i.name not in consts]
    if len(inputs) != 1:
        raise ValueError(f"expected one image input, got {[i.name for i in inputs]}")
    dims = inputs[0].type.tensor_type.shape.dim
    if len(dims) != 4 or not dims[1].dim_value:
        raise ValueError("the input is not NCHW with a fixed channel count")
    net = Network(inputs[0].name, dims[1].dim_value, [o.name for o in g.output])

    for n in g.node:
        op, a, out = n.op_type, _attrs(n), n.output[0] if n.output else None
        args = list(n.input)
        if op == "Constant":
            continue
        if op in ("Conv", "ConvTranspose"):
            x, w = args[0], consts[args[1]].astype(np.float64)
            b = consts[args[2]].astype(np.float64) if len(args) > 2 and args[2] else None
            if any(d != 1 for d in a.get("dilations", [1, 1])):
                raise ValueError(f"{out}: dilated convolution")
            pads = a.get("pads", [0, 0, 0, 0])
            stride = a.get("strides", [1, 1])
            if len(set(pads)) != 1 or stride[0] != stride[1] or a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
                raise ValueError(f"{out}: asymmetric padding or stride {pads} {stride}")
            if op == "Conv":
                group = a.get("group", 1)
                o = w.shape[0]
                net.add("conv", [x], out, o, w=w, b=np.zeros(o) if b is None else b,
                        stride=stride[0], pad=pads[0], group=group, act=None, d2s=1)
            else:
                cin, o, kh, kw = w.shape
                if (kh, kw) != (2, 2) or stride[0] != 2 or pads[0] != 0 or a.get("group", 1) != 1 \
                        or a.get("output_padding", [0, 0]) != [0, 0]:
                    raise ValueError(f"{out}: only ConvTranspose 2x2 stride 2 without padding is supported")
                # out[o, 2h+i, 2w+j] = sum_c x[c, h, w] W[c, o, i, j]: a 1x1 convolution to
                # channel (i*2 + j)*O + o, then DEPTH_TO_SPACE 2.
                w1 = w.transpose(2, 3, 1, 0).reshape(4 * o, cin, 1, 1)
                b1 = np.tile(np.zeros(o) if b is None else b, 4)
                net.add("conv", [x], out, o, w=w1, b=b1, stride=1, pad=0, group=1, act=None, d2s=2)
        elif op == "BatchNormalization":
            gamma, beta, mean, var = (consts[v].astype(np.float64) for v in args[1:5])
            k = gamma / np.sqrt(var + a.get("epsilon", 1e-5))
            net.add("affine", [args[0]], out, net.channels[args[0]], scale=k, shift=beta - mean * k)
        elif op in ("Add", "Sub", "Mul", "Div"):
            left, right = (v in consts for v in args)
            if left and right:
                raise ValueError(f"{out}: constant expression")
            if left or right:
                x, c = (args[1], consts[args[0]]) if left else (args[0], consts[args[1]])
                c = _channel_vector(c, out)
                if op in ("Sub", "Div") and left:
                    raise ValueError(f"{out}: constant {op.lower()} by a tensor")
                scale, shift = {"Add": (np.ones(1), c), "Sub": (np.ones(1), -c),
                                "Mul": (c, np.zeros(1)), "Div": (1.0 / c, np.zeros(1))}[op]
                net.add("affine", [x], out, net.channels[x], scale=scale, shift=shift)
            elif op in ("Add", "Mul"):
                ch = max(net.channels[v] for v in args)
                net.add(op.lower(), args, out, ch)
            else:
                raise ValueError(f"{out}: {op} of two tensors")
        elif op in ("Clip", "Relu"):
            if op == "Relu":
                lo, hi = 0.0, np.inf
            else:
                lo = float(consts[args[1]]) if len(args) > 1 and args[1] else a.get("min", -np.inf)
                hi = float(consts[args[2]]) if len(args) > 2 and args[2] else a.get("max", np.inf)
            net.add("clip", [args[0]], out, net.channels[args[0]], lo=lo, hi=hi)
        elif op == "HardSigmoid":
            # max(0, min(1, alpha x + beta)) = relu6(6 alpha x + 6 beta) / 6
            alpha, beta = a.get("alpha", 0.2), a.get("beta", 0.5)
            ch = net.channels[args[0]]
            net.add("affine", [args[0]], f"{out}/scaled", ch, scale=np.array([6 * alpha]),
                    shift=np.array([6 * beta]))
            net.add("clip", [f"{out}/scaled"], f"{out}/relu6", ch, lo=0.0, hi=6.0)
            net.add("affine", [f"{out}/relu6"], out, ch, scale=np.array([1 / 6]), shift=np.zeros(1))
        elif op == "Sigmoid":
            net.add("sigmoid", args, out, net.channels[args[0]])
        elif op == "GlobalAveragePool":
            net.add("mean", args, out, net.channels[args[0]], pooled=True)
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
            net.add("up", args[:1], out, net.channels[args[0]], factor=int(s))
        elif op == "Concat":
            if a.get("axis") != 1:
                raise ValueError(f"{out}: Concat on axis {a.get('axis')}")
            net.add("concat", args, out, sum(net.channels[v] for v in args))
        else:
            raise ValueError(f"{out}: operator {op} is not supported")
    return net


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
            net.channels[g1], net.pooled[g1] = net.channels[gate[0]], True
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
        if not readers or any(r.op != "conv" or (shifted and r.attrs["pad"]) for r in readers):
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


def simplify(net: Network) -> Network:
    passes = (_hard_swish, _gated_sum, _merge_affines, _into_producer, _into_consumers)
    while any(p(net) for p in passes):
        pass
    return net


# -- writing TFLite ----------------------------------------------------------------------------


def _safe(name: str) -> str:
    return name.replace(".", "_")


def to_tflite(net: Network, height: int, width: int, input_name: str, output_names: list) -> Graph:
    """The TFLite graph; `height` x `width` is the nominal input size written in the tensors' shapes
    (any multiple of the network's total stride works at run time)."""
    g = Graph()
    t = {net.input: g.input(input_name, (1, height, width, net.channels[net.input]))}

    def emit(node: Node) -> int:
        name, a = _safe(node.out), node.attrs
        x = [t[i] for i in node.inputs]
        if node.op == "conv":
            w, group, k, stride, pad = a["w"], a["group"], a["w"].shape[2], a["stride"], a["pad"]
            if a["w"].shape[2] != a["w"].shape[3]:
                raise ValueError(f"{name}: non-square kernel")
            src, padding = x[0], "SAME"
            if stride != 1 and pad:
                src, padding = g.pad_hw(f"{name}/pad", src, pad, pad), "VALID"
            elif stride != 1 or pad not in (0, (k - 1) // 2) or (pad == 0 and k != 1):
                raise ValueError(f"{name}: kernel {k} stride {stride} pad {pad}")
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
        if node.op == "hswish":
            return g.unary(name, Op.HARD_SWISH, x[0])
        if node.op == "sigmoid":
            return g.unary(name, Op.LOGISTIC, x[0])
        if node.op == "mean":
            return g.mean_hw(name, x[0], keep_dims=True)
        if node.op == "mul":
            big, small = sorted(x, key=lambda v: g.shape(v)[1] == 1)
            return g.mul(name, big, small)
        if node.op == "add":
            return g.add(name, x[0], x[1])
        if node.op == "concat":
            return g.concat_channels(name, x)
        if node.op == "up":
            out, steps = x[0], int(np.log2(a["factor"]))
            for i in range(steps):
                step = name if i == steps - 1 else f"{name}/x{2 ** (i + 1)}"
                out = g.depth_to_space(step, g.concat_channels(f"{step}/copies", [out] * 4), 2)
            return out
        raise ValueError(f"{name}: no TFLite form for {node.op}")

    for node in net.nodes:
        t[node.out] = emit(node)
    for name, out in zip(output_names, net.outputs):
        g.tensors[t[out]].name = name
        g.mark_output(t[out])
    for i, tensor in enumerate(g.tensors):
        if tensor.buffer == 0 and len(tensor.shape) == 4 and tensor.shape[1] > 1:
            g.dynamic_hw(i)
    return g


def convert(model_bytes: bytes, height: int, width: int, input_name: str, output_names: list) -> Graph:
    return to_tflite(simplify(read_onnx(model_bytes)), height, width, input_name, output_names)
