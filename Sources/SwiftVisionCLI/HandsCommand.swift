import ArgumentParser
import Foundation
import SwiftVision

struct HandsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hands", abstract: "Find hands (21 landmarks, handedness) in images and videos.",
        discussion: """
            Videos (.mp4, .mov, .avi, .mkv, .webm) are tracked as MediaPipe does: each hand's landmarks place its \
            next crop, and the palm detector runs only while fewer hands than --max-hands are tracked. Handedness \
            is MediaPipe's label, which takes the image to be mirrored (a front camera's).
            """)

    @OptionGroup var common: LandmarkCommandOptions

    @Option(help: "Most hands to find.")
    var maxHands = 2

    @Option(help: "1: the full palm detector and landmark model; 0: the lite ones, about twice as fast (MediaPipe's model_complexity).")
    var modelComplexity = 1

    func run() throws {
        var options = HandsTask.Options()
        options.maxHands = maxHands
        options.modelComplexity = modelComplexity
        options.minDetectionConfidence = common.minDetectionConfidence
        options.minPresenceConfidence = common.minPresenceConfidence
        try common.run(try CommandTask.load(options, json: common.json) as HandsTask, report: report, annotate: skeletons)
    }

    private func report(_ line: TaskLine<HandsTask.Output>) {
        if common.json {
            try? JSONLines.print(line)
            return
        }
        print("\(line.file ?? "")\(line.frame.map { " frame \($0)" } ?? ""): \(line.output.hands.count) hand(s)")
        for hand in line.output.hands {
            let box = hand.boundingBox
            print("  \(hand.handedness.rawValue) " + String(format: "%.0f,%.0f %.0f×%.0f score %.2f", box.x, box.y, box.width, box.height, hand.score))
        }
    }

    /// The image with each hand's skeleton: its bones and its landmarks.
    private func skeletons(_ image: VisionImage, _ output: HandsTask.Output) throws -> VisionImage {
        var canvas = try ImageCanvas(image: image)
        for (index, hand) in output.hands.enumerated() {
            for (start, end) in HandLandmarkType.connections {
                try canvas.drawPolyline([hand.landmarks[start].point, hand.landmarks[end].point], closed: false, color: DrawingColor.palette(index))
            }
            try canvas.drawPoints(hand.landmarks.map(\.point), color: .yellow)
        }
        return canvas.image
    }
}
