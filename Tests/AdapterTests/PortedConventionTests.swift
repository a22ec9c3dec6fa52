import Foundation
import SwiftVisionTestSupport
import Testing

@testable import Vision
@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionTasks

/// Conventions a port from iOS relies on without noticing, each checked against the published
/// documentation it comes from.
@Suite struct PortedConventionTests {
    /// Google's ML Kit reference (Android `PredefinedCategory`, iOS `DetectedObjectLabelIndex`):
    /// FASHION_GOOD_INDEX 0, HOME_GOOD_INDEX 1, FOOD_INDEX 2, PLACE_INDEX 3, PLANT_INDEX 4.
    @Test func objectCategoryIndicesAreMLKits() {
        let published: [(ObjectCategory, Int, String)] = [
            (.fashionGood, 0, "Fashion good"), (.homeGood, 1, "Home good"), (.food, 2, "Food"), (.place, 3, "Place"), (.plant, 4, "Plant"),
        ]
        for (category, index, text) in published {
            #expect(category.rawValue == index, "\(text)")
            #expect(category.text == text)
        }
    }

    /// Apple's `VNRequestTrackingLevel.fast`: "This is the default option used by trackers."
    @Test func trackingIsFastByDefault() {
        let request = TrackObjectRequest(detectedObjectObservation: DetectedObjectObservation(boundingBox: CGRect(x: 0.1, y: 0.1, width: 0.2, height: 0.2)))
        #expect(request.trackingLevel == .fast)
    }

    /// In Vision a `VNRectangleObservation` is a `VNDetectedObjectObservation`: a rectangle found in the first
    /// frame seeds the tracker, and its track keeps the rectangle's `uuid` from frame to frame.
    @Test func aRectangleSeedsATrackerUnderItsUUID() throws {
        let scene = try VisionFixtures.scene("page-on-bus.jpg", in: VisionFixtures.rectangles, file: \.file)
        let first = try VisionImage(contentsOf: URL(fileURLWithPath: scene.file))
        let rectangle = try #require(try ImageRequestHandler(first).perform(DetectRectanglesRequest()).first)
        // The next frames: the same photo moved 6 pixels right each time.
        let frames = try (1...3).map { step -> VisionImage in
            let shift = 6 * step
            let moved = try first.cropped(to: CGRect(x: 0, y: 0, width: Int(first.size.width) - shift, height: Int(first.size.height)))
            var canvas = PixelBuffer(zeroedFormat: .bgr, width: Int(first.size.width), height: Int(first.size.height))
            try Fixtures.paste(moved.buffer, into: &canvas, x: shift, y: 0)
            return VisionImage(buffer: canvas)
        }
        let handler = SequenceRequestHandler()
        var observation = try handler.perform(TrackObjectRequest(detectedObjectObservation: rectangle), on: first)
        #expect(observation.uuid == rectangle.uuid)
        for (index, frame) in frames.enumerated() {
            observation = try handler.perform(TrackObjectRequest(detectedObjectObservation: observation), on: frame)
            #expect(observation.uuid == rectangle.uuid)
            let box = observation.imageRect(imageSize: first.size)
            let moved = rectangle.imageBoundingBox.offsetBy(dx: CGFloat(6 * (index + 1)), dy: 0)
            #expect(box.intersectionOverUnion(with: moved) > 0.8, "frame \(index + 1): \(box) against \(moved)")
        }
    }
}
