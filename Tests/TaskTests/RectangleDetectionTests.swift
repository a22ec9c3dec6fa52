import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

@Suite struct RectangleDetectionTests {
    /// Scenes with one object drawn in perspective, and the largest corner error allowed in pixels.
    static let single: [(String, Double)] = [
        ("page-on-bus.jpg", 1.5), ("card-on-horses.jpg", 1.5), ("screen-on-zidane.jpg", 1.5),
        ("page-uneven-light.jpg", 1.5), ("page-12mp.jpg", 4),
    ]

    @Test(arguments: single)
    func findsTheObjectDrawnInPerspective(name: String, tolerance: Double) throws {
        let scene = try VisionFixtures.scene(name, in: VisionFixtures.rectangles, file: \.file)
        let truth = Quadrilateral(scene.rectangles[0])
        let found = try RectangleDetector().results(in: VisionImage(contentsOfFile: scene.file))
        let best = try #require(found.first, "nothing found in \(name)")
        let error = best.corners.largestCornerDistance(to: truth)
        #expect(error <= tolerance, "\(name): corners \(best.corners.corners) off by \(error) px")
        #expect(best.confidence >= 0.6)
    }

    @Test func findsEveryCardWhenUnlimited() throws {
        let scene = try VisionFixtures.scene("cards-on-dog.jpg", in: VisionFixtures.rectangles, file: \.file)
        let options = RectangleEngineOptions(minimumSize: 0.1, maximumObservations: 0)
        let found = try RectangleDetector(options: options).results(in: VisionImage(contentsOfFile: scene.file))
        for corners in scene.rectangles {
            let truth = Quadrilateral(corners)
            let error = found.map { $0.corners.largestCornerDistance(to: truth) }.min() ?? .infinity
            #expect(error <= 1.5, "card at \(corners[0]) off by \(error) px")
        }
        let limited = try RectangleDetector(options: RectangleEngineOptions(minimumSize: 0.1, maximumObservations: 2))
            .results(in: VisionImage(contentsOfFile: scene.file))
        #expect(limited.count == 2)
    }

    @Test func aspectRatioLimitsLeaveTheCardOut() throws {
        // The card is 856 × 540: a ratio of 0.63 seen straight, about 0.6 in this perspective.
        let scene = try VisionFixtures.scene("card-on-horses.jpg", in: VisionFixtures.rectangles, file: \.file)
        let image = try VisionImage(contentsOfFile: scene.file)
        let truth = Quadrilateral(scene.rectangles[0])
        for options in [
            RectangleEngineOptions(minimumAspectRatio: 0.7, maximumObservations: 0),
            RectangleEngineOptions(maximumAspectRatio: 0.5, maximumObservations: 0),
            RectangleEngineOptions(minimumSize: 0.6, maximumObservations: 0),
        ] {
            let found = try RectangleDetector(options: options).results(in: image)
            #expect(!found.contains { $0.corners.largestCornerDistance(to: truth) < 5 }, "\(options)")
        }
    }

    @Test func cornersFollowTheEXIFOrientation() throws {
        let scene = try VisionFixtures.scene("page-on-bus.jpg", in: VisionFixtures.rectangles, file: \.file)
        let upright = try VisionImage(contentsOfFile: scene.file)
        // Store the pixels turned a quarter anticlockwise and say so in EXIF (orientation 6): the
        // decoded image is upright again and so must the corners be.
        let stored = try VisionImage(buffer: upright.buffer, orientation: .left).upright()
        let image = try VisionImage(data: try Fixtures.jpeg(storing: stored, orientation: .right))
        #expect(image.width == upright.width && image.height == upright.height)
        let best = try #require(try RectangleDetector().results(in: image).first)
        #expect(best.corners.largestCornerDistance(to: Quadrilateral(scene.rectangles[0])) <= 2)
    }

    @Test func perspectiveCorrectionRestoresThePage() throws {
        let scene = try VisionFixtures.scene("page-on-bus.jpg", in: VisionFixtures.rectangles, file: \.file)
        let image = try VisionImage(contentsOfFile: scene.file)
        let page = try VisionImage(contentsOfFile: try #require(scene.texture)).converted(to: .gray)
        let found = try #require(try RectangleDetector().results(in: image).first)
        func similarity(_ corners: Quadrilateral) throws -> Double {
            let corrected = try image.perspectiveCorrected(corners, size: page.size).converted(to: .gray)
            return try Self.correlation(corrected.buffer, page.buffer)
        }
        let restored = try similarity(found.corners)
        #expect(restored >= 0.9, "correlation with the printed page \(restored)")
        // Corners 8 pixels off give a visibly worse page: the measure can tell.
        let shifted = found.corners.applying { CGPoint(x: $0.x + 8, y: $0.y - 8) }
        #expect(try similarity(shifted) < restored - 0.1)
        let natural = try image.perspectiveCorrected(found.corners)
        #expect(abs(Double(natural.width) / Double(natural.height) - page.size.width / page.size.height) < 0.2)
    }

    @Test func blankAndNoisyImagesHaveNoRectangles() throws {
        var generator = SeededGenerator(seed: 640_480)
        let noise = (0..<(640 * 480)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let flat = [UInt8](repeating: 128, count: 640 * 480)
        for pixels in [noise, flat] {
            let image = try VisionImage(pixels: Data(pixels), width: 640, height: 480, format: .gray)
            let options = RectangleEngineOptions(maximumObservations: 0)
            #expect(try RectangleDetector(options: options).results(in: image).isEmpty)
        }
        let tiny = try VisionImage(pixels: Data([0, 255, 255, 0]), width: 2, height: 2, format: .gray)
        #expect(try RectangleDetector().results(in: tiny).isEmpty)
    }

    @Test func invalidOptionsAreRefused() throws {
        let image = try Fixtures.image("dog.jpg")
        for options in [
            RectangleEngineOptions(minimumAspectRatio: 0.9, maximumAspectRatio: 0.5),
            RectangleEngineOptions(quadratureTolerance: 60), RectangleEngineOptions(minimumSize: -1),
            RectangleEngineOptions(maximumObservations: -3),
        ] {
            #expect(throws: VisionTaskError.self) { try RectangleDetector(options: options).results(in: image) }
        }
        #expect(throws: ImageError.self) {
            try image.perspectiveCorrected(Quadrilateral(rect: CGRect(x: 10, y: 10, width: 0, height: 40)))
        }
    }

    /// Pearson's correlation of two gray buffers of the same size.
    static func correlation(_ a: PixelBuffer, _ b: PixelBuffer) throws -> Double {
        let x = try Fixtures.packed(a).map(Double.init), y = try Fixtures.packed(b).map(Double.init)
        try #require(x.count == y.count)
        return LineSampler.Centred(x).correlation(with: y)
    }
}
