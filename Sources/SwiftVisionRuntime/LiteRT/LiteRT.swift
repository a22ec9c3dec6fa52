import SwiftVisionCore

/// A thin, safe Swift layer over the LiteRT 2.3.0 C API, loaded at run time from `libLiteRt.so`.
///
/// One final class per C handle (``Environment``, ``Model``, ``CompiledModel``, ``TensorBuffer``);
/// every status is checked and thrown as ``LiteRTError``. ``Interpreter`` is the
/// thread-safe way to run a model.
public enum LiteRT {}
