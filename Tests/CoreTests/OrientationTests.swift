import Foundation
import SwiftVisionTestSupport
import Testing

@testable import MLKit
@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

@Suite struct OrientationTests {
    /// bus.jpg made small, the upright truth for every orientation.
    static func upright() throws -> VisionImage {
        try Fixtures.image("bus.jpg").resized(width: 270, height: 360)
    }

    @Test(arguments: [ImageFormat.jpeg, .png, .webp, .tiff])
    func readsEveryOrientationAndTurnsPixelsUpright(format: ImageFormat) throws {
        let fixtures = try OrientationFixtures.require()
        let truth = try fixtures.uprightImage()
        for file in try fixtures.files(in: format) {
            let orientation = try #require(ImageOrientation(rawValue: file.orientation))
            let data = try Data(contentsOf: URL(fileURLWithPath: file.file))
            #expect(try ImageHeader(data: data).orientation == orientation, "\(file.file)")
            let image = try VisionImage(data: data)
            #expect(image.orientation == orientation && image.sourceFormat == format, "\(file.file)")
            #expect((image.width, image.height) == (truth.width, truth.height), "\(file.file)")
            let upright = try image.upright()
            #expect(upright.orientation == .up)
            if format == .jpeg {
                #expect(try Fixtures.meanDifference(upright.buffer, truth.buffer) < 4, "\(file.file)")
            } else {
                #expect(try Fixtures.packed(upright.buffer) == Fixtures.packed(truth.buffer), "\(file.file)")
            }
        }
    }

    @Test func malformedEXIFInPNGReadsAsUpright() throws {
        let fixtures = try OrientationFixtures.require()
        let truth = try fixtures.uprightImage()
        try #require(fixtures.malformed.count == 2)
        for file in fixtures.malformed {
            let data = try Data(contentsOf: URL(fileURLWithPath: file.file))
            #expect(try ImageHeader(data: data).orientation == .up, "\(file.case)")
            let image = try VisionImage(data: data)
            #expect(image.orientation == .up)
            #expect(try Fixtures.packed(image.buffer) == Fixtures.packed(truth.buffer), "\(file.case)")
        }
    }

    @Test func infoReportsTheOrientationOfEveryFormat() throws {
        let fixtures = try OrientationFixtures.require()
        let files = try [ImageFormat.jpeg, .png, .webp, .tiff].flatMap { try fixtures.files(in: $0) }
        let run = try Fixtures.run(Fixtures.executable, ["info", "--json"] + files.map(\.file))
        #expect(run.status == 0, "\(run.errors)")
        let lines = Fixtures.jsonLines(run.output)
        try #require(lines.count == files.count)
        for (line, file) in zip(lines, files) {
            #expect(line["orientation"] as? Int == Int(file.orientation) && line["format"] as? String == file.format.rawValue)
            // The upright size: the stored one turned for orientations 5–8.
            #expect(line["width"] as? Int == 40 && line["height"] as? Int == 24, "\(file.file)")
        }
    }

    @Test func storedPointsMatchTheSpecificationLayouts() throws {
        // Each upright pixel must be found in the stored pixels where the orientation's mapping points.
        let fixtures = try OrientationFixtures.require()
        let truth = try fixtures.uprightImage().buffer
        for file in try fixtures.files(in: .png) {
            let orientation = try #require(ImageOrientation(rawValue: file.orientation))
            let stored = try VisionImage(contentsOfFile: file.file).buffer
            let (width, height) = (Double(stored.width), Double(stored.height))
            let misplaced = (0..<truth.height).flatMap { y in (0..<truth.width).map { x in (x, y) } }.filter { x, y in
                let point = orientation.storedPoint(fromUpright: Double(x) + 0.5, Double(y) + 0.5, width: width, height: height)
                return Fixtures.pixel(stored, Int(point.x), Int(point.y)) != Fixtures.pixel(truth, x, y)
            }
            #expect(misplaced.isEmpty, "\(orientation): \(misplaced.count) pixels misplaced, the first at \(misplaced.first!)")
        }
    }

    @Test func rotationAndMirroringCompose() throws {
        let image = try Self.upright()
        #expect(image.rotated(by: .clockwise90).orientation == .right)
        #expect(image.rotated(by: .clockwise90).rotated(by: .clockwise90).orientation == .down)
        #expect(image.rotated(by: .counterClockwise90).rotated(by: .clockwise90).orientation == .up)
        #expect(image.mirrored().mirrored().orientation == .up)
        for orientation in ImageOrientation.allCases {
            var oriented = image
            oriented.orientation = orientation
            let four = oriented.rotated(by: .clockwise90).rotated(by: .clockwise90).rotated(by: .rotate180)
            #expect(four.orientation == orientation)
        }
        // Turning clockwise moves the top-left pixel to the top right, as vImageRotate90 does.
        let rotated = try image.rotated(by: .clockwise90).upright()
        #expect((rotated.width, rotated.height) == (360, 270))
        #expect(Fixtures.pixel(rotated.buffer, 359, 0) == Fixtures.pixel(image.buffer, 0, 0))
        #expect(Fixtures.pixel(rotated.buffer, 0, 0) == Fixtures.pixel(image.buffer, 0, 359))
        // Mirroring a rotated image equals rotating the other way and flipping.
        let mirrored = try image.rotated(by: .clockwise90).mirrored().upright()
        #expect(Fixtures.pixel(mirrored.buffer, 0, 0) == Fixtures.pixel(image.buffer, 0, 0))
        #expect(Fixtures.pixel(mirrored.buffer, 359, 269) == Fixtures.pixel(image.buffer, 269, 359))
    }

    @Test func cropsAndResizesInUprightCoordinates() throws {
        let fixtures = try OrientationFixtures.require()
        let truth = try fixtures.uprightImage()
        let region = CGRect(x: 6, y: 4, width: 20, height: 12)
        let truthCrop = try Fixtures.packed(try truth.cropped(to: region).buffer)
        let truthResized = try truth.resized(width: 20, height: 12).buffer
        for file in try fixtures.files(in: .png) {
            let image = try VisionImage(contentsOfFile: file.file)
            let crop = try image.cropped(to: region).upright()
            #expect((crop.width, crop.height) == (20, 12))
            #expect(try Fixtures.packed(crop.buffer) == truthCrop, "\(file.file)")
            let resized = try image.resized(width: 20, height: 12)
            #expect((resized.width, resized.height) == (20, 12))
            #expect(try Fixtures.meanDifference(try resized.upright().buffer, truthResized) < 1, "\(file.file)")
        }
    }

    /// A real photo (bus.jpg, 810 × 1080: its JPEG's last row of 16-pixel blocks is cut) stored in every
    /// orientation, as a JPEG and as a PNG, turns upright to Pillow's `ImageOps.exif_transpose` of the same
    /// file, byte for byte: no pixel shift, no mirror applied in the wrong order, the same chroma upsampling.
    @Test func photoInEveryOrientationTurnsUprightAsPillowDoes() throws {
        let fixtures = try OrientationFixtures.require()
        try #require(Set(fixtures.photos.map { "\($0.format)-\($0.orientation)" }).count == 16)
        for photo in fixtures.photos {
            let image = try VisionImage(contentsOfFile: photo.file)
            #expect(image.orientation.rawValue == photo.orientation && (image.width, image.height) == (810, 1080))
            let upright = try Fixtures.packed(try image.upright().buffer.converted(to: .rgb))
            let pillow = [UInt8](try Data(contentsOf: URL(fileURLWithPath: photo.pillow)))
            guard upright != pillow else { continue }
            let differing = zip(upright, pillow).filter { $0 != $1 }.count
            Issue.record("\(photo.file): \(differing) of \(pillow.count) bytes differ from Pillow's (ours \(upright.count))")
        }
    }

    /// Faces of the photo stored in every orientation. The turned ones give the upright photo's faces; the
    /// mirrored ones give the faces found in the mirrored picture, mirrored back, since the faces task looks at
    /// a mirrored image unmirrored (`findingUnmirrored`). The two sets differ by what the model finds in a
    /// mirror image, not by the decoding: the pixels are Pillow's (the test above).
    @Test func facesOfEveryOrientationAreTheUprightOrTheMirroredPhotos() throws {
        let fixtures = try OrientationFixtures.require()
        let task = try FacesTask(options: FacesTask.Options(), store: .shared)
        let photos = fixtures.photos.filter { $0.format == .png }
        let upright = try VisionImage(contentsOfFile: try #require(photos.first { $0.orientation == 1 }).file)
        let mirroredPicture = try VisionImage(contentsOfFile: try #require(photos.first { $0.orientation == 2 }).file).buffer
        let width = Double(upright.width)
        let uprightFaces = try task.output(for: upright).faces.map(\.boundingBox)
        let mirroredFaces = try task.output(for: VisionImage(buffer: mirroredPicture)).faces.map { face in
            PixelRect(CGRect(
                x: width - face.boundingBox.x - face.boundingBox.width, y: face.boundingBox.y,
                width: face.boundingBox.width, height: face.boundingBox.height))
        }
        try #require(uprightFaces.count >= 2 && mirroredFaces.count >= 2)
        func agree(_ a: [PixelRect], _ b: [PixelRect]) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { a, b in
                [a.x - b.x, a.y - b.y, a.width - b.width, a.height - b.height].allSatisfy { abs($0) < 0.05 }
            }
        }
        for photo in photos {
            let orientation = try #require(ImageOrientation(rawValue: photo.orientation))
            let faces = try task.output(for: VisionImage(contentsOfFile: photo.file)).faces.map(\.boundingBox)
            let expected = orientation.isMirrored ? mirroredFaces : uprightFaces
            #expect(agree(faces, expected), "\(orientation): \(faces) vs \(expected)")
        }
    }
}
