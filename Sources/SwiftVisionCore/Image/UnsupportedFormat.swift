import Foundation

/// Formats that SwiftVision recognises by their first bytes but does not read: sound files, which hold no
/// picture, and image formats outside ``ImageFormat``. Naming them turns "not an image" into a reason.
public enum UnsupportedFormat: String, Sendable, CaseIterable {
    /// MP3 audio: an ID3 tag or an MPEG audio frame header.
    case mp3 = "MP3 audio"
    /// WAV audio: a RIFF file of form `WAVE`.
    case wav = "WAV audio"
    /// FLAC audio.
    case flac = "FLAC audio"
    /// AIFF audio: an IFF file of form `AIFF` or `AIFC`.
    case aiff = "AIFF audio"
    /// AAC audio in ADTS frames.
    case aac = "AAC audio"
    /// AMR speech.
    case amr = "AMR audio"
    /// MPEG-4 audio (`.m4a`, `.m4b`, or an `.mp4` of sound alone): an ISO media file whose brand is Apple's
    /// audio brand, or whose tracks (read from the whole file: the movie box often follows the sound) include
    /// sound and no video.
    case m4a = "MPEG-4 audio (M4A)"
    /// Ogg holding Vorbis, Opus or FLAC as its first stream.
    case oggAudio = "Ogg audio"
    /// TIFF with floating-point samples (SampleFormat 3), as scientific and HDR tools write it; told by its
    /// tags, not its first bytes.
    case floatTIFF = "floating-point TIFF (SampleFormat 3)"
    /// Netpbm's floating-point PFM.
    case pfm = "PFM (floating-point Netpbm)"
    /// JPEG XL, as a bare codestream or in its container.
    case jpegXL = "JPEG XL"
    /// Photoshop documents.
    case psd = "Photoshop PSD"
    /// Sun raster images.
    case sunRaster = "Sun raster"
    /// Radiance HDR images.
    case radianceHDR = "Radiance HDR"
    /// OpenEXR images.
    case openEXR = "OpenEXR"
    /// Windows icons.
    case icon = "Windows icon"
    /// PDF documents.
    case pdf = "PDF"
    /// Truevision TGA (version 2, which ends with its signature).
    case tga = "TGA"

    /// Whether the format holds sound only.
    public var isAudio: Bool {
        switch self {
        case .mp3, .wav, .flac, .aiff, .aac, .amr, .m4a, .oggAudio: true
        default: false
        }
    }

    /// What an error message says of a file in this format.
    public var explanation: String {
        isAudio ? "\(rawValue), which holds sound only: no picture or video to read" : rawValue
    }

    /// The format of `data`, a whole file or its first bytes (a TGA is told by its last bytes, so only from
    /// the whole file); nil when it is none of these. A floating-point TIFF is told by ``ImageHeader``, from
    /// its tags.
    public init?(data: Data) {
        let bytes = ByteReader(data)
        func starts(_ text: String, at offset: Int = 0) -> Bool { bytes.matches(Array(text.utf8), at: offset) }
        let first = bytes.uint8(at: 0) ?? 0, second = bytes.uint8(at: 1) ?? 0
        if starts("ID3") || (first == 0xFF && second & 0xE0 == 0xE0 && second & 0x06 != 0) {
            self = .mp3
        } else if first == 0xFF && second & 0xF6 == 0xF0 {
            self = .aac
        } else if starts("RIFF") && starts("WAVE", at: 8) {
            self = .wav
        } else if starts("fLaC") {
            self = .flac
        } else if starts("FORM") && (starts("AIFF", at: 8) || starts("AIFC", at: 8)) {
            self = .aiff
        } else if starts("#!AMR") {
            self = .amr
        } else if starts("ftyp", at: 4),
            ["M4A ", "M4B ", "M4P "].contains(where: { starts($0, at: 8) }) || ISOMediaTracks(bytes)?.holdsSoundOnly == true
        {
            self = .m4a
        } else if starts("OggS") && ["\u{1}vorbis", "OpusHead", "\u{7F}FLAC"].contains(where: { starts($0, at: 28) }) {
            self = .oggAudio
        } else if starts("PF") || starts("Pf"), [0x0A, 0x0D, 0x20, 0x09].contains(bytes.uint8(at: 2)) {
            self = .pfm
        } else if bytes.matches([0xFF, 0x0A], at: 0) || bytes.matches([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A], at: 0) {
            self = .jpegXL
        } else if starts("8BPS") {
            self = .psd
        } else if bytes.matches([0x59, 0xA6, 0x6A, 0x95], at: 0) {
            self = .sunRaster
        } else if starts("#?RADIANCE") || starts("#?RGBE") {
            self = .radianceHDR
        } else if bytes.matches([0x76, 0x2F, 0x31, 0x01], at: 0) {
            self = .openEXR
        } else if bytes.matches([0, 0, 1, 0], at: 0), let count = bytes.uint16(at: 4, bigEndian: false), count > 0, bytes.uint8(at: 9) == 0 {
            self = .icon
        } else if starts("%PDF-") {
            self = .pdf
        } else if bytes.count >= 26, starts("TRUEVISION-XFILE.\u{0}", at: bytes.count - 18) {
            self = .tga
        } else {
            return nil
        }
    }
}
