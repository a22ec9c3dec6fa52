@_exported import MLKitObjectDetectionCommon

/// Options of ML Kit's base object detector, as ML Kit's `ObjectDetectorOptions`: objects labelled with the
/// detector's COCO classes and ML Kit's coarse categories.
public final class ObjectDetectorOptions: CommonObjectDetectorOptions {
    /// ML Kit's defaults: a stream, the most prominent object, no classification.
    public init() {
        super.init(classifier: nil)
    }
}
