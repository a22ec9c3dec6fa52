import CCurl
import Foundation

/// One HTTP GET through libcurl, run on the calling thread until it ends. Redirects are not followed: a
/// redirect is a response like any other, for the caller to check and follow.
enum CurlTransfer {
    /// Why a transfer failed in the network or the protocol: libcurl's message.
    struct Failure: Error {
        let message: String
    }

    /// Fetches `url` (`http` or `https`) with the request headers `headers`. `onResponse` gets the head of
    /// the final response (after any `1xx`), `onBody` its body piece by piece; an error either throws stops
    /// the transfer and is rethrown. A transfer that does not connect within `limits.stallSeconds`, or moves
    /// fewer than `limits.stallBytesPerSecond` bytes a second over that time, is stopped as stalled. Throws
    /// ``Failure`` when the transfer fails, and ``ModelManagerError/transferFailed(reason:)`` when libcurl
    /// cannot be loaded or set up.
    static func get(
        _ url: URL, headers: [String: String], limits: DownloadLimits, onResponse: @escaping (HTTPResponse) throws -> Void,
        onBody: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let curl = try CurlLibrary.shared()
        guard let handle = curl.easyInit() else { throw ModelManagerError.transferFailed(reason: "curl_easy_init failed") }
        defer { curl.easyCleanup(handle) }
        var list: UnsafeMutablePointer<curl_slist>?
        defer { curl.slistFreeAll(list) }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            guard let longer = curl.slistAppend(list, "\(name): \(value)") else {
                throw ModelManagerError.transferFailed(reason: "curl_slist_append failed")
            }
            list = longer
        }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        defer { errorBuffer.deallocate() }
        errorBuffer.initialize(to: 0)
        let context = Context(onResponse: onResponse, onBody: onBody)
        let contextPointer = Unmanaged.passUnretained(context).toOpaque()

        func check(_ option: CURLoption, _ code: CURLcode) throws {
            guard code == 0 else {
                throw ModelManagerError.transferFailed(reason: "libcurl refused option \(option.rawValue): \(curl.message(code))")
            }
        }
        func set(_ option: CURLoption, _ value: Int) throws {
            try check(option, swiftvision_curl_setopt_long(curl.easySetopt, handle, option, value))
        }
        func set(_ option: CURLoption, _ value: UnsafeRawPointer?) throws {
            try check(option, swiftvision_curl_setopt_pointer(curl.easySetopt, handle, option, value))
        }
        func set(_ option: CURLoption, _ value: String) throws {
            // libcurl copies the strings it is given.
            try value.withCString { try set(option, UnsafeRawPointer($0)) }
        }
        try set(CURLOPT_URL, url.absoluteString)
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_FOLLOWLOCATION, 0)
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        try set(CURLOPT_CONNECTTIMEOUT, limits.stallSeconds)
        try set(CURLOPT_LOW_SPEED_LIMIT, limits.stallBytesPerSecond)
        try set(CURLOPT_LOW_SPEED_TIME, limits.stallSeconds)
        try set(CURLOPT_USERAGENT, "SwiftVision")
        try set(CURLOPT_HTTPHEADER, UnsafeRawPointer(list))
        try set(CURLOPT_ERRORBUFFER, UnsafeRawPointer(errorBuffer))
        try set(CURLOPT_HEADERDATA, UnsafeRawPointer(contextPointer))
        try set(CURLOPT_WRITEDATA, UnsafeRawPointer(contextPointer))
        try check(CURLOPT_HEADERFUNCTION, swiftvision_curl_setopt_callback(curl.easySetopt, handle, CURLOPT_HEADERFUNCTION, headerReceived))
        try check(CURLOPT_WRITEFUNCTION, swiftvision_curl_setopt_callback(curl.easySetopt, handle, CURLOPT_WRITEFUNCTION, bodyReceived))

        let code = withExtendedLifetime(context) { curl.easyPerform(handle) }
        if let failure = context.failure { throw failure }
        guard code == 0 else {
            let message = errorBuffer.pointee != 0 ? String(cString: errorBuffer) : curl.message(code)
            guard code == CURLE_OPERATION_TIMEDOUT else { throw Failure(message: message) }
            let stall = "less than \(limits.stallBytesPerSecond) bytes a second for \(limits.stallSeconds) s"
            throw Failure(message: context.responded
                ? "the transfer stalled: \(stall)" : "the server stalled before its answer: no connection or \(stall) (\(message))")
        }
        guard context.responded else { throw Failure(message: "\(url.absoluteString) did not answer over HTTP") }
    }

    /// libcurl's header callback: one line of a response's head at a time.
    private static let headerReceived: CurlDataCallback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self)
        return Unmanaged<Context>.fromOpaque(context).takeUnretainedValue().receive(line: line) ? size * count : 0
    }

    /// libcurl's write callback: a piece of the body.
    private static let bodyReceived: CurlDataCallback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
        return Unmanaged<Context>.fromOpaque(context).takeUnretainedValue().receive(body: bytes) ? size * count : 0
    }

    /// What the callbacks of one transfer share: the head read so far and the first error thrown.
    private final class Context {
        let onResponse: (HTTPResponse) throws -> Void
        let onBody: (UnsafeRawBufferPointer) throws -> Void
        var status = 0
        var headers: [String: String] = [:]
        var responded = false
        var failure: (any Error)?

        init(onResponse: @escaping (HTTPResponse) throws -> Void, onBody: @escaping (UnsafeRawBufferPointer) throws -> Void) {
            self.onResponse = onResponse
            self.onBody = onBody
        }

        /// Takes a status line, a header, or the empty line that ends a head; false stops the transfer.
        func receive(line: String) -> Bool {
            let line = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.hasPrefix("HTTP/") {
                status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
                headers = [:]
            } else if line.isEmpty {
                // A 1xx head is followed by the real one; trailers after the body end with another empty line.
                guard status >= 200, !responded else { return true }
                responded = true
                return run { try onResponse(HTTPResponse(status: status, headers: headers)) }
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            return true
        }

        /// Hands a piece of the body on; false stops the transfer.
        func receive(body: UnsafeRawBufferPointer) -> Bool {
            guard responded else { return false }
            return run { try onBody(body) }
        }

        private func run(_ step: () throws -> Void) -> Bool {
            guard failure == nil else { return false }
            do {
                try step()
                return true
            } catch {
                failure = error
                return false
            }
        }
    }
}
