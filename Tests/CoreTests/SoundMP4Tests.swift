import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionCore

/// An MP4 of sound alone is named as sound from its tracks' handler boxes, and the box walk never trusts a
/// size: the files come from Debian's `ffmpeg`, with `ffprobe`'s list of streams as the truth of what each
/// holds (Tests/Python/Reference/audio_mp4.py).
@Suite struct SoundMP4Tests {
    static func files() throws -> (folder: URL, streams: [String: [String]]) {
        let folder = try Fixtures.temporaryDirectory()
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: try Fixtures.referenceOutput("audio_mp4.py", [folder.path])) as? [[String: Any]])
        let streams = Dictionary(uniqueKeysWithValues: manifest.map { ($0["file"] as? String ?? "", $0["streams"] as? [String] ?? []) })
        try #require(streams.count == 3, "\(manifest)")
        return (folder, streams)
    }

    @Test func tracksSayWhetherAnMP4HoldsAPicture() throws {
        let (folder, streams) = try Self.files()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (file, kinds) in streams {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            let tracks = try #require(ISOMediaTracks(ByteReader(data)), "\(file)")
            #expect(tracks.handlerTypes.map { $0 == "vide" ? "video" : $0 == "soun" ? "audio" : $0 } == kinds, "\(file)")
            let expected: ImageError = kinds.contains("video") ? .unknownFormat : .unsupportedFormat(.m4a)
            #expect(throws: expected) { try VisionImage(data: data) }
        }
    }

    /// Every prefix of the sound files is named as sound exactly when its movie box is whole, and the files
    /// with each 4 bytes from the movie box on set to sizes that run past the parent, fall below the header or
    /// call for the 64-bit form are named as sound or not at all; nothing crashes or reads out of bounds.
    @Test func damagedBoxSizesAreNeverTrusted() throws {
        let (folder, _) = try Self.files()
        defer { try? FileManager.default.removeItem(at: folder) }
        for file in ["tone.mp4", "tone-faststart.mp4"] {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            let moov = try #require(data.range(of: Data("moov".utf8))).lowerBound - 4
            let moovEnd = moov + Int(try #require(ByteReader(data).uint32(at: moov, bigEndian: true)))
            for length in 0...data.count {
                // Named exactly when the movie box is whole.
                let found = UnsupportedFormat(data: data.prefix(length))
                #expect(found == (length >= moovEnd ? .m4a : nil), "\(file) cut at \(length)")
            }
            for offset in stride(from: moov, to: data.count - 4, by: 1) {
                for size: UInt32 in [0, 1, 7, 0xFFFF_FFFF, UInt32(data.count - offset + 1)] {
                    var damaged = data
                    withUnsafeBytes(of: size.bigEndian) { damaged.replaceSubrange(offset..<offset + 4, with: $0) }
                    let found = UnsupportedFormat(data: damaged)
                    #expect(found == nil || found == .m4a, "\(file): size \(size) at \(offset)")
                }
            }
        }
    }
}
