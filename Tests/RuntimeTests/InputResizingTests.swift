import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionRuntime

/// Inputs resized at run time (LiteRT's `LiteRtCompiledModelResizeInputTensor`), on the model zoo's text line
/// detector, whose height and width are left open (multiples of 32; its output is as high and wide as its input).
@Suite struct InputResizingTests {
    @Test func outputsFollowTheInputSize() throws {
        let interpreter = try Interpreter(contentsOf: try Fixtures.model("ppocr_v4_text_detection.tflite"), parallelInferences: 1)
        for (height, width) in [(64, 96), (736, 1312), (64, 96)] {
            let sizes = try interpreter.invoke(inputShapes: [[1, height, width, 3]]) { inputs in
                inputs[0].initializeMemory(as: UInt8.self, repeating: 0)
            } readingOutputs: { outputs in
                (outputs.count, outputs[0].count)
            }
            #expect(sizes.0 == 1 && sizes.1 == height * width * 4, "\(height)×\(width)")
        }
        #expect(interpreter.compiledInstances == 1)
    }

    @Test func sizesTheModelFixesAreClearErrors() throws {
        let interpreter = try Interpreter(contentsOf: try Fixtures.model("ppocr_v4_text_detection.tflite"), parallelInferences: 1)
        for shape in [[1, 64, 64], [1, 64, 64, 4], [1, 0, 64, 3], [1, 64, -32, 3]] {
            #expect(throws: LiteRTError.self, "\(shape)") {
                try interpreter.invoke(inputShapes: [shape]) { _ in } readingOutputs: { _ in () }
            }
        }
        #expect(throws: LiteRTError.self) {
            try interpreter.invoke(inputShapes: [[1, 32, 32, 3], [1, 32, 32, 3]]) { _ in } readingOutputs: { _ in () }
        }
        // The instance whose resizing failed runs again at a size the model takes.
        let bytes = try interpreter.invoke(inputShapes: [[1, 64, 64, 3]]) { _ in } readingOutputs: { $0[0].count }
        #expect(bytes == 64 * 64 * 4)
    }
}
