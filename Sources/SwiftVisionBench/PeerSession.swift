import Foundation

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

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Sends `request` as one line and decodes the line the peer answers.
    func answer<Answer: Decodable>(to request: String, as type: Answer.Type) throws -> Answer {
        try input.fileHandleForWriting.write(contentsOf: Data((request + "\n").utf8))
        return try line(as: Answer.self)
    }

    /// Decodes the next line the peer prints.
    func line<Line: Decodable>(as type: Line.Type) throws -> Line {
        while !pending.contains(UInt8(ascii: "\n")) {
            let more = output.fileHandleForReading.availableData
            guard !more.isEmpty else { throw Failure(description: "\(process.arguments?.first ?? "peer") ended without an answer") }
            pending += more
        }
        let end = pending.firstIndex(of: UInt8(ascii: "\n"))!
        defer { pending = Data(pending[(end + 1)...]) }
        return try JSONDecoder().decode(Line.self, from: pending[..<end])
    }
}
