import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

import SwiftVision
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// The HTTP server of `Tests/Python/Reference/model_server.py` on 127.0.0.1, serving one file (and, once
/// published, a newer one); stopped on deinit.
public final class TestModelServer {
    /// One request the server answered.
    public struct Request {
        public let path: String
        public let range: String?
        public let ifNoneMatch: String?
        public let ifModifiedSince: String?
        /// The response's status.
        public let status: Int
        /// The body bytes sent.
        public let bytes: Int
    }

    private let process = Process()
    public let port: Int

    public init(serving file: URL, newer: URL? = nil) throws {
        process.executableURL = Fixtures.cache.root.appendingPathComponent("venv/bin/python")
        process.arguments = [Fixtures.packageRoot.appendingPathComponent("Tests/Python/Reference/model_server.py").path, file.path]
            + (newer.map { [$0.path] } ?? [])
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var firstLine = Data()
        while !firstLine.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            firstLine += chunk
        }
        guard let port = Int(String(decoding: firstLine, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            throw FixtureError(message: "model_server.py did not print its port")
        }
        self.port = port
    }

    deinit {
        // Foundation starts children with SIGTERM blocked: stop the server with SIGKILL.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// The requests the server received so far.
    public func requests() async throws -> [Request] {
        let (data, _) = try await URLSession.shared.data(from: url("/requests"))
        let list = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return list.map {
            Request(
                path: $0["path"] as? String ?? "", range: $0["range"] as? String, ifNoneMatch: $0["ifNoneMatch"] as? String,
                ifModifiedSince: $0["ifModifiedSince"] as? String, status: $0["status"] as? Int ?? 0, bytes: $0["bytes"] as? Int ?? 0)
        }
    }

    /// Lets the server answer the 304s of `/held/model.tflite`, which wait until this call.
    public func release() async throws {
        _ = try await URLSession.shared.data(from: url("/release"))
    }

    /// Makes the server serve the newer file from now on.
    public func publishNewer() async throws {
        _ = try await URLSession.shared.data(from: url("/publish"))
    }
}
