import Foundation
import Testing

import SwiftVision
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

#if canImport(MLKitCommon)
import let MLKitCommon.mlKitErrorDomain

/// `work`'s result; an ML Kit error is rethrown as the SwiftVision error it carries, which tests name.
public func unwrappingMLKitError<Result>(_ work: () throws -> Result) throws -> Result {
    do {
        return try work()
    } catch let error as NSError where error.domain == mlKitErrorDomain {
        throw (error.userInfo[NSUnderlyingErrorKey] as? any Error) ?? error
    }
}
#endif

/// A fixture that could not be made: a reference script failed or a helper server did not start.
public struct FixtureError: Error, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// The message.
    public var description: String { message }
}

/// Shared fixtures: the installed cache (`make test` runs `swiftvision setup --samples` first).
public enum Fixtures {
    public static let cache = SwiftVisionCache.current
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The debug build's `swiftvision`, which the command-line suites run.
    public static let executable = packageRoot.appendingPathComponent(".build/debug/swiftvision")

    /// The JSON objects among `output`'s lines (a command's `--json` output).
    public static func jsonLines(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    public static func sample(_ name: String) throws -> URL {
        let url = cache.sample(named: name)
        try #require(FileManager.default.fileExists(atPath: url.path), "missing \(url.path): run `make test`")
        return url
    }

    public static func model(_ name: String) throws -> URL {
        let url = cache.model(named: name)
        try #require(FileManager.default.fileExists(atPath: url.path), "missing \(url.path): run `make test`")
        return url
    }

    public static func image(_ name: String) throws -> VisionImage {
        try VisionImage(contentsOf: try sample(name))
    }

    /// The setting that keeps a command's progress lines (written every 10 s off a terminal) out of what a
    /// test reads: on a loaded machine a run the tests expect to be quiet can pass 10 s.
    public static let quietProgress = ["SWIFTVISION_PROGRESS_SECONDS": "3600"]

    /// A fresh temporary folder, inside this process's ``ScratchFolder`` (removed when the process exits).
    public static func temporaryDirectory() throws -> URL {
        let url = ScratchFolder.root.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `executable` (with `environment` added to this process's, and `input`, when given, written to its
    /// standard input through a pipe) and returns its exit status and output. A child ended by a signal has
    /// status 128 + the signal, as in a shell; one still running after `timeout` seconds is killed (137).
    /// Progress lines are held back for an hour (``quietProgress``) unless `environment` says otherwise.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval? = nil,
        input: Data? = nil
    ) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(quietProgress) { $1 }.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let standardInput = input.map { _ in Pipe() }
        if let standardInput { process.standardInput = standardInput }
        try process.run()
        if let standardInput, let input {
            DispatchQueue.global().async {
                try? standardInput.fileHandleForWriting.write(contentsOf: input)
                try? standardInput.fileHandleForWriting.close()
            }
        }
        let pid = process.processIdentifier
        let killer = DispatchWorkItem { kill(pid, SIGKILL) }
        if let timeout { DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer) }
        defer { killer.cancel() }
        // Both pipes are read at once, so that a child filling one of them never blocks.
        nonisolated(unsafe) var errorData = Data()
        let errorsRead = DispatchGroup()
        DispatchQueue.global().async(group: errorsRead) { errorData = errors.fileHandleForReading.readDataToEndOfFile() }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        errorsRead.wait()
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return (status, String(decoding: data, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }

    /// Runs `executable` with `arguments` on a terminal of its own (util-linux's `script` gives it one and
    /// copies what it writes there into a file in `folder`) and returns its exit status and everything the
    /// terminal received, standard output and error together, with script's own "Script started on …" and
    /// "Script done on …" lines.
    public static func runOnTerminal(_ executable: URL, _ arguments: [String], in folder: URL) throws -> (status: Int32, terminal: String) {
        let quoted = ([executable.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let typescript = folder.appendingPathComponent("typescript-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", quoted.joined(separator: " "), typescript.path]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: typescript, encoding: .utf8))
    }

    /// The shared libraries an ELF file names as needed itself, from `readelf -d`.
    public static func neededLibraries(of file: URL) throws -> [String] {
        let readelf = try run(URL(fileURLWithPath: "/usr/bin/readelf"), ["-d", file.path])
        try #require(readelf.status == 0, "readelf: \(readelf.errors)")
        return readelf.output.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
            line.split(separator: "[").last?.split(separator: "]").first.map(String.init)
        }
    }

    /// What the dynamic loader maps for `executable` at start, transitively: `ldd`'s listing.
    public static func mappedLibraries(of executable: URL) throws -> String {
        let ldd = try run(URL(fileURLWithPath: "/usr/bin/ldd"), [executable.path])
        try #require(ldd.status == 0, "ldd: \(ldd.errors)")
        return ldd.output
    }

    /// A JPEG of `image`'s stored pixels carrying an EXIF APP1 segment with `orientation`.
    public static func jpeg(storing image: VisionImage, orientation: ImageOrientation) throws -> Data {
        var stored = image
        stored.orientation = .up
        let plain = try stored.encoded(as: .jpeg(quality: 95))
        var tiff: [UInt8] = Array("MM".utf8) + [0x00, 0x2A, 0, 0, 0, 8]  // big-endian header, first directory at 8
        tiff += [0x00, 0x01]  // one entry
        tiff += [0x01, 0x12, 0x00, 0x03, 0, 0, 0, 1, 0x00, orientation.rawValue, 0, 0]  // Orientation, SHORT, 1 value
        tiff += [0, 0, 0, 0]  // no next directory
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return plain.prefix(2) + Data(segment) + plain.dropFirst(2)
    }

    /// Mean absolute difference of two images' pixels of the same size and format.
    public static func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) throws -> Double {
        try #require(a.width == b.width && a.height == b.height && a.format == b.format)
        let a = try packed(a), b = try packed(b)
        let total = zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(a.count)
    }

    /// The pixel bytes without row padding.
    public static func packed(_ buffer: PixelBuffer) throws -> [UInt8] {
        let rowBytes = buffer.width * buffer.format.channelCount
        return (0..<buffer.height).flatMap { row in buffer.bytes[row * buffer.bytesPerRow..<row * buffer.bytesPerRow + rowBytes] }
    }

    /// The pixel at (`x`, `y`) of a packed or padded interleaved buffer.
    public static func pixel(_ buffer: PixelBuffer, _ x: Int, _ y: Int) -> [UInt8] {
        let start = y * buffer.bytesPerRow + x * buffer.format.channelCount
        return Array(buffer.bytes[start..<start + buffer.format.channelCount])
    }

    /// The frames of a video as PNG files `frame000.png`, … in `folder`, for a reference script.
    public static func pngFiles(_ frames: [VisionImage], in folder: URL) throws -> [URL] {
        try frames.enumerated().map { index, frame in
            let file = folder.appendingPathComponent(String(format: "frame%03d.png", index))
            try frame.write(to: file)
            return file
        }
    }

    /// Paints `patch` into `frame` with its top-left corner at (`x`, `y`), clipped to the frame.
    public static func paste(_ patch: PixelBuffer, into frame: inout PixelBuffer, x: Int, y: Int) throws {
        var canvas = try ImageCanvas(image: VisionImage(buffer: frame))
        try canvas.drawImage(VisionImage(buffer: patch), at: CGPoint(x: x, y: y))
        frame = canvas.image.buffer
    }

    /// The words of the sample page.png's first paragraph, as printed (read from the page).
    public static let pageWords = """
        Region-based segmentation Let us first determine markers of the coins and the background. These markers \
        are pixels that we can label unambiguously as either object or background. Here, the markers are found at \
        the two extreme parts of the histogram of grey values:
        """.split(separator: " ").map(String.init)
}

extension ImageOrientation {
    /// The orientation that undoes this one.
    public var inverse: ImageOrientation {
        switch self {
        case .right: .left
        case .left: .right
        default: self
        }
    }
}
