import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SwiftVision

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
            case .unknownFormat, .emptyData: return APIError(.unsupportedMediaType, "not_an_image", error.description)
            case .tooLarge: return APIError(.contentTooLarge, "image_too_large", error.description)
            default: return APIError(.unprocessableContent, "undecodable_image", error.description)
            }
        case let error as VisionTaskError:
            if error.isInvalidOption { return .badOption(error.description) }
            if case .nonIncreasingTimestamp = error {
                return APIError(.badRequest, "non_increasing_timestamp", error.description)
            }
            if case .tesseractNotInstalled = error {
                return APIError(.serviceUnavailable, "not_installed", error.description)
            }
            return APIError(.internalServerError, "task_failed", error.description)
        case let error as ImageLabelerError:
            // The rest are set-up problems: the general labels' file is missing or unreadable.
            return error.isInvalidOption
                ? .badOption(error.description) : APIError(.serviceUnavailable, "not_installed", error.description)
        case is NIOTooManyBytesError:
            return APIError(.contentTooLarge, "body_too_large", "the request body is larger than the service accepts")
        case let error as HTTPError where error.status == .contentTooLarge:
            return APIError(.contentTooLarge, "body_too_large", "the request body is larger than the service accepts")
        case let error as HTTPError where error.status == .notFound:
            return APIError(.notFound, "not_found", "no such endpoint; see GET /v1/tasks")
        case let error as HTTPError:
            return APIError(error.status, "http_error", error.body ?? error.status.reasonPhrase)
        default:
            return APIError(.internalServerError, "internal_error", error.localizedDescription)
        }
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
