import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionTasks

/// Hard cuts between shots end every track; camera motion is not a cut. The truth is by construction:
/// frames cut from one photo are one shot, a join of two different photos is a cut.
@Suite(.serialized) struct SceneCutTests {
    static let photos = ["zidane.jpg", "bus.jpg", "astronaut.png", "dog.jpg", "horses.jpg", "person.jpg", "kite.jpg",
                         "eagle.jpg", "giraffe.jpg", "coffee.png", "chelsea.png"]

    /// 640×480 frames of a window `window` wide (4:3) moving `step` pixels a frame across `photo`.
    static func pan(_ photo: VisionImage, window: Int, step: Int, frames: Int, start: Int = 0, vertical: Bool = false) throws -> [VisionImage] {
        try (0..<frames).map { index in
            let offset = start + index * step
            let rect = vertical
                ? CGRect(x: 0, y: offset, width: window, height: window * 3 / 4)
                : CGRect(x: offset, y: 0, width: window, height: window * 3 / 4)
            return try photo.cropped(to: rect).resized(width: 640, height: 480)
        }
    }

    @Test func camerasThatMoveAreNotCutsAndChangesOfPhotoAre() throws {
        let zidane = try Fixtures.image("zidane.jpg")
        let bus = try Fixtures.image("bus.jpg")
        let pans = [
            try Self.pan(zidane, window: 720, step: 4, frames: 40), try Self.pan(zidane, window: 720, step: 40, frames: 14),
            try Self.pan(zidane, window: 640, step: 60, frames: 10), try Self.pan(bus, window: 800, step: 30, frames: 15, vertical: true),
        ]
        for frames in pans {
            var detector = SceneCutDetector()
            for frame in frames { #expect(try !detector.isCut(frame)) }
            #expect(detector.cuts == 0)
        }
        let images = try Self.photos.map { try Fixtures.image($0).resized(width: 640, height: 480) }
        for first in images.indices {
            for second in images.indices where second > first {
                let distance = try SceneCutDetector.distance(images[first], images[second])
                #expect(distance > SceneCutDetector.threshold, "\(Self.photos[first]) → \(Self.photos[second]): \(distance)")
            }
        }
    }

    /// Ten frames panning over zidane.jpg, then ten of astronaut.png placed so that its face sits where
    /// the nearer zidane face was in the last frame of the first shot.
    static func joinedShots() throws -> (first: [VisionImage], second: [VisionImage]) {
        // Both faces of zidane.jpg (x 540–700 and 915–1070) stay in the window.
        let first = try pan(try Fixtures.image("zidane.jpg"), window: 720, step: 4, frames: 10, start: 380)
        let faces = try FacesTask()
        let target = try #require(try faces.output(for: first[9]).faces.max { $0.boundingBox.width < $1.boundingBox.width })
        let astronaut = try Fixtures.image("astronaut.png")
        let face = try #require(try faces.output(for: astronaut).faces.first)
        let scale = target.boundingBox.width / face.boundingBox.width
        let scaled = try astronaut.resized(width: Int(Double(astronaut.width) * scale), height: Int(Double(astronaut.height) * scale))
        let origin = CGPoint(x: target.boundingBox.x - face.boundingBox.x * scale, y: target.boundingBox.y - face.boundingBox.y * scale)
        let second = try (0..<10).map { index in
            var canvas = try ImageCanvas(image: try VisionImage(pixels: Data(repeating: 90, count: 640 * 480 * 3), width: 640, height: 480, format: .bgr))
            try canvas.drawImage(scaled, at: CGPoint(x: origin.x - Double(index), y: origin.y))
            return canvas.image
        }
        return (first, second)
    }

    static func trackingIDs(_ frames: [VisionImage], sceneCuts: Bool) throws -> [Set<Int>] {
        var options = FacesTask.Options()
        options.sceneCuts = sceneCuts
        let runner = TaskRunner(task: try FacesTask(options: options), runningMode: .video)
        return try frames.enumerated().map { index, frame in
            Set(try runner.run(videoFrame: frame, timestampInMilliseconds: index * 40).faces.compactMap(\.trackingID))
        }
    }

    @Test func aFaceOfTheNextShotWhereOneWasGetsANewID() throws {
        let (first, second) = try Self.joinedShots()
        let ids = try Self.trackingIDs(first + second, sceneCuts: true)
        let before = ids[..<10], after = ids[10...]
        #expect(before.allSatisfy { $0 == before.first && !$0.isEmpty }, "one shot, the same IDs: \(ids)")
        #expect(after.allSatisfy { $0 == after.first && $0.count == 1 }, "one shot, the same ID: \(ids)")
        #expect(before.first!.isDisjoint(with: after.first!), "no ID crosses the cut: \(ids)")
        // Without cut detection the astronaut takes over the ID of the face that was there.
        let carried = try Self.trackingIDs(first + second, sceneCuts: false)
        #expect(!carried[9].isDisjoint(with: carried[10]), "the fixture puts the new face where the old one was: \(carried)")
    }

    @Test func objectTracksEndAtACutToo() throws {
        // The two men of zidane.jpg, then the woman of person.jpg standing where one of them stood.
        let first = try Self.pan(try Fixtures.image("zidane.jpg"), window: 720, step: 4, frames: 10, start: 380)
        let person = try Fixtures.image("person.jpg")
        let second = try Self.pan(person, window: person.width - 40, step: 4, frames: 10)
        func ids(sceneCuts: Bool) throws -> [Set<Int>] {
            var options = ObjectsTask.Options()
            options.multiple = true
            options.sceneCuts = sceneCuts
            let runner = TaskRunner(task: try ObjectsTask(options: options), runningMode: .video)
            return try (first + second).enumerated().map { index, frame in
                Set(try runner.run(videoFrame: frame, timestampInMilliseconds: index * 40).objects.compactMap(\.trackingID))
            }
        }
        let cut = try ids(sceneCuts: true)
        let before = cut[..<10].reduce(Set<Int>()) { $0.union($1) }
        let after = cut[10...].reduce(Set<Int>()) { $0.union($1) }
        #expect(!before.isEmpty && !after.isEmpty, "\(cut)")
        #expect(before.isDisjoint(with: after), "no object ID crosses the cut: \(cut)")
        let carried = try ids(sceneCuts: false)
        #expect(!carried[9].isDisjoint(with: carried[10]), "the fixture puts an object where one was: \(carried)")
    }
}
