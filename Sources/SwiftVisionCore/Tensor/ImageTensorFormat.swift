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
        /// Red, green, blue; blue, green, red; or one gray channel.
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

    /// The tensor's width in pixels.
    public var width: Int
    /// The tensor's height in pixels.
    public var height: Int
    /// The order of the colour channels, or gray.
    public var channelOrder: ChannelOrder
    /// Bytes, or floats normalised per channel.
    public var elementType: ElementType
    /// How the image's aspect ratio meets the tensor's.
    public var resizeMode: ResizeMode
    /// Value of letterbox padding, in pixel units before normalisation (0…255).
    public var paddingValue: Double
    /// Whether a turned region reaching past the image repeats the image's edge pixels there (MediaPipe's
    /// default `BORDER_REPLICATE`) instead of filling it with ``paddingValue``.
    public var extendsEdges = false

    /// A format with the given size, channels and element type.
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
