import Foundation
import SwiftVisionTestSupport
import Testing

@testable import MLKit
@testable import Vision
@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

@Suite(.serialized) struct FaceVideoTests {
    @Test func facesKeepTheirIDsWhileInViewAndGetNewOnesWhenTheyReturn() throws {
        var options = FaceDetectorOptions()
        options.performanceMode = .accurate
        options.isTrackingEnabled = true
        let detector = try FaceDetector.faceDetector(options: options)
        var idsBefore: Set<Int> = []
        var idsAfter: Set<Int> = []
        for (index, frame) in try MovingFaceVideo.frames().enumerated() {
            let faces = try detector.results(inVideoFrame: frame.mlKitImage, timestampInMilliseconds: index * 33)
            guard let truth = MovingFaceVideo.path[index] else {
                #expect(faces.isEmpty, "frame \(index) shows no face")
                continue
            }
            #expect(faces.count == 1, "frame \(index) \(faces.count)")
            guard let face = faces.first else { continue }
            #expect(hypot(face.frame.midX - truth.x, face.frame.midY - truth.y) < 20, "frame \(index): \(face.frame) vs \(truth)")
            #expect(face.hasTrackingID, "frame \(index)")
            let id = face.trackingID
            if index < 40 { idsBefore.insert(id) } else { idsAfter.insert(id) }
        }
        #expect(idsBefore.count == 1)
        #expect(idsAfter.count == 1)
        #expect(idsBefore.isDisjoint(with: idsAfter))
    }

    /// The primates of `make eval`'s faces section that a photo's checks dropped only after issue 30's
    /// closer look (a marmoset, a capuchin, a squirrel monkey): shown as a still video, no frame may start a
    /// face track at either level (before, fast mode followed all three and accurate mode the squirrel monkey).
    @Test(arguments: [FaceDetectorOptions.PerformanceMode.fast, .accurate])
    func animalFacesStartNoTrack(mode: FaceDetectorOptions.PerformanceMode) throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../eval/data/faces/animals")
        for name in ["n02490219_marmoset.jpg", "n02492035_capuchin.jpg", "n02494079_squirrel_monkey.jpg"] {
            let options = FaceDetectorOptions()
            options.performanceMode = mode
            options.isTrackingEnabled = true
            options.minFaceSize = 0.02
            let detector = FaceDetector.faceDetector(options: options)
            let image = try VisionImage(contentsOf: folder.appendingPathComponent(name)).mlKitImage
            for index in 0..<6 {
                let faces = try detector.results(inVideoFrame: image, timestampInMilliseconds: index * 33)
                #expect(faces.isEmpty, "\(name), frame \(index): \(faces.map(\.frame))")
            }
        }
    }

    @Test func timestampsMustIncrease() throws {
        var options = FaceDetectorOptions()
        options.isTrackingEnabled = true
        let detector = try FaceDetector.faceDetector(options: options)
        let frame = try MovingFaceVideo.frames()[0]
        _ = try detector.results(inVideoFrame: frame.mlKitImage, timestampInMilliseconds: 100)
        #expect(throws: VisionTaskError.nonIncreasingTimestamp(previous: 100, current: 100)) {
            try unwrappingMLKitError { try detector.results(inVideoFrame: frame.mlKitImage, timestampInMilliseconds: 100) }
        }
        detector.reset()
        #expect(try detector.results(inVideoFrame: frame.mlKitImage, timestampInMilliseconds: 5).count == 1)
        detector.close()
        #expect(throws: VisionTaskError.closed) {
            try unwrappingMLKitError { try detector.results(inVideoFrame: frame.mlKitImage, timestampInMilliseconds: 200) }
        }
    }

    @Test func sequenceHandlerTracksMirroredFrontCameraFrames() throws {
        let handler = SequenceRequestHandler()
        let request = DetectFaceRectanglesRequest()
        var ids: Set<Int> = []
        for (index, frame) in try MovingFaceVideo.frames().prefix(20).enumerated() {
            let observations = try handler.perform(request, on: frame.mirrored())
            let face = try #require(observations.first, "frame \(index)")
            let truth = MovingFaceVideo.path[index]!.mirroredHorizontally(inWidth: 640)
            #expect(hypot(face.imageBoundingBox.midX - truth.x, face.imageBoundingBox.midY - truth.y) < 20)
            ids.insert(try #require(face.trackingID))
        }
        #expect(ids.count == 1)
    }

    @Test func videoFilesRoundTripAndDamagedOnesFailCleanly() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("moving.avi")
        let frames = try MovingFaceVideo.frames()
        let writer = try VideoWriter(url: url, width: 640, height: 480, framesPerSecond: 30)
        for frame in frames { try writer.append(frame) }
        writer.close()
        let reader = try VideoReader(url: url)
        #expect((reader.width, reader.height) == (640, 480) && abs(reader.framesPerSecond - 30) < 0.01)
        let read = Array(reader)
        #expect(read.count == 70 && reader.error == nil, "\(read.count) \(String(describing: reader.error))")
        #expect(zip(read, read.dropFirst()).allSatisfy { $0.timestampInMilliseconds < $1.timestampInMilliseconds })
        #expect(try Fixtures.meanDifference(read[10].image.buffer, frames[10].buffer) < 6)

        let garbage = folder.appendingPathComponent("garbage.mp4")
        try Data(repeating: 0x42, count: 5000).write(to: garbage)
        #expect(throws: VideoError.self) { try VideoReader(url: garbage) }
        #expect(throws: VideoError.self) { try VideoReader(url: folder.appendingPathComponent("missing.mp4")) }
        // A video cut off in the middle of a frame gives the frames before the cut, then ends.
        let data = try Data(contentsOf: url)
        let cut = folder.appendingPathComponent("cut.avi")
        try data.prefix(data.count / 2 + 777).write(to: cut)
        if let truncated = try? VideoReader(url: cut) {
            let count = Array(truncated).count
            #expect(count > 10 && count < 70)
        }
    }
}
