import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

@Suite struct ImageDecodingTests {
    @Test func decodesJPEGAndPNGPhotos() throws {
        let bus = try Fixtures.image("bus.jpg")
        #expect((bus.width, bus.height) == (810, 1080))
        #expect(bus.sourceFormat == .jpeg && bus.orientation == .up && bus.buffer.format == .bgr)
        let astronaut = try Fixtures.image("astronaut.png")
        #expect((astronaut.width, astronaut.height) == (512, 512))
        #expect(astronaut.sourceFormat == .png)
        // The photo is not blank: its pixels vary.
        #expect(Set(astronaut.buffer.bytes).count > 200)
    }

    @Test(arguments: [(".webp", ImageFormat.webp), (".bmp", .bmp), (".tiff", .tiff), (".png", .png)])
    func decodesEveryLosslessFormatToTheSamePixels(fileExtension: String, format: ImageFormat) throws {
        let original = try Fixtures.image("chelsea.png")
        let data = try original.encoded(fileExtension: fileExtension, quality: 101)
        let header = try ImageHeader(data: data)
        #expect(header.format == format)
        #expect((header.width, header.height) == (451, 300))
        let decoded = try VisionImage(data: data)
        #expect(decoded.sourceFormat == format)
        #expect(decoded.buffer.bytes == original.buffer.bytes)
    }

    @Test func readsLossyWebPHeader() throws {
        let data = try Fixtures.image("coffee.png").encoded(fileExtension: ".webp", quality: 80)
        let header = try ImageHeader(data: data)
        #expect(header.format == .webp && header.width == 600 && header.height == 400)
        let decoded = try VisionImage(data: data)
        #expect(try Fixtures.meanDifference(decoded.buffer, try Fixtures.image("coffee.png").buffer) < 6)
    }

    @Test func shrinksLargeJPEGsInTheDecoderButNotBelowTheMinimumSize() throws {
        let url = try Fixtures.sample("zidane.jpg")
        for (minimum, expected) in [(CGSize(width: 100, height: 80), (160, 90)), (CGSize(width: 300, height: 170), (320, 180)),
                                     (CGSize(width: 700, height: 400), (1280, 720))] {
            let image = try VisionImage(contentsOf: url, options: ImageDecodingOptions(minimumSize: minimum))
            #expect((image.width, image.height) == expected)
            #expect(Double(image.width) >= minimum.width && Double(image.height) >= minimum.height)
        }
        let full = try VisionImage(contentsOf: url)
        let reduced = try VisionImage(contentsOf: url, options: ImageDecodingOptions(minimumSize: CGSize(width: 300, height: 170)))
        let expected = try full.resized(width: 320, height: 180)
        #expect(try Fixtures.meanDifference(reduced.buffer, expected.buffer) < 4)
    }
}
