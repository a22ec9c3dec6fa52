import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionTasks

/// A HEIF photo stored turned, with an image rotation property (`irot`) saying how to turn it for display, as
/// a camera stores a photo taken sideways. heif-enc makes the file from zidane.jpg turned the other way and
/// Tests/Python/Reference/heif_irot.py writes the property: the truth is the rotation written (the upright
/// photo), with libheif's own `heif-convert` beside it.
@Suite struct HEIFRotationTests {
    /// Each `irot` angle (counter-clockwise quarter turns) and the turn that stores the upright photo so.
    static let storedTurns: [(angle: Int, turn: ImageRotation)] = [(1, .clockwise90), (2, .rotate180), (3, .counterClockwise90)]

    @Test func aRotatedHEIFIsReadAndAnalysedUpright() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try Fixtures.image("zidane.jpg")
        let faces = try FacesTask(options: FacesTask.Options(), store: .shared)
        let uprightFaces = try faces.output(for: photo).faces
        try #require(uprightFaces.count == 2)
        for (angle, turn) in Self.storedTurns {
            let stored = folder.appendingPathComponent("stored-\(angle).png")
            try photo.rotated(by: turn).upright().encoded(as: .png).write(to: stored)
            let plain = folder.appendingPathComponent("plain-\(angle).heic")
            try Fixtures.heifEncoded(stored, to: plain, avif: false, quality: 90)
            let rotated = folder.appendingPathComponent("rotated-\(angle).heic")
            _ = try Fixtures.referenceOutput("heif_irot.py", [plain.path, String(angle), rotated.path])
            let byTool = folder.appendingPathComponent("rotated-\(angle)-tool.png")
            let converted = try Fixtures.run(URL(fileURLWithPath: "/usr/bin/heif-convert"), [rotated.path, byTool.path], timeout: 120)
            try #require(converted.status == 0, "heif-convert: \(converted.errors)")

            let data = try Data(contentsOf: rotated)
            let header = try ImageHeader(data: data)
            #expect((header.width, header.height) == (photo.width, photo.height), "irot \(angle): the upright size from the header")
            let image = try VisionImage(data: data).upright()
            #expect((image.width, image.height) == (photo.width, photo.height), "irot \(angle)")
            let fromPhoto = try Fixtures.meanDifference(image.buffer, photo.buffer)
            #expect(fromPhoto < 3, "irot \(angle): mean difference \(fromPhoto) from the upright photo")
            let fromTool = try Fixtures.meanDifference(image.buffer, try VisionImage(contentsOf: byTool).buffer)
            #expect(fromTool < 0.5, "irot \(angle): mean difference \(fromTool) from heif-convert's")

            let found = try faces.output(for: try VisionImage(data: data)).faces
            #expect(found.count == uprightFaces.count, "irot \(angle)")
            for (face, upright) in zip(found.sorted { $0.boundingBox.x < $1.boundingBox.x }, uprightFaces.sorted { $0.boundingBox.x < $1.boundingBox.x }) {
                let (a, b) = (face.boundingBox, upright.boundingBox)
                let offset = max(abs(a.x - b.x), abs(a.y - b.y), abs(a.width - b.width), abs(a.height - b.height))
                #expect(offset < 3, "irot \(angle): face \(a) where the upright photo's is \(b)")
            }
        }
    }
}
