import Foundation
import ArgumentParser
import Synchronization
import SwiftVision
import SwiftVisionCollections

/// Conventions shared by the commands that take images and videos.
enum MediaFiles {
    /// The extensions of the videos that folders are searched for: phones' (`mp4`, `mov`, `3gp`), cameras'
    /// and camcorders' (`avi`, `mts`, `m2ts`), the web's and screen recorders' (`webm`, `mkv`, `flv`), and
    /// older ones (`mpg`, `wmv`). A transport stream's `.ts`, which TypeScript shares, counts only when given.
    static let videoExtensions: Set<String> = [
        "mp4", "mov", "avi", "mkv", "webm", "m4v", "3gp", "3g2", "mts", "m2ts", "mpg", "mpeg", "vob", "wmv", "asf", "flv", "ogv",
    ]

    /// Whether `url` is read frame by frame: a stream, a file with a video's extension, or a regular file
    /// with another name (not an image's) whose first bytes open a video container.
    static func isVideo(_ url: URL) -> Bool {
        if isStream(url) { return true }
        return url != standardInput && CollectionIndexer.isVideo(url, videoExtensions: videoExtensions)
    }

    /// Throws ``CLIError/videoForImageCommand(command:)`` when `url` is a video, before a byte of it
    /// is read: a command that reads images alone would otherwise read a phone's video of gigabytes whole
    /// only to say that it is no image. A path that is no regular file (a folder named `x.mp4`, a missing
    /// file) is left to the reading, which says what it is.
    static func requireImage(_ url: URL, for command: String) throws {
        var status = stat()
        if url.isFileURL, stat(url.path, &status) != 0 || status.st_mode & S_IFMT != S_IFREG { return }
        if isVideo(url) { throw CLIError.videoForImageCommand(command: command) }
    }

    /// Whether `url` is a network stream (RTSP, RTMP, HTTP) rather than a file.
    static func isStream(_ url: URL) -> Bool {
        url.scheme.map { ["rtsp", "rtsps", "rtmp", "http", "https"].contains($0.lowercased()) } ?? false
    }

    /// The URL of an input: a stream's URL as given, standard input for `-` (as Unix tools take it), else a
    /// file path.
    static func url(of input: String) -> URL {
        if let url = URL(string: input), isStream(url) { return url }
        return input == "-" ? standardInput : URL(fileURLWithPath: input)
    }

    /// Standard input, read to its end as one image (a pipe or a redirected file).
    static let standardInput = URL(fileURLWithPath: "/dev/stdin")

    /// The inputs as URLs, with `camera:N` for `--camera N`.
    static func inputs(_ paths: [String], camera: Int?) -> [String] {
        paths + (camera.map { ["camera:\($0)"] } ?? [])
    }

    /// `inputs` with each folder replaced by the images and videos in it and its subfolders, in path order;
    /// anything else (a file, a stream, a path that does not exist, a folder with no image or video) stays
    /// as given, to be read or reported as a failure.
    static func expandingFolders(_ inputs: [String]) -> [String] {
        inputs.flatMap { input -> [String] in
            guard let files = CollectionIndexer.files(in: input, videoExtensions: videoExtensions), !files.isEmpty else { return [input] }
            return files
        }
    }

    /// The URL of a source: `camera:N` as it is, else as ``url(of:)`` makes it.
    static func source(_ input: String) -> URL {
        input.hasPrefix("camera:") ? URL(string: input)! : url(of: input)
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
        if url == standardInput { return "-" }
        return url.isFileURL ? url.relativePath : url.absoluteString
    }

    /// Whether an input is read frame by frame: a video, a stream or a camera.
    static func isFrames(_ url: URL) -> Bool {
        url.scheme == "camera" || isVideo(url)
    }

    /// Starts listening for Ctrl-C when any of `inputs` is read frame by frame.
    static func prepare(_ inputs: [String]) {
        if inputs.contains(where: { isFrames(source($0)) }) { Interruption.install() }
    }

    /// Where `--draw OUT` puts the annotated version of `input`: OUT itself for a single input, unless
    /// OUT is a folder (an existing one, or a path ending in `/`, made as needed); in a folder, and for
    /// several inputs, the file `names` gives it (``annotatedNames(of:)``). A path that is the input
    /// itself is refused: an annotated copy never overwrites what it annotates.
    static func annotatedURL(for input: URL, draw: String?, inputCount: Int, names: [URL: String]) throws -> URL? {
        guard let draw else { return nil }
        let output = chosenURL(for: input, draw: draw, inputCount: inputCount, name: names[input] ?? annotatedName(of: input))
        guard output.standardizedFileURL.resolvingSymlinksInPath() != input.standardizedFileURL.resolvingSymlinksInPath() else {
            throw CLIError.wouldOverwriteInput(output.path)
        }
        return output
    }

    /// The file names of the inputs' annotated copies in a `--draw` folder: each input's name without its
    /// extension, with `.png` for an image and `.mp4` for a video; where inputs share a name (IMG_0001.JPG
    /// in two of a camera's folders, or beside its IMG_0001.HEIC), the second gets `-2`, the third `-3`, in
    /// the order of the inputs, so that no copy overwrites another's.
    static func annotatedNames(of sources: [String]) -> [URL: String] {
        var taken: Set<String> = []
        var names: [URL: String] = [:]
        for url in sources.map(source) where names[url] == nil {
            let plain = annotatedName(of: url)
            let stem = (plain as NSString).deletingPathExtension
            let suffix = "." + (plain as NSString).pathExtension
            var name = plain
            var number = 1
            while taken.contains(name) {
                number += 1
                name = "\(stem)-\(number)\(suffix)"
            }
            taken.insert(name)
            names[url] = name
        }
        return names
    }

    /// The plain name of `input`'s annotated copy: its name without the extension (a stream's host),
    /// with `.png` for an image and `.mp4` for a video.
    private static func annotatedName(of input: URL) -> String {
        let stem = isStream(input) ? (input.host ?? "stream") : input.deletingPathExtension().lastPathComponent
        return stem + (isVideo(input) ? ".mp4" : ".png")
    }

    private static func chosenURL(for input: URL, draw: String, inputCount: Int, name: String) -> URL {
        var isFolder: ObjCBool = false
        let namesFolder = draw.hasSuffix("/") || (FileManager.default.fileExists(atPath: draw, isDirectory: &isFolder) && isFolder.boolValue)
        guard inputCount > 1 || namesFolder else { return URL(fileURLWithPath: draw) }
        try? FileManager.default.createDirectory(atPath: draw, withIntermediateDirectories: true)
        return URL(fileURLWithPath: draw).appendingPathComponent(name)
    }
}

/// A command-line mistake found while processing an input.
enum CLIError: Error, LocalizedError {
    /// `--draw` (or `--mask`, `--correct`) names the input file itself.
    case wouldOverwriteInput(String)
    /// A folder given as input holds no image or video at any depth.
    case folderWithoutMedia(String)
    /// A command that reads images alone (`info`, `similar`, named here) was given a video.
    case videoForImageCommand(command: String)

    var errorDescription: String? {
        switch self {
        case .wouldOverwriteInput(let path): "the annotated copy would overwrite its input \(path); name another file or a folder"
        case .folderWithoutMedia(let path): "nothing to read in folder \(path): no image or video in it or its subfolders"
        case .videoForImageCommand(let command):
            "it is a video; \(command) reads images (the task commands, such as faces, read a video frame by frame)"
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
                try body(source(input))
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
        ProgressBar.clear()
        let message = explanation(of: error)
        if json { try JSONLines.print(ErrorReport(file: input, error: message)) }
        Diagnostics.note("\(input): \(message)")
    }

    /// What is said of `error` beside the input it concerns, which is named already: a video that cannot be
    /// read without its path again, as a photo's error.
    static func explanation(of error: any Error) -> String {
        (error as? VideoError)?.description(namingVideo: false) ?? error.localizedDescription
    }
}

/// Ctrl-C (SIGINT) or SIGTERM while frames are read: the loops stop after the frame in hand, the output
/// is flushed and the command ends normally.
enum Interruption {
    private static let requested = Atomic<Int32>(0)

    /// Whether a stop was asked for.
    static var isRequested: Bool { requested.load(ordering: .relaxed) != 0 }

    /// The exit status of a command that stopped before its end because of the signal: 128 + its number,
    /// as a shell reports a command the signal ended (130 for Ctrl-C).
    static var exitCode: ExitCode { ExitCode(128 + requested.load(ordering: .relaxed)) }

    /// From now on, SIGINT and SIGTERM ask the frame loops to stop instead of killing the process. The
    /// signals are unblocked too: a process started by another may inherit them blocked.
    static func install() {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signalNumber in [SIGINT, SIGTERM] {
            sigaddset(&signals, signalNumber)
            // The handler only stores a flag, which is safe inside a signal handler.
            signal(signalNumber) { number in Interruption.requested.store(number, ordering: .relaxed) }
        }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Flushes what `print` buffered.
    static func flush() {
        fflush(nil)
    }
}
