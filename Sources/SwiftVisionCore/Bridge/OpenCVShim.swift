import CVisionShim
import Foundation

/// Runs one shim call and turns a failure into ``ImageError/processingFailed(_:)``.
func shimCall(_ body: () -> Int32) throws {
    guard body() == 0 else {
        throw ImageError.processingFailed(String(cString: sv_last_error()))
    }
}

extension SVImageView {
    /// A view of `height` rows of `width` pixels at `base`.
    init(base: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int, channels: Int, depth: SVDepth = SV_DEPTH_U8) {
        self.init(
            data: base.assumingMemoryBound(to: UInt8.self), width: Int32(width), height: Int32(height),
            bytesPerRow: Int32(bytesPerRow), channels: Int32(channels), depth: depth)
    }
}

extension PixelBuffer {
    /// Calls `body` with a read-only view of the interleaved pixels (the luma and chroma rows for NV12).
    func withView<Result>(_ body: (SVImageView) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBytes { raw in
            let view = SVImageView(
                base: UnsafeMutableRawPointer(mutating: raw.baseAddress!), width: width, height: format.rows(forHeight: height),
                bytesPerRow: bytesPerRow, channels: format.channelCount)
            return try body(view)
        }
    }

    /// Calls `body` with a writable view of the pixels.
    mutating func withMutableView<Result>(_ body: (SVImageView) throws -> Result) rethrows -> Result {
        let (width, height, stride, channels) = (width, format.rows(forHeight: height), bytesPerRow, format.channelCount)
        return try bytes.withUnsafeMutableBytes { raw in
            try body(SVImageView(base: raw.baseAddress!, width: width, height: height, bytesPerRow: stride, channels: channels))
        }
    }

    /// A new packed buffer of `format` filled by `body` through a writable view. Its bytes start
    /// uninitialised (zeroing them first would write every byte twice): `body` must write every pixel, as
    /// each OpenCV call the shim makes into a whole destination does.
    static func make(
        format: PixelFormat, width: Int, height: Int, _ body: (SVImageView) throws -> Void
    ) throws -> PixelBuffer {
        guard width * format.channelCount * format.rows(forHeight: height) > 0 else {
            var buffer = PixelBuffer(zeroedFormat: format, width: width, height: height)
            try buffer.withMutableView(body)
            return buffer
        }
        return try PixelBuffer(uninitializedFormat: format, width: width, height: height, writing: body)
    }

    /// A new packed buffer of `format` that `fill`, a reader's call returning a status, writes whole when it
    /// returns 0 (a decoder, a video reader): the buffer, not zeroed first, when it did; nil and the status
    /// otherwise, the buffer dropped unread.
    static func filled(
        format: PixelFormat, width: Int, height: Int, by fill: (SVImageView) -> Int32
    ) -> (buffer: PixelBuffer?, status: Int32) {
        var status: Int32 = 0
        let buffer = try? make(format: format, width: width, height: height) { view in
            status = fill(view)
            if status != 0 { throw FillFailed() }
        }
        return (buffer, status)
    }

    /// Ends a ``filled(format:width:height:by:)`` whose call did not succeed, so that its buffer is dropped.
    private struct FillFailed: Error {}

    /// A tightly packed, non-empty buffer of `format` whose bytes start uninitialised and are written by
    /// `body` through a writable view, which must write every one of them.
    private init(uninitializedFormat format: PixelFormat, width: Int, height: Int, writing body: (SVImageView) throws -> Void) rethrows {
        let (stride, rows) = (width * format.channelCount, format.rows(forHeight: height))
        self.format = format
        self.width = width
        self.height = height
        bytesPerRow = stride
        bytes = try [UInt8](unsafeUninitializedCapacity: stride * rows) { storage, count in
            try body(SVImageView(base: storage.baseAddress!, width: width, height: rows, bytesPerRow: stride, channels: format.channelCount))
            count = storage.count
        }
    }
}
