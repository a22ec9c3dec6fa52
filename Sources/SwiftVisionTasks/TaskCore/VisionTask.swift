import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// A computer-vision task: an engine configured by Codable options that turns an image into one
/// Codable output. Tasks are wiring over their engines; a ``TaskRunner`` runs them in any
/// ``RunningMode``, and the ``TaskRegistry`` finds them by name.
///
/// A task is immutable once made and safe to share; what a video carries from frame to frame
/// (tracks) lives in its ``StreamState``, which the runner keeps for each stream.
public protocol VisionTask: Sendable {
    /// The task's settings. The Codable keys are the names the command line and the service use.
    associatedtype Options: Codable & Hashable & Sendable
    /// What the task finds in one image. Its JSON encoding is the command line's `--json` line.
    associatedtype Output: Codable & Sendable
    /// What a stream of frames carries from one frame to the next; `Void` for tasks without state.
    associatedtype StreamState: Sendable = Void

    /// The task's name, models and whether it follows objects through video.
    static var descriptor: TaskDescriptor { get }
    /// The options a task gets when none are given.
    static var defaultOptions: Options { get }

    /// The options the task was made with.
    var options: Options { get }

    /// Makes the task, loading its models from `store`.
    init(options: Options, store: ModelStore) throws

    /// The state of a new stream, before its first frame.
    func makeStreamState() throws -> StreamState

    /// The output for one image on its own.
    func output(for image: VisionImage) throws -> Output

    /// The output for the next frame of a stream, updating the stream's `state`.
    func output(forFrame image: VisionImage, state: inout StreamState) throws -> Output
}

extension VisionTask where StreamState == Void {
    /// Tasks without state have nothing to make.
    public func makeStreamState() {}

    /// Tasks without state treat each frame as an image on its own.
    public func output(forFrame image: VisionImage, state: inout Void) throws -> Output {
        try output(for: image)
    }
}

extension VisionTask {
    /// Makes the task with models from the shared ``ModelStore``.
    public init(options: Options = Self.defaultOptions) throws {
        try self.init(options: options, store: .shared)
    }
}
