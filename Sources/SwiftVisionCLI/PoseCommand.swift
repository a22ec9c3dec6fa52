import ArgumentParser
import Foundation
import SwiftVision

struct PoseCommand: TaskCommand {
    typealias Task = PoseTask

    static let discussion = """
        Videos (.mp4, .mov, .avi, .mkv, .webm) are tracked as MediaPipe does: each frame's landmarks place the \
        next frame's crop, and the detector runs only when the pose is lost.
        """

    @OptionGroup var input: InputOptions

    @OptionGroup var common: LandmarkCommandOptions<PoseTask>

    @Option(help: "Most poses to find.")
    var maxPoses = 1

    @Flag(help: "Segment each body too: its mask in --json (a base64 8-bit gray PNG the size of the image, 255 = body) and tinted under the skeleton in --draw.")
    var segmentation = false

    func makeTask() throws -> PoseTask {
        var options = PoseTask.Options()
        options.maxPoses = maxPoses
        options.minDetectionConfidence = common.minDetectionConfidence
        options.minPresenceConfidence = common.minPresenceConfidence
        options.segmentation = segmentation
        return try CommandTask.load(options, json: input.json)
    }

    func describe(_ line: TaskLine<PoseTask.Output>) -> [String] {
        ["\(line.place): \(line.output.poses.count) pose(s)"]
            + line.output.poses.map { pose in
                let box = pose.boundingBox
                let visible = pose.landmarks.filter { ($0.visibility ?? 0) >= 0.5 }.count
                return String(format: "  %.0f,%.0f %.0f×%.0f score %.2f, %d of 33 landmarks visible", box.x, box.y, box.width, box.height, pose.score, visible)
            }
    }

    /// Each pose's skeleton (bones between visible landmarks, and the landmarks) over its tinted mask, when
    /// there is one.
    var renderings: [Rendering<PoseTask.Output>] {
        [Rendering(destination: common.draw) { image, output in
            var canvas = try ImageCanvas(image: image)
            for (index, pose) in output.poses.enumerated() {
                let color = DrawingColor.palette(index)
                if let mask = pose.segmentationMask {
                    try canvas.drawMask(mask.plane(), color: color, opacity: 0.45)
                }
                let shown = pose.landmarks.map { ($0.visibility ?? 0) >= 0.5 }
                for (start, end) in PoseLandmarkType.connections where shown[start] && shown[end] {
                    try canvas.drawPolyline([pose.landmarks[start].point, pose.landmarks[end].point], closed: false, color: color)
                }
                try canvas.drawPoints(zip(pose.landmarks, shown).filter(\.1).map(\.0.point), color: .yellow)
            }
            return canvas.image
        }]
    }
}

extension PoseTask: LandmarkSubject {
    static var subject: String { "pose" }
}
