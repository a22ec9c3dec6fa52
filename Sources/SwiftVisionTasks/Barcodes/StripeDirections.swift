import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// The directions across which many strong, parallel edges run — the bars of linear codes, the
/// module edges of matrix codes — found as peaks in a histogram of Sobel gradient directions
/// weighted by strength, each refined to the weighted mean direction of the gradients near it.
enum StripeDirections {
    /// Gradients weaker than this, in gray levels per pixel, are ignored.
    static let minimumGradient = 24.0

    /// Up to `count` gradient directions in degrees (0 ≤ angle < 180, 0 pointing right, clockwise),
    /// the strongest first; only peaks with at least a quarter of the strongest one's weight.
    static func strongest(in gray: PixelBuffer, count: Int) throws -> [Double] {
        let gradients = try strongGradients(in: gray.grayscaled(maximumSide: 1024).buffer)
        var histogram = [Double](repeating: 0, count: 180)
        for (angle, magnitude) in gradients { histogram[Int(angle) % 180] += magnitude }
        let kernel = [1.0, 2, 3, 2, 1]
        let smooth = (0..<180).map { bin in
            kernel.indices.reduce(0.0) { $0 + kernel[$1] * histogram[(bin + $1 + 178) % 180] }
        }
        let peaks = (0..<180).filter { smooth[$0] > smooth[($0 + 179) % 180] && smooth[$0] >= smooth[($0 + 1) % 180] }
        guard let top = peaks.map({ smooth[$0] }).max(), top > 0 else { return [] }
        return peaks.filter { smooth[$0] >= top / 4 }.sorted { smooth[$0] > smooth[$1] }.prefix(count).map { peak in
            // The mean direction of the gradients within 4° of the peak.
            var sum = DirectionSum()
            for (angle, magnitude) in gradients {
                let difference = abs((angle - Double(peak) - 0.5 + 270).truncatingRemainder(dividingBy: 180) - 90)
                guard difference <= 4 else { continue }
                sum.add(degrees: angle, weight: magnitude)
            }
            return sum.degrees
        }
    }

    /// Direction (degrees, 0 ≤ angle < 180) and strength of every gradient above the minimum.
    private static func strongGradients(in gray: PixelBuffer) -> [(angle: Double, magnitude: Double)] {
        var result: [(Double, Double)] = []
        gray.bytes.withUnsafeBufferPointer { pixels in
            let stride = gray.bytesPerRow
            func at(_ x: Int, _ y: Int) -> Double { Double(pixels[y * stride + x]) }
            for y in 1..<max(1, gray.height - 1) {
                for x in 1..<max(1, gray.width - 1) {
                    let gx = (at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1))
                        - (at(x - 1, y - 1) + 2 * at(x - 1, y) + at(x - 1, y + 1))
                    let gy = (at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1))
                        - (at(x - 1, y - 1) + 2 * at(x, y - 1) + at(x + 1, y - 1))
                    let magnitude = (gx * gx + gy * gy).squareRoot() / 4
                    guard magnitude >= minimumGradient else { continue }
                    let angle = atan2(gy, gx) * 180 / .pi
                    result.append((angle < 0 ? angle + 180 : angle, magnitude))
                }
            }
        }
        return result
    }
}
