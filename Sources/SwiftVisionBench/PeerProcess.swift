import Foundation

/// Runs the Python peer scripts of `Benchmarks/`.
enum PeerProcess {
    /// Runs `script` to its end and decodes the one JSON object it prints.
    static func run<Result: Decodable>(python: URL, script: String, arguments: [String], as type: Result.Type) throws -> Result {
        let (output, _) = try run(python: python, script: script, arguments: arguments, timeLimit: nil)
        return try JSONDecoder().decode(Result.self, from: output)
    }

    /// Runs `script` for at most `timeLimit` seconds and decodes each JSON line it printed; the flag
    /// tells whether it had to be killed.
    static func lines<Line: Decodable>(
        python: URL, script: String, arguments: [String], timeLimit: Double, as type: Line.Type
    ) throws -> (lines: [Line], timedOut: Bool) {
        let (output, timedOut) = try run(python: python, script: script, arguments: arguments, timeLimit: timeLimit)
        let lines = try output.split(separator: UInt8(ascii: "\n")).map { try JSONDecoder().decode(Line.self, from: Data($0)) }
        return (lines, timedOut)
    }

    /// Runs `executable` with `arguments` to its end and returns what it printed on standard output.
    static func standardOutput(of executable: URL, arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    /// The path of `script` in `Benchmarks/`.
    static func path(of script: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Benchmarks").appendingPathComponent(script).path
    }

    private static func run(python: URL, script: String, arguments: [String], timeLimit: Double?) throws -> (Data, Bool) {
        let process = Process()
        process.executableURL = python
        process.arguments = [path(of: script)] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        var timedOut = false
        if let timeLimit, exited.wait(timeout: .now() + timeLimit) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (data, timedOut)
    }
}
