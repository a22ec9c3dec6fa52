import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// The model zoo's YOLOv4-tiny (COCO-80; or another packed Darknet YOLO model) run on an image: letterboxed
/// input, raw grids decoded with the packed decoding recipe, class-wise suppression, boxes in pixels of the
/// upright image.
package struct ObjectDetectionModel: Sendable {
    /// YOLOv4-tiny since issue 30: on the objects eval set (79 COCO val2017 photos, eval/README.md) mAP@0.5
    /// 0.455 against YOLOv3-tiny's 0.311 (0.388 against 0.248 with at most 5 objects), at 1.2× the time.
    package static let defaultModelName = "yolov4_tiny_coco.tflite"

    let labels: [String]
    let decoding: YOLODecoding
    private let interpreter: Interpreter
    private let format: ImageTensorFormat
    private let outputIndices: [Int]

    init(url: URL, options: LiteRT.CompilationOptions, store: ModelStore) throws {
        interpreter = try store.interpreter(contentsOf: url, options: options)
        let model = interpreter.model
        let decoding: YOLODecoding
        do {
            decoding = try JSONDecoder().decode(YOLODecoding.self, from: try model.packedFile(named: YOLODecoding.fileName))
        } catch {
            throw LiteRTError.incompatibleModel(
                "\(url.lastPathComponent) is not a YOLO detector with a packed \(YOLODecoding.fileName): \(error)")
        }
        self.decoding = decoding
        labels = try model.labels() ?? (0..<decoding.numberOfClasses).map { "class \($0)" }
        var format = try ImageTensorFormat(
            tensor: model.inputs[0], metadata: model.metadata?.inputs.first, resizeMode: .letterbox)
        format.paddingValue = decoding.input.letterboxFill * 255
        self.format = format
        outputIndices = try decoding.outputs.map { output in
            let channels = output.mask.count * (5 + decoding.numberOfClasses)
            guard let index = model.outputs.firstIndex(where: { $0.shape == [1, output.grid[0], output.grid[1], channels] }) else {
                throw LiteRTError.incompatibleModel("\(url.lastPathComponent) has no output of shape [1, \(output.grid[0]), \(output.grid[1]), \(channels)]")
            }
            return index
        }
    }

    /// Objects in `image` scoring at least `minimumScore` (default: the model's recommended threshold).
    func detect(in image: VisionImage, minimumScore: Float? = nil) throws -> [Detection] {
        let floor = minimumScore ?? decoding.scoreThreshold
        var mapping: TensorImageMapping?
        let found = try interpreter.invoke { inputs in
            mapping = try image.write(into: inputs[0], format: format)
        } readingOutputs: { outputs in
            zip(decoding.outputs, outputIndices).flatMap { output, index in
                decoding.decode(grid: outputs[index].bindMemory(to: Float.self), output: output, minimumScore: floor)
            }
        }
        guard let mapping else { return [] }
        let bounds = CGRect(x: 0, y: 0, width: image.width, height: image.height)
        let placed = found.compactMap { detection -> Detection? in
            var detection = detection
            detection.boundingBox = mapping.imageRect(fromNormalizedTensorRect: detection.boundingBox).intersection(bounds)
            return detection.boundingBox.isNull || detection.boundingBox.isEmpty ? nil : detection
        }
        return NonMaxSuppression.hard(placed, threshold: decoding.nmsIoUThreshold)
    }
}
