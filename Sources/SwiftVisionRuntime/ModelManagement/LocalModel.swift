import Foundation
import SwiftVisionCore

/// A `.tflite` model file on this machine, as ML Kit's `LocalModel`: a custom classifier or embedder
/// bundled with the application. Its labels and input normalisation come from its TFLite metadata.
public struct LocalModel: Sendable, Hashable {
    /// The path of the model file.
    public let path: String

    /// The model file at `path`.
    public init(path: String) {
        self.path = path
    }

    /// The model file at `url`.
    public init(url: URL) {
        path = url.path
    }

    /// The file's URL.
    public var url: URL { URL(fileURLWithPath: path) }
}
