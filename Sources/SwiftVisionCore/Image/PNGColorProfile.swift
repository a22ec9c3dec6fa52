import Foundation

/// A PNG's embedded ICC colour profile (`iCCP`), which SwiftVision never applies: decoders report
/// profiles they find invalid on standard error (libpng's "iCCP: … invalid rendering intent"), so a
/// PNG is decoded without its profile.
enum PNGColorProfile {
    /// `data` without its `iCCP` chunk, or nil when it has none (or its chunks cannot be walked, which
    /// the decoder then reports).
    static func removed(from data: Data) -> Data? {
        let signatureLength = 8
        var offset = signatureLength
        return data.withUnsafeBytes { bytes -> Data? in
            while offset + 12 <= bytes.count {
                let length = (0..<4).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
                let end = offset + 12 + length
                guard end <= bytes.count else { return nil }
                if bytes[offset + 4] == UInt8(ascii: "i"), bytes[offset + 5] == UInt8(ascii: "C"),
                    bytes[offset + 6] == UInt8(ascii: "C"), bytes[offset + 7] == UInt8(ascii: "P")
                {
                    var stripped = Data(capacity: bytes.count - (end - offset))
                    stripped.append(contentsOf: bytes[..<offset])
                    stripped.append(contentsOf: bytes[end...])
                    return stripped
                }
                if bytes[offset + 4] == UInt8(ascii: "I"), bytes[offset + 5] == UInt8(ascii: "D") { return nil }
                offset = end
            }
            return nil
        }
    }
}
