import SwiftVisionCore
import SwiftVisionRuntime

/// What a ``BarcodeScanner`` looks for and how hard it tries.
public struct BarcodeEngineOptions: Sendable, Equatable {
    /// The formats to read; fewer formats read faster.
    public var formats: BarcodeFormat
    /// Scan more lines and look longer for damaged or small codes.
    public var tryHarder: Bool
    /// Also look for codes turned by a quarter or half turn, and for linear codes turned by 45°.
    public var tryRotations: Bool
    /// Also look in shrunk copies of large images, where blurry codes get sharper.
    public var tryDownscale: Bool
    /// Also look for light codes on a dark ground.
    public var tryInverted: Bool
    /// At most this many codes; 0 means no limit.
    public var maximumCount: Int

    /// Options for `formats`, every one by default, with every extra effort switched on and no limit on the count.
    public init(
        formats: BarcodeFormat = .all, tryHarder: Bool = true, tryRotations: Bool = true, tryDownscale: Bool = true,
        tryInverted: Bool = true, maximumCount: Int = 0
    ) {
        self.formats = formats
        self.tryHarder = tryHarder
        self.tryRotations = tryRotations
        self.tryDownscale = tryDownscale
        self.tryInverted = tryInverted
        self.maximumCount = maximumCount
    }

    /// The fastest settings: one plain pass over the image.
    public static let fast = BarcodeEngineOptions(tryHarder: false, tryRotations: false, tryInverted: false)
}
