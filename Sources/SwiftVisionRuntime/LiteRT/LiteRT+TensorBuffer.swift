import CLiteRt
import SwiftVisionCore

extension LiteRT {
    /// Host memory that holds one input or output tensor of a compiled model.
    /// Not safe for concurrent use: ``Interpreter`` gives each inference buffers of its own.
    public final class TensorBuffer {
        let library: LiteRTLibrary
        let handle: LiteRtTensorBuffer
        /// What the buffer holds.
        public let info: TensorInfo

        init(info: TensorInfo, environment: Environment) throws {
            library = environment.library
            self.info = info
            var type = LiteRtRankedTensorType()
            type.element_type = Self.cType(info.elementType)
            type.layout.rank = UInt32(info.shape.count)
            Swift.withUnsafeMutableBytes(of: &type.layout.dimensions) { dimensions in
                for (index, size) in info.shape.enumerated() {
                    dimensions.storeBytes(of: Int32(size), toByteOffset: index * 4, as: Int32.self)
                }
            }
            var handle: LiteRtTensorBuffer?
            try library.check(
                library.createManagedTensorBuffer(
                    environment.handle, Int32(kLiteRtTensorBufferTypeHostMemory), &type, info.byteCount, &handle),
                "allocate a buffer for tensor \(info.name)")
            self.handle = handle!
        }

        /// Calls `body` with the tensor's bytes to write.
        public func withUnsafeMutableBytes<Result>(_ body: (UnsafeMutableRawBufferPointer) throws -> Result) throws -> Result {
            let address = try lock(mode: kLiteRtTensorBufferLockModeWrite)
            defer { unlock() }
            return try body(UnsafeMutableRawBufferPointer(start: address, count: info.byteCount))
        }

        /// Calls `body` with the tensor's bytes to read.
        public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) throws -> Result {
            let address = try lock(mode: kLiteRtTensorBufferLockModeRead)
            defer { unlock() }
            return try body(UnsafeRawBufferPointer(start: address, count: info.byteCount))
        }

        func lock(mode: Int) throws -> UnsafeMutableRawPointer {
            var address: UnsafeMutableRawPointer?
            try library.check(library.lockTensorBuffer(handle, &address, Int32(mode)), "lock tensor \(info.name)")
            guard let address else {
                unlock()
                throw LiteRTError.incompatibleModel("tensor \(info.name) has no host memory")
            }
            return address
        }

        func unlock() {
            _ = library.unlockTensorBuffer(handle)
        }

        private static func cType(_ type: ElementType) -> LiteRtElementType {
            switch type {
            case .float32: kLiteRtElementTypeFloat32
            case .float16: kLiteRtElementTypeFloat16
            case .int8: kLiteRtElementTypeInt8
            case .uint8: kLiteRtElementTypeUInt8
            case .int16: kLiteRtElementTypeInt16
            case .int32: kLiteRtElementTypeInt32
            case .int64: kLiteRtElementTypeInt64
            case .bool: kLiteRtElementTypeBool
            }
        }

        deinit {
            library.destroyTensorBuffer(handle)
        }
    }
}
