import Foundation
import SwiftVision

/// What the commands that analyse still images (rectangles, barcodes, text, label, embed, similar)
/// share around ``MediaFiles``.
enum AnalysisOutput {
    /// Decodes each of `paths` and runs `body` on it, with a progress bar labelled `label` on standard
    /// error; failures are reported as ``MediaFiles/process(_:json:_:)`` does. `url.relativePath` is
    /// the path as given.
    static func forEachImage(
        _ paths: [String], json: Bool, label: String, _ body: (_ url: URL, _ image: VisionImage) throws -> Void
    ) throws {
        let progress = ProgressBar(total: paths.count, label: label)
        defer { progress.finish() }
        var done = 0
        try MediaFiles.process(paths, json: json) { url in
            defer {
                done += 1
                progress.update(done)
            }
            try body(url, try VisionImage(contentsOf: url))
        }
    }

    /// Prints `report` as a JSON line, or as the text lines `describe` makes of it.
    static func print<Report: Encodable>(_ report: Report, json: Bool, describe: (Report) -> [String]) throws {
        if json {
            try JSONLines.print(report)
        } else {
            describe(report).forEach { Swift.print($0) }
        }
    }

    /// Draws on a copy of `image` with `draw` and writes it to `url`.
    static func write(_ image: VisionImage, to url: URL, _ draw: (inout ImageCanvas) throws -> Void) throws {
        var canvas = try ImageCanvas(image: image)
        try draw(&canvas)
        try canvas.image.write(to: url)
    }
}
