import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// How to decode a Darknet YOLO model's raw grids, read from the `yolo_decoding.json` the model zoo packs
/// into the model.
struct YOLODecoding: Decodable, Sendable {
    struct Output: Decodable, Sendable {
        let name: String
        let grid: [Int]
        let stride: Int
        let mask: [Int]
        /// YOLOv4's centre scaling s: cx = (col + σ(tx)·s − (s − 1)/2) / grid_w; absent (YOLOv3) means 1.
        let scaleXY: Double?

        enum CodingKeys: String, CodingKey {
            case name, grid, stride, mask
            case scaleXY = "scale_x_y"
        }
    }

    struct Input: Decodable, Sendable {
        let width: Int
        let height: Int
        let letterboxFill: Double

        enum CodingKeys: String, CodingKey {
            case width, height
            case letterboxFill = "letterbox_fill"
        }
    }

    static let fileName = "yolo_decoding.json"

    let input: Input
    let numberOfClasses: Int
    /// Anchor sizes in input pixels.
    let anchors: [[Double]]
    let outputs: [Output]
    let scoreThreshold: Float
    let nmsIoUThreshold: Double

    enum CodingKeys: String, CodingKey {
        case input, anchors, outputs
        case numberOfClasses = "num_classes"
        case scoreThreshold = "score_threshold"
        case nmsIoUThreshold = "nms_iou_threshold"
    }

    /// Boxes scoring at least `minimumScore` in one output grid (NHWC), in 0…1 of the input tensor.
    func decode(
        grid values: UnsafeBufferPointer<Float>, output: Output, minimumScore: Float
    ) -> [Detection] {
        let (rows, columns) = (output.grid[0], output.grid[1])
        let attributes = 5 + numberOfClasses
        let objectnessFloor = logit(minimumScore)
        let scale = output.scaleXY ?? 1
        let shift = (scale - 1) / 2
        var detections: [Detection] = []
        for row in 0..<rows {
            for column in 0..<columns {
                let cell = (row * columns + column) * output.mask.count * attributes
                for (slot, anchorIndex) in output.mask.enumerated() {
                    let base = cell + slot * attributes
                    // score = σ(objectness)·σ(class) ≤ σ(objectness): skip cells that cannot reach the floor.
                    guard values[base + 4] >= objectnessFloor else { continue }
                    let objectness = sigmoid(values[base + 4])
                    var best = 0
                    for index in 1..<numberOfClasses where values[base + 5 + index] > values[base + 5 + best] {
                        best = index
                    }
                    let score = objectness * sigmoid(values[base + 5 + best])
                    guard score >= minimumScore else { continue }
                    let centerX = (Double(column) + Double(sigmoid(values[base])) * scale - shift) / Double(columns)
                    let centerY = (Double(row) + Double(sigmoid(values[base + 1])) * scale - shift) / Double(rows)
                    let width = anchors[anchorIndex][0] * exp(Double(values[base + 2])) / Double(input.width)
                    let height = anchors[anchorIndex][1] * exp(Double(values[base + 3])) / Double(input.height)
                    detections.append(Detection(
                        boundingBox: CGRect(x: centerX - width / 2, y: centerY - height / 2, width: width, height: height),
                        score: score, labelIndex: best))
                }
            }
        }
        return detections
    }
}

private func logit(_ p: Float) -> Float { log(p / (1 - p)) }
