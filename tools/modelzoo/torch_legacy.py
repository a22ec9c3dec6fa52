"""Read a PyTorch *legacy* (pre-1.6, non-zip) checkpoint into numpy arrays.

No torch needed.  The legacy layout is a sequence of pickles followed by the
raw storages:

1. magic number pickle, 2. protocol-version pickle, 3. sys-info pickle,
4. the pickled object (here a state dict) whose tensors reference storages
   through ``persistent_load`` ids, 5. a pickle with the list of storage keys,
6. for each key in that list: an int64 element count, then the raw
   little-endian element bytes.
"""
from __future__ import annotations

import collections
import io
import pickle
import struct

import numpy as np

LEGACY_MAGIC = 0x1950A86A20F9469CFC6C

_STORAGE_DTYPES = {
    "FloatStorage": np.float32,
    "DoubleStorage": np.float64,
    "HalfStorage": np.float16,
    "LongStorage": np.int64,
    "IntStorage": np.int32,
    "ShortStorage": np.int16,
    "CharStorage": np.int8,
    "ByteStorage": np.uint8,
    "BoolStorage": np.bool_,
}


class _StorageType:
    def __init__(self, name: str):
        self.name = name
        self.dtype = np.dtype(_STORAGE_DTYPES[name]).newbyteorder("<")


class _TensorRef:
    """A tensor whose storage has not been read yet."""

    def __init__(self, key, offset, size, stride):
        self.key, self.offset, self.size, self.stride = key, offset, tuple(size), tuple(stride)


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad=False,
                       backward_hooks=None, metadata=None):
    return _TensorRef(storage, storage_offset, size, stride)


class _Unpickler(pickle.Unpickler):
    def __init__(self, fh):
        super().__init__(fh)
        self.storages = {}  # key -> (dtype, element count)

    def find_class(self, module, name):
        if module == "collections" and name == "OrderedDict":
            return collections.OrderedDict
        if module == "torch._utils" and name == "_rebuild_tensor_v2":
            return _rebuild_tensor_v2
        if module == "torch" and name in _STORAGE_DTYPES:
            return _StorageType(name)
        raise pickle.UnpicklingError(f"unexpected global {module}.{name} in checkpoint")

    def persistent_load(self, pid):
        kind, storage_type, key, _location, numel, view = pid
        if kind != "storage" or view is not None:
            raise pickle.UnpicklingError(f"unsupported persistent id {pid!r}")
        self.storages[key] = (storage_type.dtype, numel)
        return key


def load_state_dict(data: bytes) -> "collections.OrderedDict[str, np.ndarray]":
    """Parse a legacy checkpoint (bytes) into an ordered dict of numpy arrays."""
    fh = io.BytesIO(data)
    if pickle.load(fh) != LEGACY_MAGIC:
        raise ValueError("not a legacy PyTorch checkpoint (bad magic number)")
    if pickle.load(fh) != 1001:
        raise ValueError("unsupported legacy protocol version")
    sys_info = pickle.load(fh)
    if not sys_info.get("little_endian", False):
        raise ValueError("big-endian checkpoints are not supported")
    up = _Unpickler(fh)
    obj = up.load()
    keys = pickle.load(fh)
    raw = {}
    for key in keys:
        (count,) = struct.unpack("<q", fh.read(8))
        dtype, numel = up.storages[key]
        if count != numel:
            raise ValueError(f"storage {key}: {count} elements, pickle said {numel}")
        nbytes = count * dtype.itemsize
        buf = fh.read(nbytes)
        if len(buf) != nbytes:
            raise ValueError(f"storage {key}: truncated")
        raw[key] = np.frombuffer(buf, dtype=dtype)
    if fh.read(1):
        raise ValueError("trailing bytes after the last storage")

    out = collections.OrderedDict()
    for name, ref in obj.items():
        flat = raw[ref.key]
        itemsize = flat.dtype.itemsize
        if len(ref.size) == 0:
            arr = flat[ref.offset:ref.offset + 1].reshape(())
        else:
            arr = np.lib.stride_tricks.as_strided(
                flat[ref.offset:], shape=ref.size,
                strides=[s * itemsize for s in ref.stride])
        out[name] = np.array(arr, dtype=flat.dtype.newbyteorder("="), copy=True)
    return out
