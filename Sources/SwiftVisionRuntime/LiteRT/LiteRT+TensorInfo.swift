import CLiteRt
import SwiftVisionCore

extension LiteRT {
    /// The element type of a tensor.
    public enum ElementType: String, Sendable, Codable {
        /// The types LiteRT tensors hold, as LiteRT names them (`kLiteRtElementTypeFloat32` and so on).
        case float32, float16, int8, uint8, int16, int32, int64, bool

        init?(_ type: LiteRtElementType) {
            switch type {
            case kLiteRtElementTypeFloat32: self = .float32
            case kLiteRtElementTypeFloat16: self = .float16
            case kLiteRtElementTypeInt8: self = .int8
            case kLiteRtElementTypeUInt8: self = .uint8
            case kLiteRtElementTypeInt16: self = .int16
            case kLiteRtElementTypeInt32: self = .int32
            case kLiteRtElementTypeInt64: self = .int64
            case kLiteRtElementTypeBool: self = .bool
            default: return nil
            }
        }

        /// Bytes per element.
        public var byteSize: Int {
            switch self {
            case .int8, .uint8, .bool: 1
            case .float16, .int16: 2
            case .float32, .int32: 4
            case .int64: 8
            }
        }
    }

    /// Affine quantization of an integer tensor: `real = scale × (stored − zeroPoint)`.
    public struct Quantization: Sendable, Equatable, Codable {
        /// The real value of one step of the stored integer.
        public let scale: Float
        /// The stored integer that stands for the real value 0.
        public let zeroPoint: Int
    }

    /// The name, type and shape of a model input or output.
    public struct TensorInfo: Sendable, Equatable, Codable {
        /// The tensor's name in the model.
        public let name: String
        /// The type of each element.
        public let elementType: ElementType
        /// The size of each dimension, outermost first (such as `[1, 224, 224, 3]`).
        public let shape: [Int]
        /// Per-tensor quantization of integer tensors, nil for float tensors.
        public let quantization: Quantization?

        /// Number of elements.
        public var elementCount: Int { shape.reduce(1, *) }
        /// Number of bytes of a packed buffer.
        public var byteCount: Int { elementCount * elementType.byteSize }

        /// The same tensor with the sizes `shape`.
        func reshaped(_ shape: [Int]) -> TensorInfo {
            TensorInfo(name: name, elementType: elementType, shape: shape, quantization: quantization)
        }
    }
}

extension LiteRT.TensorInfo {
    /// Reads the description of `tensor` from the runtime.
    init(tensor: LiteRtTensor, library: LiteRTLibrary) throws {
        var namePointer: UnsafePointer<CChar>?
        try library.check(library.getTensorName(tensor, &namePointer), "read a tensor name")
        let name = namePointer.map { String(cString: $0) } ?? ""
        var typeId: Int32 = -1
        try library.check(library.getTensorTypeId(tensor, &typeId), "read the type of tensor \(name)")
        guard typeId == Int32(kLiteRtRankedTensorType) else {
            throw LiteRTError.incompatibleModel("tensor \(name) has no fixed rank")
        }
        var type = LiteRtRankedTensorType()
        try library.check(library.getRankedTensorType(tensor, &type), "read the shape of tensor \(name)")
        guard let elementType = LiteRT.ElementType(type.element_type) else {
            throw LiteRTError.incompatibleModel("tensor \(name) has unsupported element type \(type.element_type.rawValue)")
        }
        let rank = Int(type.layout.rank)
        var shape = withUnsafeBytes(of: type.layout.dimensions) { Array($0.bindMemory(to: Int32.self).prefix(rank)) }
        // A batch left open and nothing else (MediaPipe's 478-point face mesh) is one input at a time, as the
        // runtime allocates it.
        if rank > 1, shape[0] == -1, shape.dropFirst().allSatisfy({ $0 > 0 }) { shape[0] = 1 }
        guard shape.allSatisfy({ $0 > 0 }) else {
            throw LiteRTError.incompatibleModel("tensor \(name) has a dynamic shape \(shape)")
        }
        var quantizationType: Int32 = 0
        var quantization: LiteRT.Quantization?
        if library.getQuantizationTypeId(tensor, &quantizationType) == 0,
            quantizationType == Int32(kLiteRtQuantizationPerTensor)
        {
            var parameters = LiteRtQuantizationPerTensor()
            try library.check(library.getPerTensorQuantization(tensor, &parameters), "read quantization of \(name)")
            quantization = LiteRT.Quantization(scale: parameters.scale, zeroPoint: Int(parameters.zero_point))
        }
        self.init(name: name, elementType: elementType, shape: shape.map(Int.init), quantization: quantization)
    }
}
