import CLiteRt
import Foundation
import SwiftVisionCore

/// The functions of `libLiteRt.so`, bound once per process with `dlopen` and `dlsym`.
/// Immutable after loading, so it is safe to share.
final class LiteRTLibrary: Sendable {
    let path: String
    let createEnvironment: LiteRtCreateEnvironmentFunction
    let destroyEnvironment: LiteRtDestroyEnvironmentFunction
    let createModelFromFile: LiteRtCreateModelFromFileFunction
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
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            throw LiteRTError.runtimeUnusable(path: path, reason: dlerror().map { String(cString: $0) } ?? "dlopen failed")
        }
        func bind<Function>(_ name: String, as type: Function.Type = Function.self) throws -> Function {
            guard let symbol = dlsym(handle, name) else {
                throw LiteRTError.runtimeUnusable(path: path, reason: "missing function \(name)")
            }
            return unsafeBitCast(symbol, to: Function.self)
        }
        self.path = path
        createEnvironment = try bind("LiteRtCreateEnvironment")
        destroyEnvironment = try bind("LiteRtDestroyEnvironment")
        createModelFromFile = try bind("LiteRtCreateModelFromFile")
        destroyModel = try bind("LiteRtDestroyModel")
        getModelMetadata = try bind("LiteRtGetModelMetadata")
        getNumModelSignatures = try bind("LiteRtGetNumModelSignatures")
        getModelSignature = try bind("LiteRtGetModelSignature")
        getNumSignatureInputs = try bind("LiteRtGetNumSignatureInputs")
        getNumSignatureOutputs = try bind("LiteRtGetNumSignatureOutputs")
        getSignatureInputTensorByIndex = try bind("LiteRtGetSignatureInputTensorByIndex")
        getSignatureOutputTensorByIndex = try bind("LiteRtGetSignatureOutputTensorByIndex")
        getTensorName = try bind("LiteRtGetTensorName")
        getTensorTypeId = try bind("LiteRtGetTensorTypeId")
        getRankedTensorType = try bind("LiteRtGetRankedTensorType")
        getQuantizationTypeId = try bind("LiteRtGetQuantizationTypeId")
        getPerTensorQuantization = try bind("LiteRtGetPerTensorQuantization")
        createOptions = try bind("LiteRtCreateOptions")
        destroyOptions = try bind("LiteRtDestroyOptions")
        setOptionsHardwareAccelerators = try bind("LiteRtSetOptionsHardwareAccelerators")
        createOpaqueOptions = try bind("LiteRtCreateOpaqueOptions")
        destroyOpaqueOptions = try bind("LiteRtDestroyOpaqueOptions")
        addOpaqueOptions = try bind("LiteRtAddOpaqueOptions")
        createCompiledModel = try bind("LiteRtCreateCompiledModel")
        destroyCompiledModel = try bind("LiteRtDestroyCompiledModel")
        runCompiledModel = try bind("LiteRtRunCompiledModel")
        createManagedTensorBuffer = try bind("LiteRtCreateManagedTensorBuffer")
        destroyTensorBuffer = try bind("LiteRtDestroyTensorBuffer")
        lockTensorBuffer = try bind("LiteRtLockTensorBuffer")
        unlockTensorBuffer = try bind("LiteRtUnlockTensorBuffer")
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
