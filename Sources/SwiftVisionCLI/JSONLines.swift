import Foundation

/// Prints one JSON object per line on standard output.
enum JSONLines {
    static func print<Value: Encodable>(_ value: Value) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let line = try encoder.encode(value)
        FileHandle.standardOutput.write(line + Data("\n".utf8))
    }
}

/// Writes progress and warnings to standard error, leaving standard output to results.
enum Diagnostics {
    static func note(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
