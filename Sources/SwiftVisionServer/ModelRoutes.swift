import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SwiftVision

/// The model host: `GET /v1/models` lists the `.tflite` files of `--models DIR` (name, size, SHA-256),
/// `GET` and `HEAD /v1/models/{name}` serve one of them, for ML Kit's `FirebaseModelSource(name:)` on
/// Linux (`ModelManager`, `SWIFTVISION_MODEL_HOST`). Every request needs the models' own token
/// (`Authorization: Bearer TOKEN`, compared in constant time), separate from the service's `--token`. A
/// model carries its SHA-256 as a strong `ETag` and in `X-Model-SHA256`; `If-None-Match` gets a `304`,
/// and one `Range` (`bytes=A-B`, `A-`, `-N`, honoured while `If-Range` names the same file) a `206`.
enum ModelRoutes {
    /// The largest piece of a file sent at once.
    static let chunkBytes = 1 << 16

    static func add(to router: Router<ServiceRequestContext>, configuration: ServerConfiguration) {
        let host = configuration.models.flatMap { folder in
            configuration.modelsToken.map { (folder: try? ModelFolder(folder), token: $0) }
        }
        @Sendable func folder(for request: Request) throws -> ModelFolder {
            guard let host else {
                throw APIError(.forbidden, "models_not_enabled", "this service hosts no models: start it with --models DIR")
            }
            guard TokenMiddleware<ServiceRequestContext>.matches(request.headers[.authorization], "Bearer " + host.token) else {
                var error = APIError(.unauthorized, "unauthorized", "the model host needs its token: Authorization: Bearer TOKEN")
                error.headers[.wwwAuthenticate] = "Bearer realm=\"swiftvision-models\""
                throw error
            }
            guard let folder = host.folder else {
                throw APIError(.serviceUnavailable, "models_unavailable", "the models folder cannot be read")
            }
            return folder
        }
        router.get("v1/models") { request, _ in
            let models = try folder(for: request)
            let entries: [ModelFolder.Entry]
            do {
                entries = try models.list()
            } catch {
                throw APIError(.serviceUnavailable, "models_unavailable", "the models folder cannot be read")
            }
            let body = try JSONEncoder.sorted.encode(["models": entries])
            return Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-cache"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
        router.get("v1/models/:name") { request, context in
            try answer(request, file: try model(context.parameters.get("name"), in: try folder(for: request)), withBody: true)
        }
        router.head("v1/models/:name") { request, context in
            try answer(request, file: try model(context.parameters.get("name"), in: try folder(for: request)), withBody: false)
        }
    }

    /// The model `name` names (as the path holds it, not percent-decoded), open.
    static func model(_ name: String?, in folder: ModelFolder) throws -> ModelFolder.OpenFile {
        let name = name ?? ""
        do {
            guard let file = try folder.open(name) else {
                throw APIError(.notFound, "unknown_model", "no model named \(name.prefix(ModelHost.maximumNameLength)); GET /v1/models lists them")
            }
            return file
        } catch let error as ModelFolderError {
            switch error {
            case .invalidName: throw APIError(.badRequest, "bad_model_name", error.description)
            case .notAFolder, .unreadable: throw APIError(.serviceUnavailable, "models_unavailable", error.description)
            }
        }
    }

    /// The answer to a `GET` (or, without the body, a `HEAD`) of `file`: `304`, `206`, `416` or `200`.
    static func answer(_ request: Request, file: ModelFolder.OpenFile, withBody: Bool) throws -> Response {
        let etag = "\"\(file.sha256)\""
        var headers: HTTPFields = [
            .eTag: etag, HTTPField.Name(ModelHost.checksumHeader)!: file.sha256, .acceptRanges: "bytes", .cacheControl: "no-cache",
        ]
        if let condition = request.headers[.ifNoneMatch], matches(condition, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        var status = HTTPResponse.Status.ok
        var range = 0..<file.size
        let ifRange = request.headers[.ifRange]
        if let header = request.headers[.range], ifRange == nil || ifRange == etag {
            switch ByteRange(header, size: file.size) {
            case .whole: break
            case .part(let part):
                status = .partialContent
                range = part
                headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(file.size)"
            case .unsatisfiable:
                var error = APIError(.rangeNotSatisfiable, "range_not_satisfiable", "the range lies past the file's \(file.size) bytes")
                error.headers[.contentRange] = "bytes */\(file.size)"
                throw error
            }
        }
        headers[.contentType] = "application/octet-stream"
        headers[.contentLength] = String(range.count)
        guard withBody else { return Response(status: status, headers: headers) }
        let body = ResponseBody(contentLength: range.count) { [range] writer in
            var offset = range.lowerBound
            while offset < range.upperBound {
                let bytes = try file.read(at: offset, count: min(chunkBytes, range.upperBound - offset))
                guard !bytes.isEmpty else { throw ModelFolderError.unreadable("the file ended early") }
                try await writer.write(ByteBuffer(bytes: bytes))
                offset += bytes.count
            }
            try await writer.finish(nil)
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// Whether an `If-None-Match` value names `etag` (or is `*`), by the weak comparison RFC 9110 asks for.
    static func matches(_ condition: String, etag: String) -> Bool {
        condition.split(separator: ",").contains { tag in
            let tag = tag.trimmingCharacters(in: .whitespaces)
            return tag == "*" || (tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag) == etag
        }
    }
}

/// One `Range` header of `bytes`, as the model host honours it: a single range; anything else is
/// answered with the whole file.
enum ByteRange: Equatable {
    case whole
    case part(Range<Int>)
    case unsatisfiable

    init(_ header: String, size: Int) {
        let header = header.trimmingCharacters(in: .whitespaces)
        guard header.hasPrefix("bytes="), !header.contains(",") else {
            self = .whole
            return
        }
        let bounds = header.dropFirst("bytes=".count).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard bounds.count == 2 else {
            self = .whole
            return
        }
        switch (Int(bounds[0]), Int(bounds[1])) {
        case (let first?, nil) where bounds[1].isEmpty && first >= 0:
            self = first < size ? .part(first..<size) : .unsatisfiable
        case (let first?, let last?) where first >= 0 && last >= first:
            self = first < size ? .part(first..<min(last + 1, size)) : .unsatisfiable
        case (nil, let suffix?) where bounds[0].isEmpty && suffix >= 0:
            self = suffix > 0 && size > 0 ? .part(max(0, size - suffix)..<size) : .unsatisfiable
        default:
            self = .whole
        }
    }
}

extension JSONEncoder {
    /// An encoder with sorted keys.
    fileprivate static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

extension OpenAPIDocument {
    /// `/v1/models` and `/v1/models/{name}`.
    static func modelPaths() -> [String: Any] {
        let name: [[String: Any]] = [
            [
                "name": "name", "in": "path", "required": true,
                "schema": ["type": "string", "pattern": "^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$"],
                "description": "the file's name in the models folder, without .tflite",
            ]
        ]
        let common: [String: Any] = [
            "400": errorResponse("a path with control characters, or a name no model can have"),
            "401": errorResponse("missing or wrong models token"),
            "403": errorResponse("no models hosted (--models)"),
            "503": errorResponse("the models folder or file cannot be read"),
        ]
        let checksum: [String: Any] = [
            "ETag": ["description": "the file's SHA-256, quoted: a strong validator", "schema": ["type": "string"]],
            ModelHost.checksumHeader: ["description": "the file's SHA-256, lowercase hexadecimal", "schema": ["type": "string"]],
        ]
        let file: [String: Any] = ["application/octet-stream": ["schema": ["type": "string", "format": "binary"]]]
        let conditions: [[String: Any]] = name + ["If-None-Match", "Range", "If-Range"].map {
            ["name": $0, "in": "header", "required": false, "schema": ["type": "string"]]
        }
        func answers(body: Bool) -> [String: Any] {
            common.merging([
                "200": ["description": "the model file", "headers": checksum, "content": body ? file : [:]],
                "206": ["description": "the range asked for (one range, bytes=A-B, A- or -N)", "headers": checksum, "content": body ? file : [:]],
                "304": ["description": "the file is the one If-None-Match names", "headers": checksum],
                "404": errorResponse("no such model"),
                "416": errorResponse("the range lies past the end of the file"),
            ]) { $1 }
        }
        let entry: [String: Any] = [
            "type": "object", "required": ["name", "size", "sha256"],
            "properties": ["name": ["type": "string"], "size": ["type": "integer", "minimum": 0], "sha256": ["type": "string"]],
        ]
        return [
            "/v1/models": [
                "get": [
                    "operationId": "models", "summary": "The hosted models: name, size in bytes and SHA-256",
                    "responses": common.merging([
                        "200": jsonResponse(
                            "the models",
                            ["type": "object", "required": ["models"], "properties": ["models": ["type": "array", "items": entry]]])
                    ]) { $1 },
                ]
            ],
            "/v1/models/{name}": [
                "get": [
                    "operationId": "model", "summary": "A hosted model file (FirebaseModelSource(name:) on Linux)",
                    "parameters": conditions, "responses": answers(body: true),
                ],
                "head": [
                    "operationId": "model_head", "summary": "A hosted model's headers: size, ETag and SHA-256",
                    "parameters": conditions, "responses": answers(body: false),
                ],
            ],
        ]
    }
}
