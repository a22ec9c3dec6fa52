import CVisionShim

/// The image and video codecs' own messages about corrupt data ("libpng error: IDAT: CRC error",
/// "Corrupt JPEG data: …", FFmpeg's "moov atom not found"), which they print on standard error beside
/// the error SwiftVision returns. Off unless turned on; a user's `OPENCV_FFMPEG_LOGLEVEL` is kept.
public enum CodecMessages {
    /// Lets the codecs' messages reach standard error (`--verbose`), or keeps them quiet.
    public static func show(_ shown: Bool) {
        sv_set_codec_messages(shown ? 1 : 0)
    }

    /// Whether the messages are let through; the libraries loaded later (Leptonica) follow it too.
    package static var areShown: Bool { sv_codec_messages_shown() != 0 }
}
