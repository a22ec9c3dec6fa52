import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionCore

/// An RGBA TIFF with unassociated alpha (ExtraSamples 2, as Pillow and ImageMagick write it) gives its stored
/// colours, as Pillow reads them, not the colours multiplied by the alpha (libtiff's RGBA reader, which
/// OpenCV 4.6 uses, does that: 49.7 levels darker on average before). The truth is Pillow's decode of the
/// files it wrote (Tests/Python/Reference/tiff_alpha_reference.py), uncompressed and LZW.
@Suite struct TIFFAlphaTests {
    @Test func unassociatedAlphaKeepsTheStoredColours() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let listing = try ImageCodecTests.referenceDecodes("tiff_alpha_reference.py", into: folder)
        #expect(listing.count == 3)
        #expect(listing.first { $0.file.hasSuffix("-float.tif") }?.pixels == "")
        for entry in listing where !entry.pixels.isEmpty {
            let image = try VisionImage(contentsOf: folder.appendingPathComponent(entry.file))
            #expect((image.width, image.height) == (entry.width, entry.height), "\(entry.file)")
            try ImageCodecTests.expectSamePixels(image, entry, in: folder, entry.file)
        }
    }

    /// A TIFF of 32-bit floating-point samples, which OpenCV 4.6 cannot read, is named as such (it was
    /// "corrupt"); written by Pillow (mode F), whose own reader confirms the sample format.
    @Test func floatingPointTIFFIsNamed() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let listing = try ImageCodecTests.referenceDecodes("tiff_alpha_reference.py", into: folder)
        let float = try #require(listing.first { $0.file.hasSuffix("-float.tif") }, "\(listing)")
        #expect(throws: ImageError.unsupportedFormat(.floatTIFF)) { try VisionImage(contentsOf: folder.appendingPathComponent(float.file)) }
    }
}
