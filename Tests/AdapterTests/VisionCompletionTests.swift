import Foundation
import Synchronization
import SwiftVisionTestSupport
import Testing

@testable import Vision
@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

/// Observations' `uuid` and requests' completion handlers, as Vision's `VNObservation` and `VNRequest`,
/// on the generated barcode scene (six codes of known payloads) and the sample photos.
@Suite struct VisionCompletionTests {
    /// What the completion handlers were called with, in the order of the calls.
    final class Calls: Sendable {
        private let calls = Mutex<[(name: String, outcome: Result<any Sendable, any Error>)]>([])

        /// A completion handler that records its outcome under `name`.
        func handler<Results: Sendable>(_ name: String) -> @Sendable (Result<Results, any Error>) -> Void {
            { outcome in self.calls.withLock { $0.append((name, outcome.map { $0 as any Sendable })) } }
        }

        var names: [String] { calls.withLock { $0.map(\.name) } }

        /// The results handed to `name`'s handler; nil when it got an error or was not called.
        func results<Results>(_ name: String, as type: Results.Type) -> Results? {
            calls.withLock { calls in
                calls.first { $0.name == name }.flatMap { try? $0.outcome.get() as? Results }
            }
        }

        /// The error handed to `name`'s handler; nil when it got results or was not called.
        func error(_ name: String) -> (any Error)? {
            calls.withLock { calls in
                guard case .failure(let error) = calls.first(where: { $0.name == name })?.outcome else { return nil }
                return error
            }
        }
    }

    let scene: VisionFixtures.BarcodeScene
    let handler: ImageRequestHandler

    init() throws {
        scene = try VisionFixtures.scene("several-on-bus.jpg", in: VisionFixtures.barcodes, file: \.file)
        handler = try ImageRequestHandler(url: URL(fileURLWithPath: scene.file))
    }

    @Test func everyObservationHasItsOwnStableUUID() throws {
        let codes = try handler.perform(DetectBarcodesRequest())
        #expect(codes.count == scene.barcodes.count && codes.count >= 2)
        #expect(Set(codes.map(\.uuid)).count == codes.count)
        // Stable for the value: read twice, copied, and as Identifiable's id.
        let copy = codes
        #expect(copy.map(\.uuid) == codes.map(\.uuid) && codes.map(\.id) == codes.map(\.uuid))
        // Performing again makes new observations: the same payloads, other uuids.
        let again = try handler.perform(DetectBarcodesRequest())
        #expect(Set(again.map(\.payloadString)) == Set(codes.map(\.payloadString)))
        #expect(Set(again.map(\.uuid)).isDisjoint(with: codes.map(\.uuid)))
        // Every kind of observation: labels, faces, bodies, rectangles, feature prints, masks.
        let photo = ImageRequestHandler(try Fixtures.image("astronaut.png"))
        let (labels, faces, prints) = try photo.perform(ClassifyImageRequest(), DetectFaceRectanglesRequest(), GenerateImageFeaturePrintRequest())
        let bodies = try ImageRequestHandler(try Fixtures.image("bus.jpg")).perform(DetectHumanBodyPoseRequest())
        let mask = try photo.perform(GeneratePersonSegmentationRequest())
        var rectangles = DetectRectanglesRequest()
        rectangles.maximumObservations = 0
        let found = try handler.perform(rectangles)
        #expect(labels.count >= 2 && faces.count == 1 && !bodies.isEmpty && found.count >= 2)
        let uuids = labels.map(\.uuid) + faces.map(\.uuid) + bodies.map(\.uuid) + found.map(\.uuid) + [prints.uuid, mask.uuid]
        #expect(Set(uuids).count == uuids.count)
        #expect(try photo.perform(GenerateImageFeaturePrintRequest()).uuid != prints.uuid)
    }

    @Test func handlersAreCalledOnceEachInOrderWithTheTypedResults() async throws {
        let calls = Calls()
        var codes = DetectBarcodesRequest()
        codes.completionHandler = calls.handler("codes")
        var rectangles = DetectRectanglesRequest()
        rectangles.completionHandler = calls.handler("rectangles")
        var labels = ClassifyImageRequest()
        labels.completionHandler = calls.handler("labels")
        // The parameter-pack form: the handlers get the very observations returned (same uuids).
        let (foundCodes, foundRectangles, foundLabels) = try await handler.perform(codes, rectangles, labels)
        #expect(calls.names == ["codes", "rectangles", "labels"])
        #expect(calls.results("codes", as: [BarcodeObservation].self) == foundCodes)
        #expect(calls.results("rectangles", as: [RectangleObservation].self) == foundRectangles)
        #expect(calls.results("labels", as: [ClassificationObservation].self) == foundLabels)
        #expect(Set(foundCodes.map(\.payloadString)) == Set(scene.barcodes.map(\.text)))

        // Vision's perform([requests]): results reach the handlers only, equal to the typed API's but for the uuids.
        let listed = Calls()
        codes.completionHandler = listed.handler("codes")
        labels.completionHandler = listed.handler("labels")
        try await handler.perform([labels, codes])
        #expect(listed.names == ["labels", "codes"])
        let handed = try #require(listed.results("codes", as: [BarcodeObservation].self))
        #expect(handed.map(\.payloadString) == foundCodes.map(\.payloadString))
        #expect(handed.map(\.imageCorners) == foundCodes.map(\.imageCorners))
        #expect(Set(handed.map(\.uuid)).isDisjoint(with: foundCodes.map(\.uuid)))
        let handedLabels = try #require(listed.results("labels", as: [ClassificationObservation].self))
        #expect(handedLabels.map(\.label) == foundLabels.map(\.label))

        // A sequence handler calls them too, once per frame.
        let frames = Calls()
        var body = DetectHumanBodyPoseRequest()
        body.completionHandler = frames.handler("body")
        let sequence = SequenceRequestHandler()
        let image = try Fixtures.image("bus.jpg")
        let poses = try (0..<2).map { _ in try sequence.perform(body, on: image) }
        #expect(frames.names == ["body", "body"] && !poses[0].isEmpty)
        #expect(frames.results("body", as: [HumanBodyPoseObservation].self) == poses[0])
    }

    @Test func anErrorReachesItsHandlerAndThePerformCallThrows() async throws {
        let calls = Calls()
        var bad = DetectBarcodesRequest()
        bad.regionOfInterest = CGRect(x: 0.5, y: 0.5, width: 0.8, height: 0.2)  // reaches past the image
        bad.completionHandler = calls.handler("bad")
        var good = DetectBarcodesRequest()
        good.completionHandler = calls.handler("good")
        // As Vision: every request runs, each handler gets its own outcome, then the call throws.
        #expect(throws: VisionTaskError.self) { try handler.perform([bad, good]) }
        #expect(calls.names == ["bad", "good"])
        #expect(calls.error("bad") is VisionTaskError && calls.error("good") == nil)
        #expect(calls.results("good", as: [BarcodeObservation].self)?.count == scene.barcodes.count)

        let packed = Calls()
        bad.completionHandler = packed.handler("bad")
        good.completionHandler = packed.handler("good")
        await #expect(throws: VisionTaskError.self) { try await handler.perform(good, bad) }
        #expect(packed.names == ["good", "bad"] && packed.error("bad") is VisionTaskError)

        let single = Calls()
        bad.completionHandler = single.handler("bad")
        #expect(throws: VisionTaskError.self) { try handler.perform(bad) }
        #expect(single.names == ["bad"] && single.error("bad") is VisionTaskError)
    }
}
