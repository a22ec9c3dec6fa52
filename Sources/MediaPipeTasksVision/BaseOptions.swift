import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// The model a MediaPipe task runs, as MediaPipe's `BaseOptions`: a class, so that
/// `options.baseOptions.modelAssetPath = path` works on a `let`.
public final class BaseOptions: @unchecked Sendable {
    /// The path of a `.tflite` model, a `String` that is empty by default, as MediaPipe's `NSString` property.
    /// Where MediaPipe refuses an empty path, a task here runs its model from the model zoo.
    public var modelAssetPath = ""
    /// The hardware to run the model on: `.CPU`, MediaPipe's default; `.GPU` runs on the CPU too (``Delegate``).
    public var delegate: Delegate = .CPU

    /// Options that run the task's model from the model zoo, on the CPU.
    public init() {}

    /// `modelAssetPath`, or nil when it is empty: the task options' spelling of "the model from the model zoo".
    var modelPath: String? {
        modelAssetPath.isEmpty ? nil : modelAssetPath
    }
}

/// What the options of MediaPipe's tasks here share (MediaPipe's `TaskOptions`): the model, how images
/// arrive, and the threads of each inference.
public class TaskOptions: @unchecked Sendable {
    /// The model; the task's model from the model zoo when no path is set.
    public var baseOptions = BaseOptions()
    /// How images arrive.
    public var runningMode: RunningMode = .image
    /// Threads for each inference.
    public var threadCount = LiteRT.CompilationOptions.default.threadCount

    /// The task's model in image mode.
    public init() {}
}

/// What the options of the classifying tasks share, the image classifier's and the object detector's,
/// with MediaPipe's defaults: every class, score threshold 0, no lists.
public class ClassifyingTaskOptions: TaskOptions, @unchecked Sendable {
    /// The locale of the display names; the models here carry one set of names, used for every locale.
    public var displayNamesLocale = "en"
    /// Most results per image, the most confident first; −1 (MediaPipe's default) for all.
    public var maxResults = -1
    /// Lowest score to report, 0–1; see each task for what 0 means.
    public var scoreThreshold: Float = 0
    /// When not empty, only these class names are reported.
    public var categoryAllowlist: [String] = []
    /// Class names never reported; give an allowlist or a denylist, not both.
    public var categoryDenylist: [String] = []

    /// Refuses both lists at once and a `maxResults` of 0, as MediaPipe does when the task is made.
    func validate() throws {
        guard categoryAllowlist.isEmpty || categoryDenylist.isEmpty else {
            throw VisionTaskError.invalidOption("categoryAllowlist and categoryDenylist are mutually exclusive")
        }
        guard maxResults != 0 else { throw VisionTaskError.invalidOption("maxResults must be positive or -1, not 0") }
    }
}
