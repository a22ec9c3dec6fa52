import Foundation
import SwiftVisionCore

/// The model file a task runs: one installed by set-up, a local model, or a downloaded remote model.
package enum ModelSource: Sendable, Hashable {
    /// A model installed into the cache by set-up, by file name.
    case installed(String)
    case local(LocalModel)
    case remote(RemoteModel, ModelManager)

    /// The file to load; throws when it is not there.
    package func fileURL() throws -> URL {
        switch self {
        case .installed(let name):
            return SwiftVisionCache.current.model(named: name)
        case .local(let model):
            guard FileManager.default.fileExists(atPath: model.path) else {
                throw ModelManagerError.fileNotFound(path: model.path)
            }
            return model.url
        case .remote(let model, let manager):
            guard let downloaded = manager.downloadedModel(for: model) else {
                throw ModelManagerError.notDownloaded(name: model.name)
            }
            return downloaded.url
        }
    }
}
