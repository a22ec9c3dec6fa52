import Foundation
import SwiftVisionCore

/// The validators of a file a server sent (RFC 9110 §8.8): what a later request hands back to learn
/// whether the server's file changed since.
struct ModelValidators: Codable, Hashable, Sendable {
    /// The `ETag` header, quotes included.
    var etag: String?
    /// The `Last-Modified` header, an HTTP date.
    var lastModified: String?

    /// The validators of `response`; nil when it has none.
    init?(_ response: HTTPResponse) {
        etag = response.value(forHTTPHeaderField: "ETag")
        lastModified = response.value(forHTTPHeaderField: "Last-Modified")
        guard etag != nil || lastModified != nil else { return nil }
    }

    /// The validator that names the file in `If-Range`: the ETag, else the date.
    var fileIdentity: String { etag ?? lastModified ?? "" }

    /// Makes a request with `headers` conditional: the server answers `304 Not Modified` while its file is this one.
    func makeConditional(_ headers: inout [String: String]) {
        if let etag { headers["If-None-Match"] = etag }
        if let lastModified { headers["If-Modified-Since"] = lastModified }
    }
}

/// What `NAME.json` beside a downloaded model holds: the model and the validators of the file in
/// place. Its keys are ``RemoteModel``'s plus `etag` and `lastModified`, so it reads as a
/// `RemoteModel` too, and a record written before validators were kept reads as one without them.
struct ModelRecord: Codable, Equatable {
    /// The model as it was asked for.
    var model: RemoteModel
    /// The validators of the file in place; nil when its server sent none.
    var validators: ModelValidators?

    init(model: RemoteModel, validators: ModelValidators?) {
        self.model = model
        self.validators = validators
    }

    init(from decoder: any Decoder) throws {
        model = try RemoteModel(from: decoder)
        let validators = try ModelValidators(from: decoder)
        self.validators = validators.etag == nil && validators.lastModified == nil ? nil : validators
    }

    func encode(to encoder: any Encoder) throws {
        try model.encode(to: encoder)
        try validators?.encode(to: encoder)
    }
}
