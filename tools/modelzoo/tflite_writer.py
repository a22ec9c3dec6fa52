"""A small float32 TFLite graph builder on top of the `tflite` schema package.

Only the handful of builtin operators the model zoo needs are provided.  The
serialisation is deterministic: the same graph gives the same bytes.
Constant buffers are 16-byte aligned inside the flatbuffer, as the TFLite
converter does, so runtimes may use them in place.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import flatbuffers
import numpy as np
import tflite
from tflite.ActivationFunctionType import ActivationFunctionType as Act
from tflite.BuiltinOperator import BuiltinOperator as Op
from tflite.BuiltinOptions import BuiltinOptions as Opt
from tflite.Padding import Padding
from tflite.TensorType import TensorType

TFLITE_FILE_IDENTIFIER = b"TFL3"
SCHEMA_VERSION = 3

_NP_TO_TFLITE = {
    np.dtype(np.float32): TensorType.FLOAT32,
    np.dtype(np.float16): TensorType.FLOAT16,
    np.dtype(np.int32): TensorType.INT32,
}

ACTIVATIONS = {
    None: Act.NONE,
    "relu": Act.RELU,
    "relu6": Act.RELU6,
}


@dataclass
class _Tensor:
    name: str
    shape: tuple
    dtype: np.dtype
    buffer: int = 0
    signature: tuple | None = None  # shape_signature: -1 where the size is set at run time


@dataclass
class _Operator:
    code: int
    inputs: list
    outputs: list
    options_type: int = Opt.NONE
    options: object = None  # callable(builder) -> offset


@dataclass
class Graph:
    """A single-subgraph float32 model under construction.

    With ``float16_weights`` the float32 weights and biases are stored as
    float16 and expanded by DEQUANTIZE operators at the start of the graph
    (TFLite's "float16 quantization"): half the size, float32 arithmetic.
    """

    name: str = "main"
    float16_weights: bool = False
    tensors: list = field(default_factory=list)
    buffers: list = field(default_factory=lambda: [b""])  # buffer 0: the empty sentinel
    operators: list = field(default_factory=list)
    dequantize_ops: list = field(default_factory=list)  # run first
    inputs: list = field(default_factory=list)
    outputs: list = field(default_factory=list)

    # -- tensors -----------------------------------------------------------------
    def _add_tensor(self, name, shape, dtype, buffer=0) -> int:
        if any(t.name == name for t in self.tensors):
            raise ValueError(f"duplicate tensor name {name}")
        self.tensors.append(_Tensor(name, tuple(int(d) for d in shape), np.dtype(dtype), buffer))
        return len(self.tensors) - 1

    def shape(self, t: int) -> tuple:
        return self.tensors[t].shape

    def mark_dynamic(self, t: int, axes) -> None:
        """Mark axes of a tensor as set at run time (shape_signature -1): the runtime may resize the
        input, and each operator recomputes its output's size."""
        self.tensors[t].signature = tuple(-1 if i in axes else d for i, d in enumerate(self.tensors[t].shape))

    def input(self, name, shape) -> int:
        t = self._add_tensor(name, shape, np.float32)
        self.inputs.append(t)
        return t

    def mark_output(self, t: int) -> None:
        self.outputs.append(t)

    def const(self, name, array) -> int:
        array = np.ascontiguousarray(array)
        if array.dtype not in _NP_TO_TFLITE:
            raise TypeError(f"{name}: unsupported constant dtype {array.dtype}")
        if self.float16_weights and array.dtype == np.float32:
            half = self.const(f"{name}/float16", array.astype(np.float16))
            out = self._activation(name, array.shape)
            self.dequantize_ops.append(_Operator(Op.DEQUANTIZE, [half], [out]))
            return out
        self.buffers.append(array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes())
        return self._add_tensor(name, array.shape, array.dtype, len(self.buffers) - 1)

    def _activation(self, name, shape) -> int:
        return self._add_tensor(name, shape, np.float32)

    def _op(self, code, inputs, out_name, out_shape, options_type=Opt.NONE, options=None) -> int:
        out = self._activation(out_name, out_shape)
        self.operators.append(_Operator(code, list(inputs), [out], options_type, options))
        return out

    # -- layers ------------------------------------------------------------------
    @staticmethod
    def _out_size(size, k, stride, padding):
        if padding == "SAME":
            return math.ceil(size / stride)
        return (size - k) // stride + 1

    @staticmethod
    def _pair(v) -> tuple:
        """(height, width) from one value for both or a pair."""
        return (v, v) if isinstance(v, int) else tuple(v)

    def conv2d(self, name, x, w_ohwi, bias, stride=1, padding="SAME", act=None) -> int:
        """`stride`: one value for both axes or (height, width)."""
        n, h, wd, c = self.shape(x)
        o, kh, kw, i = w_ohwi.shape
        if i != c:
            raise ValueError(f"{name}: {c} input channels, filter wants {i}")
        wt = self.const(f"{name}/weights", w_ohwi.astype(np.float32))
        bt = self.const(f"{name}/bias", bias.astype(np.float32))
        sh, sw = self._pair(stride)
        shape = (n, self._out_size(h, kh, sh, padding), self._out_size(wd, kw, sw, padding), o)
        pad = Padding.SAME if padding == "SAME" else Padding.VALID
        fused = ACTIVATIONS[act]

        def options(b):
            tflite.Conv2DOptionsStart(b)
            tflite.Conv2DOptionsAddPadding(b, pad)
            tflite.Conv2DOptionsAddStrideW(b, sw)
            tflite.Conv2DOptionsAddStrideH(b, sh)
            tflite.Conv2DOptionsAddFusedActivationFunction(b, fused)
            tflite.Conv2DOptionsAddDilationWFactor(b, 1)
            tflite.Conv2DOptionsAddDilationHFactor(b, 1)
            return tflite.Conv2DOptionsEnd(b)

        return self._op(Op.CONV_2D, [x, wt, bt], name, shape, Opt.Conv2DOptions, options)

    def depthwise_conv2d(self, name, x, w_1hwc, bias, stride=1, padding="SAME", act=None) -> int:
        """`stride`: one value for both axes or (height, width)."""
        n, h, wd, c = self.shape(x)
        one, kh, kw, co = w_1hwc.shape
        if one != 1 or co != c:
            raise ValueError(f"{name}: depthwise filter {w_1hwc.shape} for {c} channels")
        wt = self.const(f"{name}/weights", w_1hwc.astype(np.float32))
        bt = self.const(f"{name}/bias", bias.astype(np.float32))
        sh, sw = self._pair(stride)
        shape = (n, self._out_size(h, kh, sh, padding), self._out_size(wd, kw, sw, padding), c)
        pad = Padding.SAME if padding == "SAME" else Padding.VALID
        fused = ACTIVATIONS[act]

        def options(b):
            tflite.DepthwiseConv2DOptionsStart(b)
            tflite.DepthwiseConv2DOptionsAddPadding(b, pad)
            tflite.DepthwiseConv2DOptionsAddStrideW(b, sw)
            tflite.DepthwiseConv2DOptionsAddStrideH(b, sh)
            tflite.DepthwiseConv2DOptionsAddDepthMultiplier(b, 1)
            tflite.DepthwiseConv2DOptionsAddFusedActivationFunction(b, fused)
            tflite.DepthwiseConv2DOptionsAddDilationWFactor(b, 1)
            tflite.DepthwiseConv2DOptionsAddDilationHFactor(b, 1)
            return tflite.DepthwiseConv2DOptionsEnd(b)

        return self._op(Op.DEPTHWISE_CONV_2D, [x, wt, bt], name, shape,
                        Opt.DepthwiseConv2DOptions, options)

    def add(self, name, a, b_, act=None) -> int:
        if self.shape(a) != self.shape(b_):
            raise ValueError(f"{name}: shapes {self.shape(a)} and {self.shape(b_)} differ")
        fused = ACTIVATIONS[act]

        def options(b):
            tflite.AddOptionsStart(b)
            tflite.AddOptionsAddFusedActivationFunction(b, fused)
            return tflite.AddOptionsEnd(b)

        return self._op(Op.ADD, [a, b_], name, self.shape(a), Opt.AddOptions, options)

    def mul(self, name, a, b_) -> int:
        """Elementwise product; `b_` may broadcast over height and width ([N, 1, 1, C])."""
        sa, sb = self.shape(a), self.shape(b_)
        if len(sa) != len(sb) or any(x != y and y != 1 for x, y in zip(sa, sb)):
            raise ValueError(f"{name}: cannot broadcast {sb} to {sa}")

        def options(b):
            tflite.MulOptionsStart(b)
            tflite.MulOptionsAddFusedActivationFunction(b, Act.NONE)
            return tflite.MulOptionsEnd(b)

        return self._op(Op.MUL, [a, b_], name, sa, Opt.MulOptions, options)

    def sub(self, name, a, b_) -> int:
        """a - b; `b_` may broadcast over axes where its size is 1."""
        return self._broadcast(Op.SUB, Opt.SubOptions, tflite.SubOptionsStart, tflite.SubOptionsEnd,
                               name, a, b_)

    def div(self, name, a, b_) -> int:
        """a / b; `b_` may broadcast over axes where its size is 1."""
        return self._broadcast(Op.DIV, Opt.DivOptions, tflite.DivOptionsStart, tflite.DivOptionsEnd,
                               name, a, b_)

    def _broadcast(self, code, options_type, start, end, name, a, b_) -> int:
        sa, sb = self.shape(a), self.shape(b_)
        if len(sa) != len(sb) or any(x != y and y != 1 for x, y in zip(sa, sb)):
            raise ValueError(f"{name}: cannot broadcast {sb} to {sa}")

        def options(b):
            start(b)
            return end(b)

        return self._op(code, [a, b_], name, sa, options_type, options)

    def unary(self, name, code, x) -> int:
        """An option-less elementwise operator: LOGISTIC, HARD_SWISH, RELU, RELU6, SQRT."""
        if code not in (Op.LOGISTIC, Op.HARD_SWISH, Op.RELU, Op.RELU6, Op.SQRT):
            raise ValueError(f"{name}: operator {code} is not elementwise without options")
        return self._op(code, [x], name, self.shape(x))

    def depth_to_space(self, name, x, block) -> int:
        """output[h*block + i, w*block + j, c] = input[h, w, (i*block + j)*C' + c], C' = C / block²."""
        n, h, w, c = self.shape(x)
        if c % (block * block):
            raise ValueError(f"{name}: {c} channels do not split into {block}x{block} blocks")

        def options(b):
            tflite.DepthToSpaceOptionsStart(b)
            tflite.DepthToSpaceOptionsAddBlockSize(b, block)
            return tflite.DepthToSpaceOptionsEnd(b)

        return self._op(Op.DEPTH_TO_SPACE, [x], name, (n, h * block, w * block, c // (block * block)),
                        Opt.DepthToSpaceOptions, options)

    def mean_hw(self, name, x, keep_dims=False) -> int:
        """Global average pool: MEAN over axes 1, 2 ([N, C], or [N, 1, 1, C] with `keep_dims`)."""
        n, _, _, c = self.shape(x)
        axes = self.const(f"{name}/axes", np.array([1, 2], dtype=np.int32))

        def options(b):
            tflite.ReducerOptionsStart(b)
            tflite.ReducerOptionsAddKeepDims(b, keep_dims)
            return tflite.ReducerOptionsEnd(b)

        shape = (n, 1, 1, c) if keep_dims else (n, c)
        return self._op(Op.MEAN, [x, axes], name, shape, Opt.ReducerOptions, options)

    def mean_last(self, name, x) -> int:
        """MEAN over the last axis, kept as size 1."""
        shape = self.shape(x)
        axes = self.const(f"{name}/axes", np.array([len(shape) - 1], dtype=np.int32))

        def options(b):
            tflite.ReducerOptionsStart(b)
            tflite.ReducerOptionsAddKeepDims(b, True)
            return tflite.ReducerOptionsEnd(b)

        return self._op(Op.MEAN, [x, axes], name, shape[:-1] + (1,), Opt.ReducerOptions, options)

    def reshape(self, name, x, new_shape) -> int:
        """RESHAPE to a constant shape with at most one -1 (inferred, so the reshape follows a resized
        input; no operator reads a size tensor that a resize would leave stale)."""
        new_shape = [int(d) for d in new_shape]
        count = math.prod(self.shape(x))
        if new_shape.count(-1) > 1:
            raise ValueError(f"{name}: more than one -1 in {new_shape}")
        known = math.prod(d for d in new_shape if d != -1)
        if count % known:
            raise ValueError(f"{name}: cannot reshape {self.shape(x)} to {new_shape}")
        out_shape = tuple(count // known if d == -1 else d for d in new_shape)
        if math.prod(out_shape) != count:
            raise ValueError(f"{name}: cannot reshape {self.shape(x)} to {new_shape}")
        shape_t = self.const(f"{name}/shape", np.array(new_shape, dtype=np.int32))

        def options(b):
            tflite.ReshapeOptionsStartNewShapeVector(b, len(new_shape))
            for d in reversed(new_shape):
                b.PrependInt32(d)
            vec = b.EndVector()
            tflite.ReshapeOptionsStart(b)
            tflite.ReshapeOptionsAddNewShape(b, vec)
            return tflite.ReshapeOptionsEnd(b)

        return self._op(Op.RESHAPE, [x, shape_t], name, out_shape, Opt.ReshapeOptions, options)

    def transpose(self, name, x, perm) -> int:
        shape = self.shape(x)
        perm_t = self.const(f"{name}/perm", np.array(perm, dtype=np.int32))
        return self._op(Op.TRANSPOSE, [x, perm_t], name, tuple(shape[p] for p in perm))

    def batch_matmul(self, name, a, b_, adj_y=False) -> int:
        """[..., M, K] x [..., K, N] (or [..., N, K] with `adj_y`) -> [..., M, N]."""
        sa, sb = self.shape(a), self.shape(b_)
        k, n = (sb[-1], sb[-2]) if adj_y else (sb[-2], sb[-1])
        if sa[:-2] != sb[:-2] or sa[-1] != k:
            raise ValueError(f"{name}: cannot multiply {sa} by {sb} (adj_y {adj_y})")

        def options(b):
            tflite.BatchMatMulOptionsStart(b)
            tflite.BatchMatMulOptionsAddAdjX(b, False)
            tflite.BatchMatMulOptionsAddAdjY(b, adj_y)
            return tflite.BatchMatMulOptionsEnd(b)

        return self._op(Op.BATCH_MATMUL, [a, b_], name, sa[:-1] + (n,), Opt.BatchMatMulOptions, options)

    def fully_connected(self, name, x, w_oi, bias, act=None) -> int:
        n, i = self.shape(x)
        o, wi = w_oi.shape
        if wi != i:
            raise ValueError(f"{name}: {i} inputs, weights want {wi}")
        wt = self.const(f"{name}/weights", w_oi.astype(np.float32))
        bt = self.const(f"{name}/bias", bias.astype(np.float32))
        fused = ACTIVATIONS[act]

        def options(b):
            tflite.FullyConnectedOptionsStart(b)
            tflite.FullyConnectedOptionsAddFusedActivationFunction(b, fused)
            tflite.FullyConnectedOptionsAddKeepNumDims(b, False)
            return tflite.FullyConnectedOptionsEnd(b)

        return self._op(Op.FULLY_CONNECTED, [x, wt, bt], name, (n, o),
                        Opt.FullyConnectedOptions, options)

    def softmax(self, name, x, beta=1.0) -> int:
        def options(b):
            tflite.SoftmaxOptionsStart(b)
            tflite.SoftmaxOptionsAddBeta(b, beta)
            return tflite.SoftmaxOptionsEnd(b)

        return self._op(Op.SOFTMAX, [x], name, self.shape(x), Opt.SoftmaxOptions, options)

    def leaky_relu(self, name, x, alpha) -> int:
        def options(b):
            tflite.LeakyReluOptionsStart(b)
            tflite.LeakyReluOptionsAddAlpha(b, alpha)
            return tflite.LeakyReluOptionsEnd(b)

        return self._op(Op.LEAKY_RELU, [x], name, self.shape(x), Opt.LeakyReluOptions, options)

    def max_pool(self, name, x, size, stride, padding="SAME") -> int:
        return self._pool(Op.MAX_POOL_2D, name, x, size, stride, padding)

    def average_pool(self, name, x, size, stride, padding="VALID") -> int:
        """`size` and `stride`: one value for both axes or (height, width)."""
        return self._pool(Op.AVERAGE_POOL_2D, name, x, size, stride, padding)

    def _pool(self, code, name, x, size, stride, padding) -> int:
        n, h, w, c = self.shape(x)
        (kh, kw), (sh, sw) = self._pair(size), self._pair(stride)
        shape = (n, self._out_size(h, kh, sh, padding), self._out_size(w, kw, sw, padding), c)
        pad = Padding.SAME if padding == "SAME" else Padding.VALID

        def options(b):
            tflite.Pool2DOptionsStart(b)
            tflite.Pool2DOptionsAddPadding(b, pad)
            tflite.Pool2DOptionsAddStrideW(b, sw)
            tflite.Pool2DOptionsAddStrideH(b, sh)
            tflite.Pool2DOptionsAddFilterWidth(b, kw)
            tflite.Pool2DOptionsAddFilterHeight(b, kh)
            tflite.Pool2DOptionsAddFusedActivationFunction(b, Act.NONE)
            return tflite.Pool2DOptionsEnd(b)

        return self._op(code, [x], name, shape, Opt.Pool2DOptions, options)

    def resize_nearest(self, name, x, out_h, out_w) -> int:
        n, _, _, c = self.shape(x)
        size = self.const(f"{name}/size", np.array([out_h, out_w], dtype=np.int32))

        def options(b):
            tflite.ResizeNearestNeighborOptionsStart(b)
            tflite.ResizeNearestNeighborOptionsAddAlignCorners(b, False)
            tflite.ResizeNearestNeighborOptionsAddHalfPixelCenters(b, False)
            return tflite.ResizeNearestNeighborOptionsEnd(b)

        return self._op(Op.RESIZE_NEAREST_NEIGHBOR, [x, size], name, (n, out_h, out_w, c),
                        Opt.ResizeNearestNeighborOptions, options)

    def pad_hw(self, name, x, before, after, width=None) -> int:
        """Zero padding of the two spatial axes: `before` rows/columns at the top/left, `after` at the
        bottom/right (Darknet's symmetric convolution padding, which TFLite's SAME is not for stride 2);
        `width`, a (left, right) pair, pads the columns differently from the rows."""
        n, h, w, c = self.shape(x)
        left, right = (before, after) if width is None else width
        paddings = self.const(f"{name}/paddings", np.array([[0, 0], [before, after], [left, right], [0, 0]], dtype=np.int32))
        return self._op(Op.PAD, [x, paddings], name, (n, h + before + after, w + left + right, c))

    def slice_channels(self, name, x, start, count) -> int:
        """Channels start..<start + count of an NHWC tensor (Darknet's grouped [route])."""
        n, h, w, c = self.shape(x)
        if start < 0 or count <= 0 or start + count > c:
            raise ValueError(f"{name}: channels {start}..<{start + count} of {c}")
        begin = self.const(f"{name}/begin", np.array([0, 0, 0, start], dtype=np.int32))
        size = self.const(f"{name}/size", np.array([n, h, w, count], dtype=np.int32))
        return self._op(Op.SLICE, [x, begin, size], name, (n, h, w, count))

    def concat_channels(self, name, xs) -> int:
        shapes = [self.shape(x) for x in xs]
        if len({s[:3] for s in shapes}) != 1:
            raise ValueError(f"{name}: cannot concatenate {shapes}")
        out_shape = shapes[0][:3] + (sum(s[3] for s in shapes),)

        def options(b):
            tflite.ConcatenationOptionsStart(b)
            tflite.ConcatenationOptionsAddAxis(b, 3)
            tflite.ConcatenationOptionsAddFusedActivationFunction(b, Act.NONE)
            return tflite.ConcatenationOptionsEnd(b)

        return self._op(Op.CONCATENATION, list(xs), name, out_shape,
                        Opt.ConcatenationOptions, options)

    # -- serialisation -----------------------------------------------------------
    def serialize(self, description: str, metadata: dict | None = None) -> bytes:
        """Return the .tflite flatbuffer.

        ``metadata`` maps Model.metadata names (e.g. "TFLITE_METADATA") to the
        bytes stored in their buffers.
        """
        metadata = metadata or {}
        b = flatbuffers.Builder(1 << 20)
        all_buffers = list(self.buffers) + [metadata[k] for k in metadata]

        # Raw data first: the builder writes back to front, so the big
        # weight blobs end up at the end of the file.
        data_offsets = [None if not data else _aligned_bytes(b, data) for data in all_buffers]
        buffer_offsets = []
        for off in data_offsets:
            tflite.BufferStart(b)
            if off is not None:
                tflite.BufferAddData(b, off)
            buffer_offsets.append(tflite.BufferEnd(b))

        tensor_offsets = []
        for t in self.tensors:
            name = b.CreateString(t.name)
            shape = b.CreateNumpyVector(np.array(t.shape, dtype=np.int32))
            signature = None if t.signature is None else b.CreateNumpyVector(np.array(t.signature, dtype=np.int32))
            tflite.TensorStart(b)
            tflite.TensorAddShape(b, shape)
            if signature is not None:
                tflite.TensorAddShapeSignature(b, signature)
            tflite.TensorAddType(b, _NP_TO_TFLITE[t.dtype])
            tflite.TensorAddBuffer(b, t.buffer)
            tflite.TensorAddName(b, name)
            tensor_offsets.append(tflite.TensorEnd(b))

        operators = self.dequantize_ops + self.operators
        codes = []  # distinct builtin codes, in order of first use
        for op in operators:
            if op.code not in codes:
                codes.append(op.code)

        op_offsets = []
        for op in operators:
            ins = b.CreateNumpyVector(np.array(op.inputs, dtype=np.int32))
            outs = b.CreateNumpyVector(np.array(op.outputs, dtype=np.int32))
            opts = op.options(b) if op.options is not None else None
            tflite.OperatorStart(b)
            tflite.OperatorAddOpcodeIndex(b, codes.index(op.code))
            tflite.OperatorAddInputs(b, ins)
            tflite.OperatorAddOutputs(b, outs)
            if opts is not None:
                tflite.OperatorAddBuiltinOptionsType(b, op.options_type)
                tflite.OperatorAddBuiltinOptions(b, opts)
            op_offsets.append(tflite.OperatorEnd(b))

        sg_name = b.CreateString(self.name)
        tensors_vec = _offset_vector(b, tensor_offsets)
        ops_vec = _offset_vector(b, op_offsets)
        ins_vec = b.CreateNumpyVector(np.array(self.inputs, dtype=np.int32))
        outs_vec = b.CreateNumpyVector(np.array(self.outputs, dtype=np.int32))
        tflite.SubGraphStart(b)
        tflite.SubGraphAddTensors(b, tensors_vec)
        tflite.SubGraphAddInputs(b, ins_vec)
        tflite.SubGraphAddOutputs(b, outs_vec)
        tflite.SubGraphAddOperators(b, ops_vec)
        tflite.SubGraphAddName(b, sg_name)
        subgraph = tflite.SubGraphEnd(b)

        code_offsets = []
        for code in codes:
            tflite.OperatorCodeStart(b)
            tflite.OperatorCodeAddDeprecatedBuiltinCode(b, min(code, Op.PLACEHOLDER_FOR_GREATER_OP_CODES))
            # DEQUANTIZE from float16 is version 3; the rest are float32 version 1.
            tflite.OperatorCodeAddVersion(b, 3 if code == Op.DEQUANTIZE else 1)
            tflite.OperatorCodeAddBuiltinCode(b, code)
            code_offsets.append(tflite.OperatorCodeEnd(b))

        meta_offsets = []
        for i, key in enumerate(metadata):
            name = b.CreateString(key)
            tflite.MetadataStart(b)
            tflite.MetadataAddName(b, name)
            tflite.MetadataAddBuffer(b, len(self.buffers) + i)
            meta_offsets.append(tflite.MetadataEnd(b))

        desc = b.CreateString(description)
        codes_vec = _offset_vector(b, code_offsets)
        subgraphs_vec = _offset_vector(b, [subgraph])
        buffers_vec = _offset_vector(b, buffer_offsets)
        meta_vec = _offset_vector(b, meta_offsets) if meta_offsets else None
        tflite.ModelStart(b)
        tflite.ModelAddVersion(b, SCHEMA_VERSION)
        tflite.ModelAddOperatorCodes(b, codes_vec)
        tflite.ModelAddSubgraphs(b, subgraphs_vec)
        tflite.ModelAddDescription(b, desc)
        tflite.ModelAddBuffers(b, buffers_vec)
        if meta_vec is not None:
            tflite.ModelAddMetadata(b, meta_vec)
        model = tflite.ModelEnd(b)
        b.Finish(model, TFLITE_FILE_IDENTIFIER)
        return bytes(b.Output())


def _aligned_bytes(b: flatbuffers.Builder, data: bytes, alignment: int = 16) -> int:
    """A [ubyte] vector whose first element is `alignment`-aligned."""
    b.StartVector(1, len(data), alignment)
    b.head = b.head - len(data)
    b.Bytes[b.head:b.head + len(data)] = data
    return b.EndVector()


def _offset_vector(b: flatbuffers.Builder, offsets: list) -> int:
    b.StartVector(4, len(offsets), 4)
    for off in reversed(offsets):
        b.PrependUOffsetTRelative(off)
    return b.EndVector()
