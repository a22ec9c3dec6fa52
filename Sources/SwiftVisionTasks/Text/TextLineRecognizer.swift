import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// PaddleOCR's PP-OCRv4 mobile text recogniser (SVTR-LCNet with a CTC head, from the Apache-2.0 wheel
/// `rapidocr-onnxruntime` 1.4.4, converted by the model zoo): the text of one line cropped upright, its words with
/// their extents along the line, read as rapidocr reads a line (`ch_ppocr_rec`). It reads Latin letters, digits,
/// punctuation and Chinese. Safe to share: the interpreter runs inferences in parallel.
package struct TextLineRecognizer: Sendable {
    /// The model file in the cache. Its input is BGR, [1, 48, W, 3], (x / 255 − 0.5) / 0.5, with W any multiple of
    /// 8; its output the probability of each CTC class at each of W / 8 steps, [1, W / 8, classes], the classes
    /// named by the output's label file (blank first, a space last).
    package static let defaultModelName = "ppocr_v4_text_recognition.tflite"

    /// The input's width is a multiple of this, the pixels of one output step.
    static let step = 8
    /// A shorter line is padded with zeros to this width, as rapidocr pads a line alone (its `rec_img_shape`).
    static let minimumInputWidth = 320
    /// A longer line is squeezed to this width: 240 steps, room for 120 characters (CTC needs a blank between two
    /// equal letters), more than a line of a photo holds; the time of a reading grows with its width (about 0.1 ms
    /// a column on one core), so a thin crop thousands of pixels long costs no more than a line 40 times as long
    /// as high.
    static let maximumInputWidth = 1920

    /// A line's reading: its text, the mean probability of its characters (rapidocr's line score) and its words.
    struct Reading {
        var text: String
        var confidence: Float
        var words: [Word]
    }

    /// A word of a line (the characters between spaces), with the mean probability of its characters and its
    /// extent along the line in the crop's pixels.
    struct Word {
        var text: String
        var confidence: Float
        var minX: Double
        var maxX: Double
    }

    private let interpreter: Interpreter
    /// The character of each class; index 0 is CTC's blank.
    private let characters: [String]

    /// Loads the recogniser at `url` through `store`, with its characters from the output's label file.
    init(url: URL, store: ModelStore) throws {
        interpreter = try store.interpreter(contentsOf: url, options: .default)
        let model = interpreter.model
        guard model.inputs.count == 1, model.inputs[0].elementType == .float32, model.inputs[0].shape.count == 4,
            model.inputs[0].shape[1] == PaddleLineInput.height, model.inputs[0].shape[3] == 3, model.outputs.count == 1,
            model.outputs[0].elementType == .float32, model.outputs[0].shape.count == 3,
            let labels = try model.labels(forOutput: 0), labels.count == model.outputs[0].shape[2], labels.count > 1
        else {
            throw LiteRTError.incompatibleModel(
                "\(url.lastPathComponent) is not a CTC text recogniser ([1, 48, W, 3] → [1, W / 8, classes], labelled)")
        }
        // The label reader trims each line, so the space (and the ideographic space) come back empty.
        characters = labels.enumerated().map { $0.offset > 0 && $0.element.isEmpty ? " " : $0.element }
    }

    /// The width a line `width` × `height` pixels is scaled to (``PaddleLineInput/scaledWidth(width:height:maximum:)``
    /// at most ``maximumInputWidth``) and the model's input width: that rounded up to a multiple of ``step``, at
    /// least ``minimumInputWidth``.
    static func inputWidths(width: Int, height: Int) -> (scaled: Int, input: Int) {
        let scaled = PaddleLineInput.scaledWidth(width: width, height: height, maximum: maximumInputWidth)
        return (scaled, max(minimumInputWidth, (scaled + step - 1) / step * step))
    }

    /// Reads the line `crop` (upright, any pixel format), greedy CTC as rapidocr decodes: the likeliest class at
    /// each step, repeats of the step before and blanks dropped. Each character stands at the centre of its step;
    /// a word spans its first to last character's centres plus half the line's mean character pitch on each side
    /// (rapidocr's word boxes), within the crop. Words end at spaces only: ending them also where more than 4, 5 or
    /// 6 steps pass between two characters (rapidocr groups a line's characters so) took word recall on
    /// eval/scenetext_dev.py's DEV set from 0.473 to 0.458, 0.458 and 0.467, splitting more words than it separated.
    func read(_ crop: PixelBuffer) throws -> Reading {
        let (scaled, width) = Self.inputWidths(width: crop.width, height: crop.height)
        let line = try PaddleLineInput(crop, width: scaled)
        let steps = width / Self.step
        let classes = characters.count
        let best = try interpreter.invoke(inputShapes: [[1, PaddleLineInput.height, width, 3]]) { inputs in
            try line.store(into: inputs[0], width: width)
        } readingOutputs: { outputs in
            guard outputs[0].count == steps * classes * 4 else {
                throw LiteRTError.incompatibleModel("the text recogniser's output is not [1, \(steps), \(classes)]")
            }
            let probabilities = outputs[0].bindMemory(to: Float.self)
            return (0..<steps).map { step in
                var (index, probability) = (0, -Float.infinity)
                for c in 0..<classes where probabilities[step * classes + c] > probability {
                    (index, probability) = (c, probabilities[step * classes + c])
                }
                return (index: index, probability: probability)
            }
        }
        // The kept characters: a class other than blank that differs from the step before.
        let kept = best.indices.filter { best[$0].index != 0 && ($0 == 0 || best[$0].index != best[$0 - 1].index) }
        let confidence = kept.isEmpty ? 0 : kept.map { best[$0].probability }.reduce(0, +) / Float(kept.count)
        let text = kept.map { characters[best[$0].index] }.joined()
        // Crop pixels per step.
        let pitch = Double(Self.step) * Double(crop.width) / Double(scaled)
        var groups: [[Int]] = [[]]
        for step in kept {
            if characters[best[step].index] == " " {
                if !groups[groups.count - 1].isEmpty { groups.append([]) }
            } else {
                groups[groups.count - 1].append(step)
            }
        }
        groups.removeAll(where: \.isEmpty)
        let spans = groups.filter { $0.count > 1 }.map { Double($0[$0.count - 1] - $0[0]) * pitch / Double($0.count - 1) }
        let characterCount = groups.reduce(0) { $0 + $1.count }
        let characterWidth = spans.isEmpty
            ? Double(crop.width) / Double(max(1, characterCount)) : spans.reduce(0, +) / Double(spans.count)
        let words = groups.map { steps in
            Word(
                text: steps.map { characters[best[$0].index] }.joined(),
                confidence: steps.map { best[$0].probability }.reduce(0, +) / Float(steps.count),
                minX: max(0, (Double(steps[0]) + 0.5) * pitch - characterWidth / 2),
                maxX: min(Double(crop.width), (Double(steps[steps.count - 1]) + 0.5) * pitch + characterWidth / 2))
        }
        return Reading(text: text, confidence: confidence, words: words)
    }
}
