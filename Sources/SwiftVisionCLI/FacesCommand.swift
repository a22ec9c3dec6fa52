import ArgumentParser
import Foundation
import SwiftVision

struct FacesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faces", abstract: "Detect faces, and their landmarks, in images and videos.",
        discussion: "Videos (.mp4, .mov, .avi, .mkv, .webm) are tracked frame by frame: each face keeps an ID while in view.")

    @Argument(help: "Image or video files.")
    var inputs: [String]

    @Flag(help: "Also locate landmarks, contours and pupils from the face mesh.")
    var landmarks = false

    @Flag(help: "Use the short-range model on the whole image only: faster, for faces near the camera.")
    var fast = false

    @Option(help: "Lowest confidence to report, 0–1.")
    var threshold: Float = 0.5

    @Flag(help: "Draw glasses on every face (implies --landmarks); needs --draw.")
    var glasses = false

    @Flag(help: "Print JSON Lines.")
    var json = false

    @Option(help: "Write the annotated image or video here (a folder when there are several inputs).")
    var draw: String?

    func validate() throws {
        if glasses && draw == nil { throw ValidationError("--glasses draws glasses: give --draw OUT") }
    }

    func run() throws {
        var options = FaceDetectorOptions()
        options.performanceMode = fast ? .fast : .accurate
        options.minimumConfidence = threshold
        if landmarks || glasses {
            options.landmarkMode = .all
            options.contourMode = .all
        }
        try MediaFiles.process(inputs, json: json) { url in
            if MediaFiles.isVideo(url) {
                try processVideo(url, options: options)
            } else {
                try processImage(url, options: options)
            }
        }
    }

    private func processImage(_ url: URL, options: FaceDetectorOptions) throws {
        let image = try VisionImage(contentsOf: url)
        let faces = try FaceDetector(options: options).results(in: image)
        report(FaceReport(file: url.path, image: image, faces: faces))
        if let output = MediaFiles.annotatedURL(for: url, draw: draw, inputCount: inputs.count) {
            var canvas = try ImageCanvas(image: image)
            try annotate(&canvas, faces)
            try canvas.image.write(to: output)
        }
    }

    private func processVideo(_ url: URL, options: FaceDetectorOptions) throws {
        let reader = try VideoReader(url: url)
        let detector = try FaceDetector(options: options)
        let writer = try MediaFiles.annotatedURL(for: url, draw: draw, inputCount: inputs.count).map {
            try VideoWriter(url: $0, width: reader.width, height: reader.height, framesPerSecond: reader.framesPerSecond)
        }
        let progress = ProgressBar(total: reader.reportedFrameCount, label: url.lastPathComponent)
        for frame in reader {
            let faces = try detector.results(inVideoFrame: frame.image, timestampInMilliseconds: frame.timestampInMilliseconds)
            var line = FaceReport(file: url.path, image: frame.image, faces: faces)
            line.frame = frame.index
            line.timestampMs = frame.timestampInMilliseconds
            report(line)
            if let writer {
                var canvas = try ImageCanvas(image: frame.image)
                try annotate(&canvas, faces)
                try writer.append(canvas.image)
            }
            progress.update(frame.index + 1)
        }
        progress.finish()
        if let error = reader.error { throw error }
    }

    private func report(_ line: FaceReport) {
        if json {
            try? JSONLines.print(line)
        } else {
            let place = line.frame.map { " frame \($0)" } ?? ""
            print("\(line.file)\(place): \(line.faces?.count ?? 0) face(s)")
            for face in line.faces ?? [] {
                let box = face.boundingBox
                let id = face.trackingID.map { " id \($0)" } ?? ""
                print(String(format: "  %.0f,%.0f %.0f×%.0f confidence %.2f roll %.0f° yaw %.0f°", box.x, box.y, box.width, box.height, face.confidence, face.roll, face.yaw) + id)
            }
        }
    }

    private func annotate(_ canvas: inout ImageCanvas, _ faces: [Face]) throws {
        for face in faces {
            let color = DrawingColor.palette(face.trackingID ?? 0)
            try canvas.drawRectangle(face.frame, color: color)
            for contour in face.contours where contour.points.count > 1 {
                try canvas.drawPolyline(contour.points, closed: [.face, .leftEye, .rightEye].contains(contour.type), color: color, lineWidth: 1)
            }
            try canvas.drawPoints(face.landmarks.map(\.position), color: .yellow)
            let id = face.trackingID.map { " #\($0)" } ?? ""
            try canvas.drawLabel(String(format: "face %.2f", face.confidence) + id, at: face.frame.origin, color: color)
            if glasses, let left = face.landmark(ofType: .leftEye), let right = face.landmark(ofType: .rightEye) {
                try canvas.drawGlasses(leftPupil: left.position, rightPupil: right.position)
            }
        }
    }
}

/// One JSON line of `swiftvision faces`.
struct FaceReport: Encodable {
    struct FaceJSON: Encodable {
        var boundingBox: JSONRect
        var confidence: Float
        var trackingID: Int?
        var roll: Double
        var yaw: Double
        var landmarks: [String: JSONPoint]?
        var contours: [String: [JSONPoint]]?
    }

    var file: String
    var frame: Int?
    var timestampMs: Int?
    var width: Int?
    var height: Int?
    var faces: [FaceJSON]?

    init(file: String, image: VisionImage, faces: [Face]) {
        self.file = file
        width = image.width
        height = image.height
        self.faces = faces.map { face in
            FaceJSON(
                boundingBox: JSONRect(face.frame), confidence: (face.confidence * 1000).rounded() / 1000,
                trackingID: face.trackingID, roll: (face.headEulerAngleZ * 10).rounded() / 10,
                yaw: (face.headEulerAngleY * 10).rounded() / 10,
                landmarks: face.landmarks.isEmpty ? nil : Dictionary(uniqueKeysWithValues: face.landmarks.map { ($0.type.rawValue, JSONPoint($0.position)) }),
                contours: face.contours.isEmpty ? nil : Dictionary(uniqueKeysWithValues: face.contours.map { ($0.type.rawValue, $0.points.map(JSONPoint.init)) }))
        }
    }
}
