import CVisionShim
import Foundation

/// Video container formats, recognised by the first bytes of a file, for videos whose name does not say
/// what they are (a camcorder's `.MTS`, a screen recorder's `.ts`, a file saved without an extension).
public enum VideoContainer: String, Sendable, CaseIterable {
    /// ISO base media (MP4, 3GP) and QuickTime (MOV): a `ftyp` box that names no HEIF or AVIF image
    /// brand, or one of QuickTime's top-level atoms.
    case isoMedia
    /// Matroska and WebM: the EBML header.
    case matroska
    /// AVI: a RIFF file of form `AVI `.
    case avi
    /// MPEG transport stream: 188-byte packets (192 in a Blu-ray or AVCHD `.m2ts`), each opening with 0x47.
    case mpegTransportStream
    /// MPEG program stream (`.mpg`, DVD `.vob`): a pack header.
    case mpegProgramStream
    /// Windows Media (ASF): its header object's GUID.
    case asf
    /// Flash video.
    case flv
    /// Ogg (`.ogv`); an Ogg file may also hold only audio, which then fails to open as a video.
    case ogg

    /// The container that `header`, a file's first bytes (at least 400 for transport streams), opens;
    /// nil for anything else, images included.
    public init?(header: Data) {
        guard !header.isEmpty else { return nil }
        let bytes = ByteReader(header)
        if bytes.matches(Array("ftyp".utf8), at: 4) {
            // As the image decoder tells HEIF and AVIF images (and image sequences) by their brands.
            let heif = header.withUnsafeBytes { sv_heif_kind($0.baseAddress!.assumingMemoryBound(to: UInt8.self), $0.count) }
            guard heif == Int32(SV_HEIF_NONE.rawValue) else { return nil }
            self = .isoMedia
        } else if ["moov", "mdat", "wide", "free", "skip", "pnot"].contains(where: { bytes.matches(Array($0.utf8), at: 4) }) {
            self = .isoMedia
        } else if bytes.matches([0x1A, 0x45, 0xDF, 0xA3], at: 0) {
            self = .matroska
        } else if bytes.matches(Array("RIFF".utf8), at: 0), bytes.matches(Array("AVI ".utf8), at: 8) {
            self = .avi
        } else if [0, 4].contains(where: { start in
            let packet = start == 0 ? 188 : 192
            return (0..<3).allSatisfy { bytes.uint8(at: start + $0 * packet) == 0x47 }
        }) {
            self = .mpegTransportStream
        } else if bytes.matches([0x00, 0x00, 0x01, 0xBA], at: 0) {
            self = .mpegProgramStream
        } else if bytes.matches([0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11], at: 0) {
            self = .asf
        } else if bytes.matches(Array("FLV".utf8) + [0x01], at: 0) {
            self = .flv
        } else if bytes.matches(Array("OggS".utf8), at: 0) {
            self = .ogg
        } else {
            return nil
        }
    }

    /// The container of the file at `url`, from its first bytes; nil when it opens no video container or
    /// cannot be read.
    public init?(contentsOf url: URL) {
        guard let header = FileReadability.firstBytes(of: url, count: 512) else { return nil }
        self.init(header: header)
    }
}
