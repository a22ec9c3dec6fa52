import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// MediaPipe's selfie segmentation model (`selfie_segmentation.tflite`, the general 256×256 one, or
/// the 144×256 landscape one) run as MediaPipe's `SelfieSegmentationCpu` graph runs it:
///
/// - `ImageToTensorCalculator` (`keep_aspect_ratio: false`, float range 0…1, `BORDER_ZERO`): the
///   whole upright image is stretched to the input by one bilinear warp that maps the image's
///   corner onto the tensor's corner (input pixel i samples the image at i × image size / input
///   size, not at pixel centres), RGB scaled to 0…1;
/// - the model's one output channel is already a probability (`activation: NONE`).
///
/// Scaling the mask back to the image is ``SegmentTask``'s job (bilinear, as
/// `TensorsToSegmentationCalculator` does with `cv::resize`). Safe to share; inferences run in
/// parallel as the interpreter allows.
struct SelfieSegmentationModel: Sendable {
    /// The general model's file in the cache.
    static let modelName = "selfie_segmentation.tflite"

    private let interpreter: Interpreter
    private let format: ImageTensorFormat
    /// The size of the model's mask.
    let maskWidth: Int, maskHeight: Int

    /// Loads the model at `url` (the cache's general model when nil) from `store`.
    init(url: URL?, threadCount: Int?, store: ModelStore, cache: SwiftVisionCache = .current) throws {
        let url = url ?? cache.model(named: Self.modelName)
        let options = threadCount.map { LiteRT.CompilationOptions(threadCount: $0) } ?? .default
        interpreter = try store.interpreter(contentsOf: url, options: options)
        let name = url.lastPathComponent
        guard interpreter.inputs.count == 1, interpreter.inputs[0].shape.last == 3,
            interpreter.inputs[0].elementType == .float32
        else {
            throw LiteRTError.incompatibleModel(
                "\(name) is not a segmentation model: it should take one float RGB image [1, H, W, 3], it takes "
                    + interpreter.inputs.map { "\($0.name) \($0.shape)" }.joined(separator: ", "))
        }
        format = try ImageTensorFormat(tensor: interpreter.inputs[0], normalization: .unit)
        guard let output = interpreter.outputs.first, output.shape.count == 4, output.shape[0] == 1, output.shape[3] == 1
        else {
            throw LiteRTError.incompatibleModel(
                "\(name) is not a segmentation model: its first output should be one mask [1, H, W, 1], it has "
                    + interpreter.outputs.map { "\($0.name) \($0.shape)" }.joined(separator: ", "))
        }
        maskWidth = output.shape[2]
        maskHeight = output.shape[1]
    }

    /// The model's mask of the whole upright `image`, at the model's output size, confidences 0–1.
    func mask(for image: VisionImage) throws -> FloatPlane {
        let info = interpreter.outputs[0]
        let values = try interpreter.invoke { inputs in
            try image.writeAsMediaPipe(into: inputs[0], format: format)
        } readingOutputs: { outputs in
            try info.floatValues(in: outputs[0])
        }
        return try FloatPlane(width: maskWidth, height: maskHeight, values: values)
    }
}

/// MediaPipe's `SegmentationSmoothingCalculator`: blends the previous frame's mask into the pixels the
/// new mask is unsure about. For a new confidence p, the uncertainty α(p) = 1 − (1 − H(p))², H the
/// binary entropy in bits, is approximated by MediaPipe's polynomial in (p − ½)²; the result is
/// p + (previous − p) × α × ratio. Confident pixels (p near 0 or 1) keep their new value; pixels near
/// ½ lean on the previous frame, which steadies flickering edges.
struct MaskSmoothing: Sendable {
    /// How much of the previous mask uncertain pixels take (MediaPipe's `combine_with_previous_ratio`).
    var ratio: Float
    /// The previous frame's smoothed mask.
    private(set) var previous: FloatPlane?

    init(ratio: Float) {
        self.ratio = ratio
    }

    /// The blend of `current` with the previous mask (`current` itself for the first frame or after a
    /// change of size), remembered for the next frame.
    mutating func smooth(_ current: FloatPlane) throws -> FloatPlane {
        guard ratio > 0, let previous, previous.width == current.width, previous.height == current.height else {
            self.previous = current
            return current
        }
        let ratio = ratio
        let blended = zip(current.values, previous.values).map { new, old in
            Self.blend(new: new, previous: old, ratio: ratio)
        }
        let result = try FloatPlane(width: current.width, height: current.height, values: blended)
        self.previous = result
        return result
    }

    /// MediaPipe's blending function for one pixel.
    static func blend(new: Float, previous: Float, ratio: Float) -> Float {
        let (c1, c2, c3, c4, c5): (Float, Float, Float, Float, Float) = (5.68842, -0.748699, -57.8051, 291.309, -624.717)
        let t = new - 0.5
        let x = t * t
        let uncertainty = 1 - min(1, x * (c1 + x * (c2 + x * (c3 + x * (c4 + x * c5)))))
        return new + (previous - new) * (uncertainty * ratio)
    }
}
