import Foundation
import SwiftVisionCore
import SwiftVisionTestSupport
import Testing
import Vision

/// Vision's `regionOfInterest` as Apple documents it: the request analyses only that part of the image
/// (normalised, origin at the lower left), and reports its observations relative to the region, which
/// `VNImageRectForNormalizedRectUsingRegionOfInterest` takes back to the image. Truth: that documented
/// relation, the codes placed in the generated barcode scene, and the same requests on the whole image.
@Suite(.serialized) struct VisionRegionOfInterestPortTests {
    @Test func theGeometryFunctionsMapARegionsResultsToTheImage() {
        // The whole of the upper-right quarter is that quarter of a 200 × 100 image, in lower-left pixels.
        let roi = CGRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5)
        #expect(VNImageRectForNormalizedRectUsingRegionOfInterest(CGRect(x: 0, y: 0, width: 1, height: 1), 200, 100, roi)
            == CGRect(x: 100, y: 50, width: 100, height: 50))
        #expect(VNImagePointForNormalizedPointUsingRegionOfInterest(CGPoint(x: 0.5, y: 0.5), 200, 100, roi) == CGPoint(x: 150, y: 75))
        let rect = CGRect(x: 120, y: 60, width: 40, height: 20)
        func close(_ a: CGRect, _ b: CGRect) -> Bool {
            [a.minX - b.minX, a.minY - b.minY, a.width - b.width, a.height - b.height].allSatisfy { abs($0) < 1e-9 }
        }
        let normalized = VNNormalizedRectForImageRectUsingRegionOfInterest(rect, 200, 100, roi)
        #expect(close(normalized, CGRect(x: 0.2, y: 0.2, width: 0.4, height: 0.4)))
        #expect(close(VNImageRectForNormalizedRectUsingRegionOfInterest(normalized, 200, 100, roi), rect))
        #expect(VNNormalizedPointForImagePointUsingRegionOfInterest(CGPoint(x: 150, y: 75), 200, 100, roi) == CGPoint(x: 0.5, y: 0.5))
    }

    @Test func barcodesInARegionAreReportedRelativeToIt() throws {
        let scene = try VisionFixtures.scene("several-on-bus.jpg", in: VisionFixtures.barcodes, file: \.file)
        let url = URL(fileURLWithPath: scene.file)
        let size = try VisionImage(contentsOf: url).size
        let (width, height) = (Int(size.width), Int(size.height))

        let everywhere = VNDetectBarcodesRequest()
        let leftHalf = VNDetectBarcodesRequest()
        leftHalf.regionOfInterest = CGRect(x: 0, y: 0, width: 0.5, height: 1)
        try VNImageRequestHandler(url: url, options: [:]).perform([everywhere, leftHalf])
        let all = try #require(everywhere.results as? [VNBarcodeObservation])
        let found = try #require(leftHalf.results as? [VNBarcodeObservation])
        // Every code of the scene, each as its symbology (an EAN-13 was dropped before, its format one of two).
        #expect(Set(all.compactMap(\.payloadStringValue)) == Set(scene.barcodes.map(\.text)))
        #expect(all.contains { $0.symbology == .ean13 && $0.payloadStringValue == "4006381333931" })

        // The scene's codes whose centre lies in the left half, and nothing else.
        let leftCodes = scene.barcodes.filter { code in
            code.symbol.map { $0[0] }.reduce(0, +) / Double(code.symbol.count) < size.width / 2
        }
        #expect(!leftCodes.isEmpty && leftCodes.count < scene.barcodes.count)
        #expect(Set(found.compactMap(\.payloadStringValue)) == Set(leftCodes.map(\.text)))
        for observation in found {
            let whole = try #require(all.first { $0.payloadStringValue == observation.payloadStringValue })
            let mapped = VNImageRectForNormalizedRectUsingRegionOfInterest(observation.boundingBox, width, height, leftHalf.regionOfInterest)
            let expected = VNImageRectForNormalizedRect(whole.boundingBox, width, height)
            #expect(abs(mapped.minX - expected.minX) <= 2 && abs(mapped.minY - expected.minY) <= 2, "\(mapped) vs \(expected)")
            #expect(abs(mapped.width - expected.width) <= 2 && abs(mapped.height - expected.height) <= 2, "\(mapped) vs \(expected)")
            // Relative to the half, a box is twice as wide as relative to the whole image.
            #expect(abs(observation.boundingBox.width - 2 * whole.boundingBox.width) < 0.01)
        }
    }

    @Test func facesInARegionAreReportedRelativeToIt() throws {
        let url = try Fixtures.sample("facereg.jpg")
        let size = try VisionImage(contentsOf: url).size
        let (width, height) = (Int(size.width), Int(size.height))
        let everywhere = VNDetectFaceRectanglesRequest()
        try VNImageRequestHandler(url: url, options: [:]).perform([everywhere])
        let faces = try #require(everywhere.results as? [VNFaceObservation])
        #expect(faces.count == 4)

        // A region around the leftmost face, twice its size: that face alone, at the same pixels.
        let face = try #require(faces.min { $0.boundingBox.minX < $1.boundingBox.minX })
        let box = face.boundingBox
        let roi = box.insetBy(dx: -box.width / 2, dy: -box.height / 2).intersection(CGRect(x: 0, y: 0, width: 1, height: 1))
        let inRegion = VNDetectFaceRectanglesRequest()
        inRegion.regionOfInterest = roi
        try VNImageRequestHandler(url: url, options: [:]).perform([inRegion])
        let found = try #require(inRegion.results as? [VNFaceObservation])
        #expect(found.count == 1)
        let mapped = VNImageRectForNormalizedRectUsingRegionOfInterest(try #require(found.first).boundingBox, width, height, roi)
        let expected = VNImageRectForNormalizedRect(box, width, height)
        let overlap = mapped.intersection(expected)
        let union = mapped.width * mapped.height + expected.width * expected.height - overlap.width * overlap.height
        #expect(overlap.width * overlap.height / union >= 0.8, "\(mapped) vs \(expected)")
    }
}
