import Foundation
import HTTPTypes
import Hummingbird
import NIOHTTP1
import SwiftVision
import SwiftVisionCollections

/// An error the service answers with: a status and a JSON body `{"error":{"code","message"}}`.
public struct APIError: Error, Sendable, CustomStringConvertible {
    /// The HTTP status.
    public let status: HTTPResponse.Status
    /// A stable machine-readable code, such as `bad_option`.
    public let code: String
    /// What went wrong, for a person.
    public let message: String
    /// Extra headers (`Retry-After`, `WWW-Authenticate`).
    public var headers: HTTPFields = [:]

    /// An error with `status`, `code` and `message`.
    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    public var description: String { "\(status.code) \(code): \(message)" }

    static func badOption(_ message: String) -> APIError { APIError(.badRequest, "bad_option", message) }
    /// A request body over `limit` bytes.
    static func bodyTooLarge(limit: Int) -> APIError {
        APIError(.contentTooLarge, "body_too_large", "the request body is larger than the \(sizeText(limit)) the service accepts")
    }
    /// A video sent where one image is taken (by its bytes or its `video/…` type): where its frames go instead.
    static var videoUpload: APIError {
        APIError(
            .unsupportedMediaType, "not_an_image",
            "the data is a video; each request takes one image: send a video's frames, as JPEG, to the stream GET /v1/stream/{task}")
    }
    /// A request with another method than POST to `path`, which takes its images by POST.
    static func postOnly(_ path: String) -> APIError {
        var error = APIError(
            .methodNotAllowed, "method_not_allowed",
            "\(path) takes its image by POST (the image's bytes as the body, or a multipart/form-data form); GET /v1/tasks lists the tasks")
        error.headers[.allow] = "POST"
        return error
    }
    /// A request not answered within its deadline.
    static var timedOut: APIError {
        APIError(.gatewayTimeout, "timeout", "the request took longer than the service allows (--request-timeout)")
    }
    static func unknownTask(_ name: String) -> APIError {
        APIError(
            .notFound, "unknown_task",
            "no task named \(name); tasks: " + TaskRegistry.standard.entries.map(\.descriptor.name).joined(separator: ", "))
    }

    /// The service's answer to `error` thrown while handling a request.
    static func from(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError: return error
        case let error as ImageError:
            switch error {
            case .unknownFormat, .unsupportedFormat, .emptyData: return APIError(.unsupportedMediaType, "not_an_image", error.description)
            case .tooLarge: return APIError(.contentTooLarge, "image_too_large", error.description)
            default: return APIError(.unprocessableContent, "undecodable_image", error.description)
            }
        case let error as VisionTaskError:
            if case .unsupportedLanguage(let language, let installed, _) = error {
                // The command line's message names the data folder and how to install more; a client is told
                // neither where the service keeps its files nor how to change them.
                let languages = installed.isEmpty ? "none" : installed.joined(separator: ", ")
                return .badOption("this service has no text recognition data for language \(language.prefix(100)) (installed: \(languages))")
            }
            if error.isInvalidOption { return .badOption(error.description) }
            if case .nonIncreasingTimestamp = error {
                return APIError(.badRequest, "non_increasing_timestamp", error.description)
            }
            if case .tesseractNotInstalled = error {
                return APIError(.serviceUnavailable, "not_installed", error.description)
            }
            if case .cancelled = error {
                // The client left or the deadline passed: whatever is answered goes nowhere or is a 504.
                return .timedOut
            }
            return APIError(.internalServerError, "task_failed", error.description)
        case let error as ClassificationError:
            // The rest are set-up problems: the general labels' file is missing or unreadable.
            return error.isInvalidOption
                ? .badOption(error.description) : APIError(.serviceUnavailable, "not_installed", error.description)
        case let error as LiteRTError:
            // Set-up problems: name the file, never the cache's absolute path.
            switch error {
            case .modelNotFound(let path):
                return APIError(
                    .serviceUnavailable, "not_installed",
                    "the model \(URL(fileURLWithPath: path).lastPathComponent) is not installed: run `swiftvision setup`")
            case .runtimeNotInstalled, .runtimeUnusable:
                return APIError(.serviceUnavailable, "not_installed", "the LiteRT runtime is not installed or not usable: run `swiftvision setup`")
            case .incompatibleModel, .status:
                return APIError(.serviceUnavailable, "model_unusable", "a model of this task cannot be loaded: run `swiftvision setup` again")
            }
        case let error as CollectionStoreError:
            switch error {
            case .unknownCollection: return APIError(.notFound, "unknown_collection", error.description)
            case .unknownItem: return APIError(.notFound, "unknown_item", error.description)
            case .noEmbedding, .invalidName, .dimensionMismatch, .zeroVector: return .badOption(error.description)
            case .database:
                // The server's message stays in the service's log: it may name hosts, users and tables.
                return APIError(.serviceUnavailable, "collections_unavailable", "the collections database cannot answer now; try again")
            }
        case is HTTPParserError:
            return APIError(.badRequest, "bad_request", "the request is not valid HTTP/1.1")
        case let error as HTTPError where error.status == .contentTooLarge:
            return APIError(.contentTooLarge, "body_too_large", "the request body is larger than the service accepts")
        case let error as HTTPError where error.status == .notFound:
            return APIError(.notFound, "not_found", "no such endpoint; see GET /v1/tasks")
        case let error as HTTPError:
            return APIError(error.status, "http_error", error.body ?? error.status.reasonPhrase)
        default:
            return APIError(.internalServerError, "internal_error", withoutPaths(error.localizedDescription))
        }
    }

    /// `bytes` as a person reads it: `25 MB` (MB of 2²⁰ bytes, as docs/security.md counts), `4 KB`, or
    /// `400000 bytes` when it is no whole number of either.
    static func sizeText(_ bytes: Int) -> String {
        if bytes > 0, bytes.isMultiple(of: 1 << 20) { return "\(bytes >> 20) MB" }
        if bytes > 0, bytes.isMultiple(of: 1 << 10) { return "\(bytes >> 10) KB" }
        return "\(bytes) bytes"
    }

    /// `text` with every absolute path cut to its last component, so that an answer never shows where
    /// the service keeps its files.
    static func withoutPaths(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: false).map { word in
            guard let slash = word.firstIndex(of: "/"), word[slash...].dropFirst().contains("/") else { return String(word) }
            return String(word[..<slash]) + (word.split(separator: "/").last.map(String.init) ?? "")
        }.joined(separator: " ")
    }

    /// The JSON body.
    var body: Data {
        let object = ["error": ["code": code, "message": message]]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data(#"{"error":{"code":"internal_error","message":""}}"#.utf8)
    }

    /// The response carrying the error.
    var response: Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// Answers every error thrown below it, and every unknown path, with a JSON error body.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let answer = APIError.from(error)
            if answer.status.code >= 500 {
                context.logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            }
            return answer.response
        }
    }
}
