import ArgumentParser
import Foundation
import SwiftVision

struct HandsCommand: TaskCommand {
    typealias Task = HandsTask

    static let discussion = """
        Videos (.mp4, .mov, .avi, .mkv, .webm) are tracked as MediaPipe does: each hand's landmarks place its \
        next crop, and the palm detector runs only while fewer hands than --max-hands are tracked. Handedness \
        is MediaPipe's label, which takes the image to be mirrored (a front camera's).
        """

    @OptionGroup var input: InputOptions

    @OptionGroup var common: LandmarkCommandOptions<HandsTask>

    @Option(help: "Most hands to find.")
    var maxHands = 2

    @Option(help: "1: the full palm detector and landmark model; 0: the lite ones, about twice as fast (MediaPipe's model_complexity).")
    var modelComplexity = 1

    func makeTask() throws -> HandsTask {
        var options = HandsTask.Options()
        options.maxHands = maxHands
        options.modelComplexity = modelComplexity
        options.minDetectionConfidence = common.minDetectionConfidence
        options.minPresenceConfidence = common.minPresenceConfidence
        return try CommandTask.load(options, json: input.json)
    }

    func describe(_ line: TaskLine<HandsTask.Output>) -> [String] {
        ["\(line.place): \(line.output.hands.count) hand(s)"]
            + line.output.hands.map { hand in
                let box = hand.boundingBox
                return "  \(hand.handedness.rawValue) " + String(format: "%.0f,%.0f %.0f×%.0f score %.2f", box.x, box.y, box.width, box.height, hand.score)
            }
    }

    /// Each hand's skeleton: its bones and its landmarks.
    var renderings: [Rendering<HandsTask.Output>] {
        [Rendering(destination: common.draw) { image, output in
            var canvas = try ImageCanvas(image: image)
            for (index, hand) in output.hands.enumerated() {
                for (start, end) in HandLandmarkType.connections {
                    try canvas.drawPolyline([hand.landmarks[start].point, hand.landmarks[end].point], closed: false, color: DrawingColor.palette(index))
                }
                try canvas.drawPoints(hand.landmarks.map(\.point), color: .yellow)
            }
            return canvas.image
        }]
    }
}

extension HandsTask: LandmarkSubject {
    static var subject: String { "hand" }
}
