import Foundation
import SwiftVision

/// What the image analysis commands (rectangles, barcodes, text) share around ``MediaFiles``.
enum AnalysisOutput {
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
