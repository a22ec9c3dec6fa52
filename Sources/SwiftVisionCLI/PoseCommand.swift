import ArgumentParser
import Foundation
import SwiftVision

struct PoseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pose", abstract: "Find body poses (33 landmarks) in images and videos.",
        discussion: """
            Videos (.mp4, .mov, .avi, .mkv, .webm) are tracked as MediaPipe does: each frame's landmarks place the \
            next frame's crop, and the detector runs only when the pose is lost.
            """)

    @Argument(help: "Image or video files, or stream URLs (rtsp://, http://).")
    var inputs: [String] = []

    @Option(help: "Read frames from camera N (/dev/videoN) until Ctrl-C.")
    var camera: Int?

    @Option(help: "Most poses to find.")
    var maxPoses = 1

    @Option(help: "Lowest detector score that starts a pose, 0–1.")
    var minDetectionConfidence: Float = 0.5

    @Option(help: "Lowest pose confidence of the landmark model that keeps a pose, 0–1.")
    var minPresenceConfidence: Float = 0.5

    @Flag(help: "Print JSON Lines.")
    var json = false

    @Option(help: "Write the image or video with the skeletons drawn here (a folder when there are several inputs).")
    var draw: String?

    /// The inputs, with the camera last.
    var sources: [String] { MediaFiles.inputs(inputs, camera: camera) }

    func validate() throws {
        if inputs.isEmpty && camera == nil { throw ValidationError("give image or video files, a stream URL, or --camera N") }
    }

    func run() throws {
        var options = PoseTask.Options()
        options.maxPoses = maxPoses
        options.minDetectionConfidence = minDetectionConfidence
        options.minPresenceConfidence = minPresenceConfidence
        let task = try PoseTask(options: options)
        MediaFiles.prepare(sources)
        defer { Interruption.flush() }
        try MediaFiles.process(sources, json: json) { url in
            let annotated = try MediaFiles.annotatedURL(for: url, draw: draw, inputCount: sources.count)
            if MediaFiles.isFrames(url) {
                try MediaFiles.processFrames(
                    url, runner: TaskRunner(task: task, runningMode: .video), annotated: annotated, report: report,
                    annotate: skeletons)
            } else {
                let image = try VisionImage(contentsOf: url)
                let output = try task.output(for: image)
                report(TaskLine(file: MediaFiles.name(of: url), output: output))
                if let annotated { try skeletons(image, output).write(to: annotated) }
            }
        }
    }

    private func report(_ line: TaskLine<PoseTask.Output>) {
        if json {
            try? JSONLines.print(line)
            return
        }
        print("\(line.file ?? "")\(line.frame.map { " frame \($0)" } ?? ""): \(line.output.poses.count) pose(s)")
        for pose in line.output.poses {
            let box = pose.boundingBox
            let visible = pose.landmarks.filter { ($0.visibility ?? 0) >= 0.5 }.count
            print(String(format: "  %.0f,%.0f %.0f×%.0f score %.2f, %d of 33 landmarks visible", box.x, box.y, box.width, box.height, pose.score, visible))
        }
    }

    /// The image with each pose's skeleton: bones between visible landmarks, and the landmarks.
    private func skeletons(_ image: VisionImage, _ output: PoseTask.Output) throws -> VisionImage {
        var canvas = try ImageCanvas(image: image)
        for (index, pose) in output.poses.enumerated() {
            let color = DrawingColor.palette(index)
            let shown = pose.landmarks.map { ($0.visibility ?? 0) >= 0.5 }
            for (start, end) in PoseLandmarkType.connections where shown[start] && shown[end] {
                try canvas.drawPolyline([pose.landmarks[start].point, pose.landmarks[end].point], closed: false, color: color)
            }
            try canvas.drawPoints(zip(pose.landmarks, shown).filter(\.1).map(\.0.point), color: .yellow)
        }
        return canvas.image
    }
}
