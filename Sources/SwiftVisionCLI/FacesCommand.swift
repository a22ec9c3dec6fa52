import ArgumentParser
import Foundation
import SwiftVision

struct FacesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faces", abstract: "Detect faces, and their landmarks, in images and videos.",
        discussion: "Videos (.mp4, .mov, .avi, .mkv, .webm) are tracked frame by frame: each face keeps an ID while in view.")

    @Argument(help: "Image or video files, or stream URLs (rtsp://, http://).")
    var inputs: [String] = []

    @Option(help: "Read frames from camera N (/dev/videoN) until Ctrl-C.")
    var camera: Int?

    @Flag(help: "Also locate landmarks, contours and pupils from the face mesh.")
    var landmarks = false

    @Flag(help: "Use the short-range model on the whole image only: faster, for faces near the camera.")
    var fast = false

    @Option(help: "Lowest confidence to report, 0–1.")
    var threshold: Float = 0.5

    @Flag(help: "Draw glasses on every face (implies --landmarks); needs --draw.")
    var glasses = false

    @Flag(inversion: .prefixedNo, help: "In videos and streams, end every track at a cut between shots, so that the next shot gets new IDs.")
    var sceneCuts = true

    @Flag(help: "Print JSON Lines.")
    var json = false

    @Option(help: "Write the annotated image or video here (a folder when there are several inputs).")
    var draw: String?

    /// The inputs, with the camera last.
    var sources: [String] { MediaFiles.inputs(inputs, camera: camera) }

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        if inputs.isEmpty && camera == nil { throw ValidationError("give image or video files, a stream URL, or --camera N") }
        if glasses && draw == nil { throw ValidationError("--glasses draws glasses: give --draw OUT") }
    }

    func run() throws {
        var options = FacesTask.Options()
        options.fast = fast
        options.sceneCuts = sceneCuts
        options.threshold = threshold
        options.landmarks = landmarks || glasses
        let task = try CommandTask.load(options, json: json) as FacesTask
        MediaFiles.prepare(sources)
        defer { Interruption.flush() }
        try MediaFiles.process(sources, json: json) { url in
            if MediaFiles.isFrames(url) {
                try MediaFiles.processFrames(
                    url, runner: TaskRunner(task: task, runningMode: .video),
                    annotated: try MediaFiles.annotatedURL(for: url, draw: draw, inputCount: sources.count), report: report
                ) { image, output in
                    var canvas = try ImageCanvas(image: image)
                    try annotate(&canvas, output.faces)
                    return canvas.image
                }
            } else {
                try processImage(url, task: task)
            }
        }
    }

    private func processImage(_ url: URL, task: FacesTask) throws {
        let image = try VisionImage(contentsOf: url)
        let output = try task.output(for: image)
        report(TaskLine(file: MediaFiles.name(of: url), output: output))
        if let destination = try MediaFiles.annotatedURL(for: url, draw: draw, inputCount: sources.count) {
            var canvas = try ImageCanvas(image: image)
            try annotate(&canvas, output.faces)
            try canvas.image.write(to: destination)
        }
    }

    private func report(_ line: TaskLine<FacesTask.Output>) {
        if json {
            try? JSONLines.print(line)
        } else {
            let place = line.frame.map { " frame \($0)" } ?? ""
            print("\(line.fileName)\(place): \(line.output.faces.count) face(s)")
            for face in line.output.faces {
                let box = face.boundingBox
                let id = face.trackingID.map { " id \($0)" } ?? ""
                print(String(format: "  %.0f,%.0f %.0f×%.0f confidence %.2f roll %.0f° yaw %.0f°", box.x, box.y, box.width, box.height, face.confidence, face.roll, face.yaw) + id)
            }
        }
    }

    private func annotate(_ canvas: inout ImageCanvas, _ faces: [FaceResult]) throws {
        for face in faces {
            let color = DrawingColor.palette(face.trackingID ?? 0)
            let frame = face.boundingBox.rect
            try canvas.drawRectangle(frame, color: color)
            for (name, points) in face.contours ?? [:] where points.count > 1 {
                let closed = [FaceContourType.face, .leftEye, .rightEye].map(\.rawValue).contains(name)
                try canvas.drawPolyline(points.map(\.point), closed: closed, color: color, lineWidth: 1)
            }
            try canvas.drawPoints((face.landmarks ?? [:]).values.map(\.point), color: .yellow)
            let id = face.trackingID.map { " #\($0)" } ?? ""
            try canvas.drawLabel(String(format: "face %.2f", face.confidence) + id, at: frame.origin, color: color)
            if glasses, let left = face.position(of: .leftEye), let right = face.position(of: .rightEye) {
                try canvas.drawGlasses(leftPupil: left, rightPupil: right)
            }
        }
    }
}
