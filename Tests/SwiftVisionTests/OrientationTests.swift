import Foundation
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

@Suite struct OrientationTests {
    /// bus.jpg made small, the upright truth for every orientation.
    static func upright() throws -> VisionImage {
        try Fixtures.image("bus.jpg").resized(width: 270, height: 360)
    }

    @Test(arguments: ImageOrientation.allCases)
    func readsEXIFOrientationAndTurnsPixelsUpright(orientation: ImageOrientation) throws {
        let truth = try Self.upright()
        let stored = try VisionImage(buffer: truth.buffer, orientation: orientation.inverse).upright()
        let data = try Fixtures.jpeg(storing: stored, orientation: orientation)

        let header = try ImageHeader(data: data)
        #expect(header.orientation == orientation)
        let image = try VisionImage(data: data)
        #expect(image.orientation == orientation)
        #expect((image.width, image.height) == (270, 360))
        #expect((image.buffer.width, image.buffer.height) == (stored.width, stored.height))
        let upright = try image.upright()
        #expect(upright.orientation == .up)
        #expect(try Fixtures.meanDifference(upright.buffer, truth.buffer) < 3)
    }

    @Test func orientationsMapStoredCornersToUprightCorners() throws {
        // A 3×2 image whose pixels are numbered; the upright image must show the number stored at the mapped point.
        let buffer = try PixelBuffer(format: .gray, width: 3, height: 2, bytes: [0, 1, 2, 3, 4, 5])
        for orientation in ImageOrientation.allCases {
            let upright = try VisionImage(buffer: buffer, orientation: orientation).upright().buffer
            for y in 0..<upright.height {
                for x in 0..<upright.width {
                    let point = orientation.storedPoint(fromUpright: Double(x) + 0.5, Double(y) + 0.5, width: 3, height: 2)
                    let stored = Int(point.y) * 3 + Int(point.x)
                    #expect(Int(upright.bytes[y * upright.width + x]) == stored, "\(orientation) at \(x),\(y)")
                }
            }
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

    @Test(arguments: ImageOrientation.allCases)
    func cropsAndResizesInUprightCoordinates(orientation: ImageOrientation) throws {
        let truth = try Self.upright()
        let stored = try VisionImage(buffer: truth.buffer, orientation: orientation.inverse).upright().buffer
        let image = VisionImage(buffer: stored, orientation: orientation)
        let region = CGRect(x: 40, y: 100, width: 120, height: 90)
        let crop = try image.cropped(to: region).upright()
        #expect((crop.width, crop.height) == (120, 90))
        #expect(crop.buffer.bytes == (try truth.cropped(to: region).buffer.bytes))
        let resized = try image.resized(width: 135, height: 180)
        #expect((resized.width, resized.height) == (135, 180))
        #expect(try Fixtures.meanDifference(try resized.upright().buffer, try truth.resized(width: 135, height: 180).buffer) < 1)
    }
}
