import Foundation

/// MediaPipe's `OneEuroFilter` (`mediapipe/util/filtering/one_euro_filter.cc`): a low-pass filter whose
/// cutoff rises with the value's speed, so that still values stay steady and fast ones follow quickly.
struct OneEuroFilter: Sendable {
    let minimumCutoff: Double
    let beta: Double
    let derivativeCutoff: Double
    /// Samples per second.
    let frequency: Double
    private var value: Double?
    private var rawValue: Double?
    private var derivative: Double?

    init(minimumCutoff: Double, beta: Double, derivativeCutoff: Double, frequency: Double = 30) {
        self.minimumCutoff = minimumCutoff
        self.beta = beta
        self.derivativeCutoff = derivativeCutoff
        self.frequency = frequency
    }

    /// The filtered value of the next sample `sample`; `scale` turns the value's change into the speed
    /// the cutoff follows (MediaPipe's value scale, one over the object's size).
    mutating func filter(_ sample: Double, scale: Double) -> Double {
        let speed = rawValue.map { (sample - $0) * scale * frequency } ?? 0
        rawValue = sample
        let smoothedSpeed = Self.blend(speed, into: derivative, alpha: alpha(derivativeCutoff))
        derivative = smoothedSpeed
        let filtered = Self.blend(sample, into: value, alpha: alpha(minimumCutoff + beta * abs(smoothedSpeed)))
        value = filtered
        return filtered
    }

    private func alpha(_ cutoff: Double) -> Double {
        let period = 1 / frequency
        let tau = 1 / (2 * .pi * cutoff)
        return 1 / (1 + tau / period)
    }

    /// MediaPipe's `LowPassFilter.ApplyWithAlpha`: the first sample as it is, then an exponential average.
    private static func blend(_ sample: Double, into stored: Double?, alpha: Double) -> Double {
        stored.map { alpha * sample + (1 - alpha) * $0 } ?? sample
    }
}
