import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionCore

/// Netpbm (PBM, PGM, PPM in raw and plain form, PAM) and JPEG 2000 (JP2 and bare codestream) are read
/// through Debian's OpenCV 4.6, which decodes them; their size comes from the header first, so that the
/// pixel limits hold before OpenCV allocates. The truth is Pillow's decode of the files Pillow wrote
/// (Tests/Python/Reference/netpbm_jpeg2000_reference.py; PAM, which Pillow does not read, is checked
/// against the pixels it was written from).
@Suite struct NetpbmJPEG2000Tests {
    @Test func decodesToPillowsPixels() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let listing = try ImageCodecTests.referenceDecodes("netpbm_jpeg2000_reference.py", into: folder)
        #expect(listing.count == 7)
        for entry in listing {
            let data = try Data(contentsOf: folder.appendingPathComponent(entry.file)), header = try ImageHeader(data: data)
            let format: ImageFormat = entry.file.hasSuffix(".jp2") || entry.file.hasSuffix(".j2k") ? .jpeg2000 : .netpbm
            #expect(header.format == format && (header.width, header.height) == (entry.width, entry.height), "\(entry.file)")
            try ImageCodecTests.expectSamePixels(try VisionImage(data: data), entry, in: folder, entry.file)
            // The limits apply to the header's size, before decoding.
            let limit = entry.width * entry.height - 1
            #expect(throws: ImageError.tooLarge(width: entry.width, height: entry.height, maximumPixelCount: limit)) {
                try VisionImage(data: data, options: ImageDecodingOptions(limits: ImageLimits(maximumPixelCount: limit)))
            }
        }
    }

    /// A header that claims a huge image is refused from the header alone; a damaged one is a clear error.
    @Test func refusesHugeAndBrokenHeaders() throws {
        #expect(throws: ImageError.tooLarge(width: 100_000, height: 100_000, maximumPixelCount: ImageLimits.default.maximumPixelCount)) {
            try VisionImage(data: Data("P6\n100000 100000\n255\n".utf8) + Data(count: 64))
        }
        var codestream = Data([0xFF, 0x4F, 0xFF, 0x51, 0, 41, 0, 0])
        for value: UInt32 in [60_000, 60_000, 0, 0] { withUnsafeBytes(of: value.bigEndian) { codestream.append(contentsOf: $0) } }
        #expect(throws: ImageError.tooLarge(width: 60_000, height: 60_000, maximumPixelCount: ImageLimits.default.maximumPixelCount)) {
            try VisionImage(data: codestream + Data(count: 64))
        }
        #expect(throws: ImageError.truncated(.netpbm)) { try VisionImage(data: Data("P5\n# only a comment".utf8)) }
        #expect(throws: ImageError.self) { try VisionImage(data: Data("P6\n3 2\n255\n".utf8) + Data(count: 5)) }
        #expect(throws: ImageError.unsupportedFormat(.pfm)) { try VisionImage(data: Data("PF\n3 2\n-1.0\n".utf8) + Data(count: 72)) }
    }
}
