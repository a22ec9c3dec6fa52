import Foundation
import ArgumentParser
import Synchronization
import SwiftVision

/// Conventions shared by the commands that take images and videos.
enum MediaFiles {
    static let videoExtensions: Set<String> = ["mp4", "mov", "avi", "mkv", "webm", "m4v"]

    static func isVideo(_ url: URL) -> Bool {
        videoExtensions.contains(url.pathExtension.lowercased()) || isStream(url)
    }

    /// Whether `url` is a network stream (RTSP, RTMP, HTTP) rather than a file.
    static func isStream(_ url: URL) -> Bool {
        url.scheme.map { ["rtsp", "rtsps", "rtmp", "http", "https"].contains($0.lowercased()) } ?? false
    }

    /// The URL of an input: a stream's URL as given, else a file path.
    static func url(of input: String) -> URL {
        if let url = URL(string: input), isStream(url) { return url }
        return URL(fileURLWithPath: input)
    }

    /// The inputs as URLs, with `camera:N` for `--camera N`.
    static func inputs(_ paths: [String], camera: Int?) -> [String] {
        paths + (camera.map { ["camera:\($0)"] } ?? [])
    }

    /// Opens a video, a stream or (for `camera:N`) a camera.
    static func openVideo(_ url: URL) throws -> VideoReader {
        if url.scheme == "camera", let index = Int(url.absoluteString.dropFirst("camera:".count)) {
            return try VideoReader(camera: index)
        }
        return try VideoReader(url: url)
    }

    /// How an input is named in the output: a file by its path as given (as its error line names it), a
    /// stream or camera by its URL.
    static func name(of url: URL) -> String {
        url.isFileURL ? url.relativePath : url.absoluteString
    }

    /// Whether an input is read frame by frame: a video, a stream or a camera.
    static func isFrames(_ url: URL) -> Bool {
        url.scheme == "camera" || isVideo(url)
    }

    /// Starts listening for Ctrl-C when any of `inputs` is read frame by frame.
    static func prepare(_ inputs: [String]) {
        if inputs.contains(where: { $0.hasPrefix("camera:") || isVideo(url(of: $0)) }) { Interruption.install() }
    }

    /// Where `--draw OUT` puts the annotated version of `input`: OUT itself for a single input, unless
    /// OUT is a folder (an existing one, or a path ending in `/`, made as needed); in a folder, and for
    /// several inputs, a file named after the input (PNG for images, MP4 for videos). A path that is
    /// the input itself is refused: an annotated copy never overwrites what it annotates.
    static func annotatedURL(for input: URL, draw: String?, inputCount: Int) throws -> URL? {
        guard let draw else { return nil }
        let output = chosenURL(for: input, draw: draw, inputCount: inputCount)
        guard output.standardizedFileURL.resolvingSymlinksInPath() != input.standardizedFileURL.resolvingSymlinksInPath() else {
            throw CLIError.wouldOverwriteInput(output.path)
        }
        return output
    }

    private static func chosenURL(for input: URL, draw: String, inputCount: Int) -> URL {
        var isFolder: ObjCBool = false
        let namesFolder = draw.hasSuffix("/") || (FileManager.default.fileExists(atPath: draw, isDirectory: &isFolder) && isFolder.boolValue)
        guard inputCount > 1 || namesFolder else { return URL(fileURLWithPath: draw) }
        try? FileManager.default.createDirectory(atPath: draw, withIntermediateDirectories: true)
        let stem = isStream(input) ? (input.host ?? "stream") : input.deletingPathExtension().lastPathComponent
        let name = stem + (isVideo(input) ? ".mp4" : ".png")
        return URL(fileURLWithPath: draw).appendingPathComponent(name)
    }
}

/// A command-line mistake found while processing an input.
enum CLIError: Error, LocalizedError {
    /// `--draw` (or `--mask`, `--correct`) names the input file itself.
    case wouldOverwriteInput(String)

    var errorDescription: String? {
        switch self {
        case .wouldOverwriteInput(let path): "the annotated copy would overwrite its input \(path); name another file or a folder"
        }
    }
}

/// The JSON line of an input that could not be processed.
struct ErrorReport: Encodable {
    var file: String
    var error: String
}

extension MediaFiles {
    /// Runs `body` for each input; an input that fails gets an error line (JSON or stderr), and the
    /// command exits with status 1 once all inputs are done.
    static func process(_ inputs: [String], json: Bool, _ body: (URL) throws -> Void) throws {
        var failures = 0
        for input in inputs where !Interruption.isRequested {
            do {
                try body(input.hasPrefix("camera:") ? URL(string: input)! : url(of: input))
            } catch {
                failures += 1
                try reportFailure(of: input, error: error, json: json)
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// Reports that `input` (a file, or a model the command needs) failed with `error`: a JSON line
    /// `{"file","error"}` with `--json`, and a note on standard error.
    static func reportFailure(of input: String, error: any Error, json: Bool) throws {
        if json { try JSONLines.print(ErrorReport(file: input, error: error.localizedDescription)) }
        Diagnostics.note("\(input): \(error.localizedDescription)")
    }
}

/// Ctrl-C (SIGINT) or SIGTERM while frames are read: the loops stop after the frame in hand, the output
/// is flushed and the command ends normally.
enum Interruption {
    private static let requested = Atomic<Bool>(false)

    /// Whether a stop was asked for.
    static var isRequested: Bool { requested.load(ordering: .relaxed) }

    /// From now on, SIGINT and SIGTERM ask the frame loops to stop instead of killing the process. The
    /// signals are unblocked too: a process started by another may inherit them blocked.
    static func install() {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signalNumber in [SIGINT, SIGTERM] {
            sigaddset(&signals, signalNumber)
            // The handler only stores a flag, which is safe inside a signal handler.
            signal(signalNumber) { _ in Interruption.requested.store(true, ordering: .relaxed) }
        }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Flushes what `print` buffered.
    static func flush() {
        fflush(nil)
    }
}

extension MediaFiles {
    /// Runs `task` on every source as a landmark command does: photos on their own, videos, streams and the
    /// camera tracked frame by frame; each result goes to `report` and, with `--draw`, the image `annotate`
    /// makes is written.
    static func run<Task: VisionTask>(
        _ task: Task, on sources: [String], json: Bool, draw: String?, report: (TaskLine<Task.Output>) -> Void,
        annotate: (VisionImage, Task.Output) throws -> VisionImage
    ) throws {
        prepare(sources)
        defer { Interruption.flush() }
        try process(sources, json: json) { url in
            let annotated = try annotatedURL(for: url, draw: draw, inputCount: sources.count)
            if isFrames(url) {
                try processFrames(url, runner: TaskRunner(task: task, runningMode: .video), annotated: annotated, report: report, annotate: annotate)
            } else {
                let image = try VisionImage(contentsOf: url)
                let output = try task.output(for: image)
                report(TaskLine(file: name(of: url), output: output))
                if let annotated { try annotate(image, output).write(to: annotated) }
            }
        }
    }

    /// Runs `runner` over every frame of the video, stream or camera `url` until its end or Ctrl-C:
    /// `report` gets each frame's line, and with `annotated` set, `annotate` draws each frame into a
    /// video written there.
    static func processFrames<Task: VisionTask>(
        _ url: URL, runner: TaskRunner<Task>, annotated: URL?, report: (TaskLine<Task.Output>) -> Void,
        annotate: (VisionImage, Task.Output) throws -> VisionImage
    ) throws {
        let reader = try openVideo(url)
        let writer = try annotated.map {
            try VideoWriter(url: $0, width: reader.width, height: reader.height, framesPerSecond: reader.framesPerSecond)
        }
        let progress = ProgressBar(total: reader.reportedFrameCount, label: url.lastPathComponent)
        for frame in reader {
            if Interruption.isRequested { break }
            let output = try runner.run(videoFrame: frame.image, timestampInMilliseconds: frame.timestampInMilliseconds)
            report(TaskLine(file: name(of: url), frame: frame.index, timestampMs: frame.timestampInMilliseconds, output: output))
            try writer?.append(try annotate(frame.image, output))
            progress.update(frame.index + 1)
        }
        progress.finish()
        writer?.close()
        if let error = reader.error { throw error }
    }
}
