"""Which installed model each model of a MediaPipe .task bundle is, read with MediaPipe's own TFLite schema: the
independent truth for the landmarkers' bundle check (Tests/PortsTests/MediaPipeTaskBundlePortTests.swift).

A bundle's model counts as an installed model when both have the same tensors in their first subgraph, in the same
order, each with the same shape, type and weight bytes; names and metadata (which the bundles rewrite) are not
compared.

usage: task_bundle_reference.py BUNDLE MODEL...
  prints {"files": [the bundle's file names, in order], "same": {file: the MODEL's file name, or null}, "sha256": {file: ...}}
"""
import hashlib
import json
import os
import sys
import zipfile

from mediapipe.tasks.metadata import schema_py_generated as schema


def tensors(data):
    """(shape, type, SHA-1 of the weights) of every tensor of the model's first subgraph; None for a non-model."""
    if len(data) < 8 or data[4:8] != b"TFL3":
        return None
    model = schema.Model.GetRootAsModel(data, 0)
    graph = model.Subgraphs(0)
    described = []
    for index in range(graph.TensorsLength()):
        tensor = graph.Tensors(index)
        buffer = model.Buffers(tensor.Buffer())
        weights = buffer.DataAsNumpy().tobytes() if buffer.DataLength() else b""
        shape = tuple(int(size) for size in tensor.ShapeAsNumpy()) if tensor.ShapeLength() else ()
        described.append((shape, tensor.Type(), hashlib.sha1(weights).hexdigest()))
    return described


def main(bundle, models):
    installed = {os.path.basename(path): tensors(open(path, "rb").read()) for path in models}
    with zipfile.ZipFile(bundle) as archive:
        files = archive.namelist()
        contents = {name: archive.read(name) for name in files}
    same = {}
    for name in files:
        described = tensors(contents[name])
        same[name] = next((model for model, other in installed.items() if described and described == other), None)
    sha256 = {name: hashlib.sha256(data).hexdigest() for name, data in contents.items()}
    print(json.dumps({"files": files, "same": same, "sha256": sha256}))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
