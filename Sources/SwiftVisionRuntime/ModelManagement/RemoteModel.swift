import Foundation
import SwiftVisionCore

/// A `.tflite` model to download over HTTP(S) into the model cache, as ML Kit's `RemoteModel`.
/// ``ModelManager`` downloads it; once downloaded it is found by its ``name``.
public struct RemoteModel: Sendable, Hashable, Codable {
    /// The model's name: its file name in the cache, without `.tflite`. Letters, digits, `.`, `_` and `-`.
    public let name: String
    /// Where to download it from.
    public let url: URL
    /// The SHA-256 of the file in lowercase hexadecimal, checked before the model is used; nil to skip.
    public let sha256: String?

    /// A model called `name`, downloaded from `url` and checked against `sha256` when given.
    public init(name: String, url: URL, sha256: String? = nil) {
        self.name = name
        self.url = url
        self.sha256 = sha256?.lowercased()
    }

    /// Whether ``name`` is usable as a file name.
    var hasValidName: Bool {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "._-"))
        return !name.isEmpty && !name.hasPrefix(".") && name.unicodeScalars.allSatisfy(allowed.contains)
    }
}
