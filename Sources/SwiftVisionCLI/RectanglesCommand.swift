import ArgumentParser
import Foundation
import SwiftVision

struct RectanglesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rectangles",
        abstract: "Find rectangles (pages, cards, screens) in perspective, as Vision's VNDetectRectanglesRequest.")

    @Argument(help: "Image files.")
    var images: [String]

    @Option(help: "At most this many rectangles per image, most prominent first; 0 for no limit.")
    var max = 1

    @Option(help: "Smallest ratio of shorter to longer side, 0–1.")
    var minAspect: Float = 0.5

    @Option(help: "Largest ratio of shorter to longer side, 0–1.")
    var maxAspect: Float = 1

    @Option(help: "Shortest side as a fraction of the image's shorter side, 0–1.")
    var minSize: Float = 0.2

    @Flag(help: "Print JSON Lines.")
    var json = false

    @Option(help: "Write the image with the rectangles drawn (a file for one image, else a folder).")
    var draw: String?

    @Option(help: "Write each image's most prominent rectangle, perspective-corrected (a file for one image, else a folder).")
    var correct: String?

    struct Report: Encodable {
        var file: String
        var rectangles: [Rectangle]
    }

    struct Rectangle: Encodable {
        var topLeft: JSONPoint
        var topRight: JSONPoint
        var bottomRight: JSONPoint
        var bottomLeft: JSONPoint
        var confidence: Float
    }

    func run() throws {
        let detector = RectangleDetector(
            options: RectangleDetectorOptions(
                minimumAspectRatio: minAspect, maximumAspectRatio: maxAspect, minimumSize: minSize, maximumObservations: max))
        try AnalysisOutput.forEachImage(images, json: json, label: "rectangles") { url, image in
            let found = try detector.results(in: image)
            if let output = MediaFiles.annotatedURL(for: url, draw: draw, inputCount: images.count) {
                try AnalysisOutput.write(image, to: output) { canvas in
                    for (index, rectangle) in found.enumerated() {
                        try canvas.drawQuadrilateral(rectangle.corners, color: .palette(index))
                        try canvas.drawPoints([rectangle.corners.topLeft], color: .palette(index))
                    }
                }
            }
            if let output = MediaFiles.annotatedURL(for: url, draw: correct, inputCount: images.count), let best = found.first {
                try image.perspectiveCorrected(best.corners).write(to: output)
            }
            let report = Report(
                file: url.path,
                rectangles: found.map {
                    Rectangle(
                        topLeft: JSONPoint($0.corners.topLeft), topRight: JSONPoint($0.corners.topRight),
                        bottomRight: JSONPoint($0.corners.bottomRight), bottomLeft: JSONPoint($0.corners.bottomLeft),
                        confidence: $0.confidence)
                })
            try AnalysisOutput.print(report, json: json) { report in
                ["\(report.file): \(report.rectangles.count) rectangle(s)"]
                    + report.rectangles.map { rectangle in
                        let corners = [rectangle.topLeft, rectangle.topRight, rectangle.bottomRight, rectangle.bottomLeft]
                        return "  " + corners.map { "(\($0.x), \($0.y))" }.joined(separator: " ")
                            + String(format: " confidence %.2f", rectangle.confidence)
                    }
            }
        }
    }
}
