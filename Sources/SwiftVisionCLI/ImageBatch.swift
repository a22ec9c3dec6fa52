import ArgumentParser
import Foundation
import SwiftVision

/// The loop every analysis command shares: decode each image, analyse it, print one report per
/// file (JSON Lines or text), report unreadable files as `{"file","error"}` and exit 1 if any failed.
struct ImageBatch {
    let paths: [String]
    let json: Bool
    /// The command's name, for progress lines on standard error.
    let task: String

    struct Failure: Encodable {
        var file: String
        var error: String
    }

    /// Runs `analyse` on every image; `describe` turns a report into text lines when not printing JSON.
    func run<Report: Encodable>(
        _ analyse: (_ path: String, _ image: VisionImage) throws -> Report, describe: (Report) -> [String]
    ) throws {
        var failures = 0
        for (index, path) in paths.enumerated() {
            Diagnostics.note("\(task) \(index + 1)/\(paths.count): \(path)")
            do {
                let report = try analyse(path, try VisionImage(contentsOfFile: path))
                if json {
                    try JSONLines.print(report)
                } else {
                    describe(report).forEach { print($0) }
                }
            } catch {
                failures += 1
                if json {
                    try JSONLines.print(Failure(file: path, error: error.localizedDescription))
                } else {
                    Diagnostics.note("\(path): \(error.localizedDescription)")
                }
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }
}

/// Where `--draw OUT` and similar options write: OUT itself for a single input when OUT names an
/// image file, otherwise a file named after each input inside the folder OUT.
struct OutputLocation {
    let argument: String
    let inputCount: Int

    func url(for input: String, suffix: String = "") throws -> URL {
        let target = URL(fileURLWithPath: argument)
        if inputCount == 1, suffix.isEmpty, ImageEncoding(pathExtension: target.pathExtension) != nil {
            return target
        }
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let source = URL(fileURLWithPath: input)
        let fileExtension = ImageEncoding(pathExtension: source.pathExtension) == nil ? "png" : source.pathExtension
        let name = source.deletingPathExtension().lastPathComponent + suffix
        return target.appendingPathComponent(name).appendingPathExtension(fileExtension)
    }
}

extension ImageCanvas {
    /// Draws on a copy of `image` with `draw` and writes it where `argument` says for the input `path`.
    static func write(
        _ image: VisionImage, for path: String, to argument: String, inputCount: Int, _ draw: (inout ImageCanvas) throws -> Void
    ) throws {
        var canvas = try ImageCanvas(image: image)
        try draw(&canvas)
        try canvas.image.write(to: try OutputLocation(argument: argument, inputCount: inputCount).url(for: path))
    }
}

/// A point as `{"x","y"}` in upright pixels, rounded to hundredths.
struct JSONPoint: Encodable {
    var x: Double
    var y: Double

    init(_ point: CGPoint) {
        x = (Double(point.x) * 100).rounded() / 100
        y = (Double(point.y) * 100).rounded() / 100
    }
}

/// A rectangle as `{"x","y","width","height"}` in upright pixels, rounded to hundredths.
struct JSONRect: Encodable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double

    init(_ rect: CGRect) {
        let origin = JSONPoint(rect.origin), far = JSONPoint(CGPoint(x: rect.maxX, y: rect.maxY))
        x = origin.x
        y = origin.y
        width = far.x - origin.x
        height = far.y - origin.y
    }
}
