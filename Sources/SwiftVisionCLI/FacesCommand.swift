import ArgumentParser
import Foundation
import SwiftVision

struct FacesCommand: TaskCommand {
    typealias Task = FacesTask

    static let discussion = "Videos (.mp4, .mov, .avi, .mkv, .webm) are tracked frame by frame: each face keeps an ID while in view."

    @OptionGroup var input: InputOptions

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

    @Option(help: "Write the annotated image or video here (a folder when there are several inputs).")
    var draw: String?

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        if glasses && draw == nil { throw ValidationError("--glasses draws glasses: give --draw OUT") }
    }

    func makeTask() throws -> FacesTask {
        var options = FacesTask.Options()
        options.fast = fast
        options.sceneCuts = sceneCuts
        options.threshold = threshold
        options.landmarks = landmarks || glasses
        return try CommandTask.load(options, json: input.json)
    }

    func describe(_ line: TaskLine<FacesTask.Output>) -> [String] {
        ["\(line.place): \(line.output.faces.count) face(s)"]
            + line.output.faces.map { face in
                let box = face.boundingBox
                let id = face.trackingID.map { " id \($0)" } ?? ""
                return String(format: "  %.0f,%.0f %.0f×%.0f confidence %.2f roll %.0f° yaw %.0f°", box.x, box.y, box.width, box.height, face.confidence, face.roll, face.yaw) + id
            }
    }

    var renderings: [Rendering<FacesTask.Output>] {
        [Rendering(destination: draw) { image, output in
            var canvas = try ImageCanvas(image: image)
            for face in output.faces {
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
            return canvas.image
        }]
    }
}
