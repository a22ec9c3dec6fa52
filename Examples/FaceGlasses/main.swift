// Finds faces with their landmarks and draws glasses on them, written as an iOS app does with ML Kit's
// FaceDetector: only the lines that make the image and draw differ (a file, and SwiftVision's canvas
// written to a file, where an app has a UIImage and a layer on screen).
//
//     swift run example-face-glasses PHOTO OUTPUT.jpg
import Foundation
import MLKitFaceDetection
import SwiftVisionCore

guard CommandLine.arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: example-face-glasses PHOTO OUTPUT.jpg\n".utf8))
    exit(64)
}

do {
    let options = FaceDetectorOptions()
    options.performanceMode = .accurate
    options.landmarkMode = .all
    let detector = FaceDetector.faceDetector(options: options)

    let photo = try SwiftVisionCore.VisionImage(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))
    let faces = try detector.results(in: MLKitVision.VisionImage(image: photo))

    var canvas = try ImageCanvas(image: photo)
    for face in faces {
        guard let left = face.landmark(ofType: .leftEye)?.position, let right = face.landmark(ofType: .rightEye)?.position else {
            continue
        }
        // Round lenses a third of the eyes' distance across, joined by a bridge.
        let radius = hypot(left.x - right.x, left.y - right.y) / 3
        for eye in [left, right] {
            let rim = (0...24).map { step -> CGPoint in
                let angle = Double(step) / 24 * 2 * .pi
                return CGPoint(x: eye.x + radius * cos(angle), y: eye.y + radius * sin(angle))
            }
            try canvas.drawPolyline(rim, closed: true, color: .yellow)
        }
        // The bridge runs between the lenses' rims.
        let (dx, dy) = ((right.x - left.x) / (3 * radius), (right.y - left.y) / (3 * radius))
        let bridge = [CGPoint(x: left.x + dx * radius, y: left.y + dy * radius), CGPoint(x: right.x - dx * radius, y: right.y - dy * radius)]
        try canvas.drawPolyline(bridge, closed: false, color: .yellow)
        print(String(
            format: "face %.0f %.0f %.0f %.0f eyes %.0f,%.0f %.0f,%.0f", face.frame.minX, face.frame.minY, face.frame.width,
            face.frame.height, left.x, left.y, right.x, right.y))
    }
    try canvas.image.encoded(as: .jpeg(quality: 90)).write(to: URL(fileURLWithPath: CommandLine.arguments[2]))
} catch {
    FileHandle.standardError.write(Data("error: \(error.localizedDescription)\n".utf8))
    exit(1)
}
