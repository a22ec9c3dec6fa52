import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionCore

/// Images that carry a Display P3 profile (JPEG, a JPEG whose 181 KB profile spans 3 APP2 segments, PNG, WebP,
/// TIFF, and HEIF from libheif's encoder, whose truth starts from heif-convert's decode)
/// decode to the sRGB pixels that Pillow's ImageCms gives (perceptual intent), within a mean of 1 level;
/// before, their P3 values were read as sRGB (10 levels off on average). Images whose profile is 600 bytes of text
/// or above the 4 MB read, and JPEGs whose profile chunks do not add up, decode as without one.
/// The truth is Pillow's (Tests/Python/Reference/color_profile_reference.py), itself within 0.016 levels of
/// Display P3's published formulas.
@Suite struct ColorProfileTests {
    struct Entry: Decodable {
        let file: String
        let width: Int
        let height: Int
        let pixels: String
        let unmatched: String
        let analytic: Double?
    }

    /// The files the reference script writes into `folder`, with Pillow's decodes.
    static func listing(in folder: URL) throws -> [Entry] {
        try JSONDecoder().decode(
            [Entry].self, from: try Fixtures.referenceOutput("color_profile_reference.py", [Fixtures.cache.samples.path, folder.path]))
    }

    /// The mean absolute difference of two byte arrays of the same length.
    static func meanDifference(_ first: [UInt8], _ second: [UInt8]) -> Double {
        guard first.count == second.count, !first.isEmpty else { return .infinity }
        return Double(zip(first, second).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(first.count)
    }

    @Test func embeddedProfilesAreMatchedToSRGB() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let listing = try Self.listing(in: folder)
        #expect(listing.count == 9)
        for entry in listing {
            let decoded = try Fixtures.packed(try VisionImage(contentsOf: folder.appendingPathComponent(entry.file)).buffer)
            let truth = [UInt8](try Data(contentsOf: folder.appendingPathComponent(entry.pixels)))
            let unmatched = [UInt8](try Data(contentsOf: folder.appendingPathComponent(entry.unmatched)))
            let difference = Self.meanDifference(decoded, truth)
            #expect(difference <= 1, "\(entry.file): mean difference \(difference) from Pillow's sRGB")
            if let analytic = entry.analytic {
                // The data shows what matching changes: read as sRGB, the P3 values are far from the truth.
                #expect(analytic < 0.1 && Self.meanDifference(unmatched, truth) > 3, "\(entry.file)")
            }
        }
    }

    /// A JPEG whose APP2 profile chunks are misnumbered (a count that differs between chunks, a number 0,
    /// above the count, or twice) has no profile: it decodes to Pillow's pixels without matching.
    @Test func misnumberedProfileChunksAreIgnored() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let listing = try Self.listing(in: folder)
        let split = try #require(listing.first { $0.file == "p3-split.jpg" })
        let data = try Data(contentsOf: folder.appendingPathComponent(split.file))
        let unmatched = [UInt8](try Data(contentsOf: folder.appendingPathComponent(split.unmatched)))
        var chunks: [Int] = []
        var from = data.startIndex
        while let found = data.range(of: Data("ICC_PROFILE".utf8) + [0], in: from..<data.endIndex) {
            chunks.append(found.upperBound)
            from = found.upperBound
        }
        try #require(chunks.count == 3 && chunks.map { data[$0] } == [1, 2, 3] && chunks.allSatisfy { data[$0 + 1] == 3 })
        // (chunk, byte: 0 its number, 1 the count, new value)
        for (chunk, byte, value) in [(1, 1, 4), (0, 0, 0), (2, 0, 4), (2, 0, 1)] as [(Int, Int, UInt8)] {
            var damaged = data
            damaged[chunks[chunk] + byte] = value
            let decoded = try Fixtures.packed(try VisionImage(data: damaged).buffer)
            let difference = Self.meanDifference(decoded, unmatched)
            #expect(difference == 0, "chunk \(chunk + 1), byte \(byte) set to \(value): \(difference) from the unmatched decode")
        }
    }

    /// An APP2 segment too short to hold a chunk's number and count, followed by a fill byte, is stepped over
    /// (the chunk's range was built backwards from it: a crash) and the real profile after it still applies.
    @Test func aTooShortProfileSegmentIsSteppedOver() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let listing = try Self.listing(in: folder)
        let entry = try #require(listing.first { $0.file == "p3.jpg" })
        let data = try Data(contentsOf: folder.appendingPathComponent(entry.file))
        let truth = [UInt8](try Data(contentsOf: folder.appendingPathComponent(entry.pixels)))
        // After SOI: APP2 of length 14 (its signature alone), then a fill byte 0xFF.
        let short = Data([0xFF, 0xE2, 0x00, 0x0E]) + Data("ICC_PROFILE".utf8) + [0, 0xFF]
        let damaged = data.prefix(2) + short + data.dropFirst(2)
        let decoded = try Fixtures.packed(try VisionImage(data: damaged).buffer)
        #expect(Self.meanDifference(decoded, truth) <= 1)
    }

    /// The profile readers never trust a length: every prefix of the first 4 KB of each P3 file gives its whole
    /// profile or none, and each byte of its first and last 4 KB set to 0x00 and to 0xFF gives a profile within
    /// the 4 MB read or none; nothing crashes.
    @Test func damagedHeadersNeverCrashTheProfileReaders() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let formats: [String: ImageFormat] = ["jpg": .jpeg, "png": .png, "webp": .webp, "tif": .tiff, "heic": .heif]
        for entry in try Self.listing(in: folder) where entry.analytic != nil {
            let data = try Data(contentsOf: folder.appendingPathComponent(entry.file))
            let format = try #require(formats[(entry.file as NSString).pathExtension])
            // libheif reads a HEIF's profile as it decodes; the others' is read here.
            let whole = EmbeddedColorProfile.bytes(in: data, format: format)
            #expect((whole != nil) == (format != .heif), "\(entry.file)")
            for length in 0..<min(data.count, 4096) {
                let profile = EmbeddedColorProfile.bytes(in: data.prefix(length), format: format)
                #expect(profile == nil || profile == whole, "\(entry.file) cut at \(length)")
            }
            let edges = Set(Array(0..<min(data.count, 4096)) + Array(max(0, data.count - 4096)..<data.count))
            for offset in edges.sorted() {
                for value: UInt8 in [0x00, 0xFF] {
                    var damaged = data
                    damaged[offset] = value
                    let profile = EmbeddedColorProfile.bytes(in: damaged, format: format)
                    #expect((profile?.count ?? 0) <= EmbeddedColorProfile.maximumSize)
                }
            }
        }
    }
}
