import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

extension LiteRT.TensorInfo {
    /// The tensor's values in `buffer` as floats: float16 widened, uint8 and int8 dequantised
    /// with the tensor's quantization (read as they are when it has none).
    func floatValues(in buffer: UnsafeRawBufferPointer) throws -> [Float] {
        guard buffer.count >= byteCount else {
            throw LiteRTError.incompatibleModel("tensor \(name) has \(buffer.count) bytes, its shape needs \(byteCount)")
        }
        let scale = quantization?.scale ?? 1
        let zeroPoint = Float(quantization?.zeroPoint ?? 0)
        switch elementType {
        case .float32: return Array(buffer.bindMemory(to: Float.self).prefix(elementCount))
        case .float16: return buffer.bindMemory(to: Float16.self).prefix(elementCount).map(Float.init)
        case .uint8: return buffer.prefix(elementCount).map { (Float($0) - zeroPoint) * scale }
        case .int8: return buffer.bindMemory(to: Int8.self).prefix(elementCount).map { (Float($0) - zeroPoint) * scale }
        default:
            throw LiteRTError.incompatibleModel("tensor \(name) holds \(elementType.rawValue), not float or 8-bit values")
        }
    }
}
