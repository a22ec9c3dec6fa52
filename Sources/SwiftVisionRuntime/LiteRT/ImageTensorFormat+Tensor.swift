import Foundation
import SwiftVisionCore

extension ImageTensorFormat {
    /// The format of a model's image input `tensor` (`[1, height, width, channels]`, float32 or uint8).
    ///
    /// `normalization` defaults to the model's metadata, else ``Normalization/signedUnit``.
    public init(
        tensor: LiteRT.TensorInfo, metadata: TensorMetadata? = nil, normalization: Normalization? = nil,
        resizeMode: ResizeMode = .stretch
    ) throws {
        let shape = tensor.shape
        guard shape.count == 4, shape[0] == 1, shape[3] == 1 || shape[3] == 3 else {
            throw LiteRTError.incompatibleModel(
                "input \(tensor.name) of shape \(shape) is not an image tensor [1, height, width, 1 or 3]")
        }
        let elementType: ElementType
        switch tensor.elementType {
        case .float32: elementType = .float32(normalization ?? metadata?.normalization ?? .signedUnit)
        case .uint8: elementType = .uint8
        default:
            throw LiteRTError.incompatibleModel(
                "input \(tensor.name) holds \(tensor.elementType.rawValue), not float32 or uint8 pixels")
        }
        self.init(
            width: shape[2], height: shape[1], channelOrder: shape[3] == 1 ? .gray : .rgb, elementType: elementType,
            resizeMode: resizeMode)
    }
}
