import Foundation
import SwiftVisionCore
import Synchronization

/// A server that hosts models by name, as Firebase hosts ML Kit's custom models: `swiftvision serve
/// --models DIR` serves `DIR/NAME.tflite` at `GET /v1/models/NAME` to clients that send its token, with
/// the file's SHA-256 as a strong `ETag` and in `X-Model-SHA256`. A ``RemoteModel`` without an address
/// (ML Kit's `CustomRemoteModel(remoteModelSource: FirebaseModelSource(name:))`) is downloaded from it.
public struct ModelHost: Sendable, Hashable {
    /// The host's base address, such as `https://models.example` or `http://127.0.0.1:8080`.
    public var url: URL
    /// The bearer token the host asks for; nil to send none.
    public var token: String?

    /// The host at `url`, sent `token` as `Authorization: Bearer TOKEN` when given.
    public init(url: URL, token: String? = nil) {
        self.url = url
        self.token = token
    }

    /// The host that `SWIFTVISION_MODEL_HOST` (a base address) and `SWIFTVISION_MODEL_TOKEN` name in
    /// `environment`; nil when the first is unset, empty or not an address.
    public init?(environment: [String: String]) {
        guard let address = environment["SWIFTVISION_MODEL_HOST"], !address.isEmpty,
            let url = URL(string: address), url.scheme != nil, url.host != nil
        else { return nil }
        let token = environment["SWIFTVISION_MODEL_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        self.init(url: url, token: token)
    }

    /// The address of the model `name` on this host: `URL/v1/models/NAME`.
    public func modelURL(named name: String) -> URL {
        url.appendingPathComponent("v1/models", isDirectory: true).appendingPathComponent(name)
    }

    /// The header that response carries the file's SHA-256 in, lowercase hexadecimal.
    public static let checksumHeader = "X-Model-SHA256"

    /// The longest model name a host serves.
    public static let maximumNameLength = 128

    /// Whether `name` can name a model: 1–128 letters, digits, `.`, `_` and `-` (ASCII), not starting with `.`.
    public static func isValidModelName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= maximumNameLength && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
    }
}
