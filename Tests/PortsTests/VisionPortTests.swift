import Foundation
import Testing
import Vision

/// Vision code against the `Vision` module alone. Truth: Apple's documentation of the projection
/// functions (they scale and never flip, so lower-left stays lower-left), the hand-marked faces of
/// zidane.jpg (1280×720; centres at (990, 195) and (615, 355) in top-left pixels) and the hand-marked
/// sudoku grid of sudoku.png (corners (72, 85), (493, 69), (520, 521), (36, 518) in top-left pixels).
@Suite struct VisionPortTests {
    @Test func projectionsScaleWithoutFlipping() {
        let normalized = CGRect(x: 0.1, y: 0.2, width: 0.5, height: 0.25)
        #expect(VNImageRectForNormalizedRect(normalized, 200, 100) == CGRect(x: 20, y: 20, width: 100, height: 25))
        #expect(VNNormalizedRectForImageRect(CGRect(x: 20, y: 20, width: 100, height: 25), 200, 100) == normalized)
        #expect(VNImagePointForNormalizedPoint(CGPoint(x: 0.25, y: 0.75), 200, 100) == CGPoint(x: 50, y: 75))
    }

    @Test func faceRectanglesAreNormalisedFromTheLowerLeft() throws {
        let handler = try ImageRequestHandler(url: PortFixtures.sample("zidane.jpg"))
        let faces = try handler.perform(DetectFaceRectanglesRequest())
        #expect(faces.count == 2)
        for center in [CGPoint(x: 990, y: 195), CGPoint(x: 615, y: 355)] {
            let lowerLeft = CGPoint(x: center.x, y: 720 - center.y)
            #expect(faces.contains { VNImageRectForNormalizedRect($0.boundingBox, 1280, 720).contains(lowerLeft) }, "\(center)")
        }
    }

    /// Code that knows its picture's orientation hands it to the handler (`VNImageRequestHandler(cgImage:
    /// orientation:options:)` on iOS); the faces are then found in the upright picture.
    @Test func anOrientationGivenToTheHandlerIsThePictures() throws {
        let sideways = try PortFixtures.sidewaysJPEG(of: "zidane.jpg")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftvision-sideways-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("sideways.jpg")
        try sideways.write(to: file)
        let still = VNDetectFaceRectanglesRequest()
        try VNImageRequestHandler(data: sideways, orientation: .left, options: [:]).perform([still])
        let frame = VNDetectFaceRectanglesRequest()
        try VNSequenceRequestHandler().perform([frame], onImageURL: file, orientation: .left)
        for request in [still, frame] {
            let faces = try #require(request.results as? [VNFaceObservation])
            #expect(faces.count == 2)
            for center in [CGPoint(x: 990, y: 195), CGPoint(x: 615, y: 355)] {
                let lowerLeft = CGPoint(x: center.x, y: 720 - center.y)
                #expect(faces.contains { VNImageRectForNormalizedRect($0.boundingBox, 1280, 720).contains(lowerLeft) }, "\(center)")
            }
        }
    }

    /// Lines that Apple's samples set on a request before performing it (`preferBackgroundProcessing`,
    /// `usesCPUOnly`) and read from a face (`roll`, `yaw`, `pitch`, each optional): hints that change nothing,
    /// so the faces are still the hand-marked faces of zidane.jpg; the head's nod is not estimated (nil).
    @Test func schedulingHintsAndHeadAnglesReadAsInApplesCode() throws {
        let request = VNDetectFaceRectanglesRequest()
        #expect(!request.preferBackgroundProcessing && !request.usesCPUOnly)
        request.preferBackgroundProcessing = true
        request.usesCPUOnly = true
        try VNImageRequestHandler(url: PortFixtures.sample("zidane.jpg"), options: [:]).perform([request])
        let faces = try #require(request.results as? [VNFaceObservation])
        #expect(faces.count == 2)
        for center in [CGPoint(x: 990, y: 195), CGPoint(x: 615, y: 355)] {
            let lowerLeft = CGPoint(x: center.x, y: 720 - center.y)
            let face = try #require(faces.first { VNImageRectForNormalizedRect($0.boundingBox, 1280, 720).contains(lowerLeft) })
            if let roll = face.roll, let yaw = face.yaw {
                #expect(abs(roll.doubleValue) < .pi / 4 && abs(yaw.doubleValue) < .pi / 2, "\(center)")
            } else {
                Issue.record("no roll or yaw for the face at \(center)")
            }
            #expect(face.pitch == nil)
        }
    }

    /// Apple's face-landmark code reads each region with `if let` (they are optional in Vision). The
    /// hand-marked eyes of the right-hand face of zidane.jpg, in top-left pixels: the subject's left eye
    /// at (1018, 170), the right one at (965, 167).
    @Test func faceLandmarkRegionsAreReadAsApplesCodeReadsThem() throws {
        var eyes: [String: CGPoint] = [:]
        let request = VNDetectFaceLandmarksRequest { request, error in
            #expect(error == nil)
            guard let results = request.results as? [VNFaceObservation] else { return }
            for face in results {
                guard let landmarks = face.landmarks else { continue }
                let size = CGSize(width: 1280, height: 720)
                for (name, region) in [("left", landmarks.leftEye), ("right", landmarks.rightEye)] {
                    if let region, region.pointCount > 0 {
                        let points = region.pointsInImage(imageSize: size)
                        let center = CGPoint(
                            x: points.map(\.x).reduce(0, +) / CGFloat(points.count), y: points.map(\.y).reduce(0, +) / CGFloat(points.count))
                        if center.x > 900 { eyes[name] = CGPoint(x: center.x, y: size.height - center.y) }
                    }
                }
                if let pupil = landmarks.leftPupil, let contour = landmarks.faceContour {
                    #expect(pupil.pointCount == 1 && contour.pointCount > 10)
                }
            }
        }
        try VNImageRequestHandler(url: PortFixtures.sample("zidane.jpg"), options: [:]).perform([request])
        for (name, truth) in [("left", CGPoint(x: 1018, y: 170)), ("right", CGPoint(x: 965, y: 167))] {
            let found = try #require(eyes[name], "\(name) eye")
            #expect(hypot(found.x - truth.x, found.y - truth.y) < 10, "\(name) eye at \(found), marked at \(truth)")
        }
    }

    @Test func findsARectangleAndTracksItByItsUUID() throws {
        let frames = try PortFixtures.pannedFrames(of: "sudoku.png", count: 6, shrink: 30)
        let (width, height) = (CGFloat(frames[0].width), CGFloat(frames[0].height))
        var found: [VNRectangleObservation] = []
        let detect = VNDetectRectanglesRequest { request, error in
            found = request.results as? [VNRectangleObservation] ?? []
            #expect(error == nil)
        }
        try VNImageRequestHandler(image: frames[0]).perform([detect])
        let rectangle = try #require(found.first)
        // The marked corners, in lower-left pixels of the first frame.
        let marked = [(rectangle.topLeft, CGPoint(x: 72, y: 85)), (rectangle.bottomRight, CGPoint(x: 520, y: 521))]
        for (corner, truth) in marked {
            let pixel = VNImagePointForNormalizedPoint(corner, Int(width), Int(height))
            #expect(abs(pixel.x - truth.x) < 12 && abs(pixel.y - (height - truth.y)) < 12, "\(pixel) against \(truth)")
        }

        let sequence = VNSequenceRequestHandler()
        let track = VNTrackRectangleRequest(rectangleObservation: rectangle)
        #expect(track.trackingLevel == .fast && !track.isLastFrame)
        for (index, frame) in frames.enumerated() {
            try sequence.perform([track], on: frame)
            let result = try #require(track.results?.first as? VNRectangleObservation)
            #expect(result.uuid == rectangle.uuid)
            // The grid moves 4 pixels left and 2 up (in lower-left pixels, 2 up is +2) a frame; KCF follows
            // it within 3 % of the frame.
            let box = VNImageRectForNormalizedRect(result.boundingBox, Int(width), Int(height))
            let start = VNImageRectForNormalizedRect(rectangle.boundingBox, Int(width), Int(height))
            #expect(abs(box.midX - (start.midX - CGFloat(4 * index))) < 0.03 * width, "frame \(index): \(box)")
            #expect(abs(box.midY - (start.midY + CGFloat(2 * index))) < 0.03 * height, "frame \(index): \(box)")
            track.inputObservation = result
        }

        let unreadable = VNDetectRectanglesRequest()
        #expect(throws: (any Error).self) {
            try VNImageRequestHandler(url: URL(fileURLWithPath: "/nonexistent.png")).perform([unreadable])
        }
        #expect(unreadable.results == nil)
    }
}
