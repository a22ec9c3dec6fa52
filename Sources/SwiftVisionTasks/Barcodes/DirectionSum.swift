import Foundation

/// A weighted sum of directions that wrap around at 180° (the gradients across stripes), as doubled
/// angles: their mean direction, and how much they agree.
struct DirectionSum {
    private(set) var sine = 0.0
    private(set) var cosine = 0.0

    /// Adds the direction of the gradient (`x`, `y`), weighted by its magnitude, given as its inverse:
    /// cos 2θ and sin 2θ of its direction θ, without trigonometry.
    @inline(__always)
    mutating func add(gradientX x: Double, y: Double, inverseMagnitude: Double) {
        cosine += (x * x - y * y) * inverseMagnitude
        sine += 2 * x * y * inverseMagnitude
    }

    /// Adds the direction `degrees` with `weight`.
    mutating func add(degrees: Double, weight: Double) {
        sine += weight * sin(2 * degrees * .pi / 180)
        cosine += weight * cos(2 * degrees * .pi / 180)
    }

    /// The length of the summed doubled-angle vector: the total weight when all the directions agree.
    var length: Double { (sine * sine + cosine * cosine).squareRoot() }

    /// The mean direction in degrees, 0 ≤ angle < 180.
    var degrees: Double {
        let mean = atan2(sine, cosine) * 90 / .pi
        return mean < 0 ? mean + 180 : mean
    }
}
