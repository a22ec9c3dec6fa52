import Foundation
import Testing
import Vision

/// Vision code against the `Vision` module alone. Truth: Apple's documentation of the projection
/// functions (they scale and never flip, so lower-left stays lower-left) and the hand-marked faces of
/// zidane.jpg (1280×720; centres at (990, 195) and (615, 355) in top-left pixels).
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
}
