import Foundation
import SwiftVision

/// A Python peer script of `Benchmarks/` kept running, asked one line at a time on its standard input
/// and answering each with one JSON line, so that the bench can alternate its own runs with the peer's
/// run by run: both sides then meet the same load of a busy host.
final class PeerSession {
    /// The peer's answer ended or could not be read.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var pending = Data()

    /// Starts `script` with `arguments`. A peer that has ended makes writing to it fail with an error
    /// rather than end the bench with SIGPIPE.
    init(python: URL, script: String, arguments: [String]) throws {
        signal(SIGPIPE, SIG_IGN)
        process.executableURL = python
        process.arguments = [PeerProcess.path(of: script)] + arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Starts the MediaPipe peer `script` with the tools venv's Python and reads its greeting: the session
    /// and the MediaPipe version the peer runs.
    static func mediaPipe(script: String, cache: SwiftVisionCache) throws -> (session: PeerSession, version: String) {
        let session = try PeerSession(python: cache.root.appendingPathComponent("tools-venv/bin/python"), script: script, arguments: [])
        return (session, try session.line(as: MediaPipeGreeting.self).mediapipeVersion)
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Sends `request` as one line and decodes the line the peer answers.
    func answer<Answer: Decodable>(to request: String, as type: Answer.Type) throws -> Answer {
        try input.fileHandleForWriting.write(contentsOf: Data((request + "\n").utf8))
        return try line(as: Answer.self)
    }

    /// Decodes the next line the peer prints. Each piece read is searched for the line's end once, so that
    /// a long line (the mesh points of every frame of a video) costs its length, not its length squared.
    func line<Line: Decodable>(as type: Line.Type) throws -> Line {
        let newline = UInt8(ascii: "\n")
        var end = pending.firstIndex(of: newline)
        while end == nil {
            let more = output.fileHandleForReading.availableData
            guard !more.isEmpty else { throw Failure(description: "\(process.arguments?.first ?? "peer") ended without an answer") }
            let offset = pending.endIndex
            pending += more
            end = more.firstIndex(of: newline).map { offset + ($0 - more.startIndex) }
        }
        let found = end!
        defer { pending = Data(pending[(found + 1)...]) }
        return try JSONDecoder().decode(Line.self, from: pending[..<found])
    }
}
