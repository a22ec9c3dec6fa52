import Foundation
import SwiftVisionCore

/// One HTTP download into a `.partial` file that survives interruptions: the bytes received are
/// kept, with the server's validator (ETag or Last-Modified) beside them, and the next transfer of
/// the same URL asks only for the rest (`Range` with `If-Range`). A server that ignores the range,
/// or whose file changed, sends the whole file again and the partial file starts over. Given the
/// validators of a file already in place, the request is conditional, and a `304 Not Modified`
/// ends the transfer without a byte. Redirects are followed only to addresses models may come from, and
/// a token goes only to the source's own origin.
final class ResumableTransfer: @unchecked Sendable {
    /// What is known about a partial file, stored beside it.
    private struct PartialState: Codable {
        var url: URL
        var validators: ModelValidators
    }

    /// How a transfer ended.
    enum Outcome: Equatable {
        /// The server's file is the one in place (`304 Not Modified`); nothing was transferred.
        case notModified
        /// `partial` holds the whole file, which has these validators (nil when the server sent none) and,
        /// by the server's ``ModelHost/checksumHeader``, this SHA-256 (nil when it sent none).
        case downloaded(ModelValidators?, checksum: String?)
    }

    private let source: URL
    private let token: String?
    private let partial: URL
    private let limits: DownloadLimits
    private let onProgress: @Sendable (ModelDownloadProgress) -> Void
    // The fields below are touched only by the thread that runs the transfer.
    private var current: URL
    private var redirect: URL?
    private var file: FileHandle?
    private var received: Int64 = 0
    private var expected: Int64?
    private var isConditional = false
    private var notModified = false
    private var validators: ModelValidators?
    private var checksum: String?

    /// Downloads `source` into `partial` within `limits`, reporting progress through `onProgress`; sends
    /// `token`, when given, as `Authorization: Bearer TOKEN` to the source's origin (not to other origins
    /// it redirects to).
    init(
        source: URL, token: String? = nil, partial: URL, limits: DownloadLimits,
        onProgress: @escaping @Sendable (ModelDownloadProgress) -> Void
    ) {
        self.source = source
        self.token = token
        self.partial = partial
        self.limits = limits
        self.onProgress = onProgress
        current = source
    }

    /// The file beside `partial` that remembers where its bytes came from.
    static func stateFile(for partial: URL) -> URL { partial.appendingPathExtension("json") }

    /// The most redirects a download follows.
    static let maximumRedirects = 10

    /// Whether models may come from `url`: `https`, or `http` to this machine (tests, local mirrors).
    static func isAllowed(_ url: URL) -> Bool {
        switch url.scheme?.lowercased() {
        case "https": true
        case "http": ["127.0.0.1", "localhost", "::1", "[::1]"].contains(url.host?.lowercased() ?? "")
        default: false
        }
    }

    /// Runs the transfer on a thread of its own; returns when `partial` holds the whole file, or, when
    /// `installed` (the validators of the file in place) still match the server's file, at once with
    /// `.notModified`. `conditions` change nothing on Linux (see ``ModelDownloadConditions``).
    func run(conditions: ModelDownloadConditions, unlessMatching installed: ModelValidators? = nil) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try self.transfer(unlessMatching: installed) })
            }
        }
    }

    /// Requests the file, following allowed redirects, and writes what comes into `partial`.
    private func transfer(unlessMatching installed: ModelValidators?) throws -> Outcome {
        var headers: [String: String] = [:]
        if let kept = resumableBytes() {
            headers["Range"] = "bytes=\(kept.count)-"
            headers["If-Range"] = kept.validators.fileIdentity
        }
        installed?.makeConditional(&headers)
        isConditional = installed != nil
        for _ in 0...Self.maximumRedirects {
            redirect = nil
            defer {
                try? file?.close()
                file = nil
            }
            var request = headers
            if let token, Self.origin(of: current) == Self.origin(of: source) { request["Authorization"] = "Bearer " + token }
            do {
                try CurlTransfer.get(current, headers: request, limits: limits, onResponse: start(with:), onBody: write)
            } catch let failure as CurlTransfer.Failure {
                throw ModelManagerError.transferFailed(reason: "\(failure.message) after \(received) bytes")
            }
            guard let target = redirect else { return try outcome() }
            guard Self.isAllowed(target) else { throw ModelManagerError.insecureURL(target) }
            current = target
        }
        throw ModelManagerError.transferFailed(reason: "\(source.absoluteString) redirects more than \(Self.maximumRedirects) times")
    }

    /// How the transfer that just ended went.
    private func outcome() throws -> Outcome {
        if notModified { return .notModified }
        if let expected, received != expected {
            throw ModelManagerError.transferFailed(reason: "the connection closed after \(received) of \(expected) bytes")
        }
        return .downloaded(validators, checksum: checksum)
    }

    /// The scheme, host and port of `url`, lower case.
    private static func origin(of url: URL) -> String {
        "\(url.scheme?.lowercased() ?? "")://\(url.host?.lowercased() ?? ""):\(url.port.map(String.init) ?? "")"
    }

    /// The size and validators of a partial file of this URL that can be resumed, else nil.
    private func resumableBytes() -> (count: Int64, validators: ModelValidators)? {
        guard let data = try? Data(contentsOf: Self.stateFile(for: partial)),
            let state = try? JSONDecoder().decode(PartialState.self, from: data), state.url == source,
            let size = (try? FileManager.default.attributesOfItem(atPath: partial.path))?[.size] as? Int64, size > 0
        else { return nil }
        return (size, state.validators)
    }

    /// Appends a piece of the body to the partial file, within the size a model may have; a body that runs
    /// past it is discarded, as a retry would only run past it again.
    private func write(_ data: UnsafeRawBufferPointer) throws {
        guard let file else { return }
        guard received + Int64(data.count) <= limits.maximumBytes else {
            try refuse(declaredSize: nil)
        }
        do {
            try file.write(contentsOf: data)
        } catch {
            throw ModelManagerError.transferFailed(reason: "cannot write \(partial.path): \(error.localizedDescription)")
        }
        received += Int64(data.count)
        onProgress(ModelDownloadProgress(completedBytes: received, totalBytes: expected))
    }

    /// Opens the partial file for the response: appends to it for a matching `206`, starts it over for
    /// a `200`, leaves it alone for the `304` of a conditional request, and notes where a redirect leads.
    private func start(with http: HTTPResponse) throws {
        let manager = FileManager.default
        let resumable = resumableBytes()
        let kept = resumable?.count ?? 0
        checksum = http.value(forHTTPHeaderField: ModelHost.checksumHeader)?.lowercased()
        switch http.status {
        case 304 where isConditional:
            notModified = true
            return
        case 301, 302, 303, 307, 308:
            guard let location = http.value(forHTTPHeaderField: "Location"),
                let target = URL(string: location, relativeTo: current)?.absoluteURL
            else { throw ModelManagerError.httpStatus(http.status, url: source) }
            redirect = target
            return
        case 206:
            guard let range = http.value(forHTTPHeaderField: "Content-Range").flatMap(ContentRange.init),
                range.start == kept
            else {
                try? manager.removeItem(at: partial)
                throw ModelManagerError.transferFailed(reason: "the server resumed at the wrong place; the partial file was discarded")
            }
            if let total = range.total, total > limits.maximumBytes { try refuse(declaredSize: total) }
            file = try FileHandle(forWritingTo: partial)
            try file?.seekToEnd()
            received = kept
            expected = range.total
            validators = ModelValidators(http) ?? resumable?.validators
        case 200:
            if let declared = http.expectedContentLength, declared > limits.maximumBytes { try refuse(declaredSize: declared) }
            try? manager.removeItem(at: Self.stateFile(for: partial))
            guard manager.createFile(atPath: partial.path, contents: nil) else {
                throw ModelManagerError.transferFailed(reason: "cannot create \(partial.path)")
            }
            file = try FileHandle(forWritingTo: partial)
            received = 0
            expected = http.expectedContentLength
            validators = ModelValidators(http)
            if let validators {
                let state = try JSONEncoder().encode(PartialState(url: source, validators: validators))
                try state.write(to: Self.stateFile(for: partial), options: .atomic)
            }
        default:
            throw ModelManagerError.httpStatus(http.status, url: source)
        }
        onProgress(ModelDownloadProgress(completedBytes: received, totalBytes: expected))
    }

    /// Removes the partial file and its state, and throws ``ModelManagerError/tooLarge(limit:declared:)``:
    /// the server's file is larger than a model may be, by the size it declared or, when nil, by its body.
    private func refuse(declaredSize: Int64?) throws -> Never {
        try? FileManager.default.removeItem(at: partial)
        try? FileManager.default.removeItem(at: Self.stateFile(for: partial))
        throw ModelManagerError.tooLarge(limit: limits.maximumBytes, declared: declaredSize)
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
