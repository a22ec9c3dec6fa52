import Foundation
import SwiftVisionTestSupport
import Testing

@testable import Vision
@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

@Suite struct VisionRequestTests {
    @Test func handlerPerformsEveryRequestWithVisionCoordinates() throws {
        let scene = try VisionFixtures.scene("page-on-bus.jpg", in: VisionFixtures.rectangles, file: \.file)
        let handler = try ImageRequestHandler(url: URL(fileURLWithPath: scene.file))
        let page = try #require(try handler.perform(DetectRectanglesRequest()).first)
        let truth = Quadrilateral(scene.rectangles[0])
        #expect(page.imageCorners.largestCornerDistance(to: truth) <= 1.5)
        // Vision's coordinates: 0–1 with the origin at the lower left, so the top corners have the larger y.
        let size = handler.image.size
        #expect(abs(Double(page.topLeft.x) - Double(truth.topLeft.x / size.width)) < 0.005)
        #expect(abs(Double(page.topLeft.y) - (1 - Double(truth.topLeft.y / size.height))) < 0.005)
        #expect(page.topLeft.y > page.bottomLeft.y && page.topRight.x > page.topLeft.x)
        // Vision's projection keeps the lower-left origin: the pixel box flipped.
        let box = page.imageBoundingBox
        #expect(imageRect(forNormalizedRect: page.boundingBox, width: Int(size.width), height: Int(size.height))
            .equalTo(CGRect(x: box.minX, y: size.height - box.maxY, width: box.width, height: box.height), within: 1e-6))

        #expect(try handler.perform(DetectBarcodesRequest()).isEmpty)
        // The printed page's title is among the lines read.
        let lines = try handler.perform(RecognizeTextRequest()).map { $0.topCandidates(1).first?.string ?? "" }
        #expect(lines.contains { $0.contains("Region-based segmentation") }, "\(lines)")
    }

    @Test func barcodeRequestReportsPayloadsAndHonoursTheRegionOfInterest() throws {
        let scene = try VisionFixtures.scene("several-on-bus.jpg", in: VisionFixtures.barcodes, file: \.file)
        let image = try VisionImage(contentsOfFile: scene.file)
        let handler = ImageRequestHandler(image)
        let all = try handler.perform(DetectBarcodesRequest())
        #expect(Set(all.map(\.payloadString)) == Set(scene.barcodes.map(\.text)))

        // The left half in Vision's coordinates: only the codes there, at the same pixels.
        var left = DetectBarcodesRequest()
        left.regionOfInterest = CGRect(x: 0, y: 0, width: 0.5, height: 1)
        left.symbologies = [.qrCode, .ean13, .aztec]
        let found = try handler.perform(left)
        #expect(Set(found.map(\.payloadString)) == ["https://swiftvision.example/qr?id=42", "4006381333931", "Aztec: SwiftVision"])
        for observation in found {
            let same = try #require(all.first { $0.payloadString == observation.payloadString })
            #expect(observation.imageCorners.largestCornerDistance(to: same.imageCorners) <= 2)
            #expect(observation.payloadData == Data(observation.payloadString.utf8))
        }
        left.regionOfInterest = CGRect(x: 0.5, y: 0.5, width: 0.8, height: 0.2)
        #expect(throws: VisionTaskError.self) { try handler.perform(left) }
    }

    @Test func severalRequestsRunInOneCallWithTheirOwnResults() throws {
        let scene = try VisionFixtures.scene("several-on-bus.jpg", in: VisionFixtures.barcodes, file: \.file)
        let handler = try ImageRequestHandler(url: URL(fileURLWithPath: scene.file))
        // As Vision's perform(_:_:…): each request's result, in order, equal to performing it alone.
        let (codes, faces, rectangles) = try handler.perform(DetectBarcodesRequest(), DetectFaceRectanglesRequest(), DetectRectanglesRequest())
        #expect(Set(codes.map(\.payloadString)) == Set(scene.barcodes.map(\.text)))
        #expect(faces.map(\.boundingBox) == (try handler.perform(DetectFaceRectanglesRequest())).map(\.boundingBox))
        #expect(rectangles.count == (try handler.perform(DetectRectanglesRequest())).count)
    }

    @Test func severalRequestsRunOffTheCallersTask() async throws {
        let scene = try VisionFixtures.scene("several-on-bus.jpg", in: VisionFixtures.barcodes, file: \.file)
        let handler = try ImageRequestHandler(url: URL(fileURLWithPath: scene.file))
        let (codes, labels) = try await handler.perform(DetectBarcodesRequest(), ClassifyImageRequest())
        #expect(Set(codes.map(\.payloadString)) == Set(scene.barcodes.map(\.text)))
        #expect(!labels.isEmpty)
    }

    @Test func textRequestFiltersBySizeAndLanguage() throws {
        let scene = try VisionFixtures.scene("paragraph.png", in: VisionFixtures.text, file: \.file)
        let handler = try ImageRequestHandler(url: URL(fileURLWithPath: scene.file))
        var request = RecognizeTextRequest()
        request.recognitionLanguages = ["en-GB"]
        let lines = try handler.perform(request).map { $0.topCandidates(3) }
        #expect(lines.map(\.count) == [1, 1, 1, 1])
        #expect(lines.first?.first?.string == "The quick brown fox jumps over the lazy dog")
        request.minimumTextHeight = 0.2
        #expect(try handler.perform(request).isEmpty)
        request.recognitionLanguages = ["xx-XX"]
        #expect(throws: VisionTaskError.self) { try handler.perform(request) }
        #expect(RecognizeTextRequest.supportedRecognitionLanguages().contains("eng"))
    }

    @Test func rectangleRequestOptionsReachTheDetector() throws {
        let scene = try VisionFixtures.scene("cards-on-dog.jpg", in: VisionFixtures.rectangles, file: \.file)
        let handler = try ImageRequestHandler(url: URL(fileURLWithPath: scene.file))
        var request = DetectRectanglesRequest()
        request.minimumSize = 0.1
        request.maximumObservations = 0
        request.minimumConfidence = 0.65
        let results = try handler.perform(request)
        #expect(results.count >= 3 && results.allSatisfy { $0.confidence >= 0.65 })
        // Only the lower right card lies in the region of interest (Vision's lower-left origin).
        request.regionOfInterest = CGRect(x: 0.6, y: 0, width: 0.4, height: 0.4)
        let card = Quadrilateral(scene.rectangles[2])
        let inRegion = try handler.perform(request)
        #expect(inRegion.contains { $0.imageCorners.largestCornerDistance(to: card) <= 1.5 })
        #expect(inRegion.allSatisfy { $0.imageBoundingBox.minX >= 0.6 * handler.image.size.width - 1 })
    }
}
