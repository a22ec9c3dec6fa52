import ArgumentParser
import Foundation
import SwiftVision

struct RectanglesCommand: TaskCommand {
    typealias Task = RectanglesTask

    static let discussion = "As Vision's VNDetectRectanglesRequest: the most prominent first."

    @OptionGroup var input: InputOptions

    @Option(help: "At most this many rectangles per image, most prominent first; 0 for no limit.")
    var max = 1

    @Option(help: "Smallest ratio of shorter to longer side, 0–1.")
    var minAspect: Float = 0.5

    @Option(help: "Largest ratio of shorter to longer side, 0–1.")
    var maxAspect: Float = 1

    @Option(help: "Shortest side as a fraction of the image's shorter side, 0–1.")
    var minSize: Float = 0.2

    @Option(help: "Write the image or video with the rectangles drawn (a folder when there are several inputs).")
    var draw: String?

    @Option(help: "Write each image's or frame's most prominent rectangle, perspective-corrected (a folder when there are several inputs).")
    var correct: String?

    func makeTask() throws -> RectanglesTask {
        var options = RectanglesTask.Options()
        options.max = max
        options.minAspect = minAspect
        options.maxAspect = maxAspect
        options.minSize = minSize
        return try CommandTask.load(options, json: input.json)
    }

    func describe(_ line: TaskLine<RectanglesTask.Output>) -> [String] {
        ["\(line.place): \(line.output.rectangles.count) rectangle(s)"]
            + line.output.rectangles.map { rectangle in
                "  " + rectangle.corners.corners.map { String(format: "(%.2f, %.2f)", $0.x, $0.y) }.joined(separator: " ")
                    + String(format: " confidence %.2f", rectangle.confidence)
            }
    }

    var renderings: [Rendering<RectanglesTask.Output>] {
        [
            Rendering(destination: draw) { image, found in
                var canvas = try ImageCanvas(image: image)
                for (index, rectangle) in found.rectangles.enumerated() {
                    try canvas.drawQuadrilateral(rectangle.corners, color: .palette(index))
                    try canvas.drawPoints([rectangle.corners.topLeft], color: .palette(index))
                    try canvas.drawLabel(String(format: "%.2f", rectangle.confidence), at: rectangle.corners.topLeft, color: .palette(index))
                }
                return canvas.image
            },
            Rendering(destination: correct) { image, found in
                try found.rectangles.first.map { try image.perspectiveCorrected($0.corners) }
            },
        ]
    }
}
