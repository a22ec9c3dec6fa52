import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

@Suite struct TensorConversionTests {
    static func tensor(_ image: VisionImage, _ format: ImageTensorFormat, region: CGRect? = nil) throws -> ([Float], TensorImageMapping) {
        var values = [Float](repeating: .nan, count: format.width * format.height * format.channelOrder.channelCount)
        let mapping = try values.withUnsafeMutableBytes { try image.write(into: $0, format: format, region: region) }
        return (values, mapping)
    }

    @Test func stretchNormalisesEachChannelInRGBOrder() throws {
        let photo = try Fixtures.image("coffee.png")  // 600×400
        let format = ImageTensorFormat(
            width: 300, height: 200, elementType: .float32(Normalization(mean: [10, 20, 30], std: [2, 4, 8])))
        let (values, mapping) = try Self.tensor(photo, format)
        // Halving with area averaging: each tensor pixel is the mean of a 2×2 block.
        for (x, y) in [(0, 0), (150, 100), (299, 199)] {
            let block = [(0, 0), (1, 0), (0, 1), (1, 1)].map { Fixtures.pixel(photo.buffer, 2 * x + $0.0, 2 * y + $0.1) }
            for (channel, bgrIndex) in [(0, 2), (1, 1), (2, 0)] {
                let mean = Double(block.map { Int($0[bgrIndex]) }.reduce(0, +)) / 4
                let expected = (mean - [10, 20, 30][channel]) / [2, 4, 8][channel]
                // Area averaging rounds to whole pixel values before normalising.
                #expect(abs(Double(values[(y * 300 + x) * 3 + channel]) - expected) <= 0.5 / [2, 4, 8][channel] + 1e-6)
            }
        }
        #expect(mapping.imagePoint(fromNormalizedTensorPoint: CGPoint(x: 0.5, y: 0.5)) == CGPoint(x: 300, y: 200))
    }

    @Test func letterboxPadsAndMapsBack() throws {
        let photo = try Fixtures.image("coffee.png")  // 3:2
        let format = ImageTensorFormat(width: 128, height: 128, elementType: .float32(.signedUnit), resizeMode: .letterbox, paddingValue: 0)
        let (values, mapping) = try Self.tensor(photo, format)
        #expect(mapping.content == CGRect(x: 0, y: 21, width: 128, height: 85))
        #expect(values[(5 * 128 + 64) * 3] == -1)  // padding row above the photo
        #expect(values[(120 * 128 + 64) * 3] == -1)  // below
        #expect(values[(64 * 128 + 64) * 3] != -1)
        #expect(!values.contains { $0.isNaN })
        let corner = mapping.imagePoint(fromTensorPoint: CGPoint(x: 128, y: 106))
        #expect(abs(corner.x - 600) < 0.01 && abs(corner.y - 400) < 0.01)
    }

    @Test func centerCropKeepsTheMiddle() throws {
        let photo = try Fixtures.image("coffee.png")
        let format = ImageTensorFormat(width: 100, height: 100, channelOrder: .bgr, elementType: .uint8, resizeMode: .centerCrop)
        var bytes = [UInt8](repeating: 0, count: format.byteCount)
        let mapping = try bytes.withUnsafeMutableBytes { try photo.write(into: $0, format: format) }
        #expect(mapping.region == CGRect(x: 100, y: 0, width: 400, height: 400))
        let expected = try photo.cropped(to: mapping.region).resized(width: 100, height: 100)
        #expect(bytes == expected.buffer.bytes)
    }

    @Test(arguments: ImageOrientation.allCases)
    func orientedImagesGiveTheUprightTensor(orientation: ImageOrientation) throws {
        let truth = try Fixtures.image("chelsea.png").resized(width: 448, height: 300)
        let stored = try VisionImage(buffer: truth.buffer, orientation: orientation.inverse).upright().buffer
        let image = VisionImage(buffer: stored, orientation: orientation)
        let format = ImageTensorFormat(width: 112, height: 75, elementType: .uint8)
        var a = [UInt8](repeating: 0, count: format.byteCount)
        var b = a
        try a.withUnsafeMutableBytes { _ = try image.write(into: $0, format: format, region: CGRect(x: 0, y: 0, width: 448, height: 300)) }
        try b.withUnsafeMutableBytes { _ = try truth.write(into: $0, format: format) }
        #expect(a == b)
    }

    @Test func regionsOfRawBuffersAndGrayTensors() throws {
        let photo = try Fixtures.image("astronaut.png")
        let bgra = try photo.converted(to: .bgra)
        let format = ImageTensorFormat(width: 64, height: 64, channelOrder: .gray, elementType: .float32(.unit))
        let region = CGRect(x: 128, y: 64, width: 256, height: 256)
        let (fromBGRA, mapping) = try Self.tensor(bgra, format, region: region)
        let (fromBGR, _) = try Self.tensor(photo, format, region: region)
        #expect(zip(fromBGRA, fromBGR).allSatisfy { abs($0 - $1) < 1.0 / 255 + 1e-6 })
        #expect(fromBGR.allSatisfy { (0...1).contains($0) })
        #expect(mapping.imageRect(fromNormalizedTensorRect: CGRect(x: 0, y: 0, width: 1, height: 1)) == region)
    }

    @Test func refusesWrongSizesAndEmptyRegions() throws {
        let photo = try Fixtures.image("coffee.png")
        let format = ImageTensorFormat(width: 8, height: 8, elementType: .uint8)
        var small = [UInt8](repeating: 0, count: 10)
        #expect(throws: ImageError.self) { try small.withUnsafeMutableBytes { try photo.write(into: $0, format: format) } }
        var bytes = [UInt8](repeating: 0, count: format.byteCount)
        #expect(throws: ImageError.self) {
            try bytes.withUnsafeMutableBytes { try photo.write(into: $0, format: format, region: CGRect(x: 700, y: 0, width: 10, height: 10)) }
        }
        // A box from a model whose outputs are not numbers (a damaged model file): an error, not a trap.
        for region in [CGRect(x: Double.nan, y: 0, width: 10, height: 10), CGRect(x: 0, y: 0, width: Double.infinity, height: 10)] {
            #expect(throws: ImageError.self) { try bytes.withUnsafeMutableBytes { try photo.write(into: $0, format: format, region: region) } }
        }
        let tiny = try VisionImage(pixels: Data([1, 2, 3]), width: 1, height: 1, format: .rgb)
        try bytes.withUnsafeMutableBytes { _ = try tiny.write(into: $0, format: format) }
        #expect(bytes.prefix(3) == [1, 2, 3])
    }
}
