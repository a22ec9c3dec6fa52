import Foundation
import SwiftVisionRuntime

/// Where a remote model is hosted, as ML Kit's `RemoteModelSource`: the base of ``FirebaseModelSource``.
/// Immutable, so it is safe to share.
public class RemoteModelSource: @unchecked Sendable {
    /// The model this source describes.
    let model: RemoteModel

    init(model: RemoteModel) {
        self.model = model
    }
}

/// A model that the model host serves by name, as ML Kit's `FirebaseModelSource`. On Linux the host is
/// not Firebase but the one ``ModelManager/modelHost`` names: `SWIFTVISION_MODEL_HOST` (with the token
/// in `SWIFTVISION_MODEL_TOKEN`) unless set in code; `swiftvision serve --models DIR` is such a host.
public final class FirebaseModelSource: RemoteModelSource, @unchecked Sendable {
    /// The model the host serves as `name` (`DIR/NAME.tflite` of `swiftvision serve --models DIR`):
    /// letters, digits, `.`, `_` and `-`.
    public init(name: String) {
        super.init(model: RemoteModel(name: name))
    }
}

extension RemoteModel {
    /// The model that `remoteModelSource` describes, as ML Kit's `CustomRemoteModel(remoteModelSource:)`.
    public init(remoteModelSource: RemoteModelSource) {
        self = remoteModelSource.model
    }
}

extension ModelManager {
    /// Deletes the downloaded file of `remoteModel`, as ML Kit's `deleteDownloadedModel(_:completion:)`;
    /// `completion` gets nil, or the ML Kit `NSError` of why it could not (for instance, the model is not
    /// downloaded), on the main queue.
    public func deleteDownloadedModel(_ remoteModel: RemoteModel, completion: @escaping @Sendable ((any Error)?) -> Void) {
        let outcome: (any Error)?
        do {
            try deleteDownloadedModel(remoteModel)
            outcome = nil
        } catch {
            outcome = NSError.mlKit(error)
        }
        DispatchQueue.main.async { completion(outcome) }
    }
}
