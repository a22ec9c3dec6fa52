import Foundation
import MLKitVision
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

/// SwiftVision's image in every test file, including those that import ML Kit's modules, whose `VisionImage`
/// is ML Kit's class.
typealias VisionImage = SwiftVisionCore.VisionImage

/// `work`'s result; an ML Kit error is rethrown as the SwiftVision error it carries, which tests name.
func unwrappingMLKitError<Result>(_ work: () throws -> Result) throws -> Result {
    do {
        return try work()
    } catch let error as NSError where error.domain == mlKitErrorDomain {
        throw (error.userInfo[NSUnderlyingErrorKey] as? any Error) ?? error
    }
}

/// Shared fixtures: the installed cache (`make test` runs `swiftvision setup --samples` first).
enum Fixtures {
    static let cache = SwiftVisionCache.current
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func sample(_ name: String) throws -> URL {
        let url = cache.sample(named: name)
        try #require(FileManager.default.fileExists(atPath: url.path), "missing \(url.path): run `make test`")
        return url
    }

    static func model(_ name: String) throws -> URL {
        let url = cache.model(named: name)
        try #require(FileManager.default.fileExists(atPath: url.path), "missing \(url.path): run `make test`")
        return url
    }

    static func image(_ name: String) throws -> VisionImage {
        try VisionImage(contentsOf: try sample(name))
    }

    /// A fresh temporary folder.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("swiftvision-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `executable` (with `environment` added to this process's) and returns its exit status and output.
    /// A child ended by a signal has status 128 + the signal, as in a shell; one still running after
    /// `timeout` seconds is killed (137).
    static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval? = nil
    ) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
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

    /// The shared libraries an ELF file names as needed itself, from `readelf -d`.
    static func neededLibraries(of file: URL) throws -> [String] {
        let readelf = try run(URL(fileURLWithPath: "/usr/bin/readelf"), ["-d", file.path])
        try #require(readelf.status == 0, "readelf: \(readelf.errors)")
        return readelf.output.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
            line.split(separator: "[").last?.split(separator: "]").first.map(String.init)
        }
    }

    /// What the dynamic loader maps for `executable` at start, transitively: `ldd`'s listing.
    static func mappedLibraries(of executable: URL) throws -> String {
        let ldd = try run(URL(fileURLWithPath: "/usr/bin/ldd"), [executable.path])
        try #require(ldd.status == 0, "ldd: \(ldd.errors)")
        return ldd.output
    }

    /// A JPEG of `image`'s stored pixels carrying an EXIF APP1 segment with `orientation`.
    static func jpeg(storing image: VisionImage, orientation: ImageOrientation) throws -> Data {
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
    static func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) throws -> Double {
        try #require(a.width == b.width && a.height == b.height && a.format == b.format)
        let a = try packed(a), b = try packed(b)
        let total = zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(a.count)
    }

    /// The pixel bytes without row padding.
    static func packed(_ buffer: PixelBuffer) throws -> [UInt8] {
        let rowBytes = buffer.width * buffer.format.channelCount
        return (0..<buffer.height).flatMap { row in buffer.bytes[row * buffer.bytesPerRow..<row * buffer.bytesPerRow + rowBytes] }
    }

    /// The pixel at (`x`, `y`) of a packed or padded interleaved buffer.
    static func pixel(_ buffer: PixelBuffer, _ x: Int, _ y: Int) -> [UInt8] {
        let start = y * buffer.bytesPerRow + x * buffer.format.channelCount
        return Array(buffer.bytes[start..<start + buffer.format.channelCount])
    }

    /// The frames of a video as PNG files `frame000.png`, … in `folder`, for a reference script.
    static func pngFiles(_ frames: [VisionImage], in folder: URL) throws -> [URL] {
        try frames.enumerated().map { index, frame in
            let file = folder.appendingPathComponent(String(format: "frame%03d.png", index))
            try frame.write(to: file)
            return file
        }
    }
}

extension ImageOrientation {
    /// The orientation that undoes this one.
    var inverse: ImageOrientation {
        switch self {
        case .right: .left
        case .left: .right
        default: self
        }
    }
}
