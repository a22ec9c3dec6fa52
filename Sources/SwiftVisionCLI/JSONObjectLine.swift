/// One JSON object of string and number members, as `JSONLines.print` writes an `Encodable` value with the same
/// members (`JSONEncoder`, sorted keys, slashes unescaped): keys in UTF-8 order, nil members left out, strings
/// escaped as `JSONEncoder` escapes them. `info --json` uses it so a run does not map `JSONEncoder`'s code
/// (0.6 MiB of Foundation's pages for one line).
struct JSONObjectLine {
    private var members: [(key: String, json: String)] = []

    /// Adds a string member, unless `value` is nil.
    mutating func append(_ key: String, _ value: String?) {
        if let value { members.append((key, Self.quoted(value))) }
    }

    /// Adds an integer member, unless `value` is nil.
    mutating func append(_ key: String, _ value: Int?) {
        if let value { members.append((key, String(value))) }
    }

    /// Adds a number member, unless `value` is nil or not finite (JSON has no infinity or NaN).
    mutating func append(_ key: String, _ value: Double?) {
        if let value, value.isFinite { members.append((key, "\(value)")) }
    }

    /// The object on one line, with its newline.
    var text: String {
        let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        return "{" + sorted.map { Self.quoted($0.key) + ":" + $0.json }.joined(separator: ",") + "}\n"
    }

    /// `value` in quotes: quote and backslash escaped, control characters as `\b \f \n \r \t` or `\u00xx`
    /// (lowercase hex), everything else (slashes, DEL, non-ASCII) as its UTF-8.
    private static func quoted(_ value: String) -> String {
        let backslash = UInt8(ascii: "\\")
        var bytes = [UInt8(ascii: "\"")]
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), backslash: bytes += [backslash, byte]
            case 0x08: bytes += [backslash, UInt8(ascii: "b")]
            case 0x0c: bytes += [backslash, UInt8(ascii: "f")]
            case 0x0a: bytes += [backslash, UInt8(ascii: "n")]
            case 0x0d: bytes += [backslash, UInt8(ascii: "r")]
            case 0x09: bytes += [backslash, UInt8(ascii: "t")]
            case 0..<0x20: bytes += [backslash, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hexDigit(byte >> 4), hexDigit(byte & 0xf)]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
