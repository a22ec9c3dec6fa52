@_exported import MLKitObjectDetectionCommon

/// ML Kit's name for the options of a detector with a custom classifier: `CustomObjectDetectorOptions(localModel:)`.
public typealias CustomObjectDetectorOptions = ObjectDetectorOptions
