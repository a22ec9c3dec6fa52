import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// One of MediaPipe's BlazeFace detectors run on a region of an image, decoded as MediaPipe's
/// `TensorsToDetectionsCalculator` does (SSD anchors, sigmoid scores, six key points).
struct FaceDetectionModel: Sendable {
    enum Range: Sendable, Hashable {
        /// `face_detection_short_range.tflite`: faces within about 2 m, 128×128 input.
        case short
        /// `face_detection_full_range_sparse.tflite`: faces up to about 5 m, 192×192 input.
        case full
    }

    let range: Range
    private let interpreter: Interpreter
    private let anchors: SSDAnchors
    private let format: ImageTensorFormat
    private let regressorsIndex: Int
    private let scoresIndex: Int

    /// Scores below this are not decoded at all (MediaPipe's `min_score_thresh`).
    var minimumScore: Float { range == .short ? 0.5 : 0.6 }

    init(range: Range, options: LiteRT.CompilationOptions, store: ModelStore, cache: SwiftVisionCache = .current) throws {
        self.range = range
        let name = range == .short ? "face_detection_short_range.tflite" : "face_detection_full_range_sparse.tflite"
        interpreter = try store.interpreter(contentsOf: cache.model(named: name), options: options)
        let size = range == .short ? 128 : 192
        let anchors = SSDAnchors(
            inputWidth: size, inputHeight: size, strides: range == .short ? [8, 16, 16, 16] : [4],
            interpolatedScaleAspectRatio: range == .short ? 1 : 0)
        self.anchors = anchors
        let count = anchors.centers.count
        let outputs = interpreter.outputs
        guard let regressors = outputs.firstIndex(where: { $0.shape == [1, count, 16] }),
            let scores = outputs.firstIndex(where: { $0.shape == [1, count, 1] })
        else {
            throw LiteRTError.incompatibleModel(
                "\(name) should output [1, \(count), 16] boxes and [1, \(count), 1] scores, has \(outputs.map(\.shape))")
        }
        regressorsIndex = regressors
        scoresIndex = scores
        format = try ImageTensorFormat(
            tensor: interpreter.inputs[0], metadata: interpreter.model.metadata?.inputs.first, normalization: .signedUnit,
            resizeMode: .letterbox)
        guard format.width == size, format.height == size else {
            throw LiteRTError.incompatibleModel("\(name) should take a \(size)×\(size) image")
        }
    }

    /// Faces in `region` (upright pixels) scoring at least `minimumScore`, before suppression.
    func detect(in image: VisionImage, region: CGRect? = nil) throws -> [Detection] {
        var mapping: TensorImageMapping?
        let scale = Float(format.width)
        let logitThreshold = log(minimumScore / (1 - minimumScore))
        return try interpreter.invoke { inputs in
            mapping = try image.write(into: inputs[0], format: format, region: region)
        } readingOutputs: { outputs in
            guard let mapping else { return [] }
            let boxes = outputs[regressorsIndex].bindMemory(to: Float.self)
            let scores = outputs[scoresIndex].bindMemory(to: Float.self)
            var detections: [Detection] = []
            for (index, anchor) in anchors.centers.enumerated() where scores[index] >= logitThreshold {
                let raw = boxes[(index * 16)..<(index * 16 + 16)].map { Double($0 / scale) }
                func point(_ x: Double, _ y: Double) -> CGPoint {
                    mapping.imagePoint(fromNormalizedTensorPoint: CGPoint(x: x + anchor.x, y: y + anchor.y))
                }
                let center = point(raw[0], raw[1])
                let corner = point(raw[0] + raw[2] / 2, raw[1] + raw[3] / 2)
                let box = CGRect(
                    x: 2 * center.x - corner.x, y: 2 * center.y - corner.y, width: 2 * (corner.x - center.x),
                    height: 2 * (corner.y - center.y))
                let keypoints = (0..<6).map { point(raw[4 + 2 * $0], raw[5 + 2 * $0]) }
                let score = 1 / (1 + exp(-min(max(scores[index], -100), 100)))
                detections.append(Detection(boundingBox: box, score: score, keypoints: keypoints))
            }
            return detections
        }
    }
}
