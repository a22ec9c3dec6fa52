import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// The anchor grid of a single-shot detector, generated as MediaPipe's `SsdAnchorsCalculator` does
/// for fixed-size anchors: only the centres matter, each anchor has width and height 1.
struct SSDAnchors: Sendable, Equatable {
    /// Anchor centres in 0…1 of the input tensor.
    let centers: [CGPoint]

    /// - Parameters:
    ///   - strides: the stride of each layer; consecutive layers of equal stride share one grid.
    ///   - interpolatedScaleAspectRatio: when positive, each layer adds one more anchor per cell.
    init(inputWidth: Int, inputHeight: Int, strides: [Int], aspectRatioCount: Int = 1, interpolatedScaleAspectRatio: Double, offset: Double = 0.5) {
        var centers: [CGPoint] = []
        var layer = 0
        while layer < strides.count {
            var anchorsPerCell = 0
            var next = layer
            while next < strides.count, strides[next] == strides[layer] {
                anchorsPerCell += aspectRatioCount + (interpolatedScaleAspectRatio > 0 ? 1 : 0)
                next += 1
            }
            let columns = Int((Double(inputWidth) / Double(strides[layer])).rounded(.up))
            let rows = Int((Double(inputHeight) / Double(strides[layer])).rounded(.up))
            for y in 0..<rows {
                for x in 0..<columns {
                    let center = CGPoint(x: (Double(x) + offset) / Double(columns), y: (Double(y) + offset) / Double(rows))
                    centers.append(contentsOf: repeatElement(center, count: anchorsPerCell))
                }
            }
            layer = next
        }
        self.centers = centers
    }
}
