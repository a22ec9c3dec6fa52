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

    func run() throws {
        for argument in models {
            let url = FileManager.default.fileExists(atPath: argument)
                ? URL(fileURLWithPath: argument) : SwiftVisionCache.current.model(named: argument)
            let model = try LiteRT.Model(contentsOf: url)
            let report = Report(
                file: argument, inputs: model.inputs, outputs: model.outputs, name: model.metadata?.name,
                description: model.metadata?.description, version: model.metadata?.version,
                normalization: model.metadata?.inputs.first?.normalization,
                packedFiles: (try? model.packedFileNames()) ?? [])
            if json {
                try JSONLines.print(report)
                continue
            }
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
}
