import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Why an analysis task could not run.
public enum VisionTaskError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// An option is outside its range: `reason` says why. When one option is at fault, `key` is its key in
    /// the task's options (`maxFaces`) and `reason` follows the option's name (`must be at least 1, not 0`),
    /// so that each front end can name it as its users write it (see ``description(namingOption:)``).
    case invalidOption(String, key: String? = nil)
    /// A recognition language has no installed data.
    case unsupportedLanguage(String, installed: [String], directory: String)
    /// Tesseract's library (`library`, loaded when text is first recognised) is missing or lacks a function.
    case tesseractNotInstalled(library: String, reason: String)
    /// The underlying engine (zxing-cpp, Tesseract) reported a failure.
    case engineFailed(String)
    /// The call belongs to another running mode than the runner's.
    case runningModeMismatch(required: RunningMode, current: RunningMode)
    /// Video and live-stream frames must come with increasing timestamps, as MediaPipe requires.
    case nonIncreasingTimestamp(previous: Int, current: Int)
    /// The runner was closed.
    case closed
    /// A frame arrived while the previous one was processed and was dropped (late frames are discarded).
    case frameDropped
    /// The work was stopped before it finished: its ``CancellationToken`` was cancelled or its deadline passed.
    case cancelled

    /// A one-line explanation of the error, with how to install a missing language or library.
    public var description: String { description(namingOption: { $0 }) }

    /// ``description`` with the option at fault, where one is, named `name(key)` for its key in the task's
    /// options: the command line's flag (`--max-faces` for `maxFaces`) or the name a client of the service
    /// gave it (`max-faces` or `maxFaces`).
    public func description(namingOption name: (String) -> String) -> String {
        switch self {
        case .invalidOption(let reason, let key): "invalid option: " + (key.map { "\(name($0)) \(reason)" } ?? reason)
        case .unsupportedLanguage(let language, let installed, let directory):
            "no Tesseract data for language \(language) in \(directory) (installed: "
                + (installed.isEmpty ? "none" : installed.joined(separator: ", "))
                + "); install tesseract-ocr-\(language) or set TESSDATA_PREFIX"
        case .tesseractNotInstalled(let library, let reason):
            "Tesseract 5 (\(library)) is not installed or not usable: \(reason); "
                + "install it with `apt install libtesseract5 tesseract-ocr-eng`"
        case .engineFailed(let reason): reason
        case .runningModeMismatch(let required, let current):
            "the task is not initialized with the \(required.rawValue) mode; its running mode is \(current.rawValue)"
        case .nonIncreasingTimestamp(let previous, let current):
            "input timestamp must be monotonically increasing: \(current) ms follows \(previous) ms"
        case .closed: "the task was closed"
        case .frameDropped: "the frame arrived while the previous one was processed and was dropped"
        case .cancelled: "the work was cancelled before it finished (its deadline passed or its caller left)"
        }
    }

    /// The same as ``description``.
    public var errorDescription: String? { description }

    /// Whether the caller's options are at fault (a usage error: the command line's exit status 64, the
    /// service's 400 `bad_option`): an option out of range, or a recognition language this installation
    /// lacks (the message lists those it has). Every case is listed, so a new one must be classified here.
    public var isInvalidOption: Bool {
        switch self {
        case .invalidOption, .unsupportedLanguage: true
        case .tesseractNotInstalled, .engineFailed, .runningModeMismatch, .nonIncreasingTimestamp, .closed, .frameDropped, .cancelled:
            false
        }
    }
}

extension VisionTaskError {
    /// The most inference threads an option may ask for: four per core, and at least 16, so that a
    /// mistyped or hostile value cannot start thousands of threads.
    public static let maximumThreads = max(16, 4 * ProcessInfo.processInfo.activeProcessorCount)

    /// The same error with the option at fault keyed `keys[key]` where `keys` holds its key: for a task whose
    /// options name an engine's otherwise (the rectangles task's `minSize` for the engine's `minimumSize`).
    package func renamingOption(_ keys: [String: String]) -> VisionTaskError {
        guard case .invalidOption(let reason, let key?) = self, let renamed = keys[key] else { return self }
        return .invalidOption(reason, key: renamed)
    }

    /// Checks a `threads` option: nil (the task's default) or 1…``maximumThreads``.
    static func checkThreads(_ threads: Int?) throws {
        guard let threads else { return }
        guard (1...maximumThreads).contains(threads) else {
            throw VisionTaskError.invalidOption("must lie in 1…\(maximumThreads), not \(threads)", key: "threads")
        }
    }

    /// Checks the options of a landmark task: at least one `count` of things to find (named `countName`),
    /// and the detection and presence confidences in 0…1.
    static func checkLandmarkOptions(
        count: Int, named countName: String, minDetectionConfidence: Float, minPresenceConfidence: Float
    ) throws {
        guard count > 0 else { throw VisionTaskError.invalidOption("must be at least 1, not \(count)", key: countName) }
        for (name, value) in [("minDetectionConfidence", minDetectionConfidence), ("minPresenceConfidence", minPresenceConfidence)] {
            guard (0...1).contains(value) else { throw VisionTaskError.invalidOption("must lie in 0…1, not \(value)", key: name) }
        }
    }
}
