import Foundation
import SwiftVisionRuntime
import SwiftVisionTasks

/// The check of `baseOptions.modelAssetPath` for the tasks that run installed models only (the face
/// detector and the landmarkers): the task core loads those models by name from the cache, so a path
/// is accepted when it names the installed file, a byte-for-byte copy of it, or a `.task` bundle whose models
/// are the installed ones, and refused otherwise, rather than running another model than the one named.
enum InstalledModel {
    /// Throws when `path` is set and is neither the installed model `name` nor a bundle holding `bundle`'s
    /// models: ``ModelManagerError/fileNotFound(path:)`` for a missing file, MediaPipe's not-found error for a
    /// bundle without one of the files, ``VisionTaskError/invalidOption(_:key:)`` for another model; `task`
    /// names the class. Returns the checked bundle's models, by name, as read and hashed (none for a `.tflite`).
    @discardableResult
    static func check(_ path: String?, installed name: String, bundle: [BundledModel] = [], task: String) throws -> [String: Data] {
        guard let path else { return [:] }
        guard FileManager.default.fileExists(atPath: path) else { throw ModelManagerError.fileNotFound(path: path) }
        if PackedFiles.isBundle(atPath: path) { return try check(bundleAt: path, holding: bundle, installed: name, task: task) }
        let installed = SwiftVisionCache.current.model(named: name)
        guard FileManager.default.contentsEqual(atPath: path, andPath: installed.path) else {
            throw VisionTaskError.invalidOption(
                "baseOptions.modelAssetPath: \(task) runs the installed \(name) (\(installed.path)) only; \(path) is another model")
        }
        return [:]
    }

    /// Throws unless the bundle at `path` holds every model of `bundle`, each the published copy of the
    /// installed model; the errors name what the bundle holds and what to pass instead. Returns those models' bytes.
    private static func check(
        bundleAt path: String, holding bundle: [BundledModel], installed name: String, task: String
    ) throws -> [String: Data] {
        let files = PackedFiles(url: URL(fileURLWithPath: path))
        let names = try files.names()
        let contents = "\(path) is a MediaPipe .task bundle holding \(names.joined(separator: ", "))"
        let instead = "pass the path of the installed \(name), or leave modelAssetPath empty for it"
        guard !bundle.isEmpty else {
            throw VisionTaskError.invalidOption("baseOptions.modelAssetPath: \(contents); \(task) takes a .tflite model: \(instead)")
        }
        var models: [String: Data] = [:]
        for model in bundle {
            // MediaPipe's bundle reader answers a missing file with absl's NotFound.
            guard names.contains(model.name) else {
                throw NSError(
                    domain: MPPTasksErrorDomain, code: Int(TasksErrorCode.notFoundError.rawValue),
                    userInfo: [NSLocalizedDescriptionKey: "\(contents), not the \(model.name) that \(task) needs; \(instead)"])
            }
            let data = try files.contents(ofFile: model.name)
            guard let sha256 = model.sha256, PackedFiles.sha256(of: data) == sha256 else {
                let difference = model.difference.isEmpty ? "" : " (\(model.difference))"
                let runs = model.installed ?? "published copy"
                throw VisionTaskError.invalidOption(
                    "baseOptions.modelAssetPath: \(contents); its \(model.name)\(difference) is not the \(runs) that \(task) runs: \(instead)")
            }
            models[model.name] = data
        }
        return models
    }
}
