/// How an image becomes a model's input tensor.
public struct ImageTensorFormat: Sendable, Equatable {
    /// How the image's aspect ratio meets the tensor's.
    public enum ResizeMode: Sendable, Equatable {
        /// Scale each axis independently to fill the tensor.
        case stretch
        /// Scale to fit inside the tensor, keep the aspect ratio, pad the rest.
        case letterbox
        /// Scale to cover the tensor, keep the aspect ratio, cut the overflow equally from both sides.
        case centerCrop
    }

    /// Channel order of the tensor.
    public enum ChannelOrder: Sendable, Equatable {
        case rgb, bgr, gray
        var channelCount: Int { self == .gray ? 1 : 3 }
    }

    /// Element type of the tensor.
    public enum ElementType: Sendable, Equatable {
        /// Pixel values 0…255 as bytes.
        case uint8
        /// Pixel values normalised per channel.
        case float32(Normalization)
    }

    public var width: Int
    public var height: Int
    public var channelOrder: ChannelOrder
    public var elementType: ElementType
    public var resizeMode: ResizeMode
    /// Value of letterbox padding, in pixel units before normalisation (0…255).
    public var paddingValue: Double

    public init(
        width: Int, height: Int, channelOrder: ChannelOrder = .rgb, elementType: ElementType,
        resizeMode: ResizeMode = .stretch, paddingValue: Double = 0
    ) {
        self.width = width
        self.height = height
        self.channelOrder = channelOrder
        self.elementType = elementType
        self.resizeMode = resizeMode
        self.paddingValue = paddingValue
    }

    /// Bytes of one tensor.
    public var byteCount: Int {
        let elementSize = if case .uint8 = elementType { 1 } else { 4 }
        return width * height * channelOrder.channelCount * elementSize
    }
}
