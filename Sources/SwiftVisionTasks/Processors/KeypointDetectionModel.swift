import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// A MediaPipe single-shot detector with key points (BlazeFace, BlazePose's detector, the palm
/// detector) run on a region of an image, decoded as MediaPipe's `TensorsToDetectionsCalculator`
/// does: boxes and key points relative to fixed-size SSD anchors, sigmoid scores clipped at ±100.
struct KeypointDetectionModel: Sendable {
    /// The model file's name in the cache.
    let name: String
    /// Scores below this are not decoded at all (MediaPipe's `min_score_thresh`).
    let minimumScore: Float
    private let interpreter: Interpreter
    private let anchors: SSDAnchors
    private let keypointCount: Int
    private let format: ImageTensorFormat
    private let regressorsIndex: Int
    private let scoresIndex: Int

    /// Loads the model `name`, which takes a `size`×`size` image letterboxed and normalised by
    /// `normalization` (−1…1 unless said otherwise) and outputs, per anchor, 4 box values and
    /// `keypointCount` (x, y) pairs, and one score logit.
    init(
        name: String, size: Int, anchors: SSDAnchors, keypointCount: Int, minimumScore: Float,
        normalization: Normalization = .signedUnit, options: LiteRT.CompilationOptions, store: ModelStore,
        cache: SwiftVisionCache = .current
    ) throws {
        self.name = name
        self.anchors = anchors
        self.keypointCount = keypointCount
        self.minimumScore = minimumScore
        interpreter = try store.interpreter(contentsOf: cache.model(named: name), options: options)
        let count = anchors.centers.count
        let coordinates = 4 + 2 * keypointCount
        let outputs = interpreter.outputs
        guard let regressors = outputs.firstIndex(where: { $0.shape == [1, count, coordinates] }),
            let scores = outputs.firstIndex(where: { $0.shape == [1, count, 1] })
        else {
            throw LiteRTError.incompatibleModel(
                "\(name) should output [1, \(count), \(coordinates)] boxes and [1, \(count), 1] scores, has \(outputs.map(\.shape))")
        }
        regressorsIndex = regressors
        scoresIndex = scores
        format = try ImageTensorFormat(
            tensor: interpreter.inputs[0], metadata: interpreter.model.metadata?.inputs.first, normalization: normalization,
            resizeMode: .letterbox)
        guard format.width == size, format.height == size else {
            throw LiteRTError.incompatibleModel("\(name) should take a \(size)×\(size) image")
        }
    }

    /// Loads the detector of a MediaPipe landmark graph (BlazePose's, the palm detector): a `size`×`size`
    /// input, anchor layers of `strides` with aspect ratio 1 and the interpolated scale, scores from the
    /// configuration's ``LandmarkConfiguration/minimumDetectionConfidence``.
    init(
        name: String, size: Int, strides: [Int], keypointCount: Int, configuration: LandmarkConfiguration,
        normalization: Normalization = .signedUnit, store: ModelStore
    ) throws {
        try self.init(
            name: name, size: size,
            anchors: SSDAnchors(inputWidth: size, inputHeight: size, strides: strides, interpolatedScaleAspectRatio: 1),
            keypointCount: keypointCount, minimumScore: configuration.minimumDetectionConfidence, normalization: normalization,
            options: configuration.compilation, store: store)
    }

    /// Detections in `region` (upright pixels) scoring at least `minimumScore` (``minimumScore`` unless
    /// given), before suppression; the region is letterboxed into the input with area-averaging when it shrinks.
    func detect(in image: VisionImage, region: CGRect? = nil, minimumScore: Float? = nil) throws -> [Detection] {
        var mapping: TensorImageMapping?
        return try detect(minimumScore: minimumScore ?? self.minimumScore) { inputs in
            mapping = try image.write(into: inputs[0], format: format, region: region)
        } imagePoint: { mapping!.imagePoint(fromNormalizedTensorPoint: $0) }
    }

    /// Detections in the whole image sampled as MediaPipe's `ImageToTensorCalculator` does with
    /// `keep_aspect_ratio`: one bilinear warp of the square around the image (padding outside) into the
    /// input, as in MediaPipe's graphs; scores near the threshold depend on the sampling. Only detections
    /// scoring at least `minimumScore` (``minimumScore`` unless given) are decoded.
    func detectAsMediaPipe(in image: VisionImage, minimumScore: Float? = nil) throws -> [Detection] {
        var square: RotatedRect?
        return try detect(minimumScore: minimumScore ?? self.minimumScore) { inputs in
            square = try image.writeAsMediaPipe(into: inputs[0], format: format)
        } imagePoint: { square!.point(atNormalized: $0.x, $0.y) }
    }

    /// Runs the model on the input `write` fills and decodes the outputs scoring at least `minimumScore`;
    /// `imagePoint` maps a point in 0…1 of the input to upright pixels.
    private func detect(
        minimumScore: Float, writing write: ([UnsafeMutableRawBufferPointer]) throws -> Void, imagePoint: (CGPoint) -> CGPoint
    ) throws -> [Detection] {
        let scale = Float(format.width)
        let logitThreshold = log(minimumScore / (1 - minimumScore))
        let coordinates = 4 + 2 * keypointCount
        return try interpreter.invoke { inputs in
            try write(inputs)
        } readingOutputs: { outputs in
            let boxes = outputs[regressorsIndex].bindMemory(to: Float.self)
            let scores = outputs[scoresIndex].bindMemory(to: Float.self)
            var detections: [Detection] = []
            for (index, anchor) in anchors.centers.enumerated() where scores[index] >= logitThreshold {
                let raw = boxes[(index * coordinates)..<((index + 1) * coordinates)].map { Double($0 / scale) }
                func point(_ x: Double, _ y: Double) -> CGPoint {
                    imagePoint(CGPoint(x: x + anchor.x, y: y + anchor.y))
                }
                let center = point(raw[0], raw[1])
                let corner = point(raw[0] + raw[2] / 2, raw[1] + raw[3] / 2)
                let box = CGRect(
                    x: 2 * center.x - corner.x, y: 2 * center.y - corner.y, width: 2 * (corner.x - center.x),
                    height: 2 * (corner.y - center.y))
                let keypoints = (0..<keypointCount).map { point(raw[4 + 2 * $0], raw[5 + 2 * $0]) }
                let score = sigmoid(min(max(scores[index], -100), 100))
                detections.append(Detection(boundingBox: box, score: score, keypoints: keypoints))
            }
            return detections
        }
    }
}
