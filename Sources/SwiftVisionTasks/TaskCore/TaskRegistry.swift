import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// The tasks by name: what the command line and the service list and run. Adding a task is one
/// engine, one adapter and one line in ``standard``.
public struct TaskRegistry: Sendable {
    /// One task of the registry.
    public struct Entry: Sendable {
        /// The task's name, title, summary and models, and what the web page needs to draw it.
        public let descriptor: TaskDescriptor
        /// The task type.
        public let type: any VisionTask.Type
        /// The default options as a JSON object: every option's name and default value.
        public let defaultOptions: Data
    }

    /// The tasks SwiftVision ships.
    public static let standard = TaskRegistry([
        FacesTask.self, ObjectsTask.self, LabelsTask.self, EmbeddingsTask.self, RectanglesTask.self, BarcodesTask.self,
        TextTask.self, TrackTask.self, SegmentTask.self, PoseTask.self, HandsTask.self,
    ])

    /// Every task, in the order given.
    public let entries: [Entry]

    /// A registry of `tasks`.
    public init(_ tasks: [any VisionTask.Type]) {
        entries = tasks.map { Self.entry(for: $0) }
    }

    /// The task called `name`, if there is one.
    public func entry(named name: String) -> Entry? {
        entries.first { $0.descriptor.name == name }
    }

    /// Every task's descriptor and default options (`options`), as one JSON array.
    public func listing() throws -> Data {
        let objects = try entries.map { entry -> [String: Any] in
            var object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(entry.descriptor)) as? [String: Any] ?? [:]
            object["options"] = try JSONSerialization.jsonObject(with: entry.defaultOptions)
            return object
        }
        return try JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    private static func entry<Job: VisionTask>(for type: Job.Type) -> Entry {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let defaults = (try? encoder.encode(Job.defaultOptions)) ?? Data("{}".utf8)
        return Entry(descriptor: Job.descriptor, type: type, defaultOptions: defaults)
    }
}
