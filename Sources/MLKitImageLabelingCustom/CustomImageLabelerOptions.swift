@_exported import MLKitImageLabelingCommon
import SwiftVisionRuntime

/// Options of a labeler with a custom `.tflite` classifier, as ML Kit's `CustomImageLabelerOptions`; its
/// labels and normalisation come from the model's TFLite metadata.
public final class CustomImageLabelerOptions: CommonImageLabelerOptions {
    /// The classifier in the file `localModel` names.
    public init(localModel: LocalModel) {
        super.init(source: .local(localModel))
    }

    /// A downloaded remote classifier; the labeler reports an error if it is not downloaded.
    public init(remoteModel: RemoteModel, modelManager: ModelManager = .modelManager()) {
        super.init(source: .remote(remoteModel, modelManager))
    }
}
