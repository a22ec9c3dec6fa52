import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// MediaPipe's BlazePose landmark model (`pose_landmark_full.tflite`) run on a turned square crop of
/// the body, decoded as `tensors_to_pose_landmarks_and_segmentation.pbtxt` and
/// `pose_landmarks_and_segmentation_inverse_projection.pbtxt` do.
struct PoseLandmarkModel: Sendable {
    /// The landmarks of one crop, in upright pixels.
    struct Found: Sendable {
        /// The pose flag: how likely the crop holds a body, 0–1.
        var presence: Float
        /// The 33 body landmarks; `z` on the scale of `x`.
        var landmarks: [Landmark]
        /// The two auxiliary landmarks (hips centre, body scale point) that place the next crop.
        var auxiliary: [CGPoint]
        /// The 33 world landmarks in metres, origin between the hips.
        var world: [Landmark]
        /// The body's segmentation over the whole image, when asked for.
        var mask: ConfidenceMask?
    }

    /// Landmarks the model outputs: the 33 body landmarks, then 2 auxiliary ones and 4 unused.
    static let outputCount = 39
    static let bodyCount = 33

    private let interpreter: Interpreter
    private let format: ImageTensorFormat
    private let landmarksIndex: Int
    private let flagIndex: Int
    private let segmentationIndex: Int
    private let heatmapIndex: Int
    private let worldIndex: Int
    private let heatmapSize: (width: Int, height: Int)
    private let maskSize: (width: Int, height: Int)

    init(options: LiteRT.CompilationOptions, store: ModelStore, cache: SwiftVisionCache = .current) throws {
        interpreter = try store.interpreter(contentsOf: cache.model(named: "pose_landmark_full.tflite"), options: options)
        // ImageToTensorCalculator in pose_landmark_by_roi_cpu.pbtxt: 0…1, edges repeated (its default border).
        var format = try ImageTensorFormat(tensor: interpreter.inputs[0], normalization: .unit)
        format.extendsEdges = true
        self.format = format
        let outputs = interpreter.outputs
        let count = Self.outputCount
        guard let landmarks = outputs.firstIndex(where: { $0.elementCount == count * 5 }),
            let flag = outputs.firstIndex(where: { $0.elementCount == 1 }),
            let world = outputs.firstIndex(where: { $0.elementCount == count * 3 }),
            let heatmap = outputs.firstIndex(where: { $0.shape.count == 4 && $0.shape[3] == count }),
            let segmentation = outputs.firstIndex(where: { $0.shape.count == 4 && $0.shape[3] == 1 })
        else {
            throw LiteRTError.incompatibleModel("pose_landmark_full.tflite does not have BlazePose's five outputs: \(outputs.map(\.shape))")
        }
        (landmarksIndex, flagIndex, worldIndex, heatmapIndex, segmentationIndex) = (landmarks, flag, world, heatmap, segmentation)
        heatmapSize = (outputs[heatmap].shape[2], outputs[heatmap].shape[1])
        maskSize = (outputs[segmentation].shape[2], outputs[segmentation].shape[1])
    }

    /// The pose in `region` of `image`, or nil when the pose flag is below `minimumPresence`.
    func landmarks(in image: VisionImage, region: RotatedRect, minimumPresence: Float, segmentation: Bool) throws -> Found? {
        let (width, height) = (Double(format.width), Double(format.height))
        return try interpreter.invoke { inputs in
            try image.write(into: inputs[0], format: format, region: region.sampledAsMediaPipe(tensorWidth: format.width, tensorHeight: format.height))
        } readingOutputs: { outputs in
            // The flag is already a probability: MediaPipe thresholds the raw value (ThresholdingCalculator).
            let presence = outputs[flagIndex].bindMemory(to: Float.self)[0]
            guard presence >= minimumPresence else { return nil }
            let raw = outputs[landmarksIndex].bindMemory(to: Float.self)
            // TensorsToLandmarksCalculator: x, y, z over the input size; visibility and presence through a sigmoid.
            var crop = (0..<Self.outputCount).map { index in
                Landmark(
                    x: Double(raw[index * 5]) / width, y: Double(raw[index * 5 + 1]) / height, z: Double(raw[index * 5 + 2]) / width,
                    visibility: sigmoid(raw[index * 5 + 3]), presence: sigmoid(raw[index * 5 + 4]))
            }
            refine(&crop, heatmap: outputs[heatmapIndex].bindMemory(to: Float.self))
            // LandmarkProjectionCalculator: into the turned crop; z scaled by the crop's width.
            let projected = crop.map { point in
                let position = region.point(atNormalized: point.x, point.y)
                return Landmark(
                    x: position.x, y: position.y, z: point.z * region.size.width, visibility: point.visibility,
                    presence: point.presence)
            }
            // WorldLandmarkProjectionCalculator: turned by the crop's rotation.
            let world = outputs[worldIndex].bindMemory(to: Float.self)
            let (sine, cosine) = (sin(region.rotation), cos(region.rotation))
            let worldPoints = (0..<Self.bodyCount).map { index in
                let (x, y) = (Double(world[index * 3]), Double(world[index * 3 + 1]))
                return Landmark(x: cosine * x - sine * y, y: sine * x + cosine * y, z: Double(world[index * 3 + 2]))
            }
            return Found(
                presence: presence, landmarks: Array(projected.prefix(Self.bodyCount)),
                auxiliary: projected[Self.bodyCount..<(Self.bodyCount + 2)].map(\.point), world: worldPoints,
                mask: segmentation
                    ? mask(outputs[segmentationIndex].bindMemory(to: Float.self), region: region, imageWidth: image.width, imageHeight: image.height)
                    : nil)
        }
    }

    /// MediaPipe's `RefineLandmarksFromHeatmapCalculator` (kernel 7, refine when the kernel's highest
    /// confidence reaches 0.5): each landmark moves to the confidence-weighted mean of the heatmap cells
    /// around it. `landmarks` are in 0…1 of the crop.
    private func refine(_ landmarks: inout [Landmark], heatmap: UnsafeBufferPointer<Float>) {
        let (columns, rows) = heatmapSize
        let channels = Self.outputCount
        let offset = 3
        for index in landmarks.indices {
            let column = Int(landmarks[index].x * Double(columns))
            let row = Int(landmarks[index].y * Double(rows))
            guard landmarks[index].x >= 0, landmarks[index].y >= 0, column < columns, row < rows else { continue }
            var (sum, weightedColumn, weightedRow, highest): (Float, Float, Float, Float) = (0, 0, 0, 0)
            for y in max(0, row - offset)..<min(rows, row + offset + 1) {
                for x in max(0, column - offset)..<min(columns, column + offset + 1) {
                    let confidence = sigmoid(heatmap[(y * columns + x) * channels + index])
                    sum += confidence
                    highest = max(highest, confidence)
                    weightedColumn += Float(x) * confidence
                    weightedRow += Float(y) * confidence
                }
            }
            if highest >= 0.5, sum > 0 {
                landmarks[index].x = Double(weightedColumn / Float(columns) / sum)
                landmarks[index].y = Double(weightedRow / Float(rows) / sum)
            }
        }
    }

    /// The crop's segmentation logits as a confidence mask over the whole image: each pixel samples the
    /// crop bilinearly, pixels outside the crop are 0 (MediaPipe's `WarpAffineCalculator`, `BORDER_ZERO`).
    private func mask(_ logits: UnsafeBufferPointer<Float>, region: RotatedRect, imageWidth: Int, imageHeight: Int) -> ConfidenceMask {
        let (columns, rows) = maskSize
        let probabilities = logits.prefix(columns * rows).map(sigmoid)
        let (sine, cosine) = (sin(-region.rotation), cos(-region.rotation))
        var values = [Float](repeating: 0, count: imageWidth * imageHeight)
        for y in 0..<imageHeight {
            for x in 0..<imageWidth {
                // The pixel centre in the crop's own frame, then in mask cells.
                let dx = Double(x) + 0.5 - region.center.x
                let dy = Double(y) + 0.5 - region.center.y
                let u = (dx * cosine - dy * sine) / region.size.width + 0.5
                let v = (dx * sine + dy * cosine) / region.size.height + 0.5
                let column = u * Double(columns) - 0.5
                let row = v * Double(rows) - 0.5
                guard column > -1, row > -1, column < Double(columns), row < Double(rows) else { continue }
                let (left, top) = (Int(column.rounded(.down)), Int(row.rounded(.down)))
                let (fx, fy) = (Float(column - Double(left)), Float(row - Double(top)))
                func cell(_ cx: Int, _ cy: Int) -> Float {
                    cx >= 0 && cy >= 0 && cx < columns && cy < rows ? probabilities[cy * columns + cx] : 0
                }
                let upper = cell(left, top) * (1 - fx) + cell(left + 1, top) * fx
                let lower = cell(left, top + 1) * (1 - fx) + cell(left + 1, top + 1) * fx
                values[y * imageWidth + x] = upper * (1 - fy) + lower * fy
            }
        }
        return ConfidenceMask(width: imageWidth, height: imageHeight, values: values)
    }
}

