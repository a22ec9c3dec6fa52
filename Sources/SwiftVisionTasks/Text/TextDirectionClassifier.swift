import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// PaddleOCR's mobile v2.0 text direction classifier (MobileNetV3 small, from the Apache-2.0 wheel
/// `rapidocr-onnxruntime` 1.4.4, converted by the model zoo): whether one line of text, cropped as the detector found
/// it, stands upright or upside down, as rapidocr tells before it reads a line (`ch_ppocr_cls`). Safe to share: the
/// interpreter runs inferences in parallel.
package struct TextDirectionClassifier: Sendable {
    /// The model file in the cache. Its input is BGR, [1, 48, 192, 3], (x / 255 − 0.5) / 0.5; its output the
    /// probabilities of the line being upright and upside down, [1, 2], named "0" and "180" by the output's label file.
    package static let defaultModelName = "ppocr_mobile_v2_text_direction.tflite"

    /// The input's width: a longer line is squeezed to it, a shorter one padded with zeros (rapidocr's
    /// `cls_image_shape`).
    static let inputWidth = 192
    /// A line is taken for upside down when the classifier gives "180" a probability above this: rapidocr's
    /// `cls_thresh`. On eval/scenetext_dev.py's DEV set (60 ICDAR 2015 training photos, 319 words), with the text
    /// engine's rules (`TextEngine.linesReadBothWays`), word recall and precision upright / turned half a turn:
    /// 0.480 / 0.539 and 0.480 / 0.528 at 0.9; 0.473 / 0.530 and 0.480 / 0.539 at 0.7; 0.473 / 0.530 and 0.483 / 0.540
    /// at 0.5 (without the classifier: 0.473 / 0.537 and 0.009 / 0.034). Only 0.9 loses nothing upright.
    static let threshold: Float = 0.9

    /// A line's class: the probability that it is upside down (label "180"), 0–1.
    struct Direction {
        var upsideDownProbability: Float
        /// Whether the line is upside down: "180" above ``threshold``.
        var isUpsideDown: Bool { upsideDownProbability > TextDirectionClassifier.threshold }
        /// Whether the line is upright with as sure a probability: "0" above ``threshold``.
        var isSurelyUpright: Bool { 1 - upsideDownProbability > TextDirectionClassifier.threshold }
    }

    private let interpreter: Interpreter
    /// The output index of the class "180".
    private let upsideDownIndex: Int

    /// Loads the classifier at `url` through `store`, with its classes from the output's label file.
    init(url: URL, store: ModelStore) throws {
        interpreter = try store.interpreter(contentsOf: url, options: .default)
        let model = interpreter.model
        guard model.inputs.count == 1, model.inputs[0].elementType == .float32,
            model.inputs[0].shape == [1, PaddleLineInput.height, Self.inputWidth, 3], model.outputs.count == 1,
            model.outputs[0].elementType == .float32, model.outputs[0].shape == [1, 2],
            let labels = try model.labels(forOutput: 0), labels.count == 2, let index = labels.firstIndex(of: "180"),
            labels.contains("0")
        else {
            throw LiteRTError.incompatibleModel(
                "\(url.lastPathComponent) is not a text direction classifier ([1, 48, 192, 3] → [1, 2], labelled 0 and 180)")
        }
        upsideDownIndex = index
    }

    /// The direction of the line `crop` (any pixel format), with rapidocr's preprocessing: BGR scaled to height 48
    /// keeping its aspect ratio, at most 192 wide, normalised, zeros to the right.
    func direction(of crop: PixelBuffer) throws -> Direction {
        let line = try PaddleLineInput(
            crop, width: PaddleLineInput.scaledWidth(width: crop.width, height: crop.height, maximum: Self.inputWidth))
        let probability = try interpreter.invoke { inputs in
            try line.store(into: inputs[0], width: Self.inputWidth)
        } readingOutputs: { outputs in
            guard outputs[0].count == 2 * 4 else {
                throw LiteRTError.incompatibleModel("the text direction classifier's output is not [1, 2]")
            }
            return outputs[0].bindMemory(to: Float.self)[upsideDownIndex]
        }
        return Direction(upsideDownProbability: probability)
    }
}
