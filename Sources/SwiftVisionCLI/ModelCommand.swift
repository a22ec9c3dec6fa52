import ArgumentParser
import Foundation
import SwiftVision

struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model", abstract: "Describe .tflite models: inputs, outputs and TFLite metadata.")

    @Argument(help: "Model files, or names of installed models such as face_detection_short_range.tflite.")
    var models: [String]

    @Flag(help: "Print JSON Lines.")
    var json = false

    struct Report: Encodable {
        var file: String
        var inputs: [LiteRT.TensorInfo]
        var outputs: [LiteRT.TensorInfo]
        var name: String?
        var description: String?
        var version: String?
        var normalization: Normalization?
        var packedFiles: [String]
    }

    @OptionGroup var logging: LoggingOptions

    /// Describes each model in turn; a model that cannot be read gets an error line and the others go on.
    func run() throws {
        var failures = 0
        for argument in models {
            do {
                try describe(argument)
            } catch {
                failures += 1
                try MediaFiles.reportFailure(of: argument, error: error, json: json)
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    private func describe(_ argument: String) throws {
        let url = FileManager.default.fileExists(atPath: argument)
            ? URL(fileURLWithPath: argument) : SwiftVisionCache.current.model(named: argument)
        let model = try LiteRT.Model(contentsOf: url)
        let report = Report(
            file: argument, inputs: model.inputs, outputs: model.outputs, name: model.metadata?.name,
            description: model.metadata?.description, version: model.metadata?.version,
            normalization: model.metadata?.inputs.first?.normalization,
            packedFiles: (try? model.packedFileNames()) ?? [])
        if json { return try JSONLines.print(report) }
        print(argument + (report.name.map { " — \($0)" } ?? ""))
        for (kind, tensors) in [("input", report.inputs), ("output", report.outputs)] {
            for tensor in tensors {
                print("  \(kind) \(tensor.name): \(tensor.elementType.rawValue) \(tensor.shape)")
            }
        }
        if let normalization = report.normalization {
            print("  normalisation: mean \(normalization.mean), std \(normalization.std)")
        }
        if !report.packedFiles.isEmpty { print("  packed files: \(report.packedFiles.joined(separator: ", "))") }
    }
}
