import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

@Suite struct PixelBufferTests {
    /// The pixels of `buffer` laid out with `padding` extra bytes per row.
    static func padded(_ buffer: PixelBuffer, padding: Int) throws -> Data {
        let row = buffer.width * buffer.format.channelCount
        var data = Data()
        for y in 0..<buffer.height {
            data += buffer.bytes[y * buffer.bytesPerRow..<y * buffer.bytesPerRow + row]
            data += Data(repeating: 0xAB, count: padding)
        }
        return data
    }

    @Test(arguments: [PixelFormat.bgra, .rgba, .rgb, .bgr])
    func rawBuffersWithRowPaddingRoundTrip(format: PixelFormat) throws {
        let photo = try Fixtures.image("chelsea.png")
        let converted = try photo.buffer.converted(to: format)
        let padding = 13
        let raw = try Self.padded(converted, padding: padding)
        let image = try VisionImage(
            pixels: raw, width: converted.width, height: converted.height,
            bytesPerRow: converted.width * format.channelCount + padding, format: format)
        #expect(image.buffer.bytesPerRow == converted.width * format.channelCount + padding)
        let back = try image.converted(to: .bgr)
        #expect(try Fixtures.packed(back.buffer) == photo.buffer.bytes)
    }

    @Test func grayBuffersMatchLuminance() throws {
        let photo = try Fixtures.image("coffee.png")
        let gray = try photo.converted(to: .gray)
        let pixel = Fixtures.pixel(photo.buffer, 300, 200).map(Double.init)
        let luminance = 0.114 * pixel[0] + 0.587 * pixel[1] + 0.299 * pixel[2]
        #expect(abs(Double(Fixtures.pixel(gray.buffer, 300, 200)[0]) - luminance) <= 1)
        let again = try VisionImage(pixels: Data(gray.buffer.bytes), width: 600, height: 400, format: .gray)
        #expect(try again.converted(to: .rgb).buffer.bytes.count == 600 * 400 * 3)
    }

    @Test func nv12PlanesBecomeRGB() throws {
        // Luma rises left to right; neutral chroma, so every RGB pixel is gray at the luma level (BT.601 video range).
        let (width, height, lumaStride, chromaStride) = (64, 32, 80, 72)
        var luma = Data(repeating: 0, count: lumaStride * height)
        for y in 0..<height { for x in 0..<width { luma[y * lumaStride + x] = UInt8(16 + x * 3) } }
        let chroma = Data(repeating: 128, count: chromaStride * height / 2)
        let buffer = try PixelBuffer(
            nv12Luma: luma, lumaBytesPerRow: lumaStride, chroma: chroma, chromaBytesPerRow: chromaStride, width: width,
            height: height)
        let rgb = try VisionImage(buffer: buffer).converted(to: .rgb).buffer
        for x in [0, 20, 63] {
            let expected = (Double(16 + x * 3) - 16) * 255 / 219
            let pixel = Fixtures.pixel(rgb, x, 5)
            #expect(pixel[0] == pixel[1] && pixel[1] == pixel[2])
            #expect(abs(Double(pixel[0]) - expected) <= 2)
        }
        let gray = try VisionImage(buffer: buffer).converted(to: .gray).buffer
        #expect(Fixtures.pixel(gray, 10, 3) == [UInt8(16 + 30)])
        // Geometric operations work on NV12 too.
        let rotated = try VisionImage(buffer: buffer, orientation: .right).upright()
        #expect((rotated.width, rotated.height) == (32, 64))
    }

    @Test func refusesInconsistentBuffers() {
        #expect(throws: ImageError.self) { try PixelBuffer(format: .rgb, width: 10, height: 10, bytesPerRow: 20, bytes: [UInt8](repeating: 0, count: 300)) }
        #expect(throws: ImageError.self) { try PixelBuffer(format: .rgb, width: 10, height: 10, bytes: [UInt8](repeating: 0, count: 299)) }
        #expect(throws: ImageError.self) { try PixelBuffer(format: .nv12, width: 9, height: 10, bytes: [UInt8](repeating: 0, count: 1000)) }
        #expect(throws: ImageError.self) { try PixelBuffer(format: .gray, width: 0, height: 10, bytes: []) }
        #expect(throws: ImageError.tooLarge(width: 30000, height: 30000, maximumPixelCount: 100_000_000)) {
            try PixelBuffer(format: .gray, width: 30000, height: 30000, bytes: [])
        }
        #expect(throws: ImageError.self) { try PixelBuffer(zeroedFormat: .bgr, width: 4, height: 4).converted(to: .nv12) }
    }
}

extension PixelBufferTests {
    /// OpenCV's area average, as the pip wheel's `cv2.resize` computes it.
    struct AreaReference: Decodable {
        var width: Int
        var height: Int
        var pixels: String
    }

    /// Shrinking by factors that divide neither side (a 447×418 crop of astronaut.png to 192×180 and
    /// 128×120, a 449×460 one to 192×108) or only one side (447×418 to 149×180) takes OpenCV's area average with
    /// its weights, summing rows before columns: it differs only where the other order of the float sums
    /// rounds to the next grey level (one level, on at most 1% of the values). A shrink by whole factors
    /// (2) is OpenCV's own.
    @Test(arguments: [(447, 418, 192, 180), (447, 418, 128, 120), (447, 418, 149, 180), (449, 460, 192, 108), (400, 400, 200, 200)])
    func areaShrinksFollowOpenCVsAreaAverage(crop: (width: Int, height: Int, outWidth: Int, outHeight: Int)) throws {
        let path = Fixtures.cache.sample(named: "astronaut.png").path
        let (x, y) = (31, 50)
        let output = try Fixtures.referenceOutput(
            "area_reference.py", [path, x, y, crop.width, crop.height, crop.outWidth, crop.outHeight].map { "\($0)" })
        let reference = try JSONDecoder().decode(AreaReference.self, from: output)
        let expected = try #require(Data(base64Encoded: reference.pixels))
        let image = try VisionImage(contentsOfFile: path).buffer.converted(to: .rgb)
        let shrunk = try image.cropped(x: x, y: y, width: crop.width, height: crop.height)
            .resized(width: crop.outWidth, height: crop.outHeight)
        let ours = try Fixtures.packed(shrunk)
        try #require(ours.count == expected.count)
        let differences = zip(ours, expected).map { abs(Int($0) - Int($1)) }
        let mean = Double(differences.reduce(0, +)) / Double(differences.count)
        if crop.width % crop.outWidth == 0 && crop.height % crop.outHeight == 0 {
            #expect(differences.max() == 0)
        } else {
            #expect(mean < 0.01 && differences.max()! <= 1, "mean \(mean), largest \(differences.max()!)")
        }
    }
}
