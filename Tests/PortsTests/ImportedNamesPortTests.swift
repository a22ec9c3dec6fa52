import MLKit
import MediaPipeTasksVision
import Testing
import Vision

/// Code in the iOS guides' shape whose file imports the vision modules and nothing else, as the ML Kit
/// quickstart's camera controller imports only `MLKit` beside the Apple frameworks a port removes. Truth:
/// on iOS each of these modules brings Foundation with it, so `URL`, `NSError`, `NSValue`,
/// `DispatchQueue` and `CGRect` need no import of their own.
@Suite struct ImportedNamesPortTests {
    @Test func foundationComesWithTheVisionModules() throws {
        let url: URL = PortFixtures.sample("coffee.png")
        let visionImage = try MLKitVision.VisionImage(contentsOf: url)
        let labels = try ImageLabeler.imageLabeler(options: ImageLabelerOptions()).results(in: visionImage)
        #expect(!labels.isEmpty)
        let queue = DispatchQueue(label: "ImportedNamesPortTests")
        #expect(queue.sync { NSValue(cgPoint: CGPoint(x: 1, y: 2)).cgPointValue } == CGPoint(x: 1, y: 2))

        let missing = URL(fileURLWithPath: "/nonexistent/photo.jpg")
        let requestHandler = VNImageRequestHandler(url: missing, options: [:])
        let request = VNDetectRectanglesRequest()
        #expect(throws: NSError.self) { try requestHandler.perform([request]) }
        #expect((request.results ?? []).isEmpty && CGRect(x: 0, y: 0, width: 1, height: 1).contains(CGPoint(x: 0.5, y: 0.5)))

        #expect(throws: (any Error).self) { _ = try MPImage(contentsOf: missing) }
    }
}
