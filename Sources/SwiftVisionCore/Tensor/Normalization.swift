import Foundation

/// Per-channel input normalisation `(value − mean) / std`; a single value applies to every channel.
public struct Normalization: Sendable, Equatable, Codable {
    /// The value subtracted from each channel, in pixel units (0…255).
    public var mean: [Float]
    /// The divisor of each channel after the mean is subtracted (the standard deviation).
    public var std: [Float]

    /// Normalisation by `mean` and `std`, per channel or, with single values, for every channel.
    public init(mean: [Float], std: [Float]) {
        self.mean = mean
        self.std = std
    }

    /// Pixel values kept as they are (0…255).
    public static let identity = Normalization(mean: [0], std: [1])
    /// 0…255 mapped to −1…1, as most MediaPipe models expect.
    public static let signedUnit = Normalization(mean: [127.5], std: [127.5])
    /// 0…255 mapped to 0…1.
    public static let unit = Normalization(mean: [0], std: [255])

    /// Mean and standard deviation of channel `index`.
    package func channel(_ index: Int) -> (mean: Double, std: Double) {
        let mean = mean.isEmpty ? 0 : mean[min(index, mean.count - 1)]
        let std = std.isEmpty ? 1 : std[min(index, std.count - 1)]
        return (Double(mean), Double(std == 0 ? 1 : std))
    }
}
