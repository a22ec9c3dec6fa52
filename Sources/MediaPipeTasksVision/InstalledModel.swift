import Foundation
import SwiftVisionRuntime
import SwiftVisionTasks

/// The check of `baseOptions.modelAssetPath` for the tasks that run installed models only (the face
/// detector and the face landmarker): the task core loads those models by name from the cache, so a path
/// is accepted when it names the installed file or a byte-for-byte copy of it, and refused otherwise,
/// rather than running another model than the one named.
enum InstalledModel {
    /// Throws when `path` is set and is not the installed model `name` (``ModelManagerError/fileNotFound(path:)``
    /// for a missing file, ``VisionTaskError/invalidOption(_:)`` for another model); `task` names the class.
    static func check(_ path: String?, installed name: String, task: String) throws {
        guard let path else { return }
        guard FileManager.default.fileExists(atPath: path) else { throw ModelManagerError.fileNotFound(path: path) }
        let installed = SwiftVisionCache.current.model(named: name)
        guard FileManager.default.contentsEqual(atPath: path, andPath: installed.path) else {
            throw VisionTaskError.invalidOption(
                "baseOptions.modelAssetPath: \(task) runs the installed \(name) (\(installed.path)) only; \(path) is another model")
        }
    }
}
