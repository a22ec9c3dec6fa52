import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// The model a MediaPipe task runs, as MediaPipe's `BaseOptions`: a class, so that
/// `options.baseOptions.modelAssetPath = path` works on a `let`.
public final class BaseOptions: @unchecked Sendable {
    /// The path of a `.tflite` model; nil for the task's model from the model zoo.
    public var modelAssetPath: String?

    /// Options that run the model at `modelAssetPath`, or the task's model from the model zoo when nil.
    public init(modelAssetPath: String? = nil) {
        self.modelAssetPath = modelAssetPath
    }
}
