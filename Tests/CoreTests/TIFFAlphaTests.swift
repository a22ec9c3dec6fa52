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
        #expect(listing.count == 2)
        for entry in listing {
            let image = try VisionImage(contentsOf: folder.appendingPathComponent(entry.file))
            #expect((image.width, image.height) == (entry.width, entry.height), "\(entry.file)")
            try ImageCodecTests.expectSamePixels(image, entry, in: folder, entry.file)
        }
    }
}
