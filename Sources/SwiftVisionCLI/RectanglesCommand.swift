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

    func run() throws {
        var options = RectanglesTask.Options()
        options.max = max
        options.minAspect = minAspect
        options.maxAspect = maxAspect
        options.minSize = minSize
        let task = try CommandTask.load(options, json: json) as RectanglesTask
        try AnalysisOutput.forEachImage(images, json: json, label: "rectangles") { url, image in
            let found = try task.output(for: image).rectangles
            if let output = try MediaFiles.annotatedURL(for: url, draw: draw, inputCount: images.count) {
                try AnalysisOutput.write(image, to: output) { canvas in
                    for (index, rectangle) in found.enumerated() {
                        try canvas.drawQuadrilateral(rectangle.corners, color: .palette(index))
                        try canvas.drawPoints([rectangle.corners.topLeft], color: .palette(index))
                        try canvas.drawLabel(
                            String(format: "%.2f", rectangle.confidence), at: rectangle.corners.topLeft, color: .palette(index))
                    }
                }
            }
            if let output = try MediaFiles.annotatedURL(for: url, draw: correct, inputCount: images.count), let best = found.first {
                try image.perspectiveCorrected(best.corners).write(to: output)
            }
            let line = TaskLine(file: url.path, output: RectanglesTask.Output(rectangles: found))
            try AnalysisOutput.print(line, json: json) { line in
                ["\(line.fileName): \(line.output.rectangles.count) rectangle(s)"]
                    + line.output.rectangles.map { rectangle in
                        "  " + rectangle.corners.corners.map { String(format: "(%.2f, %.2f)", $0.x, $0.y) }.joined(separator: " ")
                            + String(format: " confidence %.2f", rectangle.confidence)
                    }
            }
        }
    }
}
