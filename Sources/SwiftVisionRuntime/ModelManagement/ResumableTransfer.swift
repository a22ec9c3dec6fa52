import Foundation
import SwiftVisionCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP download into a `.partial` file that survives interruptions: the bytes received are
/// kept, with the server's validator (ETag or Last-Modified) beside them, and the next transfer of
/// the same URL asks only for the rest (`Range` with `If-Range`). A server that ignores the range,
/// or whose file changed, sends the whole file again and the partial file starts over. Given the
/// validators of a file already in place, the request is conditional, and a `304 Not Modified`
/// ends the transfer without a byte.
final class ResumableTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// What is known about a partial file, stored beside it.
    private struct PartialState: Codable {
        var url: URL
        var validators: ModelValidators
    }

    /// How a transfer ended.
    enum Outcome: Equatable {
        /// The server's file is the one in place (`304 Not Modified`); nothing was transferred.
        case notModified
        /// `partial` holds the whole file, which has these validators (nil when the server sent none).
        case downloaded(ModelValidators?)
    }

    private let source: URL
    private let partial: URL
    private let onProgress: @Sendable (ModelDownloadProgress) -> Void
    // The fields below are touched only on the session's serial delegate queue.
    private var file: FileHandle?
    private var received: Int64 = 0
    private var expected: Int64?
    private var failure: ModelManagerError?
    private var isConditional = false
    private var notModified = false
    private var validators: ModelValidators?
    private var continuation: CheckedContinuation<Outcome, any Error>?

    /// Downloads `source` into `partial`, reporting progress through `onProgress`.
    init(source: URL, partial: URL, onProgress: @escaping @Sendable (ModelDownloadProgress) -> Void) {
        self.source = source
        self.partial = partial
        self.onProgress = onProgress
    }

    /// The file beside `partial` that remembers where its bytes came from.
    static func stateFile(for partial: URL) -> URL { partial.appendingPathExtension("json") }

    /// The largest model a download accepts.
    static let maximumBytes: Int64 = 1 << 30

    /// Whether models may come from `url`: `https`, or `http` to this machine (tests, local mirrors).
    static func isAllowed(_ url: URL) -> Bool {
        switch url.scheme?.lowercased() {
        case "https": true
        case "http": ["127.0.0.1", "localhost", "::1", "[::1]"].contains(url.host?.lowercased() ?? "")
        default: false
        }
    }

    /// Runs the transfer; returns when `partial` holds the whole file, or, when `installed` (the
    /// validators of the file in place) still match the server's file, at once with `.notModified`.
    func run(conditions: ModelDownloadConditions, unlessMatching installed: ModelValidators? = nil) async throws -> Outcome {
        var request = URLRequest(url: source)
        let kept = resumableBytes()
        if let kept {
            request.setValue("bytes=\(kept.count)-", forHTTPHeaderField: "Range")
            request.setValue(kept.validators.fileIdentity, forHTTPHeaderField: "If-Range")
        }
        installed?.makeConditional(&request)
        isConditional = installed != nil
        let configuration = URLSessionConfiguration.ephemeral
        configuration.allowsCellularAccess = conditions.allowsCellularAccess
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        return try await withCheckedThrowingContinuation { continuation in
            queue.addOperation {
                self.continuation = continuation
                task.resume()
            }
        }
    }

    /// The size and validators of a partial file of this URL that can be resumed, else nil.
    private func resumableBytes() -> (count: Int64, validators: ModelValidators)? {
        guard let data = try? Data(contentsOf: Self.stateFile(for: partial)),
            let state = try? JSONDecoder().decode(PartialState.self, from: data), state.url == source,
            let size = (try? FileManager.default.attributesOfItem(atPath: partial.path))?[.size] as? Int64, size > 0
        else { return nil }
        return (size, state.validators)
    }

    // MARK: URLSessionDataDelegate

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        // A refused redirect delivers the redirect's own response: the refusal is the outcome.
        guard failure == nil else { return completionHandler(.cancel) }
        do {
            try start(with: response)
            completionHandler(.allow)
        } catch {
            failure = error as? ModelManagerError ?? .transferFailed(reason: error.localizedDescription)
            completionHandler(.cancel)
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let target = request.url, Self.isAllowed(target) else {
            failure = .insecureURL(request.url ?? source)
            completionHandler(nil)
            task.cancel()
            return
        }
        completionHandler(request)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard failure == nil, let file else { return }
        guard received + Int64(data.count) <= Self.maximumBytes else {
            failure = .transferFailed(reason: "the file is larger than the \(Self.maximumBytes >> 20) MiB a model may be")
            dataTask.cancel()
            return
        }
        do {
            try file.write(contentsOf: data)
            received += Int64(data.count)
            onProgress(ModelDownloadProgress(completedBytes: received, totalBytes: expected))
        } catch {
            failure = .transferFailed(reason: "cannot write \(partial.path): \(error.localizedDescription)")
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        try? file?.close()
        file = nil
        let outcome: ModelManagerError?
        if let failure {
            outcome = failure
        } else if let error {
            outcome = .transferFailed(reason: "\(error.localizedDescription) after \(received) bytes")
        } else if let expected, received != expected {
            outcome = .transferFailed(reason: "the connection closed after \(received) of \(expected) bytes")
        } else {
            outcome = nil
        }
        if let outcome {
            continuation?.resume(throwing: outcome)
        } else {
            continuation?.resume(returning: notModified ? .notModified : .downloaded(validators))
        }
        continuation = nil
    }

    /// Opens the partial file for the response: appends to it for a matching `206`, starts it over for
    /// a `200`, leaves it alone for the `304` of a conditional request.
    private func start(with response: URLResponse) throws {
        guard let http = response as? HTTPURLResponse else {
            throw ModelManagerError.transferFailed(reason: "\(source.absoluteString) did not answer over HTTP")
        }
        let manager = FileManager.default
        let resumable = resumableBytes()
        let kept = resumable?.count ?? 0
        switch http.statusCode {
        case 304 where isConditional:
            notModified = true
            return
        case 206:
            guard let range = http.value(forHTTPHeaderField: "Content-Range").flatMap(ContentRange.init),
                range.start == kept
            else {
                try? manager.removeItem(at: partial)
                throw ModelManagerError.transferFailed(reason: "the server resumed at the wrong place; the partial file was discarded")
            }
            file = try FileHandle(forWritingTo: partial)
            try file?.seekToEnd()
            received = kept
            expected = range.total
            validators = ModelValidators(http) ?? resumable?.validators
        case 200:
            try? manager.removeItem(at: Self.stateFile(for: partial))
            guard manager.createFile(atPath: partial.path, contents: nil) else {
                throw ModelManagerError.transferFailed(reason: "cannot create \(partial.path)")
            }
            file = try FileHandle(forWritingTo: partial)
            received = 0
            expected = http.expectedContentLength >= 0 ? http.expectedContentLength : nil
            validators = ModelValidators(http)
            if let validators {
                let state = try JSONEncoder().encode(PartialState(url: source, validators: validators))
                try state.write(to: Self.stateFile(for: partial), options: .atomic)
            }
        default:
            throw ModelManagerError.httpStatus(http.statusCode, url: source)
        }
        onProgress(ModelDownloadProgress(completedBytes: received, totalBytes: expected))
    }
}

/// The `Content-Range` header of a partial response: `bytes START-END/TOTAL`.
private struct ContentRange {
    let start: Int64
    let total: Int64?

    init?(_ header: String) {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0] == "bytes" else { return nil }
        let rangeAndTotal = parts[1].split(separator: "/", maxSplits: 1)
        guard let first = rangeAndTotal.first?.split(separator: "-").first, let start = Int64(first) else { return nil }
        self.start = start
        total = rangeAndTotal.count == 2 ? Int64(rangeAndTotal[1]) : nil
    }
}
