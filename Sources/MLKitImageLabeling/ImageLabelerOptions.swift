@_exported import MLKitImageLabelingCommon
import SwiftVisionTasks

/// Options of ML Kit's base image labeler, as ML Kit's `ImageLabelerOptions`: the model zoo's
/// EfficientNet-Lite0 ImageNet classifier (1000 classes).
public final class ImageLabelerOptions: CommonImageLabelerOptions {
    /// General labels ("Dog", "Pet", "Vehicle"), as ML Kit's base labeler gives, instead of ImageNet's
    /// fine classes ("German shepherd"). A general label's confidence is the sum of the softmax
    /// probabilities of the ImageNet classes under it in WordNet (``GeneralLabels``).
    public var shouldUseGeneralLabels: Bool {
        get { usesGeneralLabels }
        set { usesGeneralLabels = newValue }
    }

    /// The base model, with ML Kit's defaults.
    public init() {
        super.init(source: .installed(LabelsTask.baseModelName))
    }
}
