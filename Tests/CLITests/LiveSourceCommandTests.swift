import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore

/// Live sources of the command line: a network stream served on loopback, and Ctrl-C.
@Suite(.serialized) struct LiveSourceCommandTests {
    /// A video of `count` frames panning across zidane.jpg (two faces) at 25 fps: MJPEG in an AVI, `codec` in an MP4.
    static func panningVideo(_ url: URL, count: Int, codec: VideoWriter.Codec = .h264) throws {
        let photo = try Fixtures.image("zidane.jpg")
        let writer = try VideoWriter(url: url, width: 640, height: 480, framesPerSecond: 25, codec: codec)
        for index in 0..<count {
            try writer.append(try photo.cropped(to: CGRect(x: 2 * index, y: 0, width: 1100, height: 720)).resized(width: 640, height: 480))
        }
        writer.close()
    }

    /// A free TCP port on loopback.
    static func freePort() -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether a TCP connection to `port` on loopback is accepted within a fifth of a second (a connection
    /// tried while the server starts may go unanswered, and the system would try it again for seconds).
    static func isListening(_ port: Int) -> Bool {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// Runs the command line with `arguments` and the URL of `file`, served over HTTP on loopback by Python's
    /// own server, as any web server would serve it (without ranges: a reader cannot seek), once it listens.
    static func runServing(_ file: URL, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String, url: String) {
        let port = freePort()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", "-m", "http.server", "\(port)", "--bind", "127.0.0.1", "--directory", file.deletingLastPathComponent().path]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            // SIGKILL: the server inherits this test process's blocked signals, SIGTERM among them.
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        for _ in 0..<100 where !isListening(port) { Thread.sleep(forTimeInterval: 0.05) }
        let url = "http://127.0.0.1:\(port)/\(file.lastPathComponent)"
        let run = try Fixtures.run(Fixtures.executable, arguments + [url])
        return (run.status, run.output, run.errors, url)
    }

    @Test func facesFollowAVideoStreamedOverHTTP() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("pan.avi")
        try Self.panningVideo(video, count: 30)
        let run = try Self.runServing(video, ["faces", "--json"])
        let url = run.url
        #expect(run.status == 0, "\(run.output) \(run.errors)")
        let lines = Fixtures.jsonLines(run.output)
        #expect(lines.count == 30)
        #expect(lines.allSatisfy { $0["file"] as? String == url })
        let ids = lines.map { Set(($0["faces"] as? [[String: Any]] ?? []).compactMap { $0["trackingID"] as? Int }) }
        #expect(ids.allSatisfy { !$0.isEmpty } && Set(ids.joined()).count <= 2, "\(ids)")
        let timestamps = lines.compactMap { $0["timestampMs"] as? Int }
        #expect(timestamps == timestamps.sorted() && Set(timestamps).count == timestamps.count)
    }

    /// A stream that opens and ends before its first frame: an MJPEG AVI cut a hundred bytes into its frame
    /// list (`movi`), served over HTTP. The command says so in one error line, naming the stream once, and
    /// fails, instead of printing nothing and succeeding.
    @Test func aStreamThatGivesNoFrameIsAnError() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = folder.appendingPathComponent("whole.avi")
        try Self.panningVideo(whole, count: 5)
        let data = try Data(contentsOf: whole)
        let frames = try #require(data.firstRange(of: Data("movi".utf8)))
        let cut = folder.appendingPathComponent("cut.avi")
        try data.prefix(frames.upperBound + 100).write(to: cut)
        let run = try Self.runServing(cut, ["faces", "--json"])
        let message = "cannot read frame 0: the video ended before its first frame"
        #expect(run.status == 1, "\(run.output) \(run.errors)")
        let lines = Fixtures.jsonLines(run.output)
        #expect(lines.count == 1 && lines.first?["error"] as? String == message, "\(lines)")
        #expect(run.errors == "\(run.url): \(message)\n", "\(run.errors)")
    }

    /// An MPEG-4 Part 2 MP4 of 40 frames whose index follows them, as OpenCV writes it, served by a server
    /// that cannot seek: FFmpeg opens it without a frame size (an H.264 one it reads). One error line says so.
    @Test func anMP4ThatCannotBeSeekedIsAnError() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("pan.mp4")
        try Self.panningVideo(video, count: 40, codec: .mpeg4Part2)
        let data = try Data(contentsOf: video)
        let frames = try #require(data.firstRange(of: Data("mdat".utf8))), index = try #require(data.firstRange(of: Data("moov".utf8)))
        try #require(frames.lowerBound < index.lowerBound, "the index follows the frames")
        let run = try Self.runServing(video, ["faces", "--json"])
        #expect(run.status == 1, "\(run.output) \(run.errors)")
        let message = "cannot open the video: FFmpeg finds no frame size in it"
        #expect(Fixtures.jsonLines(run.output).map { $0["error"] as? String } == [message], "\(run.output)")
    }

    @Test func ctrlCEndsAVideoCleanlyWithEveryLineWritten() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("long.avi")
        try Self.panningVideo(video, count: 150)
        let process = Process()
        process.executableURL = Fixtures.executable
        process.arguments = ["faces", "--json", "--landmarks", video.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var received = Data()
        let deadline = Date().addingTimeInterval(60)
        while received.filter({ $0 == UInt8(ascii: "\n") }).count < 3, Date() < deadline {
            received += output.fileHandleForReading.availableData
        }
        kill(process.processIdentifier, SIGINT)
        received += output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let text = String(decoding: received, as: UTF8.self)
        #expect(text.hasSuffix("\n"), "the last line is complete")
        let lines = text.split(separator: "\n")
        #expect(lines.count >= 3 && lines.count < 150, "stopped early: \(lines.count) frames")
        #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
    }
}
