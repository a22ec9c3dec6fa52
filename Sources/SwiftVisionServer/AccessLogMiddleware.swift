import Foundation
import Hummingbird
import Logging
import SwiftVisionCore

/// Logs one structured line per request: method, path (without the query, which may carry a token),
/// client, status and duration, with the request's id in the logger's metadata. Health checks and
/// metrics scrapes log at `debug`, so that probes do not fill the log.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let took = ContinuousClock.now - start
        let path = request.uri.path
        let level: Logger.Level = path == "/healthz" || path == "/metrics" ? .debug : .info
        context.logger.log(
            level: level, "request",
            metadata: [
                "method": "\(request.method.rawValue)", "path": "\(path)", "client": "\(context.client)",
                "status": "\(response.status.code)",
                "duration_ms": "\(took.milliseconds(decimals: 2))",
            ])
        return response
    }
}
