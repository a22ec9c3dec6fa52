import CLiteRt
import Foundation
import SwiftVisionCore

/// The functions of `libLiteRt.so`, bound once per process with `dlopen` and `dlsym`.
/// Immutable after loading, so it is safe to share.
final class LiteRTLibrary: Sendable {
    let path: String
    let createEnvironment: LiteRtCreateEnvironmentFunction
    let destroyEnvironment: LiteRtDestroyEnvironmentFunction
    let createModelFromBuffer: LiteRtCreateModelFromBufferFunction
    let destroyModel: LiteRtDestroyModelFunction
    let getModelMetadata: LiteRtGetModelMetadataFunction
    let getNumModelSignatures: LiteRtGetNumModelSignaturesFunction
    let getModelSignature: LiteRtGetModelSignatureFunction
    let getNumSignatureInputs: LiteRtGetNumSignatureTensorsFunction
    let getNumSignatureOutputs: LiteRtGetNumSignatureTensorsFunction
    let getSignatureInputTensorByIndex: LiteRtGetSignatureTensorByIndexFunction
    let getSignatureOutputTensorByIndex: LiteRtGetSignatureTensorByIndexFunction
    let getTensorName: LiteRtGetTensorNameFunction
    let getTensorTypeId: LiteRtGetTensorTypeIdFunction
    let getRankedTensorType: LiteRtGetRankedTensorTypeFunction
    let getQuantizationTypeId: LiteRtGetQuantizationTypeIdFunction
    let getPerTensorQuantization: LiteRtGetPerTensorQuantizationFunction
    let createOptions: LiteRtCreateOptionsFunction
    let destroyOptions: LiteRtDestroyOptionsFunction
    let setOptionsHardwareAccelerators: LiteRtSetOptionsHardwareAcceleratorsFunction
    let createOpaqueOptions: LiteRtCreateOpaqueOptionsFunction
    let destroyOpaqueOptions: LiteRtDestroyOpaqueOptionsFunction
    let addOpaqueOptions: LiteRtAddOpaqueOptionsFunction
    let createCompiledModel: LiteRtCreateCompiledModelFunction
    let destroyCompiledModel: LiteRtDestroyCompiledModelFunction
    let runCompiledModel: LiteRtRunCompiledModelFunction
    let resizeInputTensor: LiteRtCompiledModelResizeInputTensorFunction
    let getOutputTensorLayouts: LiteRtGetCompiledModelOutputTensorLayoutsFunction
    let createManagedTensorBuffer: LiteRtCreateManagedTensorBufferFunction
    let destroyTensorBuffer: LiteRtDestroyTensorBufferFunction
    let lockTensorBuffer: LiteRtLockTensorBufferFunction
    let unlockTensorBuffer: LiteRtUnlockTensorBufferFunction

    /// The library of this process, loaded on first use from ``SwiftVisionCache/runtimeLibrary``.
    static func shared() throws -> LiteRTLibrary {
        try loaded.get()
    }

    private static let loaded = Result { try LiteRTLibrary(path: SwiftVisionCache.current.runtimeLibrary.path) }

    private init(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw LiteRTError.runtimeNotInstalled(path: path)
        }
        let library = try DynamicLibrary(path: path) { LiteRTError.runtimeUnusable(path: path, reason: $0) }
        self.path = path
        createEnvironment = try library.function("LiteRtCreateEnvironment")
        destroyEnvironment = try library.function("LiteRtDestroyEnvironment")
        createModelFromBuffer = try library.function("LiteRtCreateModelFromBuffer")
        destroyModel = try library.function("LiteRtDestroyModel")
        getModelMetadata = try library.function("LiteRtGetModelMetadata")
        getNumModelSignatures = try library.function("LiteRtGetNumModelSignatures")
        getModelSignature = try library.function("LiteRtGetModelSignature")
        getNumSignatureInputs = try library.function("LiteRtGetNumSignatureInputs")
        getNumSignatureOutputs = try library.function("LiteRtGetNumSignatureOutputs")
        getSignatureInputTensorByIndex = try library.function("LiteRtGetSignatureInputTensorByIndex")
        getSignatureOutputTensorByIndex = try library.function("LiteRtGetSignatureOutputTensorByIndex")
        getTensorName = try library.function("LiteRtGetTensorName")
        getTensorTypeId = try library.function("LiteRtGetTensorTypeId")
        getRankedTensorType = try library.function("LiteRtGetRankedTensorType")
        getQuantizationTypeId = try library.function("LiteRtGetQuantizationTypeId")
        getPerTensorQuantization = try library.function("LiteRtGetPerTensorQuantization")
        createOptions = try library.function("LiteRtCreateOptions")
        destroyOptions = try library.function("LiteRtDestroyOptions")
        setOptionsHardwareAccelerators = try library.function("LiteRtSetOptionsHardwareAccelerators")
        createOpaqueOptions = try library.function("LiteRtCreateOpaqueOptions")
        destroyOpaqueOptions = try library.function("LiteRtDestroyOpaqueOptions")
        addOpaqueOptions = try library.function("LiteRtAddOpaqueOptions")
        createCompiledModel = try library.function("LiteRtCreateCompiledModel")
        destroyCompiledModel = try library.function("LiteRtDestroyCompiledModel")
        runCompiledModel = try library.function("LiteRtRunCompiledModel")
        resizeInputTensor = try library.function("LiteRtCompiledModelResizeInputTensor")
        getOutputTensorLayouts = try library.function("LiteRtGetCompiledModelOutputTensorLayouts")
        createManagedTensorBuffer = try library.function("LiteRtCreateManagedTensorBuffer")
        destroyTensorBuffer = try library.function("LiteRtDestroyTensorBuffer")
        lockTensorBuffer = try library.function("LiteRtLockTensorBuffer")
        unlockTensorBuffer = try library.function("LiteRtUnlockTensorBuffer")
    }

    /// Throws ``LiteRTError/status(code:meaning:operation:)`` unless `status` is success.
    func check(_ status: LiteRtStatus, _ operation: @autoclosure () -> String) throws {
        guard status != 0 else { return }
        let meaning = Self.meaning(of: status)
        throw LiteRTError.status(code: status, meaning: meaning, operation: operation())
    }

    /// The meaning of a status code, from LiteRT's `LiteRtStatus` enumeration.
    static func meaning(of status: LiteRtStatus) -> String {
        switch status {
        case 1: "invalid argument"
        case 2: "memory allocation failure"
        case 3: "runtime failure"
        case 4: "missing input tensor"
        case 5: "unsupported"
        case 6: "not found"
        case 7: "timeout expired"
        case 8: "wrong version"
        case 9: "unknown error"
        case 10: "already exists"
        case 100: "cancelled"
        case 500: "file I/O error"
        case 501: "invalid flatbuffer (not a .tflite model)"
        case 502: "dynamic loading error"
        case 503: "serialization error"
        case 504: "compilation error"
        case 1000: "index out of bounds"
        case 1001: "invalid IR type"
        case 1002: "invalid graph invariant"
        case 1003: "graph modification error"
        case 1500: "invalid tool configuration"
        case 4000: "unsupported runtime version"
        case 4001: "unsupported compiler version"
        case 4002: "incompatible byte code version"
        default: "unknown status"
        }
    }
}
