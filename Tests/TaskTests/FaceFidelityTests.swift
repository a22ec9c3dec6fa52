import Foundation
import SwiftVisionTestSupport
import Testing

@testable import MLKit
@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

/// MediaPipe Python's face detections (Tests/Python/Reference/face_reference.py: the Tasks FaceDetector on the
/// wheel's face_detection_short_range.tflite, metadata added): the reference truth of the fast faces mode.
enum FaceReference {
    struct Face: Decodable {
        var score: Float
        /// Left, top, width, height in whole pixels, as MediaPipe reports them.
        var box: [Double]
        var keypoints: [[Double]]

        var boundingBox: CGRect { CGRect(x: box[0], y: box[1], width: box[2], height: box[3]) }

        /// `box` as MediaPipe reports it: the origin clamped to the image, the size kept (a face cut by the
        /// top edge keeps its height and moves down), both truncated to whole pixels by the Tasks API.
        static func reported(_ box: CGRect) -> CGRect {
            CGRect(x: max(0, box.minX), y: max(0, box.minY), width: box.width, height: box.height)
        }
    }

    struct Image: Decodable {
        var file: String
        var width: Int
        var height: Int
        var faces: [Face]
    }

    struct Run: Decodable {
        var model: String
        var images: [Image]
    }

    /// MediaPipe's faces scoring at least `threshold` in each file, in order.
    static func run(_ files: [URL], threshold: Float) throws -> Run {
        let output = try Fixtures.referenceOutput("face_reference.py", ["\(threshold)"] + files.map(\.path))
        let result = try JSONDecoder().decode(Run.self, from: output)
        try #require(result.images.count == files.count)
        return result
    }
}

/// The fast faces mode's detector (before the face mesh confirms each face) finds the faces MediaPipe
/// Python's FaceDetector finds on the same model file: photos
/// that fill the square input, photos letterboxed into it (16:9, 8:9), crops with two faces, and a photo
/// stored on its side with EXIF orientation 6.
@Suite(.serialized) struct FaceFidelityTests {
    static let threshold: Float = 0.5
    /// Box corners within 0.5 % of the image's diagonal (2.8–7.4 px here): MediaPipe reports boxes in whole
    /// pixels (up to 1 px at the origin, 2 px at the far corner). Key points, which it reports unrounded,
    /// within 0.1 %: both sides warp the image into the 128×128 input the same way (bilinear, as MediaPipe's
    /// `ImageToTensorCalculator`) but with different code, and XNNPACK's kernels may differ on other CPUs.
    /// Scores within 0.02, as the classifier's. Measured on this machine: corners within 1.4 px, key
    /// points within 0.0002 px, scores equal to float precision.
    static let maximumPositionError = 0.005
    static let maximumKeypointError = 0.001
    static let maximumScoreDifference: Float = 0.02

    /// The photos with a name, written as files that both sides read.
    static func photos(in folder: URL) throws -> [(name: String, file: URL)] {
        let crops: [(String, String, CGRect)] = [
            ("bus.jpg two faces", "bus.jpg", CGRect(x: 0, y: 250, width: 400, height: 400)),
            ("zidane.jpg two faces", "zidane.jpg", CGRect(x: 900, y: 150, width: 380, height: 400)),
            ("zidane.jpg left", "zidane.jpg", CGRect(x: 0, y: 0, width: 700, height: 720)),
        ]
        var photos = try ["astronaut.png", "zidane.jpg", "bus.jpg"].map { ($0, try Fixtures.sample($0)) }
        for (index, (name, photo, region)) in crops.enumerated() {
            let file = folder.appendingPathComponent("crop\(index).png")
            try Fixtures.image(photo).cropped(to: region).write(to: file)
            photos.append((name, file))
        }
        // The right half of zidane.jpg stored on its side: upright only through its EXIF orientation.
        let right = try Fixtures.image("zidane.jpg").cropped(to: CGRect(x: 600, y: 0, width: 680, height: 720))
        let rotated = folder.appendingPathComponent("rotated.jpg")
        try Fixtures.jpeg(storing: try right.rotated(by: .counterClockwise90).upright(), orientation: .right).write(to: rotated)
        photos.append(("zidane.jpg right, EXIF 6", rotated))
        return photos
    }

    /// Pairs each reference face with the unpaired face of ours that overlaps it most (IoU above 0.5).
    static func pairs(_ ours: [Detection], _ reference: [FaceReference.Face]) -> [(Detection, FaceReference.Face)] {
        var unpaired = ours
        return reference.compactMap { truth in
            let overlaps = unpaired.map { $0.boundingBox.intersectionOverUnion(with: truth.boundingBox) }
            guard let best = overlaps.indices.max(by: { overlaps[$0] < overlaps[$1] }), overlaps[best] > 0.5 else { return nil }
            return (unpaired.remove(at: best), truth)
        }
    }

    @Test func fastModeMatchesMediaPipesFaceDetector() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = try Self.photos(in: folder)
        let reference = try FaceReference.run(photos.map(\.file), threshold: Self.threshold)
        let theirs = try Data(contentsOf: URL(fileURLWithPath: reference.model))
        #expect(theirs == (try Data(contentsOf: Fixtures.model("face_detection_short_range.tflite"))), "MediaPipe Python runs another model")
        var options = FacesTask.Options()
        options.fast = true
        options.threshold = Self.threshold
        options.minFaceSize = 0
        let task = try FacesTask(options: options, store: .shared)
        var compared = 0
        for (photo, truth) in zip(photos, reference.images) {
            let image = try VisionImage(contentsOf: photo.file)
            #expect(image.width == truth.width && image.height == truth.height, "\(photo.name): upright size")
            let faces = try task.engine.detections(in: image)
            let pairs = Self.pairs(faces, truth.faces)
            #expect(faces.count == truth.faces.count && pairs.count == truth.faces.count, "\(photo.name): \(faces.count) faces, MediaPipe \(truth.faces.count)")
            let diagonal = hypot(Double(truth.width), Double(truth.height))
            for (face, expected) in pairs {
                let (box, other) = (FaceReference.Face.reported(face.boundingBox), expected.boundingBox)
                let corners = [box.minX - other.minX, box.minY - other.minY, box.maxX - other.maxX, box.maxY - other.maxY].map { abs(Double($0)) }
                #expect(corners.max()! <= Self.maximumPositionError * diagonal, "\(photo.name): box \(box) vs \(other)")
                let keypoints = zip(face.keypoints, expected.keypoints).map { Double(hypot($0.x - $1[0], $0.y - $1[1])) }
                #expect(keypoints.count == 6 && keypoints.max()! <= Self.maximumKeypointError * diagonal, "\(photo.name): key points off by \(keypoints)")
                #expect(abs(face.score - expected.score) <= Self.maximumScoreDifference, "\(photo.name): score \(face.score) vs \(expected.score)")
                compared += 1
            }
        }
        #expect(compared >= 8, "faces compared: \(compared)")
    }
}
