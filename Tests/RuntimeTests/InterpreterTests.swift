import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

@Suite struct InterpreterTests {
    static func faceDetector(threads: Int = 1) throws -> Interpreter {
        try Interpreter(contentsOf: try Fixtures.model("face_detection_short_range.tflite"), options: .init(threadCount: threads))
    }

    /// The face detector's input tensor for a photo, made through the image layer.
    static func input(for photo: String, interpreter: Interpreter) throws -> Data {
        let info = interpreter.inputs[0]
        let format = try ImageTensorFormat(
            tensor: info, metadata: interpreter.model.metadata?.inputs.first, resizeMode: .letterbox)
        var data = Data(count: info.byteCount)
        try data.withUnsafeMutableBytes { _ = try Fixtures.image(photo).write(into: $0, format: format) }
        return data
    }

    static func floats(_ data: Data) -> [Float] {
        data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    static func sigmoid(_ x: Float) -> Float { 1 / (1 + exp(-x)) }

    @Test func describesTheModelSignature() throws {
        let interpreter = try Self.faceDetector()
        #expect(interpreter.inputs.map(\.shape) == [[1, 128, 128, 3]])
        #expect(interpreter.inputs[0].elementType == .float32)
        #expect(Set(interpreter.outputs.map(\.name)) == ["regressors", "classificators"])
        #expect(Set(interpreter.outputs.map(\.shape)) == [[1, 896, 16], [1, 896, 1]])
    }

    @Test func outputsEqualThePythonInterpreterOnTheSameTensor() throws {
        let interpreter = try Self.faceDetector()
        let input = try Self.input(for: "astronaut.png", interpreter: interpreter)
        let outputs = try interpreter.invoke(inputs: [input])

        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try input.write(to: folder.appendingPathComponent("0.bin"))
        let python = Fixtures.cache.root.appendingPathComponent("venv/bin/python")
        let script = Fixtures.packageRoot.appendingPathComponent("Tests/Python/Reference/litert_reference.py")
        let run = try Fixtures.run(
            python, [script.path, interpreter.model.url.path, folder.path, folder.path])
        try #require(run.status == 0, "the Python reference failed: \(run.errors)")

        for (info, output) in zip(interpreter.outputs, outputs) {
            let reference = Self.floats(try Data(contentsOf: folder.appendingPathComponent("\(info.name).bin")))
            let ours = Self.floats(output)
            #expect(ours.count == reference.count)
            let worst = zip(ours, reference).map { abs($0 - $1) }.max() ?? .infinity
            #expect(worst < 1e-4, "\(info.name) differs by \(worst)")
        }
    }

    @Test func findsAFaceInAPortraitAndNoneInCoffee() throws {
        let interpreter = try Self.faceDetector(threads: 2)
        func bestScore(_ photo: String) throws -> Float {
            let outputs = try interpreter.invoke(inputs: [try Self.input(for: photo, interpreter: interpreter)])
            let index = try #require(interpreter.outputs.firstIndex { $0.name == "classificators" })
            return Self.sigmoid(Self.floats(outputs[index]).max()!)
        }
        #expect(try bestScore("astronaut.png") > 0.9)
        #expect(try bestScore("coffee.png") < 0.5)
    }

    @Test func threadCountsAgreeAndConcurrentCallersGetTheirOwnResults() async throws {
        let single = try Self.faceDetector(threads: 1)
        let shared = try Self.faceDetector(threads: 2)
        let photos = ["astronaut.png", "zidane.jpg", "coffee.png", "bus.jpg"]
        let inputs = try photos.map { try Self.input(for: $0, interpreter: single) }
        let expected = try inputs.map { try single.invoke(inputs: [$0]) }
        try await withThrowingTaskGroup(of: (Int, [Data]).self) { group in
            for round in 0..<16 {
                let index = round % inputs.count
                let input = inputs[index]
                group.addTask { (index, try shared.invoke(inputs: [input])) }
            }
            for try await (index, outputs) in group {
                for (ours, reference) in zip(outputs, expected[index]) {
                    let worst = zip(Self.floats(ours), Self.floats(reference)).map { abs($0 - $1) }.max()!
                    #expect(worst < 1e-4)
                }
            }
        }
    }

    @Test func talliesModelRunsOnlyOnceAsked() throws {
        let interpreter = try Self.faceDetector()
        let input = try Self.input(for: "astronaut.png", interpreter: interpreter)
        _ = try interpreter.invoke(inputs: [input])
        #expect(interpreter.invokeTally == Interpreter.InvokeTally())
        interpreter.startTallyingInvokes()
        _ = try interpreter.invoke(inputs: [input])
        _ = try interpreter.invoke(inputs: [input])
        let tally = interpreter.invokeTally
        #expect(tally.count == 2 && tally.wallNanoseconds > 0 && tally.threadCPUNanoseconds > 0)
    }

    @Test func refusesBadModelsAndInputs() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.tflite")
        #expect(throws: LiteRTError.modelNotFound(path: missing.path)) { try LiteRT.Model(contentsOf: missing) }

        let text = folder.appendingPathComponent("notes.tflite")
        try Data("not a model at all, just some text".utf8).write(to: text)
        let error = #expect(throws: LiteRTError.self) { try LiteRT.Model(contentsOf: text) }
        #expect(error?.description.contains("notes.tflite") == true)

        // A model cut short anywhere is refused with an error before LiteRT reads it (LiteRT follows
        // the file's offsets unchecked and crashed the process on each of these).
        for name in ["face_detection_short_range.tflite", "efficientnet_lite0_classifier.tflite", "pose_detection.tflite"] {
            let whole = try Data(contentsOf: try Fixtures.model(name))
            for fraction in [0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99] {
                let cut = folder.appendingPathComponent("cut-\(fraction)-\(name)")
                try whole.prefix(Int(Double(whole.count) * fraction)).write(to: cut)
                let refusal = #expect(throws: LiteRTError.self, "\(name) cut at \(fraction)") { try LiteRT.Model(contentsOf: cut) }
                #expect(refusal?.description.contains("is not a whole TFLite model") == true, "\(String(describing: refusal))")
            }
        }

        let photo = try Fixtures.sample("bus.jpg")
        #expect(throws: LiteRTError.self) { try LiteRT.Model(contentsOf: photo) }

        let empty = folder.appendingPathComponent("empty.tflite")
        try Data().write(to: empty)
        #expect(throws: LiteRTError.self) { try LiteRT.Model(contentsOf: empty) }

        let interpreter = try Self.faceDetector()
        #expect(throws: LiteRTError.self) { try interpreter.invoke(inputs: [Data(count: 12)]) }
        #expect(throws: LiteRTError.self) { try interpreter.invoke(inputs: []) }
    }

    @Test func refusesModelsWhoseInputIsNotAnImage() throws {
        let mesh = try LiteRT.Model(contentsOf: try Fixtures.model("face_landmark.tflite"))
        // A real tensor of the model that is not an image: the 1404 landmark coordinates.
        let error = #expect(throws: LiteRTError.self) { try ImageTensorFormat(tensor: mesh.outputs[0]) }
        #expect(error?.description.contains("is not an image tensor") == true)
        #expect(try ImageTensorFormat(tensor: mesh.inputs[0], metadata: mesh.metadata?.inputs.first).elementType
            == .float32(Normalization(mean: [0], std: [255])))
    }
}
