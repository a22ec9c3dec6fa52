import Foundation
import SwiftVisionCore

/// A `.tflite` model to download into the model cache, as ML Kit's `RemoteModel`: either from an address
/// of its own, or by name from the model host (``ModelHost``, `swiftvision serve --models`), as ML Kit's
/// Firebase-hosted models. ``ModelManager`` downloads it; once downloaded it is found by its ``name``.
public struct RemoteModel: Sendable, Hashable, Codable {
    /// The model's name: its file name in the cache (and on the model host), without `.tflite`. Letters,
    /// digits, `.`, `_` and `-`.
    public let name: String
    /// Where to download it from; nil for a model the model host serves by its ``name``.
    public let url: URL?
    /// The SHA-256 of the file in lowercase hexadecimal, checked before the model is used; nil to skip
    /// (a model host's files are checked against the SHA-256 the host sends).
    public let sha256: String?

    /// A model called `name`, downloaded from `url` (nil: from the model host, by `name`) and checked
    /// against `sha256` when given.
    public init(name: String, url: URL? = nil, sha256: String? = nil) {
        self.name = name
        self.url = url
        self.sha256 = sha256?.lowercased()
    }

    /// Whether ``name`` is usable as a file name.
    var hasValidName: Bool { ModelHost.isValidModelName(name) }
}
