import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionCore
@testable import SwiftVisionTasks

/// The one tracker of faces, hands and bodies (`LandmarkTracker`) looks at a mirrored stream (a front
/// camera's) unmirrored: frame by frame, its finds are the mirror images of those in the same frames
/// unmirrored, found in the same order, with the same tracking IDs. The truth is the geometry of a mirror:
/// `x` becomes the width less `x`, `y` stays; a hand's label swaps, the subject's sides stay.
@Suite(.serialized) struct LandmarkTrackerTests {
    /// Each frame's output, unmirrored and mirrored, each stream with its own tracker.
    static func streams<Task: VisionTask>(
        of task: Task, _ frames: [VisionImage]
    ) throws -> [(plain: Task.Output, mirrored: Task.Output)] where Task.StreamState == LandmarkTracker {
        var plainState = try task.makeStreamState()
        var mirroredState = try task.makeStreamState()
        return try frames.map { frame in
            (try task.output(forFrame: frame, state: &plainState), try task.output(forFrame: frame.mirrored(), state: &mirroredState))
        }
    }

    /// Whether `mirrored` is `plain` seen in a mirror of an image `width` wide.
    static func isMirrored(_ mirrored: [Landmark], of plain: [Landmark], width: Int) -> Bool {
        mirrored.count == plain.count
            && zip(mirrored, plain).allSatisfy { abs($0.x - (Double(width) - $1.x)) < 1e-6 && abs($0.y - $1.y) < 1e-6 }
    }

    @Test func followsTheHandsOfAMirroredStream() throws {
        let frames = Array(try PanningHandVideo.frames().prefix(6))
        for (index, (plain, mirrored)) in try Self.streams(of: HandsTask(), frames).enumerated() {
            try #require(plain.hands.count == 2 && mirrored.hands.count == 2, "frame \(index)")
            for (hand, seen) in zip(plain.hands, mirrored.hands) {
                #expect(seen.handedness != hand.handedness, "frame \(index)")
                #expect(Self.isMirrored(seen.landmarks, of: hand.landmarks, width: plain.width), "frame \(index)")
            }
        }
    }

    @Test func followsTheBodyOfAMirroredStream() throws {
        let frames = Array(try PanningPoseVideo.frames().prefix(6))
        for (index, (plain, mirrored)) in try Self.streams(of: PoseTask(), frames).enumerated() {
            try #require(plain.poses.count == 1 && mirrored.poses.count == 1, "frame \(index)")
            #expect(Self.isMirrored(mirrored.poses[0].landmarks, of: plain.poses[0].landmarks, width: plain.width), "frame \(index)")
        }
    }

    @Test func followsTheFacesOfAMirroredStreamWithTheirIDs() throws {
        let photo = try Fixtures.image("zidane.jpg")
        let frames = try (0..<6).map { try photo.cropped(to: CGRect(x: 8 * $0, y: 0, width: 1180, height: 720)) }
        for (index, (plain, mirrored)) in try Self.streams(of: FacesTask(), frames).enumerated() {
            try #require(!plain.faces.isEmpty && plain.faces.count == mirrored.faces.count, "frame \(index)")
            for (face, seen) in zip(plain.faces, mirrored.faces) {
                #expect(face.trackingID != nil && seen.trackingID == face.trackingID, "frame \(index)")
                let box = face.boundingBox
                #expect(abs(seen.boundingBox.x - (Double(plain.width) - box.x - box.width)) < 1e-6, "frame \(index)")
                #expect(abs(seen.boundingBox.y - box.y) < 1e-6 && abs(seen.roll + face.roll) < 1e-6, "frame \(index)")
            }
        }
    }

    /// The results' synthesised Codable reads back the JSON it writes (scores rounded once, on writing).
    @Test func resultsReadBackTheirJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func readsBack<Output: Codable>(_ output: Output) throws -> Bool {
            let json = try encoder.encode(output)
            return try encoder.encode(JSONDecoder().decode(Output.self, from: json)) == json
        }
        var faceOptions = FacesTask.Options()
        (faceOptions.landmarks, faceOptions.mesh) = (true, true)
        #expect(try readsBack(FacesTask(options: faceOptions).output(for: Fixtures.image("zidane.jpg"))))
        #expect(try readsBack(HandsTask().output(for: HandPhotos.image(HandPhotos.twoHands))))
        #expect(try readsBack(PoseTask().output(for: Fixtures.image("person.jpg"))))
    }
}
