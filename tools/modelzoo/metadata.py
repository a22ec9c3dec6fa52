"""TFLite model metadata ("TFLITE_METADATA") and packed associated files.

The metadata flatbuffer is written with the generated schema module of
tflite-support 0.4.4 (``metadata_schema_py_generated.py``), imported straight
out of the pinned wheel, so neither TensorFlow nor tflite-support's native
extensions (or its protobuf<4 pin) are needed.

The result has the layout MetadataPopulator produces: the model flatbuffer
with a Model.metadata entry "TFLITE_METADATA" pointing to a buffer holding the
metadata flatbuffer (file identifier "M001"), followed by a zip archive of the
associated files (stored, not compressed).  LiteRT ignores the trailing zip;
zip readers find it through the end-of-central-directory record.  Unlike
MetadataPopulator, the zip entries get a fixed timestamp so builds are
byte-for-byte reproducible.
"""
from __future__ import annotations

import importlib
import io
import sys
import zipfile
from dataclasses import dataclass

METADATA_FIELD_NAME = "TFLITE_METADATA"
METADATA_FILE_IDENTIFIER = b"M001"
_SCHEMA_MODULE = "tensorflow_lite_support.metadata.metadata_schema_py_generated"
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)

_schema = None


def load_schema(tflite_support_wheel: str | None = None):
    """Import tflite-support's generated metadata schema module.

    With a wheel path, it is imported from inside the wheel (zipimport); the
    package's __init__ files that are needed are empty, and no native module
    is loaded.
    """
    global _schema
    if _schema is not None:
        return _schema
    if tflite_support_wheel and tflite_support_wheel not in sys.path:
        sys.path.append(tflite_support_wheel)
    _schema = importlib.import_module(_SCHEMA_MODULE)
    return _schema


@dataclass
class AssociatedFile:
    name: str
    description: str
    type: str  # "TENSOR_AXIS_LABELS", "DESCRIPTIONS", ...
    content: bytes


def _files_t(ms, files):
    out = []
    for f in files:
        af = ms.AssociatedFileT()
        af.name = f.name
        af.description = f.description
        af.type = getattr(ms.AssociatedFileType, f.type)
        out.append(af)
    return out


def image_input(ms, name, description, mean, std, stats_min, stats_max, color_space="RGB"):
    """TensorMetadata for an image input with NormalizationOptions; `color_space` names a
    ColorSpaceType (RGB, GRAYSCALE, or UNKNOWN for other orders, which the description then states)."""
    t = ms.TensorMetadataT()
    t.name = name
    t.description = description
    t.content = ms.ContentT()
    t.content.contentPropertiesType = ms.ContentProperties.ImageProperties
    props = ms.ImagePropertiesT()
    props.colorSpace = getattr(ms.ColorSpaceType, color_space)
    t.content.contentProperties = props
    norm = ms.NormalizationOptionsT()
    norm.mean = [float(v) for v in mean]
    norm.std = [float(v) for v in std]
    unit = ms.ProcessUnitT()
    unit.optionsType = ms.ProcessUnitOptions.NormalizationOptions
    unit.options = norm
    t.processUnits = [unit]
    t.stats = ms.StatsT()
    t.stats.min = [float(v) for v in stats_min]
    t.stats.max = [float(v) for v in stats_max]
    return t


def feature_output(ms, name, description, files=(), stats_min=None, stats_max=None):
    t = ms.TensorMetadataT()
    t.name = name
    t.description = description
    t.content = ms.ContentT()
    t.content.contentPropertiesType = ms.ContentProperties.FeatureProperties
    t.content.contentProperties = ms.FeaturePropertiesT()
    if stats_min is not None:
        t.stats = ms.StatsT()
        t.stats.min = [float(v) for v in stats_min]
        t.stats.max = [float(v) for v in stats_max]
    if files:
        t.associatedFiles = _files_t(ms, files)
    return t


def minimum_parser_version(ms, meta) -> str:
    """The smallest metadata parser version that understands `meta`.

    Mirrors the rules of the schema history (tflite-support
    metadata_version.cc) for the fields this package can write.
    """
    version = (1, 0, 0)

    def bump(v):
        nonlocal version
        version = max(version, v)

    def files(fs):
        for f in fs or []:
            if f.type == ms.AssociatedFileType.VOCABULARY:
                bump((1, 0, 1))
            if f.type == ms.AssociatedFileType.SCANN_INDEX_FILE:
                bump((1, 4, 0))
            if f.version is not None:
                bump((1, 4, 1))

    def units(us):
        for u in us or []:
            if u.optionsType in (ms.ProcessUnitOptions.BertTokenizerOptions,
                                 ms.ProcessUnitOptions.SentencePieceTokenizerOptions):
                bump((1, 1, 0))
            if u.optionsType == ms.ProcessUnitOptions.RegexTokenizerOptions:
                bump((1, 2, 1))

    files(meta.associatedFiles)
    for sg in meta.subgraphMetadata or []:
        files(sg.associatedFiles)
        if sg.inputProcessUnits or sg.outputProcessUnits:
            bump((1, 1, 0))
            units(sg.inputProcessUnits)
            units(sg.outputProcessUnits)
        if sg.inputTensorGroups or sg.outputTensorGroups:
            bump((1, 2, 0))
        if sg.customMetadata:
            bump((1, 5, 0))
        for t in (sg.inputTensorMetadata or []) + (sg.outputTensorMetadata or []):
            files(t.associatedFiles)
            units(t.processUnits)
            if t.content is not None and \
                    t.content.contentPropertiesType == ms.ContentProperties.AudioProperties:
                bump((1, 3, 0))
    return ".".join(str(v) for v in version)


def model_metadata(ms, *, name, description, version, author, license, inputs, outputs,
                   model_files=(), subgraph_description=None) -> bytes:
    """Serialise a ModelMetadata flatbuffer (identifier M001)."""
    import flatbuffers

    meta = ms.ModelMetadataT()
    meta.name = name
    meta.description = description
    meta.version = version
    meta.author = author
    meta.license = license
    sg = ms.SubGraphMetadataT()
    sg.name = name
    if subgraph_description:
        sg.description = subgraph_description
    sg.inputTensorMetadata = list(inputs)
    sg.outputTensorMetadata = list(outputs)
    meta.subgraphMetadata = [sg]
    if model_files:
        meta.associatedFiles = _files_t(ms, model_files)
    meta.minParserVersion = minimum_parser_version(ms, meta)
    b = flatbuffers.Builder(0)
    b.Finish(meta.Pack(b), METADATA_FILE_IDENTIFIER)
    return bytes(b.Output())


def append_zip(model: bytes, files) -> bytes:
    """Append the associated files as a stored zip archive, like MetadataPopulator."""
    buf = io.BytesIO(model)
    buf.seek(0, io.SEEK_END)
    with zipfile.ZipFile(buf, "a", compression=zipfile.ZIP_STORED) as zf:
        for f in files:
            info = zipfile.ZipInfo(f.name, date_time=_ZIP_DATE)
            info.compress_type = zipfile.ZIP_STORED
            info.create_system = 3
            info.external_attr = 0o644 << 16
            zf.writestr(info, f.content)
    return buf.getvalue()


def packed_files(model: bytes) -> dict:
    """Associated files packed after the model, by name."""
    with zipfile.ZipFile(io.BytesIO(model)) as zf:
        return {n: zf.read(n) for n in zf.namelist()}


def metadata_buffer(model: bytes) -> bytes | None:
    """The raw TFLITE_METADATA buffer of a .tflite model, or None."""
    from tflite.Model import Model

    m = Model.GetRootAs(model, 0)
    for i in range(m.MetadataLength()):
        entry = m.Metadata(i)
        if entry.Name().decode() == METADATA_FIELD_NAME:
            return m.Buffers(entry.Buffer()).DataAsNumpy().tobytes()
    return None


def read_metadata(ms, model: bytes):
    """The ModelMetadataT object of a model (object API of the schema module)."""
    buf = metadata_buffer(model)
    if buf is None:
        return None
    if not ms.ModelMetadata.ModelMetadataBufferHasIdentifier(buf, 0):
        raise ValueError("metadata buffer lacks the M001 identifier")
    return ms.ModelMetadataT.InitFromObj(ms.ModelMetadata.GetRootAs(buf, 0))
