import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// What a task is, for listings (`swiftvision tasks`, the service's `GET /v1/tasks`) and for the web page,
/// which draws every task from this and its default options alone.
public struct TaskDescriptor: Sendable, Hashable, Codable {
    /// The name the command line, the registry and the service know the task by.
    public var name: String
    /// The task's name for people: the web page's menu and heading.
    public var title: String
    /// One line on what the task finds.
    public var summary: String
    /// Whether frames of a video form a stream with state (tracking IDs); otherwise each frame stands alone.
    public var tracksAcrossFrames: Bool
    /// The model files the task loads by default, as installed in the cache.
    public var models: [String]
    /// The options with a default that a form (the web page) leaves alone: lists, and outputs meant for
    /// programs rather than eyes. Options without a default (model files, threads) are never in a form.
    public var hiddenOptions: [String]
    /// The skeleton drawn over the landmarks of each result: pairs of landmark indices; empty for tasks
    /// without a skeleton.
    public var bones: [[Int]]

    /// Describes a task.
    public init(
        name: String, title: String, summary: String, tracksAcrossFrames: Bool = false, models: [String] = [],
        hiddenOptions: [String] = [], bones: [(Int, Int)] = []
    ) {
        self.name = name
        self.title = title
        self.summary = summary
        self.tracksAcrossFrames = tracksAcrossFrames
        self.models = models
        self.hiddenOptions = hiddenOptions
        self.bones = bones.map { [$0.0, $0.1] }
    }
}
